"""Wire structs of `POST /v1/standings/progression` (SPEC 3.9): the standings after each round."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from msgspec import Meta

from . import schemas as s
from . import teams as schemas_teams

doc = s.doc


class ProgressionRequest(s.Strict, frozen=True):
    """The body of `/v1/standings` without the row choices (`explain`, `offset`, `top`, `player`):
    every round from 1 to `after_round` (default: the last played) is ranked."""

    schema_rules: ClassVar = s.EVENT_AND_RULES

    tournament: Annotated[s.Tournament | None, doc("The crosstable as JSON (or give `trf` or `team_tournament`)")] = (
        None
    )
    trf: Annotated[
        s.TrfText | None,
        doc("FIDE TRF-16/TRF-26 text instead of `tournament`; its record 202 gives the rules when none are given"),
    ] = None
    team_tournament: Annotated[
        schemas_teams.TeamTournament | None, doc("A team event (SPEC 3.7), instead of `tournament` or `trf`")
    ] = None
    tiebreaks: Annotated[s.RuleItems | None, doc(s.TIEBREAKS_DOC)] = None
    preset: Annotated[s.PresetName | None, doc("A named rule list of GET /v1/presets, instead of `tiebreaks`")] = None
    regulations: Annotated[s.RegulationsName, doc(s.REGULATIONS_DOC)] = "auto"
    after_round: Annotated[s.RoundNumber | None, doc("The last round shown (default: the last round played)")] = None
    unrated_rating: Annotated[s.Rating | None, doc(s.UNRATED_DOC)] = None
    seed: Annotated[s.Seed | None, doc(s.SEED_DOC + "; one draw for every round")] = None
    participants: Annotated[
        Literal["auto", "players"],
        Meta(description="`auto`: teams for a team event, players otherwise; `players`: a TRF's players one by one"),
    ] = "auto"
    ratings: Annotated[s.RatingsPolicy | None, doc(s.RATINGS_DOC)] = None
    playoffs: Annotated[list[s.Playoff], Meta(max_length=s.LIMITS.max_players), doc(s.PLAYOFFS_DOC)] = []
    manual_values: Annotated[dict[s.ManualKey, s.ManualValue] | None, doc(s.MANUAL_DOC)] = None
    tiebreak_changes: Annotated[list[s.TiebreakChange], Meta(max_length=s.LIMITS.max_rounds), doc(s.CHANGES_DOC)] = []

    def __post_init__(self) -> None:
        s.check_event_and_rules(self)

    def standings_request(self, after_round: int | None = None) -> s.StandingsRequest:
        """The `/v1/standings` body that ranks the event after `after_round`, without breakdowns."""
        return s.StandingsRequest(
            tournament=self.tournament,
            trf=self.trf,
            team_tournament=self.team_tournament,
            tiebreaks=self.tiebreaks,
            preset=self.preset,
            regulations=self.regulations,
            after_round=self.after_round if after_round is None else after_round,
            unrated_rating=self.unrated_rating,
            seed=self.seed,
            explain=False,
            participants=self.participants,
            ratings=self.ratings,
            playoffs=self.playoffs,
            manual_values=self.manual_values,
            tiebreak_changes=self.tiebreak_changes,
        )


class ProgressionRow(s.Out, omit_defaults=True, frozen=True):
    """One player (or team) across the rounds."""

    id: Annotated[int, doc("The start number (a team's number in a team event)")]
    name: Annotated[str, doc("The player's (or team's) name")]
    ranks: Annotated[
        list[int | None],
        doc("The rank after each round of `rounds`, as /v1/standings with that `after_round`; null: expelled"),
    ]
    points: Annotated[list[float], doc("The score after each round (a team event: its primary score)")]
    match_points: Annotated[list[float], Meta(description="Team events: match points after each round")] | None = None
    game_points: Annotated[list[float], Meta(description="Team events: game points after each round")] | None = None


class ProgressionResponse(s.Out, frozen=True):
    """The ranks and points after each round, under one rule list."""

    regulations: Annotated[s.AppliedRegulations, doc("The rule set applied")]
    tiebreaks: Annotated[list[s.TiebreakOut], doc("The rules applied, in order")]
    rounds: Annotated[list[int], doc("The rounds ranked: 1 to the last round shown")]
    players: Annotated[list[ProgressionRow], doc("Every player, in the order of the last round's standings")]
    warnings: Annotated[list[s.WarningOut], doc("What the rankings noted, each message once")]
    seed: Annotated[int | None, doc(s.SEED_OUT_DOC)] = None
