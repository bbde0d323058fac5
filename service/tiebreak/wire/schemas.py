"""The wire format of API v1: msgspec structs for every request and response.

Shape errors (wrong types, out-of-range numbers, unknown fields) are caught here and
become 400s: the OpenAPI document is generated from these structs, so a 400 is always
one the document predicts. A body of the right shape that cannot be computed (a
crosstable that contradicts itself, a rule unknown under the rule set) is the engine's
to find, a 422. Every field carries its description (`doc`), which is what the OpenAPI
document and the docs pages show.
"""

from __future__ import annotations

import datetime
from typing import Annotated, Any, ClassVar, Literal

import msgspec
from msgspec import Meta

from . import teams as schemas_teams

# Re-exported: the other wire modules name them `s.Strict`, `s.Points`, ...
from .base import AFTER_ROUND_DOC as AFTER_ROUND_DOC
from .base import EXPLAIN_DOC as EXPLAIN_DOC
from .base import REGULATIONS_DOC as REGULATIONS_DOC
from .base import TIEBREAKS_DOC as TIEBREAKS_DOC
from .base import SEED_DOC as SEED_DOC
from .base import SEED_OUT_DOC as SEED_OUT_DOC
from .base import UNRATED_DOC as UNRATED_DOC
from .base import AppliedRegulations as AppliedRegulations
from .base import ColorName as ColorName
from .base import Out as Out
from .base import PlayerId as PlayerId
from .base import Points as Points
from .base import PresetName as PresetName
from .base import Rating as Rating
from .base import Seed as Seed
from .base import RegulationsName as RegulationsName
from .base import ResultName as ResultName
from .base import RoundNumber as RoundNumber
from .base import ShortText as ShortText
from .base import Strict as Strict
from .base import SystemName as SystemName
from .base import TrfText as TrfText
from .base import doc as doc
from .limits import LIMITS
from .rules import AtMostOne, ExactlyOne, ExcludesWhen


class Scoring(Strict, frozen=True):
    """Points per result; every rule that uses 'points for a draw' uses `draw`.

    What is not given follows `win` and `draw` as TRF record 162 does: forfeit win,
    full-point bye and pairing-allocated bye score a win; a half-point bye a draw. A zero-point
    bye, forfeit loss and absence score 0 unless given, whatever `loss` is (TRF-26 162 gives
    `A` its own default). `win`, `draw`, `loss` default to 1, 0.5, 0. The response's `scoring`
    echoes every value used."""

    win: Annotated[Points | None, doc("A game won over the board (default 1)")] = None
    draw: Annotated[
        Points | None, doc("A game drawn (default 0.5); also what the rules count as a draw (16.3, 16.4)")
    ] = None
    loss: Annotated[Points | None, doc("A game lost over the board (default 0)")] = None
    forfeit_win: Annotated[Points | None, doc("A game won by forfeit (default: `win`)")] = None
    forfeit_loss: Annotated[Points | None, doc("A game lost by forfeit (default 0, not `loss`)")] = None
    pairing_bye: Annotated[Points | None, doc("The pairing-allocated bye, PAB (default: `win`)")] = None
    full_bye: Annotated[Points | None, doc("A full-point bye the player asked for (default: `win`)")] = None
    half_bye: Annotated[Points | None, doc("A half-point bye the player asked for (default: `draw`)")] = None
    zero_bye: Annotated[Points | None, doc("A zero-point bye the player asked for (default 0, not `loss`)")] = None
    absent: Annotated[Points | None, doc("A round without a result: not paired, withdrawn (default 0, not `loss`)")] = (
        None
    )


class RoundResult(Strict, gc=False, frozen=True):  # gc=False: scalars only, no cycle; a large body decodes faster
    """One round of one player: a game (with `opponent`) or an unplayed round (without)."""

    round: Annotated[RoundNumber, doc("The round, from 1")]
    result: Annotated[
        ResultName,
        doc(
            "What the round gave: `win` `draw` `loss` over the board, `forfeit_win` `forfeit_loss`, "
            "`pairing_bye`, `full_bye` `half_bye` `zero_bye` (asked for), `absent`"
        ),
    ]
    opponent: Annotated[
        PlayerId | None,
        doc("The opponent's start number; with a forfeit, the scheduled opponent; none for byes and absences"),
    ] = None
    color: Annotated[ColorName | None, doc("The player's colour: `w` or `b`")] = None
    points: Annotated[
        Points | None,
        doc("Points instead of the scoring's, for an arbiter's decision (0-0, ½-0); needed on both sides of the game"),
    ] = None
    rated: Annotated[bool, doc("False for a game played but not rated (TRF W/D/L); changes no tie-break")] = True


