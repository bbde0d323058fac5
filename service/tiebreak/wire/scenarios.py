"""Wire structs of `POST /v1/scenarios` (SPEC 3.11): before the last round(s), which places each
player can still reach, which are certain, and what it takes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar, Literal

from msgspec import Meta

from . import schemas as s
from .rules import AtMostOne, ExactlyOne, Schema

doc = s.doc

GameResult = Literal["white", "draw", "black"]
ByeKind = Literal["pairing_bye", "full_bye", "half_bye", "zero_bye", "absent"]
MAX_PAIRINGS = 2000
MAX_PLACES = 100
# The largest integer a JSON client reads exactly (IEEE doubles: JavaScript's Number.MAX_SAFE_INTEGER,
# I-JSON, RFC 7493); `outcomes` past it is null (decision 0267).
SAFE_INTEGER = 2**53 - 1


def outcomes_count(games: int) -> int | None:
    """3^games, or None when no JSON client would read it exactly."""
    count = 3**games
    return count if count <= SAFE_INTEGER else None


@dataclass(frozen=True)
class GameOrBye:
    """A pairing gives `white` and `black` (a game) or `player` and `bye` (a bye), never both.
    Written as `not` clauses, as the other cross-field rules are (wire/rules.py, decision 0135)."""

    def schema(self, properties: dict[str, Schema], defaults: dict[str, object]) -> Schema:
        null: Schema = {"type": "null"}
        given: Schema = {"not": null}

        def one_without_the_other(name: str, other: str) -> Schema:
            return {"not": {"required": [name], "properties": {name: given, other: null}}}

        clauses: list[Schema] = [
            {"description": "A game (`white`, `black`) or a bye (`player`, `bye`)"},
            {"not": {"properties": {"white": null, "player": null}}},  # one of the two
            {"not": {"required": ["white", "player"], "properties": {"white": given, "player": given}}},
        ]
        for name, other in (("white", "black"), ("black", "white"), ("player", "bye"), ("bye", "player")):
            clauses.append(one_without_the_other(name, other))
        return {"allOf": clauses}


class Pairing(s.Strict, frozen=True):
    """A game still to be played (`white`, `black`), or a player's bye in that round (`player`, `bye`)."""

    schema_rules: ClassVar = (GameOrBye(),)

    round: Annotated[s.RoundNumber, doc("The round still to be played")]
    white: Annotated[s.PlayerId | None, doc("White's start number (a game)")] = None
    black: Annotated[s.PlayerId | None, doc("Black's start number (a game)")] = None
    player: Annotated[s.PlayerId | None, doc("The start number of the player with a bye")] = None
    bye: Annotated[ByeKind | None, doc("The bye `player` has in this round")] = None

    def __post_init__(self) -> None:
        game = self.white is not None and self.black is not None
        bye = self.player is not None and self.bye is not None
        if game == bye or (game and (self.player is not None or self.bye is not None)):
            raise ValueError("a pairing is a game (`white`, `black`) or a bye (`player`, `bye`)")


class Assumed(s.Strict, frozen=True):
    """The result the client fixes for one of the games of `pairings`."""

    round: Annotated[s.RoundNumber, doc("The game's round, as in `pairings`")]
    white: Annotated[s.PlayerId, doc("White's start number, as in `pairings`")]
    black: Annotated[s.PlayerId, doc("Black's start number, as in `pairings`")]
    result: Annotated[GameResult, doc("`white` wins, `draw`, or `black` wins")]


