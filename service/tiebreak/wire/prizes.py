"""The wire format of POST /v1/prizes (SPEC 3.8): msgspec structs, amounts as decimal strings.

Shape errors (a negative or non-decimal amount, an unknown field, a list past its
limit) are 400s found while decoding; what needs the whole request (an unknown
category, an amount finer than the unit, standings out of order) is checked by
tiebreak.prizes, which names the path too.
"""

from __future__ import annotations

import datetime
from typing import Annotated, ClassVar, Literal

from msgspec import Meta

from .limits import LIMITS
from .rules import AtMostOne, ExactlyOne
from .schemas import Out, PlayerId, Rating, ShortText, StandingsRequest, Strict, WarningOut, doc

Amount = Annotated[
    str,
    Meta(
        pattern=r"^(0|[1-9][0-9]{0,11})(\.[0-9]{1,6})?$",
        examples=["150.00"],
        description='A non-negative decimal string: "150", "99.50" (never a JSON number, so never a float)',
    ),
]
Fraction01 = Annotated[
    str,
    Meta(pattern=r"^(0(\.[0-9]{1,6})?|1(\.0{1,6})?)$", examples=["0.5"], description="A decimal string from 0 to 1"),
]
TotalPoints = Annotated[
    float,
    Meta(ge=0, le=LIMITS.max_rounds * LIMITS.max_points_per_round, description="Final points; at most two decimals"),
]
CategoryName = Annotated[str, Meta(min_length=1, max_length=60, examples=["u1800"])]
PrizeId = Annotated[str, Meta(min_length=1, max_length=60, examples=["1"])]
Tag = Annotated[str, Meta(min_length=1, max_length=60, examples=["junior"])]
Tags = Annotated[list[Tag], Meta(max_length=20)]
Federation = Annotated[str, Meta(min_length=1, max_length=10, examples=["ENG"])]
Sex = Literal["f", "m"]


class StandingRow(Strict, kw_only=True, frozen=True):
    """One row of the final standings, best first; the attributes are what categories ask about."""

    id: Annotated[PlayerId, doc("The start number")]
    name: Annotated[ShortText, doc("The player's name, for the explanations")] = ""
    points: Annotated[TotalPoints, doc("Final points; the score groups share prizes")]
    rank: Annotated[
        Annotated[int, Meta(ge=1, le=LIMITS.max_players)] | None,
        doc("The place, when the client has one (shown, not used: the order of the rows is the order)"),
    ] = None
    rating: Annotated[Rating | None, doc("For rating categories; 0 or null: unrated")] = None
    birth_date: Annotated[datetime.date | None, doc("For age categories (`born_on_or_after`, `born_before`)")] = None
    sex: Annotated[Sex | None, doc("For categories with `sex`")] = None
    federation: Annotated[Federation | None, doc("For categories with `federation`")] = None
    tags: Annotated[Tags, doc("Free labels for categories with `tags` (`junior`, `club-member`)")] = []
    tiebreaks: Annotated[
        list[Annotated[str, Meta(max_length=40)] | float],
        Meta(max_length=LIMITS.max_rules),
        doc("The tie-break values the order came from, shown to people; not used to distribute"),
    ] = []


class PlayerInfo(Strict, kw_only=True, frozen=True):
    """Attributes of a player of a computed `standings_request` (its rating comes from the crosstable)."""

    id: Annotated[PlayerId, doc("The start number in the crosstable")]
    rating: Annotated[Rating | None, doc("Overrides the crosstable's rating")] = None
    birth_date: Annotated[datetime.date | None, doc("For age categories")] = None
    sex: Annotated[Sex | None, doc("For categories with `sex`")] = None
    federation: Annotated[Federation | None, doc("For categories with `federation`")] = None
    tags: Annotated[Tags, doc("Free labels for categories with `tags`")] = []