FideId = Annotated[int, Meta(ge=1, le=99_999_999_999, description="FIDE ID (TRF columns 58-68); not the start number")]
Federation = Annotated[
    str, Meta(min_length=1, max_length=3, examples=["NOR"], description="Federation code (TRF columns 54-56)")
]
Title = Annotated[
    str, Meta(min_length=1, max_length=3, examples=["GM"], description="Title: GM IM WGM FM WIM CM WFM WCM")
]
SexName = Literal["m", "f"]
BirthDate = Annotated[
    str,
    Meta(
        pattern=r"^[0-9]{4}(-[0-9]{2}-[0-9]{2})?$",
        examples=["2008-04-02"],
        description="YYYY-MM-DD, or YYYY when only the year is known",
    ),
]
PlayerKey = Annotated[
    str,
    Meta(
        min_length=1,
        max_length=100,
        examples=["3f2b9c1e-6a7d-4e0b-9d1f-2c8a5b7e4f10"],
        description="The client's own identifier (e.g. a UUID), echoed in every row and "
        "breakdown that names the player; unique in the tournament",
    ),
]


class RatingChange(Strict, gc=False, frozen=True):
    """Ratings in force from a round on (a long event: a rating list published meanwhile)."""

    from_round: Annotated[RoundNumber, doc("The first round these ratings are in force")]
    rating: Annotated[Rating | None, doc("The FIDE rating from that round on; absent: unchanged")] = None
    national_rating: Annotated[Rating | None, doc("The national rating from that round on; absent: unchanged")] = None


class Player(Strict, gc=False, frozen=True):  # gc=False: decoded from JSON, it cannot be part of a cycle
    """A player: start number, name, rating, the results round by round, and the identity
    fields the standings do not use but echo in the rows (written to TRF, except `key`)."""

    id: Annotated[PlayerId, doc("The start number (pairing number), unique in the tournament")]
    name: Annotated[ShortText, doc("The name as it should appear in the standings")] = ""
    rating: Annotated[Rating | None, doc("The rating used by the rating-based rules; 0 or null: unrated")] = None
    results: Annotated[
        list[RoundResult],
        Meta(max_length=LIMITS.max_rounds),
        doc("The player's rounds, in any order; a round not listed is `absent`"),
    ] = []
    fide_id: Annotated[FideId | None, doc("FIDE ID (TRF columns 58-68); not the start number")] = None
    federation: Annotated[Federation | None, doc("Federation code (TRF columns 54-56)")] = None
    title: Annotated[Title | None, doc("Title: GM IM WGM FM WIM CM WFM WCM")] = None
    sex: Annotated[SexName | None, doc("`m` or `f`")] = None
    birth_date: Annotated[BirthDate | None, doc("YYYY-MM-DD, or YYYY when only the year is known")] = None
    key: Annotated[
        PlayerKey | None,
        doc(
            "The client's own identifier (e.g. a UUID), echoed in every row and breakdown that names the player; "
            "unique in the tournament"
        ),
    ] = None
    national_rating: Annotated[
        Rating | None, doc("The national rating (TRF-26 NRS record); read when `ratings.source` names it")
    ] = None
    estimated_rating: Annotated[
        Rating | None, doc('An unrated player\'s rating as the arbiter estimates it (`ratings.unrated: "estimated"`)')
    ] = None
    rating_history: Annotated[
        list[RatingChange],
        Meta(max_length=LIMITS.max_rounds),
        doc("Ratings in force from later rounds on; read with `ratings.per_round`"),
    ] = []
    expelled_after_round: Annotated[
        Annotated[int, Meta(ge=0, le=LIMITS.max_rounds)] | None,
        doc(
            "Expelled after this round (0: before round 1): ranked nowhere (`rank` null, `status` expelled), "
            "the others ranked as if the player had withdrawn then (C.07 16)"
        ),
    ] = None


HeaderText = Annotated[str, Meta(max_length=200)]
TrfRecordLine = Annotated[
    str, Meta(pattern=r"^[0-9A-Z]{3}( [^\x00-\x1f\x7f]*)?$", max_length=400, examples=["192 FIDE_DUTCH_2026_BAKU"])
]