class ScenariosRequest(s.Strict, kw_only=True, frozen=True):
    """The crosstable so far, the rules, the pairings still to be played and the places that matter."""

    schema_rules: ClassVar = (
        ExactlyOne(("tournament", "trf"), titles={"tournament": "A JSON tournament", "trf": "TRF text"}),
        AtMostOne(("tiebreaks", "preset")),
    )

    tournament: Annotated[s.Tournament | None, doc("The crosstable so far as JSON (or give `trf`)")] = None
    trf: Annotated[s.TrfText | None, doc("The crosstable so far as FIDE TRF text, instead of `tournament`")] = None
    tiebreaks: Annotated[s.RuleItems | None, doc(s.TIEBREAKS_DOC)] = None
    preset: Annotated[s.PresetName | None, doc("A named rule list of GET /v1/presets, instead of `tiebreaks`")] = None
    regulations: Annotated[s.RegulationsName, doc(s.REGULATIONS_DOC)] = "auto"
    unrated_rating: Annotated[s.Rating | None, doc(s.UNRATED_DOC)] = None
    ratings: Annotated[
        s.RatingsPolicy | None, doc(s.RATINGS_DOC + "; `per_round` does not apply to the outcomes (a 422)")
    ] = None
    playoffs: Annotated[
        list[s.Playoff],
        Meta(max_length=s.LIMITS.max_players),
        doc("Not for scenarios (a 422): a play-off is played by the players tied after the last round"),
    ] = []
    manual_values: Annotated[dict[s.ManualKey, s.ManualValue] | None, doc(s.MANUAL_DOC)] = None
    pairings: Annotated[
        list[Pairing],
        Meta(min_length=1, max_length=MAX_PAIRINGS),
        doc("The games and byes of the round(s) still to be played; the standings are those after the last of them"),
    ]
    places: Annotated[
        int, Meta(ge=1, le=MAX_PLACES), doc("The places that matter (1: who can still win; 3: the podium)")
    ] = 1
    players: Annotated[
        Annotated[list[s.PlayerId], Meta(max_length=s.LIMITS.max_players)] | None,
        doc("Report only these players (start numbers); every player is still ranked in every outcome"),
    ] = None
    contenders_only: Annotated[
        bool,
        doc(
            "Report only the players (of `players`, or of all) who can reach `places` on points alone in some "
            "outcome; the others, who cannot whatever the results, are listed in the answer's `out_of_reach`"
        ),
    ] = False
    assume: Annotated[
        Annotated[list[Assumed], Meta(max_length=MAX_PAIRINGS)] | None,
        doc("Results the client fixes: these games are not open"),
    ] = None

    def __post_init__(self) -> None:
        if (self.tournament is not None) + (self.trf is not None) != 1:
            raise ValueError("give exactly one of `tournament` and `trf`")


class OpenGameOut(s.Out, frozen=True):
    """A game whose result is open."""

    round: Annotated[int, doc("The game's round")]
    white: Annotated[int, doc("White's start number")]
    black: Annotated[int, doc("Black's start number")]


class Condition(s.Out, frozen=True):
    """One game's allowed results."""

    round: Annotated[int, doc("The game's round")]
    white: Annotated[int, doc("White's start number")]
    black: Annotated[int, doc("Black's start number")]
    results: Annotated[list[GameResult], doc("The results of this game that satisfy the condition")]


class GameResultOut(s.Out, frozen=True):
    """One open game of an example outcome, with its result."""

    round: Annotated[int, doc("The game's round")]
    white: Annotated[int, doc("White's start number")]
    black: Annotated[int, doc("Black's start number")]
    result: Annotated[GameResult, doc("`white` wins, `draw`, or `black` wins")]


Example = Annotated[
    list[GameResultOut] | None,
    doc("An outcome (every open game with its result) that shows the claim; post it to /v1/standings to check it"),
]


OwnStatus = Literal["certain", "possible", "impossible", "undecided"]
OWN_STATUS_DOC = (
    "`certain`: every outcome with this result reaches the place; `possible`: some do, some do not; "
    "`impossible`: none does; `undecided`: the solver's time bound did not settle it"
)


class OwnResults(s.Out, frozen=True):
    """The place asked again with the player's own open game fixed, from the player's side (SPEC 3.11.1)."""

    win: Annotated[OwnStatus, doc("The player wins their game: " + OWN_STATUS_DOC)]
    draw: Annotated[OwnStatus, doc("The player draws their game: " + OWN_STATUS_DOC)]
    loss: Annotated[OwnStatus, doc("The player loses their game: " + OWN_STATUS_DOC)]


