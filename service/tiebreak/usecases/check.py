"""Archive check: what a TRF file says against what the service computes under the edition of its date.

For each file: its points column (81-84) against the points of its results, and its rank column
(86-89) against the standings by its own rule list (record 202/212, points only without one),
computed under `auto-historic` (fide-2009 before 1 April 2024, fide-2024 until 28 February 2026,
fide-2026 after). A file rank agrees when it falls inside the places the computed standings leave
the player's tie group (a file ranks tied players 5, 6, 7 where the service shares rank 5).
A team event (records 310 or 013) is checked as one: each 310 record's match points (55-60),
game points (62-67) and rank (69-71) against the team standings, and each player's points column
(81-84) against the player's results; `participants: players` checks its players instead. The client may replace the file's rule list (`tiebreaks`) and edition
(`regulations`). No TRF format we know carries per-player tie-break values, so those are not
compared; the report says what was.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import Literal


from ..formats.trf import parse_trf
from ..wire import schemas as s
from ..wire.io import CheckItem, CheckReport, Disagreement
from .standings import run_standings


def _decimal(text: str) -> Decimal | None:
    """A written number, or None for a blank or anything that is not a finite number (`NaN`, `inf`, `x`)."""
    try:
        value = Decimal(text.strip()) if text.strip() else None
    except InvalidOperation:
        return None
    return value if value is not None and value.is_finite() else None


def _unreadable(text: str) -> bool:
    """Written, but not a finite number: a value to name in a warning rather than compare."""
    return bool(text.strip()) and _decimal(text) is None


def _not_compared(where: str, column: str, text: str) -> s.WarningOut:
    return s.WarningOut(
        code="check-value-unreadable",
        message=f"{where}: the {column} {text.strip()!r} is not a number; it is not compared.",
        rule=None,
    )


def _group_places(standings: Sequence[s.Standing]) -> dict[int, int]:
    """A tie group's rank is its first place; the group covers the places up to its last row."""
    return {row.rank: place for place, row in enumerate(standings, start=1) if row.rank is not None}


def _places_among(standings: Sequence[s.Standing], ranked: set[int]) -> dict[int, tuple[int, int]]:
    """Each tie group's first and last place counting only the players the file ranks: a file that
    leaves some players unranked (rank 0: withdrawn) numbers the others 1, 2, 3... without them."""
    places: dict[int, tuple[int, int]] = {}
    rows = [row for row in standings if row.id in ranked and row.rank is not None]
    for place, row in enumerate(rows, start=1):
        assert row.rank is not None
        first, _ = places.get(row.rank, (place, place))
        places[row.rank] = (first, place)
    return places


def _rank_disagrees(
    row: s.Standing, written: Decimal, group_end: dict[int, int], among: dict[int, tuple[int, int]] | None = None
) -> str | None:
    if row.rank is None:  # an expelled player: no place to compare
        return None
    first, last = among[row.rank] if among is not None else (row.rank, group_end[row.rank])
    if first <= written <= last:
        return None
    return f"{first}" if first == last else f"{first}-{last}"


def _as_decimal(value: float | None) -> Decimal:
    return Decimal(repr(value if value is not None else 0.0))


def check_trf(
    text: str,
    participants: Literal["auto", "players"] = "auto",
    tiebreaks: s.RuleItems | None = None,
    regulations: s.RegulationsName = "auto-historic",
) -> CheckReport:
    """Check one TRF file; an unreadable file raises the reader's error (a 400 or a 422 as for /v1/standings)."""
    request = s.StandingsRequest(
        trf=text, regulations=regulations, tiebreaks=tiebreaks, explain=False, participants=participants
    )
    response = run_standings(request)
    notes: list[s.WarningOut] = []
    if response.standings and response.standings[0].match_points is not None:
        compared, disagreements = _check_teams(text, response, notes)
        # The players' records (001) of a team event carry a points column too: a file whose 310
        # records are blank is not "consistent" while its players' points disagree (issue 37, 11).
        by_player = run_standings(
            s.StandingsRequest(trf=text, regulations=regulations, explain=False, participants="players")
        )
        player_compared, player_disagreements = _check_players(text, by_player, [], fields=("points",))
        compared += player_compared
        disagreements += player_disagreements
    else:
        compared, disagreements = _check_players(text, response, notes)
    return CheckReport(
        status="inconsistent" if disagreements else "consistent",
        regulations=response.regulations,
        tiebreaks=[t.spec for t in response.tiebreaks],
        after_round=response.after_round,
        compared=compared,
        disagreements=disagreements,
        warnings=[*response.warnings, *notes],
    )