class Tournament(Strict, frozen=True):
    """The crosstable: players with their results, the number of rounds and the scoring; and
    what a TRF header carries beyond the standings (written back by POST /v1/trf; docs/trf.md)."""

    players: Annotated[
        list[Player],
        Meta(min_length=1, max_length=LIMITS.max_players),
        doc("Every player; both sides of a game must agree on pairing, colour and result"),
    ]
    rounds: Annotated[RoundNumber, doc("Rounds scheduled")]
    name: Annotated[ShortText, doc("The event's name (TRF 012)")] = ""
    start_date: Annotated[
        datetime.date | None, doc("First day (YYYY-MM-DD, TRF 042); decides the FIDE edition under `regulations: auto`")
    ] = None
    system: Annotated[
        SystemName | None, doc("`swiss` or `round_robin`; inferred when absent (and `system_inferred` says so)")
    ] = None
    scoring: Annotated[Scoring | None, doc("Points per result; absent: 1-½-0 with byes as usual")] = None
    city: Annotated[HeaderText, doc("TRF 022")] = ""
    federation: Annotated[HeaderText, doc("The organising federation (TRF 032)")] = ""
    end_date: Annotated[datetime.date | None, doc("Last day (TRF 052)")] = None
    tournament_type: Annotated[HeaderText, doc('TRF 092 as written, e.g. "Individual: Swiss-System"')] = ""
    chief_arbiter: Annotated[HeaderText, doc("TRF 102")] = ""
    deputy_arbiters: Annotated[list[HeaderText], Meta(max_length=20), doc("TRF 112, one per entry")] = []
    time_control: Annotated[HeaderText, doc("TRF 122")] = ""
    round_dates: Annotated[
        list[datetime.date], Meta(max_length=LIMITS.max_rounds), doc("The dates of the rounds (TRF 132)")
    ] = []
    initial_colour: Annotated[ColorName | None, doc("The colour of the first player in round 1 (TRF 152)")] = None
    trf_records: Annotated[list[TrfRecordLine], Meta(max_length=1000), doc("Other header records, verbatim")] = []


class Modifiers(Strict, frozen=True):
    """A rule's modifiers (C.07 14-16): cuts, medians, the Koya limit, forfeits counted as played."""

    cut: Annotated[int, Meta(ge=0, le=10), doc("Cut-n: the n least significant contributions dropped")] = 0
    median: Annotated[int, Meta(ge=0, le=10), doc("Median-n: the n lowest and the n highest dropped")] = 0
    limit: Annotated[
        Annotated[int, Meta(ge=0, le=100)] | None, doc("The Koya limit in percent of the maximum score (default 50)")
    ] = None
    forfeits_played: Annotated[bool, doc("P: forfeits count as games played (not cut first)")] = False


class RuleObject(Strict, frozen=True):
    """The object form of a rule: a code (the same shape as `tiebreaks[]` in the response), or a
    Swiss-Manager tie-break number with its parameters (SPEC 3.13, docs/interop.md)."""

    schema_rules: ClassVar = (
        ExactlyOne(
            ("code", "swiss_manager"),
            excludes={"code": ("parameters",), "swiss_manager": ("modifiers",)},
        ),
    )

    code: Annotated[str, Meta(min_length=1, max_length=40), doc("A code of GET /v1/tiebreaks, or an alias")] | None = (
        None
    )
    modifiers: Annotated[Modifiers | None, doc("Cut, median, limit, forfeits played; none: the plain rule")] = None
    swiss_manager: (
        Annotated[
            int,
            Meta(ge=1, le=999),
            doc("A Swiss-Manager / Chess-Results tie-break number (its `tbNno`), instead of `code`"),
        ]
        | None
    ) = None
    parameters: (
        Annotated[
            str,
            Meta(max_length=60, examples=["0,0,1,P,-,0,1"]),
            doc("The number's comma-separated parameters in Swiss-Manager's order (its `tbN_detail`)"),
        ]
        | None
    ) = None

    def __post_init__(self) -> None:
        if (self.code is None) == (self.swiss_manager is None):
            raise ValueError("give the rule's `code` or its `swiss_manager` number (not both)")
        if self.code is not None and self.parameters is not None:
            raise ValueError("`parameters` go with `swiss_manager`; a `code` takes `modifiers`")
        if self.swiss_manager is not None and self.modifiers is not None:
            raise ValueError("`modifiers` go with `code`; a `swiss_manager` number takes `parameters`")

    @property
    def rule_text(self) -> str:
        """The rule as the string form writes it: the code, or `SM<number>:<parameters>`."""
        if self.code is not None:
            return self.code
        return f"SM{self.swiss_manager}:{self.parameters or ''}"


