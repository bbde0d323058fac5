"""What a prize distribution is made of: the final standings, categories, prizes, rules,
and what it produces: pools, shares, unawarded prizes.

Standard library only. Amounts are `Decimal`s that are whole multiples of the
currency unit; shares are computed as exact fractions and paid to the unit.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from .errors import Path


class Sharing(enum.Enum):
    """How tied players share what their score group brings in (SPEC 2.7)."""

    POOL = "pool"  # summed and divided equally (FIDE opens, ECF congresses, US Chess 32B3)
    HORT = "hort"  # each keeps a part of their own place's prize, the rest is divided equally
    NONE = "none"  # no sharing: paid by the standings order as if the tie-breaks decided everything


class TieRule(enum.Enum):
    """What a category's prizes do when tied players bring them in."""

    SHARE = "share"  # pooled with the group's other prizes
    TIEBREAK = "tiebreak"  # paid whole to the tied player first in the standings order
    LOWEST_RATING = "lowest_rating"  # paid whole to the lowest-rated tied player (ECF rating prizes)


class Kind(enum.Enum):
    """Kinds of category, for the priority of identical prizes (US Chess 32B4)."""

    OVERALL = "overall"  # no restriction: place prizes
    RATING = "rating"  # restricted by rating only: class and "under" prizes
    OTHER = "other"  # juniors, seniors, women, federation, tags ...


@dataclass(frozen=True, slots=True)
class Entrant:
    """One row of the final standings, with what the categories may ask about."""

    id: int
    points: Decimal
    name: str = ""
    rating: int | None = None  # None: unrated
    birth_date: date | None = None
    sex: str | None = None  # "f" or "m"
    federation: str | None = None
    tags: frozenset[str] = frozenset()

    @property
    def label(self) -> str:
        return self.name or f"#{self.id}"


@dataclass(frozen=True, slots=True)
class Category:
    """Who may win a prize of this category. All filters given must hold.

    Unrated players are excluded from a category with a rating bound and admitted
    to one without, unless `unrated` says otherwise; an unknown birth date, sex or
    federation does not meet a filter on it.
    """

    name: str
    rating_below: int | None = None
    rating_at_least: int | None = None
    unrated: bool | None = None  # True: admitted, False: excluded, None: by the rating bounds
    sex: str | None = None
    born_on_or_after: date | None = None
    born_before: date | None = None
    federation: str | None = None
    tags: frozenset[str] = frozenset()
    tie_rule: TieRule = TieRule.SHARE

    @property
    def has_rating_bound(self) -> bool:
        return self.rating_below is not None or self.rating_at_least is not None

    @property
    def kind(self) -> Kind:
        others = (self.sex, self.born_on_or_after, self.born_before, self.federation)
        if any(v is not None for v in others) or self.tags or (self.unrated is False and not self.has_rating_bound):
            return Kind.OTHER
        return Kind.RATING if self.has_rating_bound else Kind.OVERALL

    @property
    def restricted(self) -> bool:
        return self.kind is not Kind.OVERALL

    def admits(self, entrant: Entrant) -> bool:
        if entrant.rating is None:
            if not (self.unrated if self.unrated is not None else not self.has_rating_bound):
                return False
        elif (self.rating_below is not None and entrant.rating >= self.rating_below) or (
            self.rating_at_least is not None and entrant.rating < self.rating_at_least
        ):
            return False
        if self.sex is not None and (entrant.sex or "").lower() != self.sex.lower():
            return False
        if self.born_on_or_after is not None and (
            entrant.birth_date is None or entrant.birth_date < self.born_on_or_after
        ):
            return False
        if self.born_before is not None and (entrant.birth_date is None or entrant.birth_date >= self.born_before):
            return False
        if self.federation is not None and (entrant.federation or "").upper() != self.federation.upper():
            return False
        return self.tags <= entrant.tags


OVERALL = Category("overall")


@dataclass(frozen=True, slots=True)
class Prize:
    """One announced prize: cash (`amount` > 0, may carry items) or items only (`amount` 0)."""

    id: str
    amount: Decimal
    category: str = "overall"
    name: str = ""
    items: tuple[str, ...] = ()
    path: Path = ()  # where the prize is in the request, for errors


@dataclass(frozen=True, slots=True)
class PrizeGroup:
    """Prizes distributed independently of other groups (a player may win in each)."""

    id: str | None
    prizes: tuple[Prize, ...]
    path: Path = ()


@dataclass(frozen=True, slots=True)
class Rules:
    sharing: Sharing = Sharing.POOL
    hort_keep: Decimal = Decimal("0.5")
    one_cash_prize: bool = True
    identical_priority: tuple[str, ...] = ("overall", "rating", "other")
    cap_at_untied_prize: bool = False
    currency: str | None = None
    unit: Decimal = Decimal("0.01")


@dataclass(frozen=True, slots=True)
class PrizeRequest:
    standings: tuple[Entrant, ...]  # final order, best first
    categories: dict[str, Category]
    groups: tuple[PrizeGroup, ...]
    rules: Rules = Rules()
    standings_path: Path = ("standings",)


# ---- what a distribution produces ----


@dataclass(frozen=True, slots=True)
class Share:
    """What one player receives from one pool (or one non-cash prize)."""

    player: int
    prize: str | None  # the prize this player brought into the pool, if any
    pool: str | None  # None for a non-cash prize
    amount: Decimal
    shared_with: tuple[int, ...]
    why: str
    items: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Pool:
    """Prizes paid together to some players of one score group."""

    id: str
    prize_group: str | None
    points: Decimal
    players: tuple[int, ...]
    prizes: tuple[str, ...]
    total: Decimal
    method: str  # pool, hort, none, tiebreak, lowest_rating, class_prize
    note: str


@dataclass(frozen=True, slots=True)
class Unawarded:
    prize: Prize
    prize_group: str | None
    reason: str


@dataclass(frozen=True, slots=True)
class Notice:
    code: str
    message: str


@dataclass(slots=True)
class PlayerAward:
    entrant: Entrant
    total: Decimal = Decimal(0)
    items: list[str] = field(default_factory=list)
    shares: list[Share] = field(default_factory=list)


@dataclass(slots=True)
class Distribution:
    rules: Rules
    total_announced: Decimal
    total_paid: Decimal
    awards: list[PlayerAward]  # players who receive something, in standings order
    pools: list[Pool]
    unawarded: list[Unawarded]
    warnings: list[Notice]
