"""Wire structs of the TRF conversion and batch endpoints (`POST /v1/trf`, `POST /v1/standings/batch`)."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from msgspec import Meta

from . import schemas as s
from . import teams as schemas_teams
from ..version import __version__
from .limits import LIMITS
from .rules import ExactlyOne

ItemId = Annotated[str, Meta(max_length=200)] | Annotated[int, Meta(ge=-(2**53), le=2**53)]
doc = s.doc


# Said in the reader's language by usecases/problems.py, which matches this text.
WRITING_ONLY = (
    "`tiebreaks`, `regulations`, `unrated_rating`, `seed`, `ratings`, `tiebreak_changes` and "
    "`swiss_manager_numbers` are for writing a `tournament` as TRF; they do not apply when reading `trf`"
)


class TrfConvertRequest(s.Strict, frozen=True):
    """Exactly one of `trf` (read it: the JSON tournament comes back) and `tournament`
    (write it: TRF text comes back, ranked by `tiebreaks` when given); `team_tournament`
    writes a team event with its TRF-26 team records."""

    schema_rules: ClassVar = (
        ExactlyOne(
            ("trf", "tournament", "team_tournament"),
            titles={
                "trf": "Read TRF text",
                "tournament": "Write a tournament as TRF",
                "team_tournament": "Write a team event as TRF",
            },
            excludes={
                "trf": (
                    "tiebreaks",
                    "regulations",
                    "unrated_rating",
                    "seed",
                    "ratings",
                    "tiebreak_changes",
                    "swiss_manager_numbers",
                )
            },
        ),
    )

    trf: Annotated[s.TrfText | None, doc("TRF-16/TRF-26 text to read into the JSON tournament")] = None
    tournament: Annotated[s.Tournament | None, doc("A JSON tournament to write as TRF")] = None
    team_tournament: Annotated[schemas_teams.TeamTournament | None, doc("A team event to write as TRF")] = None
    tiebreaks: Annotated[
        s.RuleItems | None,
        doc("Writing: the rules that rank the tournament for the points and rank columns, written to record 202"),
    ] = None
    regulations: Annotated[
        s.RegulationsName,
        doc("Writing: the rule set of `tiebreaks` (" + s.REGULATIONS_DOC[len("The rule set: ") :] + ")"),
    ] = "auto"
    unrated_rating: Annotated[s.Rating | None, doc("Writing: " + s.UNRATED_DOC)] = None
    seed: Annotated[s.Seed | None, doc("Writing: " + s.SEED_DOC)] = None
    ratings: Annotated[s.RatingsPolicy | None, doc("Writing: " + s.RATINGS_DOC)] = None
    tiebreak_changes: Annotated[
        list[s.TiebreakChange],
        Meta(max_length=s.LIMITS.max_rounds),
        doc("Writing: changes of the rule list after the start, each written as a `###` comment line (SPEC 3.12)"),
    ] = []
    swiss_manager_numbers: Annotated[
        bool,
        doc(
            "Writing: also give the rule list as Swiss-Manager numbers with their parameters, in a `###` comment "
            "line after 202 (SPEC 3.13)"
        ),
    ] = False

    def __post_init__(self) -> None:
        if (self.tournament is not None) + (self.trf is not None) + (self.team_tournament is not None) != 1:
            raise ValueError("give exactly one of `trf` (to read), `tournament` and `team_tournament` (to write)")
        if self.trf is not None and (
            self.tiebreaks is not None
            or self.unrated_rating is not None
            or self.seed is not None
            or self.regulations != "auto"
            or self.ratings is not None
            or self.tiebreak_changes
            or self.swiss_manager_numbers
        ):
            raise ValueError(WRITING_ONLY)


class TrfConvertResponse(s.Out, frozen=True):
    """Reading: `tournament` (or, for a file with team records, `team_tournament`) and `tiebreaks`
    (record 202) are set, `trf` is null. Writing: `trf` is set, `tournament` is null and
    `tiebreaks` echoes the rules written to 202 (212 for a team event)."""

    tournament: Annotated[s.Tournament | None, doc("Reading: the tournament read, as POST /v1/standings takes it")]
    tiebreaks: Annotated[list[str], doc("Reading: the TRF's rule list (record 202); writing: the rules written")]
    trf: Annotated[str | None, doc("Writing: the TRF text")]
    warnings: Annotated[
        list[s.WarningOut],
        doc(
            "Reading: every line not used (`trf-line-ignored`, with line and column); writing: what TRF cannot "
            "carry (`trf-not-carried`) and the ranking's warnings"
        ),
    ]
    tiebreak_changes: Annotated[
        list[s.TiebreakChangeOut] | None,
        doc("Reading: the changes of the rule list its `###` comment lines record (SPEC 3.12); null when none"),
    ] = None
    team_tournament: Annotated[
        schemas_teams.TeamTournament | None, Meta(description="Reading a TRF with team records: the team event")
    ] = None
    swiss_manager: Annotated[
        list[s.SwissManagerNumber | None] | None,
        doc(
            "The rules of `tiebreaks` as Swiss-Manager numbers with their parameters, in order (SPEC 3.13); null "
            "where Swiss-Manager has none; null for a team event"
        ),
    ] = None
    seed: Annotated[int | None, doc("Writing: " + s.SEED_OUT_DOC)] = None


class BatchItem(s.StandingsRequest, frozen=True):
    """One standings request of a batch, with the caller's `id` echoed in its result line."""

    id: Annotated[ItemId | None, doc("The caller's name for the item, echoed in its result line")] = None