RuleText = Annotated[str, Meta(min_length=1, max_length=60, examples=["BH/C1"])]
RuleItems = Annotated[list[RuleText | RuleObject], Meta(max_length=LIMITS.max_rules)]
PlayerSelection = Annotated[
    PlayerId | Annotated[list[PlayerId], Meta(min_length=1, max_length=LIMITS.max_players)],
    Meta(
        description="Return only these players' rows (one start number or a list); with `top`/`offset`, "
        "after the page, in standings order"
    ),
]


RatingSourceName = Literal["fide", "national", "fide-else-national", "national-else-fide", "highest", "lowest"]


class RatingsPolicy(Strict, frozen=True):
    """Which rating every rating-based rule reads (ARO and its cuts, TPR, PTP, APRO, APPO, RTNG,
    AROUS, OPERF), and how unrated players count (C.07 10; the checklist's questions 208-216)."""

    source: Annotated[
        RatingSourceName,
        doc(
            "`fide`, `national`, `fide-else-national`, `national-else-fide` (TRF-26 172: FIDE, NRO, FIDON, NIDOF), "
            "`highest` of the FIDE, national and estimated ratings (HBFN), `lowest` of the FIDE and national "
            "ratings (LBFN; either alone when the other is missing)"
        ),
    ] = "fide"
    per_round: Annotated[
        bool, doc("Each game counts the opponent's rating in force in its round (`rating_history`); false: the first")
    ] = False
    unrated: Annotated[
        Literal["drop", "estimated"] | Rating,
        doc(
            "`drop`: rating rules left out when an unrated player takes part (C.07 10); `estimated`: each unrated "
            "player's `estimated_rating` (one without is a 422); a number: the rating every unrated player counts as"
        ),
    ] = "drop"


class Playoff(Strict, frozen=True):
    """A play-off (C.07 3) between players tied on points: their order after it, best first."""

    order: Annotated[
        list[PlayerId], Meta(min_length=2, max_length=LIMITS.max_players), doc("Start numbers, the winner first")
    ]


class TiebreakChange(Strict, frozen=True):
    """The rule list was changed after the start (C.07 4.1.1 asks for it to be published before)."""

    from_round: Annotated[RoundNumber, doc("The round from which the list of `tiebreaks` applies")]
    previous: Annotated[RuleItems, doc("The list before the change")]


ManualValue = Annotated[float, Meta(ge=-1e9, le=1e9, description="A value of rule MAN; at most two decimals")]
# JSON object keys are strings: a start number written as one
ManualKey = Annotated[str, Meta(pattern=r"^[1-9][0-9]{0,8}$", examples=["7"], description="A start number")]
RATINGS_DOC = "Which rating the rating-based rules read and how unrated players count (SPEC 3.12)"
PLAYOFFS_DOC = "Play-offs between tied players (C.07 3), applied before the tie-breaks; `decided_by` says `playoff`"
MANUAL_DOC = "The values of rule MAN by start number (an arbiter's or external tie-break), higher is better"
CHANGES_DOC = "The rule list changed after the start: warned (`tiebreaks-changed`, C.07 4.1.1) and echoed"


# The schema rules of a standings-like body (this one and the progression's); `check_event_and_rules`
# checks them when it is decoded.
EVENT_AND_RULES = (
    ExactlyOne(
        ("tournament", "trf", "team_tournament"),
        titles={"tournament": "A JSON tournament", "trf": "TRF text", "team_tournament": "A team event"},
    ),
    AtMostOne(("tiebreaks", "preset")),
    ExcludesWhen("participants", "players", "team_tournament"),
)


