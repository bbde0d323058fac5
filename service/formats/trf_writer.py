"""FIDE TRF writer: the engine's Tournament (and its standings) out as TRF text.

Player lines are TRF-16 (identical in TRF-26), with points and rank after the
tie-breaks; the header carries 012, 042, 092 and the TRF-26 records 142 (rounds),
162 (scoring, when not 1-½-0) and 202 (the rule list), which older readers skip.
What TRF cannot carry (a per-game points override, a name longer than 33
characters) is reported as a warning, never dropped silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from ..engine.errors import InvalidRequest, Issue
from ..engine.model import Color, ResultKind, Scoring, System, Tournament
from ..engine.standings import Standings
from .trf import FIRST_ROUND_OPPONENT, NAME, POINTS, RANK, SCORING_CODES, START_NUMBER

MAX_START_NUMBER = 9999  # four columns (5-8)

_CODES_PLAYED = {  # (result, rated) -> code
    (ResultKind.WIN, True): "1", (ResultKind.DRAW, True): "=", (ResultKind.LOSS, True): "0",
    (ResultKind.WIN, False): "W", (ResultKind.DRAW, False): "D", (ResultKind.LOSS, False): "L",
}
_CODES_FORFEIT = {ResultKind.FORFEIT_WIN: "+", ResultKind.FORFEIT_LOSS: "-"}
_CODES_UNPAIRED = {
    ResultKind.PAIRING_BYE: "U", ResultKind.FULL_BYE: "F", ResultKind.HALF_BYE: "H",
    ResultKind.ZERO_BYE: "Z", ResultKind.ABSENT: "-",
}
_COLOUR_LETTERS = {Color.WHITE: "w", Color.BLACK: "b", None: "-"}
_SYSTEM_NAMES = {System.SWISS: "Swiss System", System.ROUND_ROBIN: "Round Robin"}
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


@dataclass(slots=True)
class TrfOutput:
    text: str
    warnings: list[str]


def standings_columns(standings: Standings) -> tuple[dict[int, Fraction], dict[int, int]]:
    """Points and rank per start number, as the standings computed them (after tie-breaks)."""
    table = standings.table
    points = {table.ids[p]: Fraction(table.scores[p], table.scale) for p in range(len(table.ids))}
    ranks = {table.ids[row.player]: row.rank for row in standings.rows}
    return points, ranks


def _points_text(value: Fraction) -> str | None:
    """Format `11.5` in four columns: one decimal, two when needed; None if it does not fit."""
    text = f"{float(value):.1f}" if value * 2 == int(value * 2) else f"{float(value):.2f}"
    return text if len(text) <= POINTS.last - POINTS.first + 1 and Fraction(text) == value else None


def _clean(text: str, what: str, warnings: list[str]) -> str:
    cleaned = _CONTROL.sub(" ", text)
    if cleaned != text:
        warnings.append(f"{what}: control characters replaced by spaces")
    return cleaned


def write_trf(
    tournament: Tournament,
    points: dict[int, Fraction] | None = None,
    ranks: dict[int, int] | None = None,
    tiebreaks: list[str] | tuple[str, ...] = (),
) -> TrfOutput:
    """TRF text for `tournament`; `points` and `ranks` (by start number) fill columns 81-89."""
    warnings: list[str] = []
    for i, player in enumerate(tournament.players):
        if player.id > MAX_START_NUMBER:
            raise InvalidRequest([Issue(("tournament", "players", i, "id"),
                                        f"start number {player.id} does not fit TRF's four columns (1-9999)")])
    lines = []
    if tournament.name:
        lines.append(f"012 {_clean(tournament.name, 'tournament name', warnings)}")
    if tournament.start_date:
        lines.append(f"042 {tournament.start_date:%Y/%m/%d}")
    if tournament.system:
        lines.append(f"092 {_SYSTEM_NAMES[tournament.system]}")
    lines.append(f"142 {tournament.rounds}")
    if tournament.scoring != Scoring():
        lines.append(_scoring_record(tournament.scoring, warnings))
    if tiebreaks:
        lines.append(f"202 {', '.join(tiebreaks)}")
    for player in tournament.players:
        lines.append(_player_line(player, points, ranks, warnings))
    return TrfOutput("\n".join(lines) + "\n", warnings)


def _scoring_record(scoring: Scoring, warnings: list[str]) -> str:
    """162 (TRF-26): one letter per group of results that share a value."""
    items = []
    for code, names in SCORING_CODES.items():
        if not names:
            continue
        values = {getattr(scoring, name) for name in names}
        if len(values) > 1:
            warnings.append(f"scoring: record 162 gives {', '.join(names)} one value ({code}); "
                            f"wrote {names[0]}'s")
        value = getattr(scoring, names[0])
        text = f"{float(value):.1f}" if value * 2 == int(value * 2) else f"{float(value):.2f}"
        if Fraction(text) != value:
            warnings.append(f"scoring: {names[0]} = {float(value)} written as {text}")
        items.append(f"{code}{text:>4}")
    return "162  " + "    ".join(items)


def _player_line(player, points, ranks, warnings: list[str]) -> str:
    name = _clean(player.name, f"player {player.id} name", warnings)
    width = NAME.last - NAME.first + 1
    if len(name) > width:
        warnings.append(f"player {player.id}: name cut to {width} characters")
        name = name[:width]
    points_text = ""
    if points is not None and player.id in points:
        points_text = _points_text(points[player.id]) or ""
        if not points_text:
            warnings.append(f"player {player.id}: points {float(points[player.id])} do not fit columns 81-84")
    rank = ranks.get(player.id) if ranks else None
    line = (f"001 {player.id:>{START_NUMBER.last - START_NUMBER.first + 1}}"
            f"{'':5} {name:<{width}} {player.rating or '':>4}{'':28}"
            f"{points_text:>4} {'' if rank is None else rank:>{RANK.last - RANK.first + 1}}  ")
    assert len(line) == FIRST_ROUND_OPPONENT.first - 1
    by_round = {r.round: r for r in player.results}
    blocks = []
    for rnd in range(1, max(by_round, default=0) + 1):
        result = by_round.get(rnd)
        if result is None:
            blocks.append(" " * 10)
            continue
        if result.points is not None:
            warnings.append(f"player {player.id}, round {rnd}: the points override ({float(result.points)}) "
                            f"cannot be written in TRF; the result code {result.result.value} stands")
        kind = result.result
        if kind.has_opponent:
            code = _CODES_PLAYED.get((kind, result.rated)) or _CODES_FORFEIT[kind]
            blocks.append(f"{result.opponent:>4} {_COLOUR_LETTERS[result.color]} {code}  ")
        else:
            blocks.append(f"0000 - {_CODES_UNPAIRED[kind]}  ")
    return (line + "".join(blocks)).rstrip()
