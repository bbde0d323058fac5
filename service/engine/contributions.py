"""Contributions: the single values a tie-break sums, each knowing where it came from.

Every family computes its contributions first, the modifiers mark the cut ones,
and the value is the sum of the rest. The API's breakdown is this list.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import ResultKind
from .rules import RuleSpec


@dataclass(slots=True)
class Contribution:
    round: int | None
    kind: str  # game, forfeit, dummy, running_score, rating, encounter, opponent_value
    value: int  # in the rule's units (see RuleOutcome.scale)
    key: int  # significance for cuts: lower is less significant (opponent's score, rating, round)
    vur: bool = False  # a voluntary unplayed round (C.07 16.2), cut first (16.5)
    opponent: int | None = None  # the opponent's id
    unplayed: ResultKind | None = None  # for a dummy: what the round was
    note: str | None = None
    cut_reason: str | None = None

    @property
    def cut(self) -> bool:
        return self.cut_reason is not None

    def marked_cut(self, reason: str) -> "Contribution":
        """A copy marked as cut (dataclasses.replace is several times slower)."""
        return Contribution(self.round, self.kind, self.value, self.key, self.vur, self.opponent,
                            self.unplayed, self.note, reason)


@dataclass(slots=True)
class RuleOutcome:
    """One rule's values for every player (by crosstable index), with their contributions."""

    spec: RuleSpec
    values: list[int | None]
    scale: int = 1  # a value v stands for v / scale
    contributions: list[list[Contribution]] | None = None
    lower_is_better: bool = False
    dropped_reason: str | None = None
    contribution_scale: int | None = None  # when contributions use other units than the value
    notes: list[str | None] | None = None  # per player: how the value was formed (averages, places)
    # Rules computed inside tie groups (DE, RBT): the groups the rule could not separate
    # because their members did not all meet (reported as an informational warning).
    unresolved: list[list[int]] | None = None