class StandingsRequest(Strict, frozen=True):
    """A tournament (JSON, TRF or a team event) and the rules to rank it by; `offset`, `top` and
    `player` choose the rows returned (everyone is still ranked)."""

    schema_rules: ClassVar = EVENT_AND_RULES

    tournament: Annotated[Tournament | None, doc("The crosstable as JSON (or give `trf` or `team_tournament`)")] = None
    trf: Annotated[
        TrfText | None,
        doc(
            "FIDE TRF-16/TRF-26 text instead of `tournament`; its record 202 gives the rules when neither "
            "`tiebreaks` nor `preset` is given; a TRF with team records is a team event"
        ),
    ] = None
    team_tournament: Annotated[
        schemas_teams.TeamTournament | None, doc("A team event (SPEC 3.7), instead of `tournament` or `trf`")
    ] = None
    tiebreaks: Annotated[RuleItems | None, doc(TIEBREAKS_DOC)] = None
    preset: Annotated[PresetName | None, doc("A named rule list of GET /v1/presets, instead of `tiebreaks`")] = None
    regulations: Annotated[RegulationsName, doc(REGULATIONS_DOC)] = "auto"
    after_round: Annotated[RoundNumber | None, doc(AFTER_ROUND_DOC)] = None
    unrated_rating: Annotated[Rating | None, doc(UNRATED_DOC)] = None
    seed: Annotated[Seed | None, doc(SEED_DOC)] = None
    explain: Annotated[bool, doc(EXPLAIN_DOC)] = True
    ratings: Annotated[RatingsPolicy | None, doc(RATINGS_DOC)] = None
    playoffs: Annotated[list[Playoff], Meta(max_length=LIMITS.max_players), doc(PLAYOFFS_DOC)] = []
    manual_values: Annotated[dict[ManualKey, ManualValue] | None, doc(MANUAL_DOC)] = None
    tiebreak_changes: Annotated[list[TiebreakChange], Meta(max_length=LIMITS.max_rounds), doc(CHANGES_DOC)] = []
    top: Annotated[
        Annotated[int, Meta(ge=1, le=LIMITS.max_players)] | None,
        doc("Return only N rows of the standings (from `offset`)"),
    ] = None
    offset: Annotated[
        int,
        Meta(ge=0, le=LIMITS.max_players),
        doc("Skip this many rows of the standings first: with `top`, a page (`offset` 20, `top` 20: rows 21-40)"),
    ] = 0
    player: Annotated[
        PlayerSelection | None,
        doc(
            "Return only these players' rows (one start number or a list); with `top`/`offset`, after the page, "
            "in standings order"
        ),
    ] = None
    # Who is ranked: the teams of a team event (`auto`), or, for a TRF with team records,
    # its players one by one (`players`: individual standings, e.g. for board prizes).
    participants: Annotated[
        Literal["auto", "players"],
        Meta(
            description="`auto`: teams for a team event, players otherwise; `players`: rank the players of a "
            "TRF with team records individually (its team records are skipped with a warning)"
        ),
    ] = "auto"

    def __post_init__(self) -> None:
        check_event_and_rules(self)


def check_event_and_rules(body: Any) -> None:
    """What the schema rules of a standings-like body say, checked when it is decoded: one event
    (JSON, TRF or a team event), `participants: players` only for a TRF, a rule list or a preset."""
    if (body.tournament is not None) + (body.trf is not None) + (body.team_tournament is not None) != 1:
        raise ValueError("give exactly one of `tournament`, `trf` and `team_tournament`")
    if body.participants == "players" and body.team_tournament is not None:
        raise ValueError("`participants: players` ranks the players of a TRF; a `team_tournament` ranks teams")
    if body.preset is not None and body.tiebreaks is not None:
        raise ValueError("give either `tiebreaks` or `preset`, not both")


# ---- responses ----


class ModifiersOut(Out, frozen=True):
    """A rule's modifiers, as applied."""

    cut: Annotated[int, doc("Contributions cut at the low end (Cut-n)")]
    median: Annotated[int, doc("Contributions cut at both ends (Median-n)")]
    limit: Annotated[int | None, doc("The Koya limit in percent, or null")]
    forfeits_played: Annotated[bool, doc("Forfeits counted as games played (P)")]


class TiebreakOut(Out, frozen=True):
    """One rule of the list, as the service understood it."""

    spec: Annotated[str, doc("The canonical spelling (`BH/C1`), the key of `breakdown`")]
    code: Annotated[str, doc("The rule's code")]
    name: Annotated[str, doc("The rule's name with its modifiers (`Buchholz Cut-1`)")]
    article: Annotated[str, doc("The article it implements (`C.07 8.1`, `US Chess 34E1`)")]
    modifiers: Annotated[ModifiersOut, doc("The modifiers applied")]
    lower_is_better: Annotated[bool, doc("True when a lower value ranks higher (DE places, TPN)")]
    dropped: Annotated[
        str | None, doc("Why the rule was dropped (rating-based rules with unrated players, C.07 10), or null")
    ]


