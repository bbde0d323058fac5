"""FIDE Tournament Report File reader (TRF-16 and TRF-26): text in, the engine's Tournament out.

An adapter: it builds `service.engine.model.Tournament` and nothing else. Lenient where
the format is loose (records it does not need, unknown records: located warnings),
strict where a number would change (a broken player line: `TrfError` with line and
column). Column positions follow the FIDE descriptions (TRF-16, TRF-26), 1-based and
inclusive as printed there.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from ..engine.model import Color, Player, ResultKind, RoundResult, Scoring, System, Tournament

# TRF round fields are three digits wide (records 240, 250, 260, 300, 330).
MAX_ROUNDS = 999
MAX_POINTS = 100  # per result, in record 162: a sanity bound, not a format rule


@dataclass(frozen=True, slots=True)
class Span:
    """Columns `first`..`last` of a line, 1-based and inclusive as in the FIDE tables."""

    first: int
    last: int

    def of(self, line: str) -> str:
        return line[self.first - 1 : self.last]


# ---- player record 001 (TRF-16 and TRF-26 share it) ----
RECORD = Span(1, 3)
START_NUMBER = Span(5, 8)
SEX = Span(10, 10)
TITLE = Span(11, 13)
NAME = Span(15, 47)
RATING = Span(49, 52)
FEDERATION = Span(54, 56)
FIDE_ID = Span(58, 68)
BIRTH_DATE = Span(70, 79)
POINTS = Span(81, 84)
RANK = Span(86, 89)
# Round blocks: round 1 opponent 92-95, colour 97, result 99; every further round 10 columns on.
FIRST_ROUND_OPPONENT = Span(92, 95)
FIRST_ROUND_COLOUR = 97
FIRST_ROUND_RESULT = 99
ROUND_WIDTH = 10
HEADER_VALUE = 5  # header records (012 ...) carry their value from column 5

# ---- TRF-26 record 240 (byes for individuals): type 5, round 7-9, player ids 11-14, 16-19, ...
BYE_TYPE = 5
BYE_ROUND = Span(7, 9)
BYE_FIRST_PLAYER = 11
BYE_PLAYER_WIDTH = 5

# Result codes of a round block (TRF-26: letters are case-insensitive).
RESULTS_WITH_OPPONENT: dict[str, tuple[ResultKind, bool]] = {  # code: (result, rated)
    "1": (ResultKind.WIN, True),
    "=": (ResultKind.DRAW, True),
    "0": (ResultKind.LOSS, True),
    "W": (ResultKind.WIN, False),  # game lasted less than one move: not rated
    "D": (ResultKind.DRAW, False),
    "L": (ResultKind.LOSS, False),
    "+": (ResultKind.FORFEIT_WIN, True),
    "-": (ResultKind.FORFEIT_LOSS, True),
}
RESULTS_WITHOUT_OPPONENT: dict[str, ResultKind | None] = {
    "U": ResultKind.PAIRING_BYE,
    "F": ResultKind.FULL_BYE,
    "H": ResultKind.HALF_BYE,
    "Z": ResultKind.ZERO_BYE,
    "-": ResultKind.ABSENT,  # "0000 - -": not paired
    " ": None,  # blank: nothing recorded, i.e. absent
}
# Spellings of byes older programs wrote (JaVaFo, Swiss-Manager, CPPDubov): read, with a warning.
OLD_BYE_SPELLINGS = {"+": (ResultKind.FULL_BYE, "F"), "=": (ResultKind.HALF_BYE, "H")}
# A round paired but not yet played: blank result with an opponent, or "*" (either way).
NOT_PLAYED = "*"
COLOURS = {"w": Color.WHITE, "b": Color.BLACK, "-": None, " ": None}
BYE_RECORD_KINDS = {"F": ResultKind.FULL_BYE, "H": ResultKind.HALF_BYE, "Z": ResultKind.ZERO_BYE}

# Header records a standings computation does not need and the JSON tournament does not
# name: carried verbatim in `TrfHeader.other_records` (written back as they are).
VERBATIM_RECORDS = frozenset({"172", "182", "192", "222", "250", "260", "352", "362"})
# Counts the writer recomputes from the players: skipped without a warning.
DERIVED_RECORDS = frozenset({"062", "072", "082"})
# Team records: individual results come from the 001 lines, so these change no individual score.
TEAM_RECORDS = {
    "013": "team composition", "310": "team", "300": "team board order (out of default order)",
    "320": "team pairing-allocated bye", "330": "forfeited team match", "801": "team result", "802": "team result",
}
# TRF-26 record 162: result letter -> the scoring fields it sets.
SCORING_CODES: dict[str, tuple[str, ...]] = {
    "W": ("win", "forfeit_win", "full_bye"),
    "D": ("draw", "half_bye"),
    "L": ("loss",),
    "A": ("zero_bye", "forfeit_loss", "absent"),
    "P": ("pairing_bye",),
    "X": (),  # unknown result (adjourned game): no result code of 001 uses it
}
_ASCII_DIGITS = re.compile(r"[0-9]+", re.ASCII)
# Year first: YYYY/MM/DD (TRF-26), YY/MM/DD (older files); `.` and `-` too, blanks after them allowed.
_DATE_YEAR_FIRST = re.compile(r"(\d{4}|\d{2})\s*[/.-]\s*(\d{1,2})\s*[/.-]\s*(\d{1,2})", re.ASCII)
# Year last: DD/MM/YYYY or MM/DD/YYYY (Swiss-Manager, Vega, JaVaFo), "28. 07. 2005" (Sharly, SKlangen).
_DATE_YEAR_LAST = re.compile(r"(\d{1,2})\s*[/.-]\s*(\d{1,2})\s*[/.-]\s*(\d{4})", re.ASCII)
# "May 29, 2020" (lichess), "29 May 2020".
_DATE_MONTH_NAME = re.compile(r"([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})|(\d{1,2})\.?\s+([A-Za-z]{3,9})\.?,?\s+(\d{4})",
                              re.ASCII)
_MONTHS = {name: i for i, name in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), start=1)}
# Swiss-Manager writes a column ruler and a field legend above the player lines.
_RULER_LINE = re.compile(r"[0-9 ]+")
_LEGEND_LINE = re.compile(r"DDD SSSS ")
# 092/192 words that name a Swiss or a round robin (pairing systems, acceleration methods).
_SWISS_WORDS = re.compile(r"\b(swiss|dutch|dubov|burstein|lim|monrad|baku|accelerated|olympiad)\b")
_ROUND_ROBIN_WORDS = re.compile(r"\b(round robin|robin|rr|berger|all play all)\b")
_SCORE_ITEM = re.compile(r"([A-Za-z])\s*(-?[0-9]+(?:\.[0-9]+)?)", re.ASCII)
_DECLARED_ENCODING = re.compile(rb"^###.*?\b(?:en)?coding\s*[:=]\s*([-\w.]+)", re.I | re.M)
_NRS_RECORD = re.compile(r"[A-Z]{3}")


@dataclass(frozen=True, slots=True)
class TrfWarning:
    line: int
    column: int
    message: str
    # trf-line-ignored (a line or record skipped), trf-unusual-spelling (read, but not as the
    # format spells it), trf-not-played (paired, no result yet), trf-points-mismatch (column
    # 81-84 against the results), trf-not-carried (kept out of the JSON tournament)
    code: str = "trf-line-ignored"


class TrfError(ValueError):
    """A TRF line that cannot be read; names its line and column (1-based)."""

    def __init__(self, line: int, column: int, message: str):
        self.line, self.column, self.message = line, column, message
        self.warnings: list[TrfWarning] = []  # what the reader had noted before it stopped
        super().__init__(f"line {line}, column {column}: {message}")


@dataclass(slots=True)
class TrfHeader:
    """What the TRF header carries beyond what the standings need, kept for a faithful round trip."""

    city: str = ""  # 022
    federation: str = ""  # 032
    end_date: date | None = None  # 052
    tournament_type: str = ""  # 092 as written ("Individual: Swiss-System")
    chief_arbiter: str = ""  # 102
    deputy_arbiters: list[str] = field(default_factory=list)  # 112, one per line
    time_control: str = ""  # 122
    round_dates: list[date | None] = field(default_factory=list)  # 132
    initial_colour: str | None = None  # 152: "w" or "b"
    other_records: list[str] = field(default_factory=list)  # 172 182 192 222 250 260 352 362, NRS: verbatim


@dataclass(slots=True)
class TrfSource:
    """Where each player and result came from, so that a later error can point at the TRF text."""

    player_lines: list[int] = field(default_factory=list)  # by player index
    result_columns: list[list[tuple[int, int]]] = field(default_factory=list)  # [player][result] -> (line, column)

    def locate(self, player: int, result: int | None = None, what: str | None = None) -> tuple[int, int]:
        """Line and column of a player's start number, or of one of their results' fields."""
        if result is None or player >= len(self.result_columns) or result >= len(self.result_columns[player]):
            return self.player_lines[player], START_NUMBER.first
        line, column = self.result_columns[player][result]
        if column < FIRST_ROUND_OPPONENT.first:  # a bye read from a 240 record: the record's column
            return line, column
        offset = {"color": FIRST_ROUND_COLOUR, "result": FIRST_ROUND_RESULT, "points": FIRST_ROUND_RESULT}
        return line, column + offset.get(what or "", FIRST_ROUND_OPPONENT.first) - FIRST_ROUND_OPPONENT.first


@dataclass(slots=True)
class TrfDocument:
    tournament: Tournament
    warnings: list[TrfWarning]
    tiebreaks: list[str]  # from record 202 (or 212 without its PTS)
    encoding: str = "utf-8"
    header: TrfHeader = field(default_factory=TrfHeader)
    source: TrfSource = field(default_factory=TrfSource)
    # Per player (tournament order): what the file itself says, columns 81-84 and 86-89 as
    # written, for checking an archive against what the service computes.
    points_written: list[str] = field(default_factory=list)
    ranks_written: list[str] = field(default_factory=list)
    warnings_omitted: int = 0  # warnings past `parse_trf(max_warnings=...)`, counted but not kept


class _CappedWarnings(list):
    """A warning list that keeps the first `cap` and only counts the rest: a file of two
    million unknown lines must not become two million warning objects."""

    def __init__(self, cap: int | None):
        super().__init__()
        self.cap = cap
        self.omitted = 0

    def append(self, warning: TrfWarning) -> None:
        if self.cap is not None and len(self) >= self.cap:
            self.omitted += 1
        else:
            super().append(warning)


# ---------------------------------------------------------------- bytes -> text

def decode_trf(data: bytes) -> tuple[str, str, list[TrfWarning]]:
    """Text, encoding used and warnings for a TRF file's bytes.

    A UTF-8 byte order mark wins; then an encoding declared in a `###` comment
    line (`### encoding: cp1252`); then UTF-8 if the bytes are valid UTF-8;
    otherwise Windows-1252 (Latin-1 for the five bytes cp1252 leaves undefined).
    """
    warnings: list[TrfWarning] = []
    if data.startswith(codecs.BOM_UTF8):
        return _decode_strictly(data[len(codecs.BOM_UTF8):], "utf-8", line_offset=0), "utf-8", warnings
    declared = _DECLARED_ENCODING.search(data)
    if declared:
        name = declared[1].decode("ascii", "replace")
        try:
            codec = codecs.lookup(name).name
        except LookupError:
            line = data.count(b"\n", 0, declared.start()) + 1
            warnings.append(TrfWarning(line, declared.start(1) - declared.start() + 1,
                                       f"declared encoding {name!r} is unknown; guessing instead"))
        else:
            return _decode_strictly(data, codec, line_offset=0), codec, warnings
    try:
        return data.decode("utf-8"), "utf-8", warnings
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        warnings.append(TrfWarning(line, column, "not UTF-8: read as Windows-1252 (Latin-1)"))
    try:
        return data.decode("cp1252"), "cp1252", warnings
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1", warnings


def _decode_strictly(data: bytes, codec: str, line_offset: int) -> str:
    try:
        return data.decode(codec)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1 + line_offset
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise TrfError(line, column, f"byte {data[exc.start]:#04x} is not valid {codec}") from None
    except (UnicodeError, LookupError) as exc:  # a codec that rejects the whole input, or is no text encoding
        raise TrfError(1, 1, f"cannot decode as {codec}: {exc}") from None


def read_trf(data: bytes | str) -> TrfDocument:
    """Read a TRF file's bytes (encoding detected, see `decode_trf`) or text."""
    if isinstance(data, str):
        return parse_trf(data)
    text, encoding, warnings = decode_trf(data)
    document = parse_trf(text)
    document.warnings[:0] = warnings
    document.encoding = encoding
    return document