class PlaceNeeds(s.Out, frozen=True):
    """What it takes to reach one place."""

    place: Annotated[int, doc("The place: reached when the player's rank (shared or not) is at most this")]
    needs: Annotated[
        list[list[Condition]] | None,
        doc(
            "Any one of these (outer list) suffices, each meaning all of its conditions (inner list); "
            "`[[]]`: reached in every outcome; null when `needs_omitted` says why"
        ),
    ]
    possible: Annotated[bool, doc("Some outcome puts the player at this place or better")] = True
    certain: Annotated[bool | None, doc("Every outcome does; null when the time bound did not settle it")] = None
    example: Example = None
    needs_omitted: Annotated[
        str | None,
        doc(
            "Why `needs` is not given (solver: the place depends on more than 8 open games, or takes more "
            "than 12 alternatives; the team solver: never listed, `example` shows the place)"
        ),
    ] = None
    by_own_result: Annotated[
        OwnResults | None,
        doc(
            "The solver's answer for a player with an open game: this place with their game won, drawn or "
            "lost (with several open, the game of their earliest open round: the next they play; a team: "
            "its match, given only when it has one open); null otherwise (enumeration's `needs` says it, "
            "game by game)"
        ),
    ] = None


class PlayerScenarios(s.Out, frozen=True):
    """One reported player's ranks over every outcome, and what each place takes."""

    id: Annotated[int, doc("Start number")]
    name: Annotated[str, doc("The player's name")]
    best_rank: Annotated[int, doc("The best rank over every outcome")]
    worst_rank: Annotated[int, doc("The worst rank over every outcome")]
    clinched: Annotated[int | None, doc("The best place up to `places` reached in every outcome; null if none")]
    places: Annotated[list[PlaceNeeds], doc("Each place up to `places` reached in at least one outcome")]
    best_example: Example = None
    worst_example: Example = None
    undecided: Annotated[
        list[Literal["best_rank", "worst_rank"]],
        doc("The ranks the time bound did not settle: each is then the rank of its example, not proved best/worst"),
    ] = []


class SolverStats(s.Out, frozen=True):
    """The solver's work (SPEC 3.11.1): a question per reported player and extreme rank, and per own
    result for `by_own_result`."""

    questions: Annotated[
        int,
        doc(
            "Questions asked: a best and a worst rank per reported player, and again per result of a player's own next game (by_own_result)"
        ),
    ]
    by_pruning: Annotated[
        int, doc("Settled without the solver: by the players' ranges of points and values, or by an outcome found")
    ]
    by_solver: Annotated[int, doc("Settled by the solver, proved")]
    undecided: Annotated[int, doc("Not settled within the time bound of a question")]
    seconds: Annotated[float, doc("The solver's time, all questions")]


class ScenariosResponse(s.Out, frozen=True):
    """Every outcome of the open games ranked as the standings rank the finished event, per player."""

    regulations: Annotated[s.AppliedRegulations, doc("The rule set applied")]
    tiebreaks: Annotated[list[s.TiebreakOut], doc("The rules applied, in order")]
    after_round: Annotated[int, doc("The round the outcomes are ranked after (the last round of `pairings`)")]
    outcomes: Annotated[
        int | None,
        doc(
            "The outcomes examined: 3 to the power of the open games; null past 2^53 - 1 (the largest "
            "integer every JSON client reads exactly): the count is then 3 to the power of the length of `open_games`"
        ),
    ]
    ranked_by_tiebreaks: Annotated[
        int,
        doc(
            "Of these, the outcomes that points alone could not answer: a reported player level on points with another"
        ),
    ]
    open_games: Annotated[list[OpenGameOut], doc("The games whose results are open (not in `assume`)")]
    players: Annotated[list[PlayerScenarios], doc("The players reported, in start-number order")]
    warnings: Annotated[list[s.WarningOut], doc("What reading the input and ranking it noted")]
    entrants: Annotated[
        Literal["players", "teams"],
        doc(
            "`teams`: a team event; the rows of `players` are teams (team ids), the open games are boards "
            "(players' start numbers) and match points follow from them"
        ),
    ] = "players"
    method: Annotated[
        Literal["enumeration", "solver"],
        doc("`enumeration`: every outcome ranked; `solver`: a constraint model over the open results (SPEC 3.11.1)"),
    ] = "enumeration"
    undecided: Annotated[int, doc("Questions the time bound did not settle (solver)")] = 0
    stats: Annotated[SolverStats | None, doc("The solver's work; null for enumeration")] = None
    out_of_reach: Annotated[
        list[int],
        doc(
            "With `contenders_only`: the players left out (start numbers), each behind at least `places` "
            "players on points in every outcome, so reaching none of the places"
        ),
    ] = []
