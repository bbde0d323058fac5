"""The prize package's one exception: input a distribution cannot use, with where it is."""

from __future__ import annotations

from dataclasses import dataclass

# A location inside the request, e.g. ("prize_groups", 1, "prizes", 0, "amount").
Path = tuple[str | int, ...]


def format_path(path: Path) -> str:
    """`prize_groups[1].prizes[0].amount`."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with the input, and where."""

    path: Path
    message: str


class PrizeInputError(ValueError):
    """The request cannot be distributed: 400 when a field is invalid, 422 when the
    standings contradict themselves (out of order, a player twice)."""

    def __init__(self, problems: list[Problem], status: int = 400):
        self.problems = problems
        self.status = status
        super().__init__("; ".join(f"{format_path(p.path)}: {p.message}" for p in problems[:5]))
