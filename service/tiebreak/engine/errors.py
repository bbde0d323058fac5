"""The engine's own exceptions; the web layer maps them to problem+json."""

from __future__ import annotations

from dataclasses import dataclass

# A location inside the submitted tournament, e.g. ("players", 3, "results", 2, "opponent").
Path = tuple[str | int, ...]


def format_path(path: Path, root: str = "") -> str:
    """Render a path as `tournament.players[3].results[2].opponent` (root "tournament")."""
    text = root
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text


@dataclass(frozen=True, slots=True)
class Issue:
    """One problem found in the input, with where it is."""

    path: Path
    message: str


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