# ---------------------------------------------------------------- text -> tournament

@dataclass(slots=True)
class _Reading:
    """What has been read so far; turned into a Tournament at the end."""

    warnings: list[TrfWarning] = field(default_factory=list)
    name: str = ""
    start_text: tuple[int, str] | None = None  # line, text of 042: read once 132 is known
    system: System | None = None
    system_192: System | None = None
    rounds: int | None = None
    rounds_line: int = 0
    scoring: Scoring = field(default_factory=Scoring)
    scoring_line: int = 0
    tiebreaks_202: list[str] | None = None
    tiebreaks_212: list[str] | None = None
    header: TrfHeader = field(default_factory=TrfHeader)
    end_text: tuple[int, str] | None = None
    players: list[Player] = field(default_factory=list)
    player_lines: dict[int, int] = field(default_factory=dict)  # start number -> line
    result_columns: list[list[tuple[int, int]]] = field(default_factory=list)
    points_columns: list[tuple[int, str]] = field(default_factory=list)  # per player: line, text of 81-84
    rank_columns: list[str] = field(default_factory=list)  # per player: text of 86-89
    byes: list[tuple[int, int, int, int, ResultKind]] = field(default_factory=list)  # line, col, id, round, kind
    team_records_seen: set[str] = field(default_factory=set)
    old_byes: dict[str, list[tuple[int, int]]] = field(default_factory=dict)  # code -> where
    not_played: dict[int, list[tuple[int, int]]] = field(default_factory=dict)  # round -> where
    not_carried: dict[str, list[tuple[int, str]]] = field(default_factory=dict)  # what -> (line, value)