class BatchResult(s.Out, frozen=True):
    """One line of the batch response: the item's standings (`status` 200) or its problem."""

    index: Annotated[int, doc("The item's 0-based position in the request")]
    id: Annotated[
        ItemId | None,
        doc("The item's `id`; null when it had none, could not be read, or its id is outside this schema"),
    ]
    status: Annotated[int, doc("200, or the status the item would get as a single POST /v1/standings")]
    result: Annotated[s.StandingsResponse | None, doc("The standings, when `status` is 200")]
    error: Annotated[s.Problem | None, doc("The problem, when `status` is not 200")]
    version: Annotated[
        str, Meta(description="The service version that computed the line (always present)", examples=["0.1.0"])
    ] = __version__


class Disagreement(s.Out, frozen=True):
    """One value the file and the service see differently."""

    player: Annotated[int, doc("The start number (of the team, in a team event's team columns)")]
    name: Annotated[str, doc("The player's (or the team's) name")]
    field: Annotated[
        Literal["points", "rank", "match_points", "game_points"],
        doc(
            "The column that differs: points (81-84) or rank (86-89) of a player; a team's (record 310) "
            "match_points (55-60), game_points (62-67) or rank (69-71)"
        ),
    ]
    file: Annotated[str, doc("The value as written in the file")]
    computed: Annotated[
        str, doc('What the service computes: the points, or the places the player\'s tie group covers ("5" or "5-7")')
    ]


class CheckReport(s.Out, frozen=True):
    """The verdict on one file."""

    status: Annotated[Literal["consistent", "inconsistent"], doc("Whether every value compared agrees")]
    regulations: Annotated[s.AppliedRegulations, doc("The edition applied (the one of the file's date)")]
    tiebreaks: Annotated[list[str], doc("The file's own rule list (202/212) the ranks were compared under")]
    after_round: Annotated[int | None, doc("The last round counted, when not every round is")]
    compared: Annotated[
        list[str],
        doc(
            "What the file carried and was compared: `points`, `rank` (a team event: `match_points`, "
            "`game_points`, `rank` of its teams, and `points` of its players)"
        ),
    ]
    disagreements: Annotated[list[Disagreement], doc("Each value that differs")]
    warnings: Annotated[list[s.WarningOut], doc("What reading and ranking the file noted")]


class CheckLine(s.Out, frozen=True):
    """One NDJSON line of a check: the report on item `index`, or the problem that stopped it."""

    index: Annotated[int, doc("The item's 0-based position in the request")]
    id: Annotated[str | int | None, doc("The item's `id` (the file's path for the command line)")]
    status: Annotated[int, doc("200 when the file was read and checked, else the problem's status")]
    result: Annotated[CheckReport | None, doc("The report, when `status` is 200")]
    error: Annotated[s.Problem | None, doc("The problem, when `status` is not 200")]
    version: Annotated[
        str, Meta(description="The service version that checked the file (always present)", examples=["0.1.0"])
    ] = __version__


class CheckItem(s.Strict, frozen=True):
    """One archived file to check: its TRF text and an optional `id` echoed in its line."""

    trf: Annotated[str, Meta(max_length=LIMITS.max_trf_chars, description="The TRF text of the archived file")]
    id: Annotated[
        Annotated[str, Meta(max_length=200)] | Annotated[int, Meta(ge=-(2**53), le=2**53)] | None,
        doc("The caller's name for the file, echoed in its line"),
    ] = None
    tiebreaks: Annotated[
        s.RuleItems | None, doc("The rule list to rank by instead of the file's own (202/212); none: the file's")
    ] = None
    regulations: Annotated[
        s.RegulationsName,
        doc("The rule set to apply; `auto-historic` (default): the edition in force at the file's date"),
    ] = "auto-historic"
    participants: Annotated[
        Literal["auto", "players"],
        doc("`auto`: a team event is checked by team (records 310); `players`: by player (points and rank of 001)"),
    ] = "auto"
