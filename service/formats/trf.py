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
from decimal import Decimal
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
COLOURS = {"w": Color.WHITE, "b": Color.BLACK, "-": None, " ": None}
BYE_RECORD_KINDS = {"F": ResultKind.FULL_BYE, "H": ResultKind.HALF_BYE, "Z": ResultKind.ZERO_BYE}

# Header records a standings computation does not need: skipped without a warning.
QUIET_RECORDS = frozenset({
    "022", "032", "052", "062", "072", "082", "102", "112", "122", "132", "152", "172", "182", "192",
    "222", "250", "260", "352", "362",
})
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
_DATE = re.compile(r"(\d{4}|\d{2})[/.-](\d{1,2})[/.-](\d{1,2})", re.ASCII)
_SCORE_ITEM = re.compile(r"([A-Za-z])\s*(-?[0-9]+(?:\.[0-9]+)?)", re.ASCII)
_DECLARED_ENCODING = re.compile(rb"^###.*?\b(?:en)?coding\s*[:=]\s*([-\w.]+)", re.I | re.M)
_NRS_RECORD = re.compile(r"[A-Z]{3}")


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
    tiebreaks: list[str]  # from record 202 (or 212 without its PTS)
    encoding: str = "utf-8"
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
    start: date | None = None
    system: System | None = None
    rounds: int | None = None
    rounds_line: int = 0
    scoring: Scoring = field(default_factory=Scoring)
    tiebreaks_202: list[str] | None = None
    tiebreaks_212: list[str] | None = None
    players: list[Player] = field(default_factory=list)
    player_lines: dict[int, int] = field(default_factory=dict)  # start number -> line
    byes: list[tuple[int, int, int, int, ResultKind]] = field(default_factory=list)  # line, col, id, round, kind
    team_records_seen: set[str] = field(default_factory=set)


