"""Wire structs of the TRF conversion and batch endpoints (`POST /v1/trf`, `POST /v1/standings/batch`)."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from . import schemas as s
from . import schemas_teams
from .limits import LIMITS

ItemId = Annotated[str, Meta(max_length=200)] | Annotated[int, Meta(ge=-(2**53), le=2**53)]


class TrfConvertRequest(s.Strict):
    """Exactly one of `trf` (read it: the JSON tournament comes back) and `tournament`
    (write it: TRF text comes back, ranked by `tiebreaks` when given); `team_tournament`
    writes a team event with its TRF-26 team records."""

    trf: Annotated[str, Meta(max_length=LIMITS.max_trf_chars)] | None = None
    tournament: s.Tournament | None = None
    team_tournament: Annotated[schemas_teams.TeamTournament, Meta(
        description="Reading a TRF with team records: the team event")] | None = None
    tiebreaks: Annotated[list[s.RuleText | s.RuleObject], Meta(max_length=LIMITS.max_rules)] | None = None
    regulations: s.RegulationsName = "auto"
    unrated_rating: s.Rating | None = None

    def __post_init__(self) -> None:
        if (self.tournament is not None) + (self.trf is not None) + (self.team_tournament is not None) != 1:
            raise ValueError("give exactly one of `trf` (to read), `tournament` and `team_tournament` (to write)")
        if self.trf is not None and (self.tiebreaks is not None or self.unrated_rating is not None
                                     or self.regulations != "auto"):
            raise ValueError("`tiebreaks`, `regulations` and `unrated_rating` rank a `tournament` written as TRF; "
                             "they do not apply when reading `trf`")


class TrfConvertResponse(s.Out):
    """Reading: `tournament` (or, for a file with team records, `team_tournament`) and `tiebreaks`
    (record 202) are set, `trf` is null. Writing: `trf` is set, `tournament` is null and
    `tiebreaks` echoes the rules written to 202 (212 for a team event)."""

    tournament: s.Tournament | None
    tiebreaks: list[str]
    trf: str | None
    warnings: list[s.WarningOut]
    team_tournament: Annotated[schemas_teams.TeamTournament, Meta(
        description="Reading a TRF with team records: the team event")] | None = None


class BatchItem(s.StandingsRequest):
    """One standings request of a batch, with the caller's `id` echoed in its result line."""

    id: ItemId | None = None


class BatchResult(s.Out):
    """One line of the batch response: the item's standings (`status` 200) or its problem."""

    index: int  # 0-based position of the item in the request
    id: ItemId | None
    status: int
    result: s.StandingsResponse | None
    error: s.Problem | None
