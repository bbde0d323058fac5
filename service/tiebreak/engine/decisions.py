"""What the arbiter decides beside the crosstable: which rating the rules read, play-offs, the
values of MAN, a rule list changed after the start (SPEC 3.12; C.02 checklist VCL4THP.13, questions
197-216). The engine reads these from one value; the request's fields build it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

RatingSource = Literal["fide", "national", "fide-else-national", "national-else-fide", "highest", "lowest"]
RATING_SOURCES: tuple[RatingSource, ...] = (
    "fide",
    "national",
    "fide-else-national",
    "national-else-fide",
    "highest",
    "lowest",
)


@dataclass(frozen=True, slots=True)
class RatingPolicy:
    """Which rating every rating-based rule reads.

    `source`: the checklist's FIDE / national / FIDE-else-national / national-else-FIDE / highest /
    lowest (TRF-26 record 172 names them FIDE, NRO, FIDON, NIDOF, HBFN, LBFN). `per_round`: each game counts
    the opponent's rating in force in its round. `unrated`: "drop" (C.07 10: the rating rules are
    left out), "estimated" (each unrated player's `estimated_rating`) or a rating given to every
    unrated player (0 allowed)."""

    source: RatingSource = "fide"
    per_round: bool = False
    unrated: Literal["drop", "estimated"] | int = "drop"

    @property
    def is_default(self) -> bool:
        return self.source == "fide" and not self.per_round and self.unrated == "drop"


@dataclass(frozen=True, slots=True)
class TiebreakChange:
    """The rule list was changed from this round on; `previous` is the list before."""

    from_round: int
    previous: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Decisions:
    ratings: RatingPolicy = field(default_factory=RatingPolicy)
    # C.07 3: each play-off's participants (start numbers) in the order the play-off ranked them.
    playoffs: tuple[tuple[int, ...], ...] = ()
    manual_values: Mapping[int, Fraction] | None = None  # the values of MAN, by start number
    tiebreak_changes: tuple[TiebreakChange, ...] = ()


NO_DECISIONS = Decisions()
