"""The engine's own exceptions; the web layer maps them to problem+json."""

from __future__ import annotations

from ..texts.message import Issue, Path, format_path

__all__ = [
    "InconsistentCrosstable",
    "InvalidRequest",
    "Issue",
    "Path",
    "TiebreakError",
    "UnknownTiebreak",
    "format_path",
]


class TiebreakError(Exception):
    """Base class of the engine's errors."""


class InconsistentCrosstable(TiebreakError):
    """The crosstable contradicts itself (A played B but B did not play A)."""

    def __init__(self, issues: list[Issue]):
        self.issues = issues
        super().__init__("; ".join(f"{format_path(i.path, 'tournament')}: {i.message}" for i in issues[:5]))


class InvalidRequest(TiebreakError):
    """Input that is well formed but cannot be computed (unknown code, bad round)."""

    def __init__(self, issues: list[Issue]):
        self.issues = issues
        super().__init__("; ".join(i.message for i in issues[:5]))


class UnknownTiebreak(InvalidRequest):
    """A rule code that the registry does not know, or one the rule set cannot use."""