# The engine builds the breakdowns in this type (tiebreak.engine.contributions.Contribution has
# the same fields, in the same order, with the same defaults), so they are encoded as they are:
# no copy. Mutable, since the engine marks cuts and the API adds `opponent_key`; no reference
# cycles, so outside the cyclic collector's watch.
class ContributionOut(msgspec.Struct, omit_defaults=True, gc=False):
    """One value a rule summed; the optional fields appear only when they say something.

    Scores and values are in points of the event's scoring. `opponent` is the player met,
    or for a forfeit and its dummy the scheduled opponent.
    """

    round: Annotated[int | None, doc("The round it comes from; null for values not tied to a round")]
    kind: Annotated[
        str,
        doc(
            "What it is: `game` (an opponent met), `forfeit` (a forfeit counted against its scheduled opponent), "
            "`dummy` (a dummy opponent for an own unplayed round, C.07 16.4), `unplayed` (an own unplayed round "
            "counted as 0), `running_score` (PS), `encounter` (DE), `rating`, `opponent_value`"
        ),
    ]
    opponent: Annotated[
        int | None,
        doc("The opponent's start number: the player met, or for a forfeit and its dummy the scheduled opponent"),
    ]
    value: Annotated[float, doc("What it adds to the rule's value (before any cut)")]
    opponent_key: Annotated[str | None, doc("The opponent's `key`, when the request gave one")] = None
    unplayed: Annotated[ResultName | None, doc("For an unplayed round: which kind")] = None
    note: Annotated[str | None, doc("How the value was found (a cap, an adjusted score), with the article")] = None
    cut: Annotated[bool, doc("True when a Cut or Median removed it; present only then")] = False
    cut_reason: Annotated[str | None, doc("Why it was the one cut (C.07 16.5)")] = None
    cut_code: Annotated[
        str | None,
        doc("Why it was cut, as a code: `vur-cut-first`, `least-significant`, `most-significant`, `dropped-lowest`, …"),
    ] = None
    opponent_score: Annotated[float | None, doc("The opponent's score at face value")] = None
    counted_score: Annotated[
        float | None,
        doc("What is counted for the opponent when it differs from the face value (C.07 16.3, US Chess 34E1)"),
    ] = None
    result: Annotated[float | None, doc("Sonneborn-Berger: the points the player scored in the round")] = None
    own_score: Annotated[float | None, doc("A dummy opponent: the player's own score (C.07 16.4)")] = None
    capped_at: Annotated[float | None, doc("A dummy opponent: the cap applied (16.4.1, 16.4.2)")] = None
    article: Annotated[str | None, doc("The article that set the value (16.3, 16.4, 16.4.1, 16.4.2)")] = None
    reason_code: Annotated[
        str | None,
        doc("How a dummy's value was found: `dummy-own-score`, `dummy-capped-at-opponent`, `dummy-capped-at-half`"),
    ] = None
    rating_source: Annotated[
        Literal["fide", "national", "estimated", "unrated"] | None,
        doc(
            "A rating rule's game, when the request's `ratings` is not the plain FIDE rating: where the rating "
            "in `value` came from (`unrated`: the number `ratings.unrated` gives an unrated player)"
        ),
    ] = None


class RuleBreakdown(msgspec.Struct, frozen=True, gc=False):
    """One rule's value for one player and the contributions it summed."""

    value: Annotated[float | None, doc("The rule's value (as in `values`); null when the rule was dropped")]
    note: Annotated[str | None, doc("How the value was found when it is not a plain sum (a mean, a place)")]
    contributions: Annotated[list[ContributionOut], doc("Every contribution, cut ones included")]
    position: Annotated[int, doc("The rule's index in `tiebreaks` (and in the row's `values`)")] = 0
    spec: Annotated[str, doc("The rule's canonical spec")] = ""
    total_before_cut: Annotated[float | None, doc("The sum of every contribution, when the rule cuts")] = None


class OpponentName(Out, omit_defaults=True, frozen=True):
    """A player a breakdown mentions, to label it."""

    id: Annotated[int, doc("The start number")]
    name: Annotated[str, doc("The player's name")]
    key: Annotated[str | None, doc("The client's key for this player, when the request gave one")] = None


