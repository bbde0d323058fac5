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

import msgspec

from ..formats.trf import parse_trf
from ..wire import schemas as s
from ..wire.io import CheckLine, CheckReport, Disagreement
from .standings import run_standings


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
    for player, written_points, written_rank in zip(document.tournament.players, points, ranks, strict=False):
        row = rows[player.id]
        computed = Decimal(repr(row.points))
        if "points" in compared and written_points is not None and written_points != computed:
            disagreements.append(
                Disagreement(
                    player=player.id, name=player.name, field="points", file=f"{written_points}", computed=f"{computed}"
                )
            )
        if "rank" in compared and written_rank:  # blank or 0: the file did not rank the player
            first, last = row.rank, group_end[row.rank]
            if not first <= written_rank <= last:
                places = f"{first}" if first == last else f"{first}-{last}"
                disagreements.append(
                    Disagreement(
                        player=player.id, name=player.name, field="rank", file=f"{written_rank}", computed=places
                    )
                )
    return CheckReport(
        status="inconsistent" if disagreements else "consistent",
        regulations=response.regulations,
        tiebreaks=[t.spec for t in response.tiebreaks],
        after_round=response.after_round,
        compared=compared,
        disagreements=disagreements,
        warnings=response.warnings,
    )


def check_line(index: int, item_id, text: str, problem_of) -> bytes:
    """One file to one NDJSON line; a file that cannot be read or ranked is that line's error."""
    try:
        line = CheckLine(index=index, id=item_id, status=200, result=check_trf(text), error=None)
    except Exception as exc:  # noqa: BLE001 - one bad file must not stop the check of the rest
        problem = problem_of(exc)
        line = CheckLine(index=index, id=item_id, status=problem.status, result=None, error=problem)
    return msgspec.json.encode(line) + b"\n"