class CategoryIn(Strict, kw_only=True, frozen=True):
    """Who may win the category's prizes; every filter given must hold. A category with a rating
    bound leaves unrated players out unless `unrated` is "include"."""

    rating_below: Annotated[Rating | None, doc("Rated below this")] = None
    rating_at_least: Annotated[Rating | None, doc("Rated at least this")] = None
    unrated: Annotated[
        Literal["include", "exclude"] | None,
        doc("Whether unrated players qualify (default: excluded when there is a rating bound)"),
    ] = None
    sex: Annotated[Sex | None, doc("`f` or `m`")] = None
    born_on_or_after: Annotated[datetime.date | None, doc("Born on or after this day (juniors)")] = None
    born_before: Annotated[datetime.date | None, doc("Born before this day (seniors)")] = None
    federation: Annotated[Federation | None, doc("Of this federation")] = None
    tags: Annotated[Tags, doc("Carrying all of these tags")] = []
    tie_rule: Annotated[
        Literal["share", "tiebreak", "lowest_rating"],
        doc(
            "Players tied for the category's prizes: `share` them, or the better `tiebreak` (standings order), "
            "or the `lowest_rating` takes it"
        ),
    ] = "share"


class PrizeIn(Strict, kw_only=True, frozen=True):
    """One prize: an amount, items, or both, for a category."""

    id: Annotated[PrizeId, doc("The prize's identifier, unique in its group")]
    name: Annotated[ShortText, doc("Its name (`First`, `Best under 1800`)")] = ""
    amount: Annotated[Amount, doc('The money, a decimal string; "0" for a prize of items only')]
    category: Annotated[CategoryName, doc("The category it is for (`overall`: everyone)")] = "overall"
    items: Annotated[
        list[ShortText],
        Meta(max_length=LIMITS.max_prize_items),
        doc("Things that go with it (a trophy); they go to the player who brought the prize in"),
    ] = []


PrizeList = Annotated[list[PrizeIn], Meta(max_length=LIMITS.max_prizes)]


class PrizeGroupIn(Strict, kw_only=True, frozen=True):
    """Prizes distributed independently of the other groups (a player may win in each)."""

    id: Annotated[PrizeId, doc("The group's identifier")]
    prizes: Annotated[PrizeList, doc("The group's prizes, best first within each category")]


class Rounding(Strict, kw_only=True, frozen=True):
    """How amounts are paid."""

    unit: Annotated[Amount, doc('The smallest amount paid: "0.01", "1", "0.05"')] = "0.01"


class PrizeRules(Strict, kw_only=True, frozen=True):
    """How tied players share (SPEC 3.8)."""

    sharing: Annotated[
        Literal["pool", "hort", "none"],
        doc(
            "`pool`: a score group shares what it brought in equally; `hort`: each keeps `hort_keep` of the prize "
            "of their own place and shares the rest; `none`: paid by standings order"
        ),
    ] = "pool"
    hort_keep: Annotated[Fraction01, doc("Hort: the part of the own place's prize each keeps")] = "0.5"
    one_cash_prize: Annotated[bool, doc("At most one cash prize per player (the greatest)")] = True
    identical_priority: Annotated[
        Annotated[list[CategoryName], Meta(max_length=LIMITS.max_prize_categories + 3)] | None,
        doc("Which category's prize a player takes among identical amounts (e.g. overall, rating, other)"),
    ] = None
    cap_at_untied_prize: Annotated[
        bool, doc("No share above the prize the player would win untied (US Chess 32B option)")
    ] = False
    currency: Annotated[
        Annotated[str, Meta(min_length=1, max_length=10, examples=["EUR"])] | None, doc("Echoed, not converted")
    ] = None
    rounding: Annotated[Rounding, doc("The unit paid")] = Rounding()


class PrizeRequest(Strict, kw_only=True, frozen=True):
    """Final standings (or a standings request to compute them), the categories and the prizes."""

    schema_rules: ClassVar = (
        ExactlyOne(
            ("standings", "standings_request"),
            titles={"standings": "Final standings", "standings_request": "Standings to compute"},
        ),
        ExactlyOne(
            ("prizes", "prize_groups"),
            titles={"prizes": "One list of prizes", "prize_groups": "Independent prize groups"},
        ),
        AtMostOne(("players", "standings")),
    )

    standings: Annotated[
        Annotated[list[StandingRow], Meta(min_length=1, max_length=LIMITS.max_players)] | None,
        doc("The final standings, best first (or give `standings_request`)"),
    ] = None
    standings_request: Annotated[
        StandingsRequest | None, doc("A POST /v1/standings body: the standings are computed first")
    ] = None
    players: Annotated[
        Annotated[list[PlayerInfo], Meta(max_length=LIMITS.max_players)] | None,
        doc("With `standings_request`: the players' attributes the crosstable does not carry"),
    ] = None
    categories: Annotated[
        dict[CategoryName, CategoryIn],
        Meta(max_length=LIMITS.max_prize_categories),
        doc("The categories by name (`overall` needs no entry)"),
    ] = {}
    prizes: Annotated[PrizeList | None, doc("The prizes (or give `prize_groups`)")] = None
    prize_groups: Annotated[
        Annotated[list[PrizeGroupIn], Meta(min_length=1, max_length=50)] | None,
        doc("Prize groups distributed independently"),
    ] = None
    rules: Annotated[PrizeRules, doc("How ties share")] = PrizeRules()

    def __post_init__(self) -> None:
        if (self.standings is None) == (self.standings_request is None):
            raise ValueError("give exactly one of `standings` and `standings_request`")
        if (self.prizes is None) == (self.prize_groups is None):
            raise ValueError("give exactly one of `prizes` and `prize_groups`")
        if self.players is not None and self.standings is not None:
            raise ValueError(
                "`players` adds attributes to a computed `standings_request`; with `standings`, give them in the rows"
            )


