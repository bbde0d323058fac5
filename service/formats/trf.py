"""FIDE Tournament Report File (TRF-16) reader: text in, the engine's Tournament out.

This first cut reads what standings need: records 012 (name), 042 (start date),
092 (type), 142 (rounds) and the 001 player records with their round blocks.
Other records are skipped with a located warning; a broken line raises
TrfError with its line and column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from ..engine.model import Color, Player, ResultKind, RoundResult, System, Tournament

# Player record 001, 1-based inclusive columns as in the TRF-16 description.
START_NUMBER = (5, 8)
NAME = (15, 47)
RATING = (49, 52)
POINTS = (81, 84)
FIRST_ROUND = 92  # opponent 92-95, colour 97, result 99; each further round 10 columns on
ROUND_WIDTH = 10
OPPONENT_WIDTH = 4
COLOUR_OFFSET = 5
RESULT_OFFSET = 7

_WITH_OPPONENT = {
    "1": (ResultKind.WIN, True),
    "=": (ResultKind.DRAW, True),
    "0": (ResultKind.LOSS, True),
    "W": (ResultKind.WIN, False),  # not rated
    "D": (ResultKind.DRAW, False),
    "L": (ResultKind.LOSS, False),
    "+": (ResultKind.FORFEIT_WIN, True),
    "-": (ResultKind.FORFEIT_LOSS, True),
}
_WITHOUT_OPPONENT = {
    "U": ResultKind.PAIRING_BYE,
    "F": ResultKind.FULL_BYE,
    "H": ResultKind.HALF_BYE,
    "Z": ResultKind.ZERO_BYE,
    "-": ResultKind.ABSENT,
    " ": ResultKind.ABSENT,
    "": ResultKind.ABSENT,
}
_COLOURS = {"w": Color.WHITE, "b": Color.BLACK, "-": None, " ": None, "": None}


@dataclass(frozen=True, slots=True)
class TrfWarning:
    line: int
    column: int
    message: str


class TrfError(ValueError):
    """A TRF line that cannot be read; names its line and column (1-based)."""

    def __init__(self, line: int, column: int, message: str):
        self.line, self.column, self.message = line, column, message
        super().__init__(f"line {line}, column {column}: {message}")


@dataclass(slots=True)
class TrfDocument:
    tournament: Tournament
    warnings: list[TrfWarning]
    tiebreaks: list[str]


def _field(line: str, span: tuple[int, int]) -> str:
    return line[span[0] - 1 : span[1]].strip()


def _int(line: str, span: tuple[int, int], lineno: int, what: str, blank_ok: bool = False) -> int | None:
    text = _field(line, span)
    if not text and blank_ok:
        return None
    if not text.isdigit():
        raise TrfError(lineno, span[0], f"{what} must be a whole number, found {text!r}")
    return int(text)


def _parse_date(text: str, lineno: int) -> date | None:
    m = re.fullmatch(r"(\d{2}|\d{4})[/.-](\d{1,2})[/.-](\d{1,2})", text.strip())
    if not m:
        return None
    year = int(m[1]) + (2000 if len(m[1]) == 2 else 0)
    try:
        return date(year, int(m[2]), int(m[3]))
    except ValueError:
        raise TrfError(lineno, 5, f"not a calendar date: {text.strip()!r}") from None


def parse_trf(text: str) -> TrfDocument:
    warnings: list[TrfWarning] = []
    name = ""
    start: date | None = None
    system: System | None = None
    rounds: int | None = None
    tiebreaks: list[str] = []
    players: list[Player] = []
    max_round = 0
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        if not line.strip():
            continue
        record = line[:3]
        value = line[4:].strip()
        if record == "001":
            player = _parse_player(line, lineno)
            players.append(player)
            if player.results:
                max_round = max(max_round, max(r.round for r in player.results))
        elif record == "012":
            name = value
        elif record == "042":
            start = _parse_date(value, lineno)
            if start is None and value:
                warnings.append(TrfWarning(lineno, 5, f"start date {value!r} not understood; ignored"))
        elif record == "092":
            low = value.lower()
            if "round robin" in low or "round-robin" in low or "rr" == low:
                system = System.ROUND_ROBIN
            elif "swiss" in low:
                system = System.SWISS
        elif record == "142":
            if not value.isdigit() or int(value) < 1:
                raise TrfError(lineno, 5, f"number of rounds must be a positive whole number, found {value!r}")
            rounds = int(value)
        elif record in ("202", "212"):
            tiebreaks = [t for t in re.split(r"[,;\s]+", value) if t]
        elif record[:2] in ("01", "02", "03", "05", "06", "07", "10", "12", "13"):
            continue  # known header records that standings do not need
        else:
            warnings.append(TrfWarning(lineno, 1, f"record {record!r} not read"))
    if not players:
        raise TrfError(1, 1, "no player records (001) found")
    if rounds is None:
        rounds = max(max_round, 1)
    elif max_round > rounds:
        raise TrfError(1, 1, f"record 142 says {rounds} rounds but a player line has {max_round}")
    tournament = Tournament(players=tuple(players), rounds=rounds, system=system, name=name, start_date=start)
    return TrfDocument(tournament, warnings, tiebreaks)


def _parse_player(line: str, lineno: int) -> Player:
    number = _int(line, START_NUMBER, lineno, "start number")
    rating = _int(line, RATING, lineno, "rating", blank_ok=True)
    results: list[RoundResult] = []
    rnd = 0
    col = FIRST_ROUND
    while col <= len(line):
        rnd += 1
        block = line[col - 1 : col - 1 + ROUND_WIDTH - 2].ljust(ROUND_WIDTH - 2)
        opp_text = block[:OPPONENT_WIDTH].strip()
        colour = block[COLOUR_OFFSET]
        code = block[RESULT_OFFSET]
        col += ROUND_WIDTH
        if colour not in _COLOURS:
            raise TrfError(lineno, col - ROUND_WIDTH + COLOUR_OFFSET, f"round {rnd}: colour {colour!r} is not w, b or -")
        if opp_text and not opp_text.isdigit():
            raise TrfError(lineno, col - ROUND_WIDTH, f"round {rnd}: opponent {opp_text!r} is not a start number")
        opponent = int(opp_text) if opp_text else 0
        if opponent:
            if code not in _WITH_OPPONENT:
                raise TrfError(lineno, col - ROUND_WIDTH + RESULT_OFFSET,
                               f"round {rnd}: result code {code!r} is not valid with an opponent")
            kind, rated = _WITH_OPPONENT[code]
            results.append(RoundResult(rnd, kind, opponent, _COLOURS[colour], None, rated))
        else:
            if code not in _WITHOUT_OPPONENT:
                raise TrfError(lineno, col - ROUND_WIDTH + RESULT_OFFSET,
                               f"round {rnd}: result code {code!r} is not valid without an opponent")
            kind = _WITHOUT_OPPONENT[code]
            if kind is not ResultKind.ABSENT or code == "-":
                results.append(RoundResult(rnd, kind))
    return Player(id=number, name=_field(line, NAME), rating=rating or None, results=tuple(results))