def _check_players(
    text: str, response: s.StandingsResponse, notes: list[s.WarningOut], fields: tuple[str, ...] = ("points", "rank")
) -> tuple[list[str], list[Disagreement]]:
    document = parse_trf(text, columns=True)  # the players and the columns 81-89 as written; no result objects
    rows = {row.id: row for row in response.standings}
    group_end = _group_places(response.standings)
    disagreements: list[Disagreement] = []
    compared: list[str] = []
    points = [_decimal(t) for t in document.points_written]
    ranks = [_decimal(t) for t in document.ranks_written]
    for player, points_text, rank_text in zip(
        document.tournament.players, document.points_written, document.ranks_written, strict=False
    ):
        for column, written_text in (("points column (81-84)", points_text), ("rank column (86-89)", rank_text)):
            if _unreadable(written_text):
                notes.append(_not_compared(f"record 001 of player {player.id}", column, written_text))
    # A column of zeros or blanks is a program that did not fill it in: nothing to compare.
    if "points" in fields and any(p for p in points if p is not None):
        compared.append("points")
    if "rank" in fields and any(r for r in ranks if r is not None):
        compared.append("rank")
    # Issue 37, 11: Karl-Mala ranks 276 of its 284 players; 17 were "inconsistent" for places
    # counted with the players the file left unranked.
    unranked = any(not r for r in ranks)
    ranked = {player.id for player, r in zip(document.tournament.players, ranks, strict=False) if r}
    among = _places_among(response.standings, ranked) if unranked else None
    for player, written_points, written_rank in zip(document.tournament.players, points, ranks, strict=False):
        row = rows.get(player.id)
        if row is None:  # a player the standings leave out (a team file ranked by player skips none we know)
            continue
        computed = _as_decimal(row.points)
        if "points" in compared and written_points is not None and written_points != computed:
            disagreements.append(
                Disagreement(
                    player=player.id, name=player.name, field="points", file=f"{written_points}", computed=f"{computed}"
                )
            )
        if "rank" in compared and written_rank:  # blank or 0: the file did not rank the player
            places = _rank_disagrees(row, written_rank, group_end, among)
            if places is not None:
                disagreements.append(
                    Disagreement(
                        player=player.id, name=player.name, field="rank", file=f"{written_rank}", computed=places
                    )
                )
    return compared, disagreements


TEAM_COLUMNS = (("match points", 54, 60), ("game points", 61, 67), ("rank", 68, 71))  # 0-based slices


def _team_columns(
    text: str, notes: list[s.WarningOut]
) -> dict[int, tuple[Decimal | None, Decimal | None, Decimal | None]]:
    """Each 310 record's team number -> match points (55-60), game points (62-67), rank (69-71) as
    written; a blank or unreadable column is None (013 carries none of them)."""
    written: dict[int, tuple[Decimal | None, Decimal | None, Decimal | None]] = {}
    for number_of_line, line in enumerate(re.split(r"\r\n|\r|\n", text.removeprefix("\ufeff")), start=1):
        number = line[4:7].strip()
        if not line.startswith("310") or not number.isdigit():
            continue
        texts = [line[first:last] for _, first, last in TEAM_COLUMNS]
        for (column, first, _), value_text in zip(TEAM_COLUMNS, texts, strict=True):
            if _unreadable(value_text):
                notes.append(_not_compared(f"record 310 at trf:{number_of_line}:{first + 1}", column, value_text))
        match_points, game_points, rank = (_decimal(value_text) for value_text in texts)
        written[int(number)] = (match_points, game_points, rank)
    return written


def _check_teams(
    text: str, response: s.StandingsResponse, notes: list[s.WarningOut]
) -> tuple[list[str], list[Disagreement]]:
    written = _team_columns(text, notes)
    group_end = _group_places(response.standings)
    columns: dict[Literal["match_points", "game_points", "rank"], int] = {
        "match_points": 0,
        "game_points": 1,
        "rank": 2,
    }
    # A column of zeros or blanks is a program that did not fill it in: nothing to compare.
    compared: list[str] = [name for name, at in columns.items() if any(values[at] for values in written.values())]
    disagreements: list[Disagreement] = []
    for row in response.standings:
        values = written.get(row.id)
        if values is None:
            continue
        for field, at in columns.items():
            value = values[at]
            if value is None or field not in compared:
                continue
            if field == "rank":
                places = _rank_disagrees(row, value, group_end) if value else None
                if places is not None:
                    disagreements.append(
                        Disagreement(player=row.id, name=row.name, field="rank", file=f"{value}", computed=places)
                    )
                continue
            computed = _as_decimal(row.match_points if field == "match_points" else row.game_points)
            if value != computed:
                disagreements.append(
                    Disagreement(player=row.id, name=row.name, field=field, file=f"{value}", computed=f"{computed}")
                )
    return compared, disagreements


def check_item(item: CheckItem) -> CheckReport:
    return check_trf(item.trf, item.participants, item.tiebreaks, item.regulations)
