"""Wire structs of `POST /v1/compare`: one crosstable under several named rule lists."""

from __future__ import annotations

from typing import Annotated, ClassVar

from msgspec import Meta

from . import schemas as s
from . import teams as schemas_teams
from .rules import ExactlyOne

MAX_LISTS = 10


doc = s.doc


class RuleList(s.Strict, kw_only=True, frozen=True):
    """One named rule list: `tiebreaks` or `preset`, optionally under its own rule set."""

    schema_rules: ClassVar = (
        ExactlyOne(("tiebreaks", "preset"), titles={"tiebreaks": "A rule list", "preset": "A preset"}),
    )

    name: Annotated[
        str,
        Meta(min_length=1, max_length=60, examples=["Cut-1 first"]),
        doc("The list's name, unique in the request; it names the list in the answer"),
    ]
    tiebreaks: Annotated[s.RuleItems | None, doc(s.TIEBREAKS_DOC)] = None
    preset: Annotated[s.PresetName | None, doc("A named rule list of GET /v1/presets, instead of `tiebreaks`")] = None
    regulations: Annotated[s.RegulationsName | None, doc("This list's rule set; null: the request's `regulations`")] = (
        None
    )

    def __post_init__(self) -> None:
        if (self.tiebreaks is None) == (self.preset is None):
            raise ValueError("give exactly one of `tiebreaks` and `preset` for each list")


class CompareRequest(s.Strict, kw_only=True, frozen=True):
    """One tournament (JSON, TRF or a team event) and up to 10 named rule lists to rank it by, side by side."""

    schema_rules: ClassVar = (
        ExactlyOne(
            ("tournament", "trf", "team_tournament"),
            titles={"tournament": "A JSON tournament", "trf": "TRF text", "team_tournament": "A team event"},
        ),
    )

    tournament: Annotated[s.Tournament | None, doc("The crosstable as JSON (or give `trf` or `team_tournament`)")] = (
        None
    )
    trf: Annotated[s.TrfText | None, doc("FIDE TRF-16/TRF-26 text instead of `tournament`")] = None
    # A team event (SPEC 3.7) instead; a TRF with team records is one too.
    team_tournament: Annotated[
        schemas_teams.TeamTournament | None, doc("A team event (SPEC 3.7), instead of `tournament` or `trf`")
    ] = None
    lists: Annotated[
        list[RuleList],
        Meta(min_length=1, max_length=MAX_LISTS),
        doc("The rule lists; the first is the baseline of `changes`"),
    ]
    regulations: Annotated[s.RegulationsName, doc(s.REGULATIONS_DOC + "; a list may name its own")] = "auto"
    after_round: Annotated[s.RoundNumber | None, doc(s.AFTER_ROUND_DOC)] = None
    unrated_rating: Annotated[s.Rating | None, doc(s.UNRATED_DOC)] = None
    seed: Annotated[s.Seed | None, doc(s.SEED_DOC + "; one draw for every list")] = None
    explain: Annotated[bool, doc(s.EXPLAIN_DOC)] = True
    ratings: Annotated[s.RatingsPolicy | None, doc(s.RATINGS_DOC)] = None
    playoffs: Annotated[list[s.Playoff], Meta(max_length=s.LIMITS.max_players), doc(s.PLAYOFFS_DOC)] = []
    manual_values: Annotated[dict[s.ManualKey, s.ManualValue] | None, doc(s.MANUAL_DOC)] = None
    tiebreak_changes: Annotated[list[s.TiebreakChange], Meta(max_length=s.LIMITS.max_rounds), doc(s.CHANGES_DOC)] = []

    def __post_init__(self) -> None:
        if (self.tournament is not None) + (self.trf is not None) + (self.team_tournament is not None) != 1:
            raise ValueError("give exactly one of `tournament`, `trf` and `team_tournament`")
        # Distinct names are checked in plan_compare (a 422): JSON Schema cannot say "unique by name".


class ListResult(s.Out, frozen=True):
    """The standings under one list."""

    name: Annotated[str, doc("The list's name")]
    first: Annotated[list[int], doc("Start numbers ranked first (more than one when equal on everything)")]
    standings: Annotated[s.StandingsResponse, doc("The full standings under this list")]


class Champion(s.Out, frozen=True):
    """Who is first under one list."""

    rule_list: Annotated[str, doc("The list's name")]
    ids: Annotated[list[int], doc("Their start numbers")]
    names: Annotated[list[str], doc("Their names")]


class RankMove(s.Out, frozen=True):
    """A player whose rank is not the same under every list."""

    id: Annotated[int, doc("The start number")]
    name: Annotated[str, doc("The player's name")]
    ranks: Annotated[dict[str, int], doc("The rank under each list, by the list's name")]
    best: Annotated[int, doc("The best rank under any list")]
    worst: Annotated[int, doc("The worst rank under any list")]
    spread: Annotated[int, doc("worst − best: how far the player moves between the lists")]


class ListChange(s.Out, frozen=True):
    """A player whose rank under `list` differs from the rank under the first list."""

    id: Annotated[int, doc("The start number")]
    name: Annotated[str, doc("The player's name")]
    rank: Annotated[int, doc("The rank under this list")]
    baseline_rank: Annotated[int, doc("The rank under the first list")]
    change: Annotated[int, doc("Places gained against the first list (negative: lost)")]


class ListSummary(s.Out, frozen=True):
    """One list in short: who is first and who moved against the first list."""

    name: Annotated[str, doc("The list's name")]
    first: Annotated[list[int], doc("Start numbers ranked first")]
    changes: Annotated[list[ListChange], doc("Against the first list; empty for the first list itself")]


class CompareSummary(s.Out, frozen=True):
    """What changes between the lists."""

    champions: Annotated[list[Champion], doc("Who is first under each list")]
    same_champion: Annotated[bool, doc("True when every list has the same first place")]
    lists: Annotated[list[ListSummary], doc("Each list in short")]
    moves: Annotated[list[RankMove], doc("Players whose rank is not the same under every list, biggest moves first")]


class CompareResponse(s.Out, frozen=True):
    """The tournament under each list, and what changes between them."""

    regulations: Annotated[list[s.AppliedRegulations], doc("The rule set applied, per list, in order")]
    lists: Annotated[list[ListResult], doc("Each list's standings, in order")]
    summary: Annotated[CompareSummary, doc("Champions and moves")]
    seed: Annotated[int | None, doc(s.SEED_OUT_DOC)] = None
