"""Archive check: what a TRF file says against what the service computes under the edition of its date.

For each file: its points column (81-84) against the points of its results, and its rank column
(86-89) against the standings by its own rule list (record 202/212, points only without one),
computed under `auto-historic` (fide-2009 before 1 April 2024, fide-2024 until 28 February 2026,
fide-2026 after). A file rank agrees when it falls inside the places the computed standings leave
the player's tie group (a file ranks tied players 5, 6, 7 where the service shares rank 5).
No TRF format we know carries per-player tie-break values, so those are not compared; the report
says what was.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Literal
from typing import Annotated

import msgspec
from msgspec import Meta

from ..formats.trf import parse_trf
from . import schemas as s
from .limits import LIMITS
from ..version import __version__
from .pipeline import run_standings

doc = s.doc


class Disagreement(s.Out):
    """One value the file and the service see differently."""

    player: Annotated[int, doc("The start number")]
    name: Annotated[str, doc("The player's name")]
    field: Annotated[Literal["points", "rank"], doc("The column that differs: points (81-84) or rank (86-89)")]
    file: Annotated[str, doc("The value as written in the file")]
    computed: Annotated[str, doc(
        "What the service computes: the points, or the places the player's tie group covers (\"5\" or \"5-7\")")]


class CheckReport(s.Out):
    """The verdict on one file."""

    status: Annotated[Literal["consistent", "inconsistent"], doc("Whether every value compared agrees")]
    regulations: Annotated[s.AppliedRegulations, doc("The edition applied (the one of the file's date)")]
    tiebreaks: Annotated[list[str], doc("The file's own rule list (202/212) the ranks were compared under")]
    after_round: Annotated[int | None, doc("The last round counted, when not every round is")]
    compared: Annotated[list[str], doc("What the file carried and was compared: `points`, `rank`")]
    disagreements: Annotated[list[Disagreement], doc("Each value that differs")]
    warnings: Annotated[list[s.WarningOut], doc("What reading and ranking the file noted")]


def _decimal(text: str) -> Decimal | None:
    try:
        return Decimal(text.strip()) if text.strip() else None
    except InvalidOperation:
        return None


def check_trf(text: str) -> CheckReport:
    """Check one TRF file; an unreadable file raises the reader's error (a 400 or a 422 as for /v1/standings)."""
    document = parse_trf(text, columns=True)  # the players and the columns 81-89 as written; no result objects
    request = s.StandingsRequest(trf=text, regulations="auto-historic", explain=False)
    response = run_standings(request)
    rows = {row.id: row for row in response.standings}
    # A tie group's rank is its first place; the group covers the places up to its last row.
    group_end = {row.rank: place for place, row in enumerate(response.standings, start=1)}
    disagreements: list[Disagreement] = []
    compared: list[str] = []
    points = [_decimal(t) for t in document.points_written]
    ranks = [_decimal(t) for t in document.ranks_written]
    # A column of zeros or blanks is a program that did not fill it in: nothing to compare.
    if any(p for p in points if p is not None):
        compared.append("points")
    if any(r for r in ranks if r is not None):
        compared.append("rank")
    for player, written_points, written_rank in zip(document.tournament.players, points, ranks):
        row = rows[player.id]
        computed = Decimal(repr(row.points))
        if "points" in compared and written_points is not None and written_points != computed:
            disagreements.append(Disagreement(player=player.id, name=player.name, field="points",
                                              file=f"{written_points}", computed=f"{computed}"))
        if "rank" in compared and written_rank:  # blank or 0: the file did not rank the player
            first, last = row.rank, group_end[row.rank]
            if not first <= written_rank <= last:
                places = f"{first}" if first == last else f"{first}-{last}"
                disagreements.append(Disagreement(player=player.id, name=player.name, field="rank",
                                                  file=f"{written_rank}", computed=places))
    return CheckReport(
        status="inconsistent" if disagreements else "consistent",
        regulations=response.regulations,
        tiebreaks=[t.spec for t in response.tiebreaks],
        after_round=response.after_round,
        compared=compared,
        disagreements=disagreements,
        warnings=response.warnings,
    )


class CheckLine(s.Out):
    """One NDJSON line of a check: the report on item `index`, or the problem that stopped it."""

    index: Annotated[int, doc("The item's 0-based position in the request")]
    id: Annotated[str | int | None, doc("The item's `id` (the file's path for the command line)")]
    status: Annotated[int, doc("200 when the file was read and checked, else the problem's status")]
    result: Annotated[CheckReport | None, doc("The report, when `status` is 200")]
    error: Annotated[s.Problem | None, doc("The problem, when `status` is not 200")]
    version: Annotated[str, Meta(description="The service version that checked the file (always present)",
                                 examples=["0.1.0"])] = __version__


class CheckItem(s.Strict):
    """One archived file to check: its TRF text and an optional `id` echoed in its line."""

    trf: Annotated[str, Meta(max_length=LIMITS.max_trf_chars, description="The TRF text of the archived file")]
    id: Annotated[Annotated[str, Meta(max_length=200)] | Annotated[int, Meta(ge=-(2**53), le=2**53)] | None, doc(
        "The caller's name for the file, echoed in its line")] = None


def check_line(index: int, item_id, text: str, problem_of) -> bytes:
    """One file to one NDJSON line; a file that cannot be read or ranked is that line's error."""
    try:
        line = CheckLine(index=index, id=item_id, status=200, result=check_trf(text), error=None)
    except Exception as exc:  # noqa: BLE001 - one bad file must not stop the check of the rest
        problem = problem_of(exc)
        line = CheckLine(index=index, id=item_id, status=problem.status, result=None, error=problem)
    return msgspec.json.encode(line) + b"\n"
