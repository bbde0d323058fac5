"""The prize package's one exception: input a distribution cannot use, with where it is."""

from __future__ import annotations

# One thing wrong with the input, and where: the engine's Issue, defined below both packages.
from ..texts.message import Issue as Problem, Path, format_path

__all__ = ["Path", "PrizeInputError", "Problem", "format_path"]


class PrizeInputError(ValueError):
    """The request cannot be distributed: 400 when a field is invalid, 422 when the
    standings contradict themselves (out of order, a player twice)."""

    def __init__(self, problems: list[Problem], status: int = 400):
        self.problems = problems
        self.status = status
        super().__init__("; ".join(f"{format_path(p.path)}: {p.message}" for p in problems[:5]))