# ---- responses ----


class PrizeShareOut(Out, frozen=True):
    """What one prize gave one player."""

    prize: Annotated[
        str | None, doc("The prize this player brought into the pool (null: shares one brought by others)")
    ]
    pool: Annotated[str | None, doc("The pool's id (null for a prize of items only)")]
    share: Annotated[str, doc("The money received from it, a decimal string")]
    shared_with: Annotated[list[int], doc("The others who share the same pool")]
    items: Annotated[list[str], doc("The items received with it")]
    why: Annotated[str, doc("How the share was found, in English")]


class PlayerPrizesOut(Out, frozen=True):
    """A player who receives money or items."""

    id: Annotated[int, doc("The start number")]
    name: Annotated[str, doc("The player's name")]
    points: Annotated[float, doc("Final points")]
    total: Annotated[str, doc("The money received in all, a decimal string")]
    items: Annotated[list[str], doc("Every item received")]
    prizes: Annotated[list[PrizeShareOut], doc("Each prize's share")]


PoolMethod = Literal["pool", "hort", "none", "tiebreak", "lowest_rating", "class_prize"]


class PoolOut(Out, frozen=True):
    """Prizes shared by one score group (or paid by one rule)."""

    id: Annotated[str, doc("The pool's identifier")]
    prize_group: Annotated[str | None, doc("The prize group, when there are groups")]
    points: Annotated[float, doc("The score of the group that shares it")]
    players: Annotated[list[int], doc("Who shares it")]
    prizes: Annotated[list[str], doc("The prizes in it")]
    sum: Annotated[str, doc("Their total, a decimal string")]
    method: Annotated[PoolMethod, doc("How it was divided")]
    note: Annotated[str, doc("How it was divided, in English")]


class UnawardedOut(Out, frozen=True):
    """A prize nobody is eligible for (never moved silently)."""

    prize: Annotated[str, doc("The prize's id")]
    prize_group: Annotated[str | None, doc("Its group, when there are groups")]
    name: Annotated[str, doc("Its name")]
    category: Annotated[str, doc("Its category")]
    amount: Annotated[str, doc("Its amount")]
    items: Annotated[list[str], doc("Its items")]
    reason: Annotated[str, doc("Why nobody could win it")]


class ComputedStandingsOut(Out, frozen=True):
    """The standings a `standings_request` gave, in the order used."""

    regulations: Annotated[str, doc("The rule set applied")]
    tiebreaks: Annotated[list[str], doc("The rules applied")]
    order: Annotated[list[int], doc("Start numbers, best first")]


class PrizesResponse(Out, frozen=True):
    """Who receives what, by pool, exactly to the unit."""

    currency: Annotated[str | None, doc("The request's currency")]
    unit: Annotated[str, doc("The smallest amount paid")]
    total_announced: Annotated[str, doc("The sum of the prizes announced")]
    total_paid: Annotated[str, doc("The sum paid (announced less what nobody could win)")]
    players: Annotated[list[PlayerPrizesOut], doc("Everyone who receives money or items, in standings order")]
    pools: Annotated[list[PoolOut], doc("Each pool and how it was divided")]
    unawarded: Annotated[list[UnawardedOut], doc("Prizes nobody is eligible for")]
    warnings: Annotated[list[WarningOut], doc("Everything worth knowing")]
    computed_standings: Annotated[ComputedStandingsOut | None, doc("With `standings_request`: the standings computed")]