class Standing(Out, omit_defaults=True, frozen=True):
    """One row; the identity fields after `opponents` appear when the request gave them."""

    rank: Annotated[
        int | None, doc("The place; players equal on points and every rule share it; null for an expelled player")
    ]
    id: Annotated[int, doc("The start number (a team's number in a team event)")]
    name: Annotated[str, doc("The player's (or team's) name")]
    points: Annotated[float, doc("The score (a team event: its primary score)")]
    values: Annotated[list[float | None], doc("The value of each rule, in the order of `tiebreaks`")]
    decided_by: Annotated[
        str | None,
        doc(
            "What separated the player from the next row: `PTS`, a rule's spec, or null when equal on everything "
            "(and for the last row)"
        ),
    ]
    breakdown: Annotated[
        dict[str, RuleBreakdown] | None,
        doc(
            "Per rule, by canonical spec (a rule listed again later is keyed `<spec>#<position + 1>`): the value "
            "and its contributions; null without `explain`"
        ),
    ]
    opponents: Annotated[
        list[OpponentName] | None,
        doc("With breakdowns: the names of the players the breakdown mentions, to label them (null without)"),
    ]
    key: Annotated[str | None, doc("The player's `key`, when the request gave one")] = None
    fide_id: Annotated[int | None, doc("The player's FIDE ID, when given")] = None
    federation: Annotated[str | None, doc("The player's federation, when given")] = None
    title: Annotated[str | None, doc("The player's title, when given")] = None
    sex: Annotated[SexName | None, doc("The player's sex, when given")] = None
    birth_date: Annotated[str | None, doc("The player's birth date, when given")] = None
    # Team events: the row is a team; `points` is its primary score, these are both scores.
    match_points: Annotated[float, Meta(description="Team events: the team's match points")] | None = None
    game_points: Annotated[float, Meta(description="Team events: the team's game points")] | None = None
    status: (
        Annotated[
            Literal["expelled"],
            Meta(description="`expelled`: ranked nowhere (`expelled_after_round`), listed after the ranked rows"),
        ]
        | None
    ) = None


class RatingsOut(Out, frozen=True):
    """The rating policy the standings were computed with."""

    source: Annotated[RatingSourceName, doc("The rating the rules read")]
    per_round: Annotated[bool, doc("Each game counted the rating in force in its round")]
    unrated: Annotated[Literal["drop", "estimated"] | int, doc("How unrated players counted")]


class TiebreakChangeOut(Out, frozen=True):
    """A change of the rule list after the start, as the request gave it."""

    from_round: Annotated[int, doc("The round from which the current list applies")]
    previous: Annotated[list[str], doc("The list before, canonical specs")]


class WarningOut(Out, frozen=True):
    """Something the client should know: the result is computed all the same."""

    code: Annotated[str, doc("A stable identifier (`rating-tiebreak-dropped`, `trf-line-ignored`, …)")]
    message: Annotated[str, doc("What happened, in English")]
    rule: Annotated[str | None, doc("The article it follows from, or null")]


class ScoringOut(Out, frozen=True):
    """Every value of the scoring the standings were computed with."""

    win: Annotated[float, doc("A game won")]
    draw: Annotated[float, doc("A game drawn")]
    loss: Annotated[float, doc("A game lost")]
    forfeit_win: Annotated[float, doc("A game won by forfeit")]
    forfeit_loss: Annotated[float, doc("A game lost by forfeit")]
    pairing_bye: Annotated[float, doc("The pairing-allocated bye")]
    full_bye: Annotated[float, doc("A full-point bye")]
    half_bye: Annotated[float, doc("A half-point bye")]
    zero_bye: Annotated[float, doc("A zero-point bye")]
    absent: Annotated[float, doc("A round without a result")]


class StandingsResponse(Out, frozen=True):
    """The ranked standings and how they were computed."""

    regulations: Annotated[AppliedRegulations, doc("The rule set applied")]
    system: Annotated[SystemName, doc("The system, given or inferred")]
    system_inferred: Annotated[bool, doc("True when `system` was inferred from the crosstable")]
    rounds: Annotated[int, doc("Rounds scheduled")]
    after_round: Annotated[
        int | None,
        doc("The last round counted, when not every round is (given, or defaulted with a warning); else null"),
    ]
    scoring: Annotated[ScoringOut, doc("Every value of the scoring used")]
    tiebreaks: Annotated[list[TiebreakOut], doc("The rules applied, in order")]
    standings: Annotated[
        list[Standing], doc("The rows, best first (only those asked for with `top`/`offset`/`player`)")
    ]
    warnings: Annotated[list[WarningOut], doc("Everything worth knowing about the input and the rules")]
    total_players: Annotated[
        int, doc("Players ranked; more than the rows returned when `top`/`offset`/`player` chose rows")
    ] = 0
    # Team events: boards per match, and the score the standings are ordered by first (MP or GP).
    team_size: Annotated[int, Meta(description="Team events: boards per match (null otherwise)")] | None = None
    primary_score: (
        Annotated[
            Literal["MP", "GP"],
            Meta(
                description="Team events: the score the standings are ordered by first, match (MP) or game points (GP)"
            ),
        ]
        | None
    ) = None
    seed: Annotated[int | None, doc(SEED_OUT_DOC)] = None
    ratings: Annotated[RatingsOut | None, doc("The rating policy used (SPEC 3.12); individual events")] = None
    tiebreak_changes: Annotated[
        list[TiebreakChangeOut] | None, doc("The changes of the rule list the request gave, when it gave any")
    ] = None