def parse_trf(text: str, max_warnings: int | None = None) -> TrfDocument:
    """Read TRF text. Raises TrfError (line, column) for a line that cannot be read.

    With `max_warnings`, only that many warnings are kept; `warnings_omitted` counts the rest.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    reading = _Reading(warnings=_CappedWarnings(max_warnings))
    # Records end with CR (TRF-26 remark 1), LF or CR LF: all read the same.
    for lineno, raw in enumerate(re.split(r"\r\n|\r|\n", text), start=1):
        line = raw.rstrip()
        if not line or line.startswith("###"):
            continue
        _read_line(reading, line, lineno)
    return _finish(reading)


def _read_line(reading: _Reading, line: str, lineno: int) -> None:
    record = RECORD.of(line)
    value = line[HEADER_VALUE - 1:].strip()
    if record == "001":
        _read_player(reading, line, lineno)
    elif record == "012":
        reading.name = value
    elif record == "042":
        reading.start = _read_date(reading, value, lineno)
    elif record == "092":
        reading.system = _read_system(reading, value, lineno)
    elif record in ("142", "XXR"):  # XXR: the same, as written by pairing programs before TRF-26
        reading.rounds = _whole_number(value, lineno, HEADER_VALUE, "number of rounds", low=1, high=MAX_ROUNDS)
        reading.rounds_line = lineno
    elif record == "162":
        reading.scoring = _read_scoring(line, lineno)
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
                           f"results come from the 001 lines, so it changes no individual score"))
    elif record.startswith("XX"):  # pairing-program extensions (XXS scoring, XXC colour, ...)
        reading.warnings.append(TrfWarning(lineno, 1, f"extension record {record} is not read; give its "
                                                      f"information as TRF-26 records (142, 162) instead"))
    elif record in QUIET_RECORDS or (_NRS_RECORD.fullmatch(record) and line[3:4] == " "):
        pass  # known records standings do not need; NRS: national ratings (TRF-26)
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


def _read_date(reading: _Reading, value: str, lineno: int) -> date | None:
    """042: YYYY/MM/DD (TRF-26) or YY/MM/DD (older files; 69-99 -> 19xx, 00-68 -> 20xx)."""
    m = _DATE.fullmatch(value)
    if m:
        year = int(m[1])
        if len(m[1]) == 2:
            year += 1900 if year >= 69 else 2000
        try:
            return date(year, int(m[2]), int(m[3]))
        except ValueError:
            pass
    if value:
        reading.warnings.append(TrfWarning(lineno, HEADER_VALUE, f"start date {value!r} is not a date "
                                                                 f"(YYYY/MM/DD); ignored, so regulations "
                                                                 f"'auto' cannot use it"))
    return None


def _read_system(reading: _Reading, value: str, lineno: int) -> System | None:
    words = value.lower()
    if "robin" in words or "berger" in words or re.search(r"\brr\b", words):
        return System.ROUND_ROBIN
    if "swiss" in words:
        return System.SWISS
    if value:
        reading.warnings.append(TrfWarning(lineno, HEADER_VALUE, f"tournament type {value!r} not recognised; "
                                                                 f"the system will be inferred"))
    return None


def _read_scoring(line: str, lineno: int) -> Scoring:
    """162 (TRF-26): result letter in column 6, points in 7-10, and so on every 9 columns."""
    points: dict[str, Fraction] = {}
    body = line[HEADER_VALUE - 1:]
    position = 0
    for m in _SCORE_ITEM.finditer(body):
        gap = body[position:m.start()]
        if gap.strip():
            raise TrfError(lineno, HEADER_VALUE + position + len(gap) - len(gap.lstrip()),
                           f"record 162: cannot read {gap.strip()!r}")
        position = m.end()
        code, column = m[1].upper(), HEADER_VALUE + m.start()
        if code not in SCORING_CODES:
            raise TrfError(lineno, column, f"record 162: {m[1]!r} is not one of W D L A P X")
        value = Fraction(Decimal(m[2]))
        if not 0 <= value <= MAX_POINTS:
            raise TrfError(lineno, HEADER_VALUE + m.start(2), f"record 162: points {m[2]} out of range 0-{MAX_POINTS}")
        points[code] = value
    if body[position:].strip():
        rest = body[position:]
        raise TrfError(lineno, HEADER_VALUE + position + len(rest) - len(rest.lstrip()),
                       f"record 162: cannot read {rest.strip()!r}")
    if "W" in points and "P" not in points:
        points["P"] = points["W"]  # P defaults to the value of W
    fields = {name: points[code] for code, names in SCORING_CODES.items() if code in points for name in names}
    return replace(Scoring(), **fields)


def _split_rules(value: str) -> list[str]:
    """202/212: comma-separated tie-break codes (TRF-26); spaces separate them in older files."""
    parts = re.split(r"[,;]", value) if re.search(r"[,;]", value) else value.split()
    return [p.strip() for p in parts if p.strip()]


def _read_player(reading: _Reading, line: str, lineno: int) -> None:
    number = _whole_number(START_NUMBER.of(line), lineno, START_NUMBER.first, "start number", low=1)
    if number in reading.player_lines:
        raise TrfError(lineno, START_NUMBER.first,
                       f"start number {number} already used on line {reading.player_lines[number]}")
    rating_text = RATING.of(line).strip()
    rating = _whole_number(rating_text, lineno, RATING.first, "rating") if rating_text else 0
    results: list[RoundResult] = []
    first = FIRST_ROUND_OPPONENT.first
    if line[first - 1 - 2:first - 1].strip():  # columns 90-91 belong to no field
        raise TrfError(lineno, first - 2, "columns 90-91 must be blank (round 1 starts in column 92)")
    rnd = 0
    while first <= len(line):
        rnd += 1
        if rnd > MAX_ROUNDS:
            raise TrfError(lineno, first, f"more than {MAX_ROUNDS} rounds")
        result = _read_round(line, lineno, rnd, first)
        if result is not None:
            results.append(result)
        first += ROUND_WIDTH
    reading.player_lines[number] = lineno
    reading.players.append(Player(id=number, name=NAME.of(line).strip(), rating=rating or None,
                                  results=tuple(results)))


def _read_round(line: str, lineno: int, rnd: int, first: int) -> RoundResult | None:
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
    if opponent:
        if code not in RESULTS_WITH_OPPONENT:
            raise TrfError(lineno, result_column, f"round {rnd}: result {code!r} is not valid with an opponent "
                                                  f"(one of 1 = 0 + - W D L)")
        kind, rated = RESULTS_WITH_OPPONENT[code]
        return RoundResult(rnd, kind, opponent, colour, None, rated)
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


def _apply_byes(reading: _Reading) -> None:
    """Put each 240 bye into its player's results: into a blank round, or agreeing with the 001 line."""
    index = {p.id: i for i, p in enumerate(reading.players)}
    for lineno, column, player_id, rnd, kind in reading.byes:
        if player_id not in index:
            raise TrfError(lineno, column, f"record 240: no player has start number {player_id}")
        player = reading.players[index[player_id]]
        existing = next((r for r in player.results if r.round == rnd), None)
        if existing is None:
            results = tuple(sorted((*player.results, RoundResult(rnd, kind)), key=lambda r: r.round))
            reading.players[index[player_id]] = replace(player, results=results)
        elif existing.result is not kind or existing.opponent is not None:
            raise TrfError(lineno, column, f"record 240 gives player {player_id} a {kind.value} in round {rnd}, "
                                           f"but line {reading.player_lines[player_id]} records "
                                           f"{existing.result.value}")


def _finish(reading: _Reading) -> TrfDocument:
    if not reading.players:
        raise TrfError(1, 1, "no player records (001) found")
    _apply_byes(reading)
    last_round = max((r.round for p in reading.players for r in p.results), default=0)
    rounds = reading.rounds
    if rounds is None:
        rounds = max(last_round, 1)
    elif last_round > rounds:
        raise TrfError(reading.rounds_line, HEADER_VALUE,
                       f"record 142 says {rounds} rounds but results reach round {last_round}")
    if reading.tiebreaks_202 is not None:
        tiebreaks = reading.tiebreaks_202
    else:  # 212 is 202 with PTS in front (TRF-26); points always rank first here
        tiebreaks = [t for t in reading.tiebreaks_212 or [] if t.upper() != "PTS"]
    tournament = Tournament(players=tuple(reading.players), rounds=rounds, system=reading.system,
                            scoring=reading.scoring, name=reading.name, start_date=reading.start)
    omitted = getattr(reading.warnings, "omitted", 0)
    return TrfDocument(tournament, list(reading.warnings), tiebreaks, warnings_omitted=omitted)
