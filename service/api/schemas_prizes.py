"""The wire format of POST /v1/prizes (SPEC 3.8): msgspec structs, amounts as decimal strings.

Shape errors (a negative or non-decimal amount, an unknown field, a list past its
limit) are 400s found while decoding; what needs the whole request (an unknown
category, an amount finer than the unit, standings out of order) is checked by
service.prizes, which names the path too.
"""

from __future__ import annotations

import datetime
from typing import Annotated, Literal

from msgspec import Meta

from .limits import LIMITS
from .schemas import Out, PlayerId, Rating, ShortText, StandingsRequest, Strict, WarningOut

Amount = Annotated[str, Meta(
    pattern=r"^(0|[1-9][0-9]{0,11})(\.[0-9]{1,6})?$", examples=["150.00"],
    description="A non-negative decimal string: \"150\", \"99.50\" (never a JSON number, so never a float)")]
Fraction01 = Annotated[str, Meta(pattern=r"^(0(\.[0-9]{1,6})?|1(\.0{1,6})?)$", examples=["0.5"],
                                 description="A decimal string from 0 to 1")]
TotalPoints = Annotated[float, Meta(ge=0, le=LIMITS.max_rounds * LIMITS.max_points_per_round,
                                    description="Final points; at most two decimals")]
CategoryName = Annotated[str, Meta(min_length=1, max_length=60, examples=["u1800"])]
PrizeId = Annotated[str, Meta(min_length=1, max_length=60, examples=["1"])]
Tag = Annotated[str, Meta(min_length=1, max_length=60, examples=["junior"])]
Tags = Annotated[list[Tag], Meta(max_length=20)]
Federation = Annotated[str, Meta(min_length=1, max_length=10, examples=["ENG"])]
Sex = Literal["f", "m"]


class StandingRow(Strict, kw_only=True):
    """One row of the final standings, best first; the attributes are what categories ask about."""

    id: PlayerId
    name: ShortText = ""
    points: TotalPoints
    rank: Annotated[int, Meta(ge=1, le=LIMITS.max_players)] | None = None
    rating: Rating | None = None
    birth_date: datetime.date | None = None
    sex: Sex | None = None
    federation: Federation | None = None
    tags: Tags = []
    # The tie-break values the order came from, shown to people; not used to distribute.
    tiebreaks: Annotated[list[Annotated[str, Meta(max_length=40)] | float], Meta(max_length=LIMITS.max_rules)] = []


class PlayerInfo(Strict, kw_only=True):
    """Attributes of a player of a computed `standings_request` (its rating comes from the crosstable)."""

    id: PlayerId
    rating: Rating | None = None  # overrides the crosstable's
    birth_date: datetime.date | None = None
    sex: Sex | None = None
    federation: Federation | None = None
    tags: Tags = []


class CategoryIn(Strict, kw_only=True):
    """Who may win the category's prizes; every filter given must hold. A category with a rating
    bound leaves unrated players out unless `unrated` is "include"."""

    rating_below: Rating | None = None
    rating_at_least: Rating | None = None
    unrated: Literal["include", "exclude"] | None = None
    sex: Sex | None = None
    born_on_or_after: datetime.date | None = None
    born_before: datetime.date | None = None
    federation: Federation | None = None
    tags: Tags = []  # the player must have all of them
    tie_rule: Literal["share", "tiebreak", "lowest_rating"] = "share"


class PrizeIn(Strict, kw_only=True):
    id: PrizeId
    name: ShortText = ""
    amount: Amount  # "0" for a prize of items only
    category: CategoryName = "overall"
    items: Annotated[list[ShortText], Meta(max_length=LIMITS.max_prize_items)] = []


PrizeList = Annotated[list[PrizeIn], Meta(max_length=LIMITS.max_prizes)]


class PrizeGroupIn(Strict, kw_only=True):
    """Prizes distributed independently of the other groups (a player may win in each)."""

    id: PrizeId
    prizes: PrizeList


class Rounding(Strict, kw_only=True):
    unit: Amount = "0.01"  # the smallest amount paid: "0.01", "1", "0.05"


class PrizeRules(Strict, kw_only=True):
    sharing: Literal["pool", "hort", "none"] = "pool"
    hort_keep: Fraction01 = "0.5"
    one_cash_prize: bool = True
    identical_priority: Annotated[list[CategoryName], Meta(max_length=LIMITS.max_prize_categories + 3)] | None = None
    cap_at_untied_prize: bool = False
    currency: Annotated[str, Meta(min_length=1, max_length=10, examples=["EUR"])] | None = None
    rounding: Rounding = Rounding()


class PrizeRequest(Strict, kw_only=True):
    standings: Annotated[list[StandingRow], Meta(min_length=1, max_length=LIMITS.max_players)] | None = None
    standings_request: StandingsRequest | None = None
    players: Annotated[list[PlayerInfo], Meta(max_length=LIMITS.max_players)] | None = None
    categories: Annotated[dict[CategoryName, CategoryIn], Meta(max_length=LIMITS.max_prize_categories)] = {}
    prizes: PrizeList | None = None
    prize_groups: Annotated[list[PrizeGroupIn], Meta(min_length=1, max_length=50)] | None = None
    rules: PrizeRules = PrizeRules()

    def __post_init__(self) -> None:
        if (self.standings is None) == (self.standings_request is None):
            raise ValueError("give exactly one of `standings` and `standings_request`")
        if (self.prizes is None) == (self.prize_groups is None):
            raise ValueError("give exactly one of `prizes` and `prize_groups`")
        if self.players is not None and self.standings is not None:
            raise ValueError("`players` adds attributes to a computed `standings_request`; with `standings`, "
                             "give them in the rows")


# ---- responses ----

class PrizeShareOut(Out):
    prize: str | None  # the prize this player brought into the pool (null: shares one brought by others)
    pool: str | None  # the pool's id (null for a prize of items only)
    share: str
    shared_with: list[int]
    items: list[str]
    why: str


class PlayerPrizesOut(Out):
    id: int
    name: str
    points: float
    total: str
    items: list[str]
    prizes: list[PrizeShareOut]


class PoolOut(Out):
    id: str
    prize_group: str | None
    points: float
    players: list[int]
    prizes: list[str]
    sum: str
    method: Literal["pool", "hort", "none", "tiebreak", "lowest_rating", "class_prize"]
    note: str


class UnawardedOut(Out):
    prize: str
    prize_group: str | None
    name: str
    category: str
    amount: str
    items: list[str]
    reason: str


class ComputedStandingsOut(Out):
    """The standings a `standings_request` gave, in the order used."""

    regulations: str
    tiebreaks: list[str]
    order: list[int]


class PrizesResponse(Out):
    currency: str | None
    unit: str
    total_announced: str
    total_paid: str
    players: list[PlayerPrizesOut]  # everyone who receives money or items, in standings order
    pools: list[PoolOut]
    unawarded: list[UnawardedOut]
    warnings: list[WarningOut]
    computed_standings: ComputedStandingsOut | None