class SwissManagerNumber(Out, frozen=True):
    """A Swiss-Manager tie-break number and the parameters that make it a rule of the catalogue."""

    number: Annotated[int, doc("Its number (`tbNno`)")]
    parameters: Annotated[str, doc("Its parameters in Swiss-Manager's order (`tbN_detail`); empty: none")]


class CatalogueEntry(Out, frozen=True):
    """A rule the service computes (GET /v1/tiebreaks)."""

    code: Annotated[str, doc("The code to use in `tiebreaks`")]
    name: Annotated[str, doc("The rule's name")]
    article: Annotated[str, doc("The article it implements (`C.07 8.1`, `US Chess 34E1`)")]
    description: Annotated[str, doc("What it measures")]
    modifiers: Annotated[list[str], doc("The modifier letters it takes (C, M, L, P)")]
    regulations: Annotated[list[str], doc("The rule sets that accept the code")]
    lower_is_better: Annotated[bool, doc("True when a lower value ranks higher")]
    aliases: Annotated[list[str], doc("Spellings accepted for the plain rule (case-insensitive)")]
    rating_based: Annotated[bool, doc("Dropped when unrated players take part, unless `unrated_rating` is given")]
    trf26: Annotated[
        str | None,
        doc("The acronym TRF-26 records 202/212 write for the rule, read back as this rule; null: none (US Chess)"),
    ] = None
    # The events the code ranks: individual tournaments, team events (SPEC 2.5), or both.
    events: Annotated[
        list[Literal["individual", "team"]],
        Meta(description="The events the code ranks: individual tournaments, team events, or both"),
    ] = msgspec.field(default_factory=lambda: ["individual"])
    swiss_manager: Annotated[
        list[SwissManagerNumber],
        doc("The Swiss-Manager tie-break numbers, with their parameters, read as this rule (docs/interop.md)"),
    ] = msgspec.field(default_factory=list)


class PresetOut(Out, frozen=True):
    """A named rule list (GET /v1/presets)."""

    name: Annotated[str, doc("The name to send as `preset`")]
    origin: Annotated[str, doc("Where the list comes from")]
    description: Annotated[str, doc("What it is for")]
    regulations: Annotated[list[str], doc("The rule sets it is a list for")]
    tiebreaks: Annotated[list[str], doc("Its rules, canonical specs, in order")]
    event: Annotated[
        Literal["individual", "team"],
        Meta(description="The events the preset ranks: individual tournaments or team events"),
    ] = "individual"


class Health(Out, frozen=True):
    """The answer of the probes."""

    status: Annotated[Literal["ok", "saturated"], doc("`ok`; `saturated` when /readyz answers 503")]


class VersionInfo(Out, frozen=True):
    """What answers: the service release, the API generation and the rule sets it computes."""

    service: Annotated[
        str,
        Meta(
            description="The service release (the `Tiebreak-Version` header of every "
            "response and the `version` of every batch line)",
            examples=["0.1.0"],
        ),
    ]
    api: Annotated[Literal["v1"], Meta(description="The API generation: the path prefix of its operations")]
    regulations: Annotated[
        list[AppliedRegulations], Meta(description="The rule sets `regulations` may name (besides `auto`)")
    ]


class ProblemItem(Out, frozen=True):
    """One thing wrong with the request."""

    path: Annotated[
        str,
        doc(
            "Where: a field path (`tournament.players[3].results[2].opponent`), `trf:LINE:COLUMN`, or "
            "`header:X-API-Key`"
        ),
    ]
    message: Annotated[str, doc("What is wrong there")]


class Problem(Out, omit_defaults=True, frozen=True):
    """RFC 9457 problem details; `warnings` (an extension member) appears only when reading the
    input gave some, e.g. the TRF reader's notes beside a crosstable error."""

    type: Annotated[str, doc("`about:blank`: the status says what kind of problem it is")]
    title: Annotated[str, doc("The status's name (`Bad Request`, `Unprocessable Content`, …)")]
    status: Annotated[int, doc("The HTTP status")]
    detail: Annotated[str, doc("What went wrong, in one sentence")]
    errors: Annotated[list[ProblemItem], doc("Each problem with its place")]
    warnings: Annotated[
        list[WarningOut], doc("What reading the input noted (e.g. TRF lines skipped), when it helps explain the error")
    ] = []