def parse_trf(text: str, max_warnings: int | None = None) -> TrfDocument:
    """Read TRF text. Raises TrfError (line, column) for a line that cannot be read.

    With `max_warnings`, only that many warnings are kept; `warnings_omitted` counts the rest.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    reading = _Reading(warnings=_CappedWarnings(max_warnings))
    try:
        # Records end with CR (TRF-26 remark 1), LF or CR LF: all read the same.
        for lineno, raw in enumerate(re.split(r"\r\n|\r|\n", text), start=1):
            line = raw.rstrip()
            if not line or line.startswith("###"):
                continue
            _read_line(reading, line, lineno)
        return _finish(reading)
    except TrfError as exc:
        exc.warnings = list(reading.warnings)
        raise


def _read_line(reading: _Reading, line: str, lineno: int) -> None:
    record = RECORD.of(line)
    value = line[HEADER_VALUE - 1:].strip()
    header = reading.header
    if record == "001":
        _read_player(reading, line, lineno)
    elif record == "012":
        reading.name = value
    elif record == "022":
        header.city = value
    elif record == "032":
        header.federation = value
    elif record == "042":
        reading.start_text = (lineno, value)
    elif record == "052":
        reading.end_text = (lineno, value)
    elif record == "092":
        header.tournament_type = value
        reading.system = _read_system(reading, value, lineno, warn=True)
    elif record == "102":
        header.chief_arbiter = value
    elif record == "112":
        if value:
            header.deputy_arbiters.append(value)
    elif record == "122":
        header.time_control = value
    elif record == "132":
        _read_round_dates(reading, line, lineno)
    elif record in ("142", "XXR"):  # XXR: the same, as written by pairing programs before TRF-26
        reading.rounds = _whole_number(value, lineno, HEADER_VALUE, "number of rounds", low=1, high=MAX_ROUNDS)
        reading.rounds_line = lineno
    elif record == "152":
        _read_initial_colour(reading, line, value, lineno)
    elif record == "162":
        reading.scoring = _read_scoring(line, lineno, record)
        reading.scoring_line = lineno
    elif record == "202":
        reading.tiebreaks_202 = _split_rules(value)
    elif record == "212":
        reading.tiebreaks_212 = _split_rules(value)
    elif record == "240":
        _read_byes(reading, line, lineno)
    elif record == "299":
        reading.warnings.append(TrfWarning(lineno, 1, "record 299 (abnormal points) is not applied; "
                                                      "give such results with explicit points in JSON"))
    elif record in TEAM_RECORDS:
        if record not in reading.team_records_seen:
            reading.team_records_seen.add(record)
            reading.warnings.append(TrfWarning(
                lineno, 1, f"record {record} ({TEAM_RECORDS[record]}) is a team record: individual "
                           f"results come from the 001 lines, so it changes no individual score (team events "
                           f"are not computed yet); not carried into the JSON tournament"))
    elif record in VERBATIM_RECORDS:
        header.other_records.append(line)
        if record == "192":
            reading.system_192 = _read_system(reading, value.replace("_", " "), lineno, warn=False)
    elif record in DERIVED_RECORDS:
        pass  # counts of players, rated players and teams: the writer counts them again
    elif record.startswith("XX"):  # pairing-program extensions (XXS scoring, XXC colour, ...)
        reading.warnings.append(TrfWarning(lineno, 1, f"extension record {record} is not read; give its "
                                                      f"information as TRF-26 records (142, 162) instead"))
    elif _NRS_RECORD.fullmatch(record) and line[3:4] == " ":
        header.other_records.append(line)  # NRS: national rating records (TRF-26), kept as they are
    elif _RULER_LINE.fullmatch(line) or _LEGEND_LINE.match(line):
        pass  # Swiss-Manager's column ruler and field legend: layout help, not data
    else:
        reading.warnings.append(TrfWarning(lineno, 1, f"record {record!r} is not a TRF record this reader "
                                                      f"knows; line skipped"))


def _whole_number(text: str, lineno: int, column: int, what: str, low: int = 0, high: int | None = None) -> int:
    text = text.strip()
    if not _ASCII_DIGITS.fullmatch(text):
        raise TrfError(lineno, column, f"{what} must be a whole number, found {text!r}")
    number = int(text)
    if number < low or (high is not None and number > high):
        bound = f"{low} to {high}" if high is not None else f"at least {low}"
        raise TrfError(lineno, column, f"{what} must be {bound}, found {number}")
    return number


def _two_digit_year(year: int) -> int:
    return year + (1900 if year >= 69 else 2000)  # the POSIX %y rule


def _date_or_none(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def parse_date(value: str, hint: date | None = None) -> tuple[date | None, str | None]:
    """A date in any spelling TRF files use, and a note when the spelling was not TRF's own.

    YYYY/MM/DD and YY/MM/DD (`.` and `-` too) are TRF's; DD/MM/YYYY, MM/DD/YYYY,
    "28. 07. 2005" and "May 29, 2020" are read too. Day and month of a year-last date are
    told apart by a number above 12, else by `hint` (the first round's date, record 132),
    else day first (the European order of the programs that write it)."""
    value = value.strip()
    if m := _DATE_YEAR_FIRST.fullmatch(value):
        year = int(m[1]) if len(m[1]) == 4 else _two_digit_year(int(m[1]))
        return _date_or_none(year, int(m[2]), int(m[3])), None
    if m := _DATE_YEAR_LAST.fullmatch(value):
        a, b, year = int(m[1]), int(m[2]), int(m[3])
        day_first, month_first = _date_or_none(year, b, a), _date_or_none(year, a, b)
        if day_first is None or month_first is None or day_first == month_first:
            found = day_first or month_first
            return found, None if found is None else f"read {value!r} as {found:%Y-%m-%d}"
        if hint is not None:
            found = min((day_first, month_first), key=lambda d: abs((d - hint).days))
            return found, f"read {value!r} as {found:%Y-%m-%d} (day and month told apart by the round dates, 132)"
        return day_first, (f"read {value!r} as {day_first:%Y-%m-%d}, day first: day and month cannot be told "
                           f"apart (give the round dates, 132, or write YYYY/MM/DD)")
    if m := _DATE_MONTH_NAME.fullmatch(value):
        month_name, day, year = (m[1], m[2], m[3]) if m[1] else (m[5], m[4], m[6])
        month = _MONTHS.get(month_name[:3].lower())
        found = _date_or_none(int(year), month, int(day)) if month else None
        return found, None if found is None else f"read {value!r} as {found:%Y-%m-%d}"
    return None, None


def _read_round_dates(reading: _Reading, line: str, lineno: int) -> None:
    """132: round dates, YY/MM/DD in columns 92-99, 102-109, ... (some programs put one per line)."""
    body = line[HEADER_VALUE - 1:]
    for m in re.finditer(r"\S+", body):
        found, _ = parse_date(m[0])
        if found is None:
            _not_carried(reading, "round date (132) that is not a date", m[0], lineno)
            continue
        reading.header.round_dates.append(found)


def _read_initial_colour(reading: _Reading, line: str, value: str, lineno: int) -> None:
    """152 (TRF-26): the initial colour, W or B. A 152 that carries points is read as 162."""
    if value.upper() in ("W", "B"):
        reading.header.initial_colour = value.lower()
    elif _SCORE_ITEM.search(value):
        reading.scoring = _read_scoring(line, lineno, "152")
        reading.scoring_line = lineno
        reading.warnings.append(TrfWarning(lineno, 1, "record 152 holds points: read as the scoring (162); "
                                                      "TRF-26 gives 152 the initial colour",
                                           "trf-unusual-spelling"))
    elif value:
        _not_carried(reading, "initial colour (152) that is not W or B", value, lineno)


def _read_system(reading: _Reading, value: str, lineno: int, warn: bool) -> System | None:
    words = value.lower().replace("-", " ")
    if _ROUND_ROBIN_WORDS.search(words):
        return System.ROUND_ROBIN
    if _SWISS_WORDS.search(words):
        return System.SWISS
    if value and warn:
        reading.warnings.append(TrfWarning(lineno, HEADER_VALUE, f"tournament type {value!r} not recognised; "
                                                                 f"the system will be inferred",
                                           "trf-unusual-spelling"))
    return None


def _read_scoring(line: str, lineno: int, record: str = "162") -> Scoring:
    """162 (TRF-26): result letter in column 6, points in 7-10, and so on every 9 columns.

    What is not given follows what is, as for the JSON `scoring` (TRF-26 162): W sets the
    forfeit win and full-point bye, P (defaults to W) the pairing-allocated bye, D the half-point
    bye, and L the zero-point bye, forfeit loss and absence unless A gives them."""
    points: dict[str, Fraction] = {}
    body = line[HEADER_VALUE - 1:]
    position = 0
    for m in _SCORE_ITEM.finditer(body):
        gap = body[position:m.start()]
        if gap.strip():
            raise TrfError(lineno, HEADER_VALUE + position + len(gap) - len(gap.lstrip()),
                           f"record {record}: cannot read {gap.strip()!r}")
        position = m.end()
        code, column = m[1].upper(), HEADER_VALUE + m.start()
        if code not in SCORING_CODES:
            raise TrfError(lineno, column, f"record {record}: {m[1]!r} is not one of W D L A P X")
        value = Fraction(Decimal(m[2]))
        if not 0 <= value <= MAX_POINTS:
            raise TrfError(lineno, HEADER_VALUE + m.start(2),
                           f"record {record}: points {m[2]} out of range 0-{MAX_POINTS}")
        points[code] = value
    if body[position:].strip():
        rest = body[position:]
        raise TrfError(lineno, HEADER_VALUE + position + len(rest) - len(rest.lstrip()),
                       f"record {record}: cannot read {rest.strip()!r}")
    given = {name: points[code] for code, names in SCORING_CODES.items() if code in points for name in names}
    return scoring_with_defaults(given)


def scoring_with_defaults(given: dict[str, Fraction]) -> Scoring:
    """The whole scoring from the values given: what is missing follows win, draw and loss.

    Forfeit win, full-point bye and pairing-allocated bye follow `win`; the half-point bye
    follows `draw`; zero-point bye, forfeit loss and absence follow `loss` (TRF-26 162)."""
    base = Scoring()
    win = given.get("win", base.win)
    draw = given.get("draw", base.draw)
    loss = given.get("loss", base.loss)
    follows = {"forfeit_win": win, "full_bye": win, "pairing_bye": win, "half_bye": draw,
               "zero_bye": loss, "forfeit_loss": loss, "absent": loss}
    return replace(base, win=win, draw=draw, loss=loss,
                   **{name: given.get(name, default) for name, default in follows.items()})


def _split_rules(value: str) -> list[str]:
    """202/212: comma-separated tie-break codes (TRF-26); spaces separate them in older files."""
    parts = re.split(r"[,;]", value) if re.search(r"[,;]", value) else value.split()
    return [p.strip() for p in parts if p.strip()]


_SEXES = {"m": "m", "w": "f", "f": "f"}


def _read_identity(reading: _Reading, line: str, lineno: int, number: int) -> dict:
    """Sex, title, federation, FIDE ID and birth date of an 001 line (what is not there stays None)."""
    identity: dict = {}
    sex = SEX.of(line).strip().lower()
    if sex in _SEXES:
        identity["sex"] = _SEXES[sex]
    elif sex:
        _not_carried(reading, "sex (column 10) that is not m, w or f", sex, lineno)
    if title := TITLE.of(line).strip():
        identity["title"] = title
    if federation := FEDERATION.of(line).strip():
        identity["federation"] = federation
    fide_id = FIDE_ID.of(line).strip()
    if _ASCII_DIGITS.fullmatch(fide_id):
        if int(fide_id):
            identity["fide_id"] = int(fide_id)
    elif fide_id and set(fide_id) != {"-"}:  # dashes: "no FIDE ID" in some programs
        _not_carried(reading, "FIDE ID (columns 58-68) that is not a number", fide_id, lineno)
    birth = BIRTH_DATE.of(line).strip()
    year_only = re.fullmatch(r"(\d{4})(?:[/.-]00[/.-]00)?", birth, re.ASCII)  # "1959", "2014/00/00"
    if year_only:
        if int(year_only[1]):
            identity["birth_date"] = year_only[1]
    elif birth and birth.strip("0/.- "):
        found, _ = parse_date(birth)
        if found is None:
            _not_carried(reading, "birth date (columns 70-79) that is not a date", birth, lineno)
        else:
            identity["birth_date"] = f"{found:%Y-%m-%d}"
    return identity


def _not_carried(reading: _Reading, what: str, value: str, lineno: int) -> None:
    """Note a field the JSON tournament cannot hold; one warning per kind of field, with its first value."""
    reading.not_carried.setdefault(what, []).append((lineno, value))


def _read_player(reading: _Reading, line: str, lineno: int) -> None:
    number = _whole_number(START_NUMBER.of(line), lineno, START_NUMBER.first, "start number", low=1)
    if number in reading.player_lines:
        raise TrfError(lineno, START_NUMBER.first,
                       f"start number {number} already used on line {reading.player_lines[number]}")
    rating_text = RATING.of(line).strip()
    rating = _whole_number(rating_text, lineno, RATING.first, "rating") if rating_text else 0
    results: list[RoundResult] = []
    columns: list[tuple[int, int]] = []
    first = FIRST_ROUND_OPPONENT.first
    if line[first - 1 - 2:first - 1].strip():  # columns 90-91 belong to no field
        raise TrfError(lineno, first - 2, "columns 90-91 must be blank (round 1 starts in column 92)")
    rnd = 0
    while first <= len(line):
        rnd += 1
        if rnd > MAX_ROUNDS:
            raise TrfError(lineno, first, f"more than {MAX_ROUNDS} rounds")
        result = _read_round(reading, line, lineno, rnd, first)
        if result is not None:
            results.append(result)
            columns.append((lineno, first))
        first += ROUND_WIDTH
    reading.player_lines[number] = lineno
    reading.result_columns.append(columns)
    reading.points_columns.append((lineno, POINTS.of(line)))
    reading.rank_columns.append(RANK.of(line))
    reading.players.append(Player(id=number, name=NAME.of(line).strip(), rating=rating or None,
                                  results=tuple(results), **_read_identity(reading, line, lineno, number)))


def _read_round(reading: _Reading, line: str, lineno: int, rnd: int, first: int) -> RoundResult | None:
    """One round block: opponent (4 columns), blank, colour, blank, result code."""
    block = line[first - 1 : first - 1 + ROUND_WIDTH].ljust(ROUND_WIDTH)
    colour_column = first + (FIRST_ROUND_COLOUR - FIRST_ROUND_OPPONENT.first)
    result_column = first + (FIRST_ROUND_RESULT - FIRST_ROUND_OPPONENT.first)
    for separator in (4, 6, 8, 9):  # the blanks between and after the fields
        if block[separator] != " ":
            raise TrfError(lineno, first + separator,
                           f"round {rnd}: unexpected {block[separator]!r} (round blocks are 10 columns wide)")
    opponent_text = block[0:4].strip()
    colour_text = block[colour_column - first]
    code = block[result_column - first].upper()
    if colour_text.lower() not in COLOURS:
        raise TrfError(lineno, colour_column, f"round {rnd}: colour {colour_text!r} is not w, b or -")
    colour = COLOURS[colour_text.lower()]
    opponent = 0
    if opponent_text:
        if not _ASCII_DIGITS.fullmatch(opponent_text):
            raise TrfError(lineno, first, f"round {rnd}: opponent {opponent_text!r} is not a start number")
        opponent = int(opponent_text)
    if code == NOT_PLAYED or (opponent and code == " "):  # paired (or marked) but no result yet: not played
        reading.not_played.setdefault(rnd, []).append((lineno, result_column))
        return None
    if opponent:
        if code not in RESULTS_WITH_OPPONENT:
            raise TrfError(lineno, result_column, f"round {rnd}: result {code!r} is not valid with an opponent "
                                                  f"(one of 1 = 0 + - W D L, or blank or * when not played yet)")
        kind, rated = RESULTS_WITH_OPPONENT[code]
        return RoundResult(rnd, kind, opponent, colour, None, rated)
    if code in OLD_BYE_SPELLINGS:
        kind = OLD_BYE_SPELLINGS[code][0]
        reading.old_byes.setdefault(code, []).append((lineno, result_column))
        return RoundResult(rnd, kind)
    if code not in RESULTS_WITHOUT_OPPONENT:
        raise TrfError(lineno, result_column, f"round {rnd}: result {code!r} is not valid without an opponent "
                                              f"(one of U F H Z - or blank)")
    kind = RESULTS_WITHOUT_OPPONENT[code]
    return None if kind is None else RoundResult(rnd, kind)


def _read_byes(reading: _Reading, line: str, lineno: int) -> None:
    """240 (TRF-26): a full-, half- or zero-point bye in one round for the players listed."""
    kind_code = line[BYE_TYPE - 1:BYE_TYPE].upper()
    if kind_code not in BYE_RECORD_KINDS:
        raise TrfError(lineno, BYE_TYPE, f"record 240: bye type {kind_code!r} is not F, H or Z")
    rnd = _whole_number(BYE_ROUND.of(line), lineno, BYE_ROUND.first, "record 240: round", low=1, high=MAX_ROUNDS)
    rest = line[BYE_FIRST_PLAYER - 1:]
    if not rest.strip():
        raise TrfError(lineno, BYE_FIRST_PLAYER, "record 240 names no player")
    for m in re.finditer(r"\S+", rest):
        column = BYE_FIRST_PLAYER + m.start()
        player = _whole_number(m[0], lineno, column, "record 240: player id", low=1)
        reading.byes.append((lineno, column, player, rnd, BYE_RECORD_KINDS[kind_code]))


def _is_team_event(reading: _Reading) -> bool:
    """Team records, or a 092/192 that says so: then 240 names teams, not players (TRF-26)."""
    if reading.team_records_seen:
        return True
    typed = " ".join([reading.header.tournament_type, *(r[4:] for r in reading.header.other_records
                                                          if r.startswith("192"))]).lower()
    return "team" in typed


def _apply_byes(reading: _Reading) -> None:
    """Put each 240 bye into its player's results: into a blank round, or agreeing with the 001 line."""
    if not reading.byes:
        return
    if _is_team_event(reading):
        lines = sorted({b[0] for b in reading.byes})
        reading.warnings.append(TrfWarning(
            lines[0], 1, f"record 240 ({len(lines)} line(s)) names teams in a team event; not applied to "
                         f"players (team events are not computed yet)"))
        return
    index = {p.id: i for i, p in enumerate(reading.players)}
    for lineno, column, player_id, rnd, kind in reading.byes:
        if player_id not in index:
            raise TrfError(lineno, column, f"record 240: no player has start number {player_id}")
        i = index[player_id]
        player = reading.players[i]
        existing = next((r for r in player.results if r.round == rnd), None)
        if existing is None:
            order = sorted(range(len(player.results) + 1),
                           key=lambda j: player.results[j].round if j < len(player.results) else rnd)
            results = (*player.results, RoundResult(rnd, kind))
            columns = [*reading.result_columns[i], (lineno, column)]
            reading.players[i] = replace(player, results=tuple(results[j] for j in order))
            reading.result_columns[i] = [columns[j] for j in order]
        elif existing.result is not kind or existing.opponent is not None:
            raise TrfError(lineno, column, f"record 240 gives player {player_id} a {kind.value} in round {rnd}, "
                                           f"but line {reading.player_lines[player_id]} records "
                                           f"{existing.result.value}")


def _note_lenient_readings(reading: _Reading) -> None:
    """One warning per kind of lenient reading, located at its first occurrence."""
    for code, where in reading.old_byes.items():
        kind, letter = OLD_BYE_SPELLINGS[code]
        line, column = where[0]
        reading.warnings.append(TrfWarning(
            line, column, f"'0000 - {code}' read as a {kind.value.replace('_', '-')} (TRF-26 writes "
                          f"'0000 - {letter}'); {len(where)} round(s) spelt so", "trf-unusual-spelling"))
    for rnd in sorted(reading.not_played):
        where = reading.not_played[rnd]
        line, column = where[0]
        reading.warnings.append(TrfWarning(
            line, column, f"round {rnd}: {len(where)} pairing(s) without a result (blank or '*'): counted as not "
                          f"played", "trf-not-played"))
    for what, where in reading.not_carried.items():
        (line, value), more = where[0], len(where) - 1
        reading.warnings.append(TrfWarning(
            line, 1, f"{what} ({value!r}" + (f", and {more} more line(s)" if more else "")
                     + "): not carried into the JSON tournament", "trf-not-carried"))


def _resolve_dates(reading: _Reading) -> date | None:
    """042 and 052, read once the round dates (132) are known."""
    first_round = next((d for d in reading.header.round_dates if d is not None), None)
    start = None
    if reading.start_text is not None:
        lineno, value = reading.start_text
        start, note = parse_date(value, first_round)
        if start is None and value:
            reading.warnings.append(TrfWarning(lineno, HEADER_VALUE, f"start date {value!r} is not a date "
                                                                     f"(YYYY/MM/DD); ignored, so regulations "
                                                                     f"'auto' cannot use it"))
        elif note:
            reading.warnings.append(TrfWarning(lineno, HEADER_VALUE, f"start date: {note}", "trf-unusual-spelling"))
    if reading.end_text is not None:
        lineno, value = reading.end_text
        end, _ = parse_date(value, start or first_round)
        if end is None and value:
            _not_carried(reading, "end date (052) that is not a date", value, lineno)
        reading.header.end_date = end
    return start


def _check_points_column(reading: _Reading, scoring: Scoring) -> None:
    """Columns 81-84 against the results: a mismatch is a warning per player (a column of zeros is unused)."""
    claimed: list[tuple[int, Player, Fraction]] = []
    for (lineno, text), player in zip(reading.points_columns, reading.players):
        text = text.strip()
        if not text:
            continue
        try:
            claimed.append((lineno, player, Fraction(Decimal(text.replace(",", ".")))))
        except (InvalidOperation, ValueError):
            reading.warnings.append(TrfWarning(lineno, POINTS.first, f"points {text!r} (columns 81-84) are not a "
                                                                     f"number; not compared", "trf-points-mismatch"))
    if not any(points for _, _, points in claimed):
        return
    mismatches = 0
    for lineno, player, points in claimed:
        computed = sum((r.points if r.points is not None else scoring.points_for(r.result) for r in player.results),
                       Fraction(0))
        if computed != points:
            mismatches += 1
            reading.warnings.append(TrfWarning(
                lineno, POINTS.first, f"player {player.id}: the points column says {_decimal(points)}, the results "
                                      f"give {_decimal(computed)} under the scoring read "
                                      f"({_decimal(scoring.win)}-{_decimal(scoring.draw)}-{_decimal(scoring.loss)}); "
                                      f"the standings use the results", "trf-points-mismatch"))
    if mismatches and not reading.scoring_line:
        hint = _scoring_hint(claimed)
        if hint:
            reading.warnings.append(TrfWarning(
                claimed[0][0], POINTS.first, f"the points column fits {hint} scoring: the file has no record 162 "
                                             f"saying so; send `scoring` (or add 162) to compute with it",
                "trf-points-mismatch"))


def _scoring_hint(claimed: list[tuple[int, Player, Fraction]]) -> str | None:
    """A common scoring under which every points column agrees, if there is one."""
    for win, draw in ((3, 1), (2, 1), (3, 2)):
        scoring = scoring_with_defaults({"win": Fraction(win), "draw": Fraction(draw)})
        if all(sum((scoring.points_for(r.result) for r in player.results), Fraction(0)) == points
               for _, player, points in claimed):
            return f"{win}-{draw}-0"
    return None


def _decimal(value: Fraction) -> str:
    return f"{float(value):g}" if value.denominator in (1, 2, 4, 5, 10, 20, 25, 50, 100) else str(value)


def _last_round_with_a_game(players: list[Player]) -> int:
    return max((r.round for p in players for r in p.results if r.result.has_opponent), default=0)


def _finish(reading: _Reading) -> TrfDocument:
    if not reading.players:
        raise TrfError(1, 1, "no player records (001) found")
    _apply_byes(reading)
    start = _resolve_dates(reading)
    last_round = max((r.round for p in reading.players for r in p.results), default=0)
    # Pairings without a result count for the number of rounds too: the round exists.
    last_paired = max([last_round, *reading.not_played])
    rounds = reading.rounds
    if rounds is None:
        rounds = max(last_paired, 1)
    elif last_round > rounds:
        raise TrfError(reading.rounds_line, HEADER_VALUE,
                       f"record 142 says {rounds} rounds but results reach round {last_round}")
    if reading.tiebreaks_202 is not None:
        tiebreaks = reading.tiebreaks_202
    else:  # 212 is 202 with PTS in front (TRF-26); points always rank first here
        tiebreaks = [t for t in reading.tiebreaks_212 or [] if t.upper() != "PTS"]
    _check_points_column(reading, reading.scoring)
    _note_lenient_readings(reading)
    system = reading.system or reading.system_192
    tournament = Tournament(players=tuple(reading.players), rounds=rounds, system=system,
                            scoring=reading.scoring, name=reading.name, start_date=start)
    source = TrfSource([reading.player_lines[p.id] for p in reading.players], reading.result_columns)
    return TrfDocument(tournament, list(reading.warnings), tiebreaks, header=reading.header, source=source,
                       points_written=[text for _, text in reading.points_columns],
                       ranks_written=list(reading.rank_columns),
                       warnings_omitted=getattr(reading.warnings, "omitted", 0))
