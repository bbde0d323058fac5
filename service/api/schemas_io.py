"""Wire structs of the TRF conversion and batch endpoints (`POST /v1/trf`, `POST /v1/standings/batch`)."""

from __future__ import annotations

from typing import Annotated, ClassVar

from msgspec import Meta

from . import schemas as s
from .limits import LIMITS
from ..version import __version__
from .schema_rules import ExactlyOne

ItemId = Annotated[str, Meta(max_length=200)] | Annotated[int, Meta(ge=-(2**53), le=2**53)]


class TrfConvertRequest(s.Strict):
    """Exactly one of `trf` (read it: the JSON tournament comes back) and `tournament`
    (write it: TRF text comes back, ranked by `tiebreaks` when given)."""

    schema_rules: ClassVar = (ExactlyOne(
        ("trf", "tournament"), titles={"trf": "Read TRF text", "tournament": "Write a tournament as TRF"},
        excludes={"trf": ("tiebreaks", "regulations", "unrated_rating")}),)

    trf: Annotated[str, Meta(max_length=LIMITS.max_trf_chars)] | None = None
    tournament: s.Tournament | None = None
    tiebreaks: Annotated[list[s.RuleText | s.RuleObject], Meta(max_length=LIMITS.max_rules)] | None = None
    regulations: s.RegulationsName = "auto"
    unrated_rating: s.Rating | None = None

    def __post_init__(self) -> None:
        if (self.tournament is None) == (self.trf is None):
            raise ValueError("give exactly one of `trf` (to read) and `tournament` (to write)")
        if self.trf is not None and (self.tiebreaks is not None or self.unrated_rating is not None
                                     or self.regulations != "auto"):
            raise ValueError("`tiebreaks`, `regulations` and `unrated_rating` rank a `tournament` written as TRF; "
                             "they do not apply when reading `trf`")


class TrfConvertResponse(s.Out):
    """Reading: `tournament` and `tiebreaks` (record 202) are set, `trf` is null.
    Writing: `trf` is set, `tournament` is null and `tiebreaks` echoes the rules written to 202."""

    tournament: s.Tournament | None
    tiebreaks: list[str]
    trf: str | None
    warnings: list[s.WarningOut]


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
    version: Annotated[str, Meta(description="The service version that computed the line (always present)",
                                 examples=["0.1.0"])] = __version__
