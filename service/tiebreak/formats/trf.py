"""FIDE Tournament Report File reader (TRF-16 and TRF-26): text in, the engine's Tournament out.

An adapter: it builds `tiebreak.engine.model.Tournament` and nothing else. Lenient where
the format is loose (records it does not need, unknown records: located warnings),
strict where a number would change (a broken player line: `TrfError` with line and
column). Column positions follow the FIDE descriptions (TRF-16, TRF-26), 1-based and
inclusive as printed there.
"""

from __future__ import annotations

import dataclasses

import codecs
import itertools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Literal

import numpy as np

from ..texts.message import msg, msg_n
from ..engine.model import (
    COLOR_CODES,
    Color,
    Player,
    PlayerRatings,
    ResultColumns,
    ResultKind,
    RoundResult,
    Scoring,
    System,
    Tournament,
)

# TRF round fields are three digits wide (records 240, 250, 260, 300, 330).
MAX_ROUNDS = 999
MAX_POINTS = 100  # per result, in record 162: a sanity bound, not a format rule


@dataclass(frozen=True, slots=True)
class Span:
    """Columns `first`..`last` of a line, 1-based and inclusive as in the FIDE tables."""

    first: int
    last: int
    # The slice made once at import: an 001 line is cut a dozen times, 40 lines a small call.
    cols: slice = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cols", slice(self.first - 1, self.last))

    def of(self, line: str) -> str:
        return line[self.cols]


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
    "013": msg("team composition"),
    "310": msg("team"),
    "300": msg("team board order (out of default order)"),
    "320": msg("team pairing-allocated bye"),
    "330": msg("forfeited team match"),
    "801": msg("team result"),
    "802": msg("team result"),
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
# Year first: YYYY/MM/DD (TRF-26), YY/MM/DD (older files); `.` and `-` too, blanks after them allowed.
_DATE_YEAR_FIRST = re.compile(r"(\d{4}|\d{2})\s*[/.-]\s*(\d{1,2})\s*[/.-]\s*(\d{1,2})", re.ASCII)
# Year last: DD/MM/YYYY or MM/DD/YYYY (Swiss-Manager, Vega, JaVaFo), "28. 07. 2005" (Sharly, SKlangen).
_DATE_YEAR_LAST = re.compile(r"(\d{1,2})\s*[/.-]\s*(\d{1,2})\s*[/.-]\s*(\d{4})", re.ASCII)
# "May 29, 2020" (lichess), "29 May 2020".
_DATE_MONTH_NAME = re.compile(
    r"([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})|(\d{1,2})\.?\s+([A-Za-z]{3,9})\.?,?\s+(\d{4})", re.ASCII
)
_MONTHS = {
    name: i
    for i, name in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), start=1
    )
}
# Swiss-Manager writes a column ruler and a field legend above the player lines.
_RULER_LINE = re.compile(r"[0-9 ]+")
_LEGEND_LINE = re.compile(r"DDD SSSS ")
# 092/192 words that name a Swiss or a round robin (pairing systems, acceleration methods).
_SWISS_WORDS = re.compile(r"\b(swiss|dutch|dubov|burstein|lim|monrad|baku|accelerated|olympiad)\b")
_ROUND_ROBIN_WORDS = re.compile(r"\b(round robin|robin|rr|berger|all play all)\b")
_SCORE_ITEM = re.compile(r"([A-Za-z])\s*(-?[0-9]+(?:\.[0-9]+)?)", re.ASCII)
_DECLARED_ENCODING = re.compile(rb"^###.*?\b(?:en)?coding\s*[:=]\s*([-\w.]+)", re.I | re.M)
_NRS_RECORD = re.compile(r"[A-Z]{3}")
# A changed rule list as the writer records it (SPEC 3.12; TRF-26 remark 1 allows `###` comments).
_CHANGE_COMMENT = re.compile(r"^### tiebreaks changed from round (\d+); previous: (.*?)\s*$", re.M)


@dataclass(frozen=True, slots=True)
class TrfWarning:
    line: int
    column: int
    message: str
    # trf-line-ignored (a line or record skipped), trf-unusual-spelling (read, but not as the
    # format spells it), trf-not-played (paired, no result yet), trf-points-mismatch (column
    # 81-84 against the results), trf-not-carried (kept out of the JSON tournament)
    code: str = "trf-line-ignored"


def located_warning(w: TrfWarning) -> str:
    """The warning with the place it was found, as answers and the command line give it."""
    return msg("line {line}, column {column}: {message}", line=w.line, column=w.column, message=w.message)


class TrfError(ValueError):
    """A TRF line that cannot be read; names its line and column (1-based)."""

    def __init__(self, line: int, column: int, message: str):
        self.line, self.column, self.message = line, column, message  # a Msg: rendered at the edge
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
    initial_colour: Literal["w", "b"] | None = None  # 152
    other_records: list[str] = field(default_factory=list)  # 172 182 192 222 250 260 352 362, NRS: verbatim


@dataclass(slots=True)
class TrfSource:
    """Where each player and result came from, so that a later error can point at the TRF text.

    A result read from an 001 line sits in its round's block (column 92 + 10 per round before
    it); one put in by a 240 record is located at the player id in that record (`byes`)."""

    player_lines: list[int] = field(default_factory=list)  # by player index
    counts: Sequence[int] | np.ndarray = ()  # results per player, as in the tournament's columns
    rounds: Sequence[int] | np.ndarray = ()  # the round of every result, player after player
    byes: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)  # (player, round) -> (line, column)
    _offsets: list[int] | None = field(default=None, init=False, repr=False, compare=False)

    def _where(self, player: int, result: int) -> tuple[int, int] | None:
        """Line and column of the first field of a player's result, None when there is no such result."""
        if player >= len(self.counts) or not 0 <= result < self.counts[player]:
            return None
        if self._offsets is None:
            self._offsets = [0, *itertools.accumulate(int(c) for c in self.counts)]
        rnd = int(self.rounds[self._offsets[player] + result])
        bye = self.byes.get((player, rnd))
        if bye is not None:
            return bye
        return self.player_lines[player], FIRST_ROUND_OPPONENT.first + (rnd - 1) * ROUND_WIDTH

    def locate(self, player: int, result: int | None = None, what: str | None = None) -> tuple[int, int]:
        """Line and column of a player's start number, or of one of their results' fields."""
        where = None if result is None else self._where(player, result)
        if where is None:
            return self.player_lines[player], START_NUMBER.first
        line, column = where
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
    # `### tiebreaks changed from round N; previous: A, B` comment lines (SPEC 3.12): round, previous list
    tiebreak_changes: list[tuple[int, list[str]]] = field(default_factory=list)


class _CappedWarnings(list[TrfWarning]):
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
        return _decode_strictly(data[len(codecs.BOM_UTF8) :], "utf-8", line_offset=0), "utf-8", warnings
    # The search tries every line start: files without a ### comment skip it.
    declared = _DECLARED_ENCODING.search(data) if b"###" in data else None
    if declared:
        name = declared[1].decode("ascii", "replace")
        try:
            codec = codecs.lookup(name).name
        except LookupError:
            line = data.count(b"\n", 0, declared.start()) + 1
            warnings.append(
                TrfWarning(
                    line,
                    declared.start(1) - declared.start() + 1,
                    msg("declared encoding {name} is unknown; guessing instead", name=repr(name)),
                )
            )
        else:
            return _decode_strictly(data, codec, line_offset=0), codec, warnings
    try:
        return data.decode("utf-8"), "utf-8", warnings
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        warnings.append(TrfWarning(line, column, msg("not UTF-8: read as Windows-1252 (Latin-1)")))
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
        raise TrfError(
            line, column, msg("byte {start} is not valid {codec}", start=format(data[exc.start], "#04x"), codec=codec)
        ) from None
    except (UnicodeError, LookupError) as exc:  # a codec that rejects the whole input, or is no text encoding
        raise TrfError(1, 1, msg("cannot decode as {codec}: {exc}", codec=codec, exc=exc)) from None


def read_trf(data: bytes | str, *, columns: bool = False) -> TrfDocument:
    """Read a TRF file's bytes (encoding detected, see `decode_trf`) or text (`columns`: see `parse_trf`)."""
    if isinstance(data, str):
        return parse_trf(data, columns=columns)
    text, encoding, warnings = decode_trf(data)
    document = parse_trf(text, columns=columns)
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
    players: list[Player] = field(default_factory=list)  # without their results (see `blocks`)
    player_lines: dict[int, int] = field(default_factory=dict)  # start number -> line
    # The round blocks of every 001 line, read at once; a line they could not read (a broken
    # block, a line far longer than the others) is read block by block into `results_read_one_by_one`.
    blocks: _RoundBlocks | None = None
    results_read_one_by_one: dict[int, list[tuple[int, int, int, int, bool]]] = field(default_factory=dict)
    fields: _PlayerFields | None = None  # the fixed fields of every 001 line, read at once
    points_columns: list[tuple[int, str]] = field(default_factory=list)  # per player: line, text of 81-84
    awarded: list[_Awarded] = field(default_factory=list)  # 299: points awarded by the arbiter
    rank_columns: list[str] = field(default_factory=list)  # per player: text of 86-89
    byes: list[tuple[int, int, int, int, ResultKind]] = field(default_factory=list)  # line, col, id, round, kind
    team_records_seen: set[str] = field(default_factory=set)
    old_byes: dict[str, list[tuple[int, int]]] = field(default_factory=dict)  # code -> where
    not_played: dict[int, list[tuple[int, int]]] = field(default_factory=dict)  # round -> where
    not_carried: dict[str, list[tuple[int, str]]] = field(default_factory=dict)  # what -> (line, value)
    national: dict[int, int] = field(default_factory=dict)  # NRS records: start number -> national rating


def parse_trf(text: str, max_warnings: int | None = None, *, columns: bool = False) -> TrfDocument:
    """Read TRF text. Raises TrfError (line, column) for a line that cannot be read.

    With `max_warnings`, only that many warnings are kept; `warnings_omitted` counts the rest.
    With `columns`, the results go straight into the tournament's `columns` (what the engine
    reads) and the players carry none; without, every player carries its RoundResult objects
    (for the TRF writer, the JSON conversion and team events).
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    reading = _Reading(warnings=_CappedWarnings(max_warnings))
    # Records end with CR (TRF-26 remark 1), LF or CR LF: all read the same (CR LF first, as one).
    lines = [
        (lineno, line)
        for lineno, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1)
        if (line := raw.rstrip()) and not line.startswith("###")
    ]
    player_lines = [line for _, line in lines if line.startswith("001")]
    reading.blocks = _scan_round_blocks(player_lines)
    reading.fields = _scan_player_fields(player_lines)
    changes = [(int(m[1]), _split_rules(m[2])) for m in _CHANGE_COMMENT.finditer(text)] if "###" in text else []
    try:
        for lineno, line in lines:
            _read_line(reading, line, lineno)
        document = _finish(reading, columns)
        document.tiebreak_changes = changes
        return document
    except TrfError as exc:
        exc.warnings = list(reading.warnings)
        raise


def _read_line(reading: _Reading, line: str, lineno: int) -> None:
    """One line, by its record (columns 1-3): a player, a header record, or a line skipped with a warning."""
    record = line[:3]  # RECORD
    if record == "001":
        _read_player(reading, line, lineno)
        return
    value = line[HEADER_VALUE - 1 :].strip()
    read = _HEADER_READERS.get(record)
    if read is not None:
        read(reading, line, value, lineno)
    elif record in TEAM_RECORDS:
        _note_team_record(reading, record, lineno)
    elif record in VERBATIM_RECORDS:
        reading.header.other_records.append(line)
        if record == "192":
            reading.system_192 = _read_system(reading, value.replace("_", " "), lineno, warn=False)
    elif record in DERIVED_RECORDS:
        pass  # counts of players, rated players and teams: the writer counts them again
    elif record.startswith("XX"):  # pairing-program extensions (XXS scoring, XXC colour, ...)
        reading.warnings.append(
            TrfWarning(
                lineno,
                1,
                msg(
                    "extension record {record} is not read; give its information as TRF-26 records (142, 162) instead",
                    record=record,
                ),
            )
        )
    elif _NRS_RECORD.fullmatch(record) and line[3:4] == " ":
        reading.header.other_records.append(line)  # NRS: national rating records (TRF-26), kept as they are
        _read_national_rating(reading, line)
    elif _RULER_LINE.fullmatch(line) or _LEGEND_LINE.match(line):
        pass  # Swiss-Manager's column ruler and field legend: layout help, not data
    else:
        reading.warnings.append(
            TrfWarning(
                lineno,
                1,
                msg("record {record} is not a TRF record this reader knows; line skipped", record=repr(record)),
            )
        )


def _read_national_rating(reading: _Reading, line: str) -> None:
    """An NRS record's national rating (TRF-26: starting rank in columns 5-8, national rating in
    49-52), for `ratings.source`; a record without a readable one adds nothing."""
    start, rating = line[4:8].strip(), line[48:52].strip()
    if _is_ascii_number(start) and _is_ascii_number(rating) and int(rating) > 0:
        reading.national[int(start)] = int(rating)


def _read_rounds_record(reading: _Reading, line: str, value: str, lineno: int) -> None:
    """142 (XXR before TRF-26): the number of rounds."""
    reading.rounds = _whole_number(value, lineno, HEADER_VALUE, msg("number of rounds"), low=1, high=MAX_ROUNDS)
    reading.rounds_line = lineno


def _read_scoring_record(reading: _Reading, line: str, value: str, lineno: int) -> None:
    """162 (TRF-26): the points of each result."""
    reading.scoring = _read_scoring(line, lineno, "162")
    reading.scoring_line = lineno


@dataclass(frozen=True, slots=True)
class _Awarded:
    """A record 299 of points: `points` added in `round` (None: every round) to each of `players`
    (None: everyone)."""

    line: int
    points: Fraction
    round: int | None
    players: tuple[int, ...] | None


# TRF-26 record 299 (abnormal points assigned): column 5 the kind of assignment, 8-11 match
# points, 14-17 points, 20-22 the round (blank or 000: every round), from 24 the participants,
# four digits every five columns (blank or 0000: everyone).
_AWARD_KIND, _AWARD_MATCH, _AWARD_POINTS, _AWARD_ROUND = Span(5, 5), Span(8, 11), Span(14, 17), Span(20, 22)
_AWARD_TARGETS = 24


def _read_abnormal_points(reading: _Reading, line: str, value: str, lineno: int) -> None:
    """299: points the arbiter awards (a bonus or a penalty) in a round to named participants. Only the
    plain form (column 5 blank, points in 14-17) is applied; a result assigned instead is reported."""
    kind = _AWARD_KIND.of(line).strip()
    points_text = _AWARD_POINTS.of(line).strip()
    if kind or not points_text or _AWARD_MATCH.of(line).strip():
        reading.warnings.append(
            TrfWarning(
                lineno,
                1,
                msg(
                    "record 299 (abnormal points) with a result assigned (column 5) or match points (columns "
                    "8-11) is not applied; points in columns 14-17 with column 5 blank are"
                ),
            )
        )
        return
    try:
        points = Fraction(Decimal(points_text))
    except (InvalidOperation, ValueError):
        raise TrfError(
            lineno, _AWARD_POINTS.first, msg("record 299: points {text} are not a number", text=repr(points_text))
        ) from None
    round_text = _AWARD_ROUND.of(line).strip()
    rnd = (
        _whole_number(round_text, lineno, _AWARD_ROUND.first, msg("record 299: round"))
        if round_text.strip("0")
        else None
    )
    players = [
        _whole_number(line[column - 1 : column + 3].strip(), lineno, column, msg("record 299: start number"), 1)
        for column in award_target_columns(line)
    ]
    reading.awarded.append(_Awarded(lineno, points, rnd, tuple(players) or None))


def award_target_columns(line: str) -> list[int]:
    """The columns of record 299's targets (4 characters every 5 from `_AWARD_TARGETS`) up to the
    first blank one, without the zeros (no target: the whole field)."""
    columns = []
    for column in range(_AWARD_TARGETS, len(line.rstrip()) + 1, 5):
        target = line[column - 1 : column + 3].strip()
        if not target:
            break
        if target.strip("0"):
            columns.append(column)
    return columns


def _note_team_record(reading: _Reading, record: str, lineno: int) -> None:
    """A team record: one warning per kind (the individual results are the 001 lines')."""
    if record in reading.team_records_seen:
        return
    reading.team_records_seen.add(record)
    reading.warnings.append(
        TrfWarning(
            lineno,
            1,
            msg(
                "record {record} ({name}) is a team record: individual results come from the 001 lines, so it changes no individual score (team events are not computed yet); not carried into the JSON tournament",
                record=record,
                name=TEAM_RECORDS[record],
            ),
        )
    )


def _set_header(name: str) -> Callable[[_Reading, str, str, int], None]:
    """A header record kept as written, in `TrfHeader.name`."""

    def read(reading: _Reading, line: str, value: str, lineno: int) -> None:
        setattr(reading.header, name, value)

    return read


def _read_deputy(reading: _Reading, line: str, value: str, lineno: int) -> None:
    if value:
        reading.header.deputy_arbiters.append(value)


def _read_type(reading: _Reading, line: str, value: str, lineno: int) -> None:
    """092: the tournament type as written, and the system it names."""
    reading.header.tournament_type = value
    reading.system = _read_system(reading, value, lineno, warn=True)


def _read_rules(attribute: str) -> Callable[[_Reading, str, str, int], None]:
    """202 and 212: the tie-break codes."""

    def read(reading: _Reading, line: str, value: str, lineno: int) -> None:
        setattr(reading, attribute, _split_rules(value))

    return read


def _read_name(reading: _Reading, line: str, value: str, lineno: int) -> None:
    reading.name = value


def _read_start(reading: _Reading, line: str, value: str, lineno: int) -> None:
    reading.start_text = (lineno, value)  # read once the round dates (132) are known


def _read_end(reading: _Reading, line: str, value: str, lineno: int) -> None:
    reading.end_text = (lineno, value)


def _is_ascii_number(text: str) -> bool:
    """ASCII digits only, at least one (str.isdigit alone takes other scripts' digits too)."""
    return text.isascii() and text.isdigit()


def _whole_number(text: str, lineno: int, column: int, what: str, low: int = 0, high: int | None = None) -> int:
    text = text.strip()
    if not _is_ascii_number(text):
        raise TrfError(lineno, column, msg("{what} must be a whole number, found {text}", what=what, text=repr(text)))
    number = int(text)
    if number < low or (high is not None and number > high):
        bound = msg("{low} to {high}", low=low, high=high) if high is not None else msg("at least {low}", low=low)
        raise TrfError(
            lineno, column, msg("{what} must be {bound}, found {number}", what=what, bound=bound, number=number)
        )
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
            return found, msg(
                "read {value} as {found} (day and month told apart by the round dates, 132)",
                value=repr(value),
                found=format(found, "%Y-%m-%d"),
            )
        return day_first, (
            msg(
                "read {value} as {day_first}, day first: day and month cannot be told apart (give the round dates, 132, or write YYYY/MM/DD)",
                value=repr(value),
                day_first=format(day_first, "%Y-%m-%d"),
            )
        )
    if m := _DATE_MONTH_NAME.fullmatch(value):
        month_name, day_text, year_text = (m[1], m[2], m[3]) if m[1] else (m[5], m[4], m[6])
        month = _MONTHS.get(month_name[:3].lower())
        found = _date_or_none(int(year_text), month, int(day_text)) if month else None
        return found, None if found is None else f"read {value!r} as {found:%Y-%m-%d}"
    return None, None


def _read_round_dates(reading: _Reading, line: str, value: str, lineno: int) -> None:
    """132: round dates, YY/MM/DD in columns 92-99, 102-109, ... (some programs put one per line)."""
    body = line[HEADER_VALUE - 1 :]
    for m in re.finditer(r"\S+", body):
        found, _ = parse_date(m[0])
        if found is None:
            _not_carried(reading, msg("round date (132) that is not a date"), m[0], lineno)
            continue
        reading.header.round_dates.append(found)


_INITIAL_COLOURS: dict[str, Literal["w", "b"]] = {"W": "w", "B": "b"}


def _read_initial_colour(reading: _Reading, line: str, value: str, lineno: int) -> None:
    """152 (TRF-26): the initial colour, W or B. A 152 that carries points is read as 162."""
    if (colour := _INITIAL_COLOURS.get(value.upper())) is not None:
        reading.header.initial_colour = colour
    elif _SCORE_ITEM.search(value):
        reading.scoring = _read_scoring(line, lineno, "152")
        reading.scoring_line = lineno
        reading.warnings.append(
            TrfWarning(
                lineno,
                1,
                msg("record 152 holds points: read as the scoring (162); TRF-26 gives 152 the initial colour"),
                "trf-unusual-spelling",
            )
        )
    elif value:
        _not_carried(reading, msg("initial colour (152) that is not W or B"), value, lineno)


def _read_system(reading: _Reading, value: str, lineno: int, warn: bool) -> System | None:
    words = value.lower().replace("-", " ")
    if _ROUND_ROBIN_WORDS.search(words):
        return System.ROUND_ROBIN
    if _SWISS_WORDS.search(words):
        return System.SWISS
    if value and warn:
        reading.warnings.append(
            TrfWarning(
                lineno,
                HEADER_VALUE,
                msg("tournament type {value} not recognised; the system will be inferred", value=repr(value)),
                "trf-unusual-spelling",
            )
        )
    return None


def _read_scoring(line: str, lineno: int, record: str = "162") -> Scoring:
    """162 (TRF-26): result letter in column 6, points in 7-10, and so on every 9 columns.

    What is not given follows what is, as for the JSON `scoring` (TRF-26 162): W sets the
    forfeit win and full-point bye, P (defaults to W) the pairing-allocated bye, D the half-point
    bye; A sets the zero-point bye, forfeit loss and absence, 0 when not given (not L's value)."""
    points: dict[str, Fraction] = {}
    body = line[HEADER_VALUE - 1 :]
    position = 0
    for m in _SCORE_ITEM.finditer(body):
        gap = body[position : m.start()]
        if gap.strip():
            raise TrfError(
                lineno,
                HEADER_VALUE + position + len(gap) - len(gap.lstrip()),
                msg("record {record}: cannot read {text}", record=record, text=repr(gap.strip())),
            )
        position = m.end()
        code, column = m[1].upper(), HEADER_VALUE + m.start()
        if code not in SCORING_CODES:
            raise TrfError(
                lineno,
                column,
                msg("record {record}: {letter} is not one of W D L A P X", record=record, letter=repr(m[1])),
            )
        value = Fraction(Decimal(m[2]))
        if not 0 <= value <= MAX_POINTS:
            raise TrfError(
                lineno,
                HEADER_VALUE + m.start(2),
                msg(
                    "record {record}: points {points} out of range 0-{max_points}",
                    record=record,
                    points=m[2],
                    max_points=MAX_POINTS,
                ),
            )
        points[code] = value
    if body[position:].strip():
        rest = body[position:]
        raise TrfError(
            lineno,
            HEADER_VALUE + position + len(rest) - len(rest.lstrip()),
            msg("record {record}: cannot read {text}", record=record, text=repr(rest.strip())),
        )
    given = {name: points[code] for code, names in SCORING_CODES.items() if code in points for name in names}
    return scoring_with_defaults(given)


def scoring_with_defaults(given: dict[str, Fraction]) -> Scoring:
    """The whole scoring from the values given: what is missing follows win and draw, or is 0.

    Forfeit win, full-point bye and pairing-allocated bye follow `win`; the half-point bye
    follows `draw`. A zero-point bye, forfeit loss and absence score 0 unless given: TRF-26 162
    gives `A` its own default 0.0, whatever `L` is."""
    base = Scoring()
    win = given.get("win", base.win)
    draw = given.get("draw", base.draw)
    follows = {
        "forfeit_win": win,
        "full_bye": win,
        "pairing_bye": win,
        "half_bye": draw,
        "loss": base.loss,
        "zero_bye": base.zero_bye,
        "forfeit_loss": base.forfeit_loss,
        "absent": base.absent,
    }
    return replace(base, win=win, draw=draw, **{name: given.get(name, default) for name, default in follows.items()})


def _split_rules(value: str) -> list[str]:
    """202/212: comma-separated tie-break codes (TRF-26); spaces separate them in older files."""
    parts = re.split(r"[,;]", value) if re.search(r"[,;]", value) else value.split()
    return [p.strip() for p in parts if p.strip()]


_SEXES: dict[str, Literal["m", "f"]] = {"m": "m", "w": "f", "f": "f"}


_YEAR_ONLY = re.compile(r"(\d{4})(?:[/.-]00[/.-]00)?", re.ASCII)  # "1959", "2014/00/00"


def _read_identity(
    reading: _Reading, line: str, lineno: int
) -> tuple[int | None, str | None, str | None, Literal["m", "f"] | None, str | None]:
    """FIDE ID, federation, title, sex and birth date of an 001 line (None where not there),
    in the order of Player's fields."""
    letter = line[SEX.cols].strip().lower()
    sex = _SEXES.get(letter)
    if sex is None and letter:
        _not_carried(reading, msg("sex (column 10) that is not m, w or f"), letter, lineno)
    title = line[TITLE.cols].strip() or None
    federation = line[FEDERATION.cols].strip() or None
    fide_text = line[FIDE_ID.cols].strip()
    fide_id = None
    if _is_ascii_number(fide_text):
        fide_id = int(fide_text) or None
    elif fide_text and set(fide_text) != {"-"}:  # dashes: "no FIDE ID" in some programs
        _not_carried(reading, msg("FIDE ID (columns 58-68) that is not a number"), fide_text, lineno)
    return fide_id, federation, title, sex, _birth_date(reading, line, lineno)


def _birth_date(reading: _Reading, line: str, lineno: int) -> str | None:
    """An 001 line's birth date as "YYYY-MM-DD" or "YYYY", None when there is none."""
    birth = line[BIRTH_DATE.cols].strip()
    if not birth:
        return None
    if year_only := _YEAR_ONLY.fullmatch(birth):
        return year_only[1] if int(year_only[1]) else None
    if birth.strip("0/.- "):
        found, _ = parse_date(birth)
        if found is not None:
            return f"{found:%Y-%m-%d}"
        _not_carried(reading, msg("birth date (columns 70-79) that is not a date"), birth, lineno)
    return None


def _not_carried(reading: _Reading, what: str, value: str, lineno: int) -> None:
    """Note a field the JSON tournament cannot hold; one warning per kind of field, with its first value."""
    reading.not_carried.setdefault(what, []).append((lineno, value))


def _read_player(reading: _Reading, line: str, lineno: int) -> None:
    index = len(reading.players)
    fields = reading.fields
    assert fields is not None and reading.blocks is not None  # parse_trf reads them before the first line
    plain = fields.plain[index]
    if plain:  # start number, rating and FIDE ID read with every line's at once
        number = fields.number[index]
    else:  # the plain case inline (a number, a rating or none)
        text = line[START_NUMBER.cols].strip()
        if text.isascii() and text.isdigit() and int(text) >= 1:
            number = int(text)
        else:
            number = _whole_number(text, lineno, START_NUMBER.first, msg("start number"), low=1)  # raises
    if number in reading.player_lines:
        raise TrfError(
            lineno,
            START_NUMBER.first,
            msg(
                "start number {number} already used on line {line}",
                number=number,
                line=reading.player_lines[number],
            ),
        )
    if plain:
        rating = fields.rating[index]
    else:
        rating_text = line[RATING.cols].strip()
        if not rating_text:
            rating = None
        elif rating_text.isascii() and rating_text.isdigit():
            rating = int(rating_text) or None
        else:
            rating = _whole_number(rating_text, lineno, RATING.first, msg("rating"))  # raises
        first = FIRST_ROUND_OPPONENT.first
        if line[first - 1 - 2 : first - 1].strip():  # columns 90-91 belong to no field
            raise TrfError(lineno, first - 2, msg("columns 90-91 must be blank (round 1 starts in column 92)"))
    if not reading.blocks.clean[index]:  # the blocks read at once left this line to be read block by block
        reading.results_read_one_by_one[index] = _read_rounds_one_by_one(reading, line, lineno)
    reading.player_lines[number] = lineno
    reading.points_columns.append((lineno, line[POINTS.cols]))
    reading.rank_columns.append(line[RANK.cols])
    name = line[NAME.cols].strip()
    if plain:
        federation = line[FEDERATION.cols].strip() or None
        title = line[TITLE.cols].strip() or None
        birth = _birth_date(reading, line, lineno)
        reading.players.append(
            Player(number, name, rating, (), fields.fide_id[index], federation, title, fields.sex[index], birth)
        )
    else:
        reading.players.append(Player(number, name, rating, (), *_read_identity(reading, line, lineno)))


def _read_rounds_one_by_one(reading: _Reading, line: str, lineno: int) -> list[tuple[int, int, int, int, bool]]:
    """The round blocks of one 001 line, each checked in turn: (round, kind code, opponent, colour code, rated)."""
    results = []
    first = FIRST_ROUND_OPPONENT.first
    rnd = 0
    while first <= len(line):
        rnd += 1
        if rnd > MAX_ROUNDS:
            raise TrfError(lineno, first, msg("more than {max_rounds} rounds", max_rounds=MAX_ROUNDS))
        result = _read_round(reading, line, lineno, rnd, first)
        if result is not None:
            results.append(result)
        first += ROUND_WIDTH
    return results


def _read_round(
    reading: _Reading, line: str, lineno: int, rnd: int, first: int
) -> tuple[int, int, int, int, bool] | None:
    """One round block: opponent (4 columns), blank, colour, blank, result code."""
    block = line[first - 1 : first - 1 + ROUND_WIDTH].ljust(ROUND_WIDTH)
    colour_column = first + (FIRST_ROUND_COLOUR - FIRST_ROUND_OPPONENT.first)
    result_column = first + (FIRST_ROUND_RESULT - FIRST_ROUND_OPPONENT.first)
    for separator in (4, 6, 8, 9):  # the blanks between and after the fields
        if block[separator] != " ":
            raise TrfError(
                lineno,
                first + separator,
                msg(
                    "round {rnd}: unexpected {found} (round blocks are 10 columns wide)",
                    rnd=rnd,
                    found=repr(block[separator]),
                ),
            )
    opponent_text = block[0:4].strip()
    colour_text = block[colour_column - first]
    code = block[result_column - first].upper()
    if colour_text.lower() not in COLOURS:
        raise TrfError(
            lineno,
            colour_column,
            msg("round {rnd}: colour {colour_text} is not w, b or -", rnd=rnd, colour_text=repr(colour_text)),
        )
    colour = COLOR_CODES[COLOURS[colour_text.lower()]]
    opponent = 0
    if opponent_text:
        if not _is_ascii_number(opponent_text):
            raise TrfError(
                lineno,
                first,
                msg(
                    "round {rnd}: opponent {opponent_text} is not a start number",
                    rnd=rnd,
                    opponent_text=repr(opponent_text),
                ),
            )
        opponent = int(opponent_text)
    if code == NOT_PLAYED or (opponent and code == " "):  # paired (or marked) but no result yet: not played
        reading.not_played.setdefault(rnd, []).append((lineno, result_column))
        return None
    if opponent:
        if code not in RESULTS_WITH_OPPONENT:
            raise TrfError(
                lineno,
                result_column,
                msg(
                    "round {rnd}: result {code} is not valid with an opponent (one of 1 = 0 + - W D L, or blank or * when not played yet)",
                    rnd=rnd,
                    code=repr(code),
                ),
            )
        kind, rated = RESULTS_WITH_OPPONENT[code]
        return rnd, kind.code, opponent, colour, rated
    if code in OLD_BYE_SPELLINGS:
        kind = OLD_BYE_SPELLINGS[code][0]
        reading.old_byes.setdefault(code, []).append((lineno, result_column))
        return rnd, kind.code, 0, 0, True
    if code not in RESULTS_WITHOUT_OPPONENT:
        raise TrfError(
            lineno,
            result_column,
            msg(
                "round {rnd}: result {code} is not valid without an opponent (one of U F H Z - or blank)",
                rnd=rnd,
                code=repr(code),
            ),
        )
    without = RESULTS_WITHOUT_OPPONENT[code]
    return None if without is None else (rnd, without.code, 0, 0, True)


# ---- every round block of every 001 line at once

NO_RESULT = -1  # a blank block, or a pairing without a result yet
_BROKEN = -2  # a block the block-by-block reader must look at (it raises the located error)


def _code_table(codes: dict[str, int]) -> np.ndarray:
    """A lookup from a code's byte to a value; letters in either case (TRF-26), other bytes broken."""
    table = np.full(256, _BROKEN, np.int8)
    for code, value in codes.items():
        table[ord(code)] = table[ord(code.lower())] = table[ord(code.upper())] = value
    return table


# A blank result code with an opponent, and "*" either way: paired, not played yet (no result).
_KIND_WITH_OPPONENT = _code_table(
    {**{code: kind.code for code, (kind, _) in RESULTS_WITH_OPPONENT.items()}, " ": NO_RESULT, NOT_PLAYED: NO_RESULT}
)
_UNRATED = _code_table({code: int(not rated) for code, (_, rated) in RESULTS_WITH_OPPONENT.items()}) == 1
_KIND_WITHOUT_OPPONENT = _code_table(
    {
        **{code: NO_RESULT if kind is None else kind.code for code, kind in RESULTS_WITHOUT_OPPONENT.items()},
        **{code: kind.code for code, (kind, _) in OLD_BYE_SPELLINGS.items()},
        NOT_PLAYED: NO_RESULT,
    }
)
_OLD_BYE = _code_table(dict.fromkeys(OLD_BYE_SPELLINGS, 1)) == 1
_COLOUR_OF = _code_table({text: COLOR_CODES[colour] for text, colour in COLOURS.items()})
_BLANK, _STAR = ord(" "), ord(NOT_PLAYED)
_COLOUR, _RESULT = FIRST_ROUND_COLOUR - FIRST_ROUND_OPPONENT.first, FIRST_ROUND_RESULT - FIRST_ROUND_OPPONENT.first
# The layout of a block without its colour and result code: each byte a blank (0), an ASCII
# digit (1) or anything else (2); the ten bytes as one base-3 number (colour and result count 0).
_BYTE_CLASS = np.full(256, 2, np.int16)
_BYTE_CLASS[_BLANK] = 0
_BYTE_CLASS[ord("0") : ord("9") + 1] = 1
_LAYOUT_WEIGHTS = np.array([3**7, 3**6, 3**5, 3**4, 3**3, 0, 3**2, 0, 3**1, 3**0], np.int16)
# Plain layouts: the opponent blank or right-aligned digits ("   5", "  12", "0000"), blanks between.
_PLAIN_LAYOUT = np.zeros(3**8, bool)
for _digits in range(5):
    _PLAIN_LAYOUT[sum(3 ** (7 - i) for i in range(4 - _digits, 4))] = True
_DIGIT_VALUE = np.zeros(256, np.int16)  # four digits: at most 9999
_DIGIT_VALUE[ord("0") : ord("9") + 1] = range(10)
_PLACE_VALUES = np.array([1000, 100, 10, 1], np.int16)
# The array holds at most this many times the characters of the round blocks (and this many
# cells in any case): a line far longer than the others is read block by block instead.
_BLOCKS_SPREAD, _BLOCKS_ANY = 4, 1 << 16


@dataclass(slots=True)
class _RoundBlocks:
    """Every round block of the 001 lines (line i, round r + 1) as read at once."""

    clean: list[bool]  # per line: every block read here (else the line is read block by block)
    kind: np.ndarray  # ResultKind.code, NO_RESULT
    opponent: np.ndarray  # start number, 0 for none
    colour: np.ndarray  # 0 none, 1 white, 2 black
    unrated: np.ndarray  # W, D, L: played, not rated
    not_played: np.ndarray  # paired without a result: blank result code with an opponent, or "*"
    old_bye: np.ndarray  # an old bye spelling ("+", "=" without an opponent)
    code: np.ndarray  # the result code's byte


def _scan_round_blocks(lines: list[str]) -> _RoundBlocks:
    """The round blocks of all 001 lines, as arrays: one pass in numpy instead of one per block.

    A block is read here only when it is plainly valid (its opponent right-aligned); a line with
    any other block is marked not `clean` and read block by block (`_read_rounds_one_by_one`),
    which reads the rare spellings and raises the located error for a broken block."""
    areas = [line[FIRST_ROUND_OPPONENT.first - 1 :] for line in lines]
    lengths = [len(area) for area in areas]
    rounds = min(-(-max(lengths, default=0) // ROUND_WIDTH), MAX_ROUNDS)
    cap = max(_BLOCKS_SPREAD * sum(lengths), _BLOCKS_ANY)
    if len(lines) * rounds * ROUND_WIDTH > cap:
        rounds = cap // (len(lines) * ROUND_WIDTH)
    width = rounds * ROUND_WIDTH
    fits = [length <= width for length in lengths]
    # One byte per character: anything beyond ASCII becomes "?", which no field accepts.
    text = "".join([area.ljust(width) if fit else " " * width for area, fit in zip(areas, fits, strict=True)])
    cells = np.frombuffer(text.encode("ascii", "replace"), np.uint8).reshape(len(lines), rounds, ROUND_WIDTH)
    plain = _PLAIN_LAYOUT[_BYTE_CLASS[cells] @ _LAYOUT_WEIGHTS]
    opponent = _DIGIT_VALUE[cells[:, :, :4]] @ _PLACE_VALUES
    colour = _COLOUR_OF[cells[:, :, _COLOUR]]
    code = cells[:, :, _RESULT]
    paired = opponent > 0
    kind = np.where(paired, _KIND_WITH_OPPONENT[code], _KIND_WITHOUT_OPPONENT[code])
    clean = ((plain & (colour >= 0) & (kind != _BROKEN)).all(1) & np.array(fits, bool)).tolist()
    return _RoundBlocks(
        clean,
        kind,
        opponent,
        np.where(paired, colour, 0),
        paired & _UNRATED[code],
        (code == _STAR) | (paired & (code == _BLANK)),
        ~paired & _OLD_BYE[code],
        code,
    )


# ---- the fixed fields before the round blocks of every 001 line at once

_HEAD = FIRST_ROUND_OPPONENT.first - 1  # columns 1-91
_SEX_CODE = np.full(256, -1, np.int8)  # column 10: 0 blank, 1 male, 2 female; -1 read field by field
_SEX_CODE[ord(" ")] = 0
for _letter, _sex in _SEXES.items():
    _SEX_CODE[ord(_letter)] = _SEX_CODE[ord(_letter.upper())] = 1 if _sex == "m" else 2
_SEX_OF: list[Literal["m", "f"] | None] = [None, "m", "f"]
_FIELDS_AT_ONCE = 128  # from about 120 001 lines on the scan is faster than a line at a time


@dataclass(slots=True)
class _PlayerFields:
    """The start number, rating, FIDE ID and sex of every 001 line (line i) as read at once.
    `plain[i]` False: a field of line i is not plainly written, and the line is read field by
    field (`_read_player`, `_read_identity`), which raises the located error or notes the warning."""

    plain: list[bool]
    number: list[int]
    rating: list[int | None]
    fide_id: list[int | None]
    sex: list[Literal["m", "f"] | None]


def _number_field(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A fixed field of every line (a byte matrix, a line per row): whether it is plainly written
    (blank, or ASCII digits flush right), and its value (0 when blank)."""
    digit = (cells >= ord("0")) & (cells <= ord("9"))
    plain = (digit | (cells == _BLANK)).all(1) & (digit[:, :-1] <= digit[:, 1:]).all(1)
    places = 10 ** np.arange(cells.shape[1] - 1, -1, -1, dtype=np.int64)
    return plain, np.where(digit, cells - ord("0"), 0).astype(np.int64) @ places


def _scan_player_fields(lines: list[str]) -> _PlayerFields:
    """The numbers of the 001 lines' fixed columns, as arrays: one pass in numpy instead of a
    strip and a check per field and line. Only what reads the same either way is read here.
    Fewer lines than _FIELDS_AT_ONCE are all read field by field: numpy's fixed cost per call
    is more than what it saves there (docs/benchmarks.md)."""
    if len(lines) < _FIELDS_AT_ONCE:
        return _PlayerFields([False] * len(lines), [], [], [], [])
    text = "".join([line[:_HEAD].ljust(_HEAD) for line in lines])
    cells = np.frombuffer(text.encode("ascii", "replace"), np.uint8).reshape(len(lines), _HEAD)
    number_plain, number = _number_field(cells[:, START_NUMBER.first - 1 : START_NUMBER.last])
    rating_plain, rating = _number_field(cells[:, RATING.first - 1 : RATING.last])
    fide_plain, fide_id = _number_field(cells[:, FIDE_ID.first - 1 : FIDE_ID.last])
    sex = _SEX_CODE[cells[:, SEX.first - 1]]
    gap = cells[:, _HEAD - 2 :]  # columns 90-91 belong to no field
    plain = number_plain & (number >= 1) & rating_plain & fide_plain & (sex >= 0) & (gap == _BLANK).all(1)
    return _PlayerFields(
        plain.tolist(),
        number.tolist(),
        [r or None for r in rating.tolist()],  # 0: unrated
        [f or None for f in fide_id.tolist()],  # 0: none
        [_SEX_OF[code] for code in sex.tolist()],
    )


def _read_byes(reading: _Reading, line: str, value: str, lineno: int) -> None:
    """240 (TRF-26): a full-, half- or zero-point bye in one round for the players listed."""
    kind_code = line[BYE_TYPE - 1 : BYE_TYPE].upper()
    if kind_code not in BYE_RECORD_KINDS:
        raise TrfError(
            lineno, BYE_TYPE, msg("record 240: bye type {kind_code} is not F, H or Z", kind_code=repr(kind_code))
        )
    rnd = _whole_number(BYE_ROUND.of(line), lineno, BYE_ROUND.first, msg("record 240: round"), low=1, high=MAX_ROUNDS)
    rest = line[BYE_FIRST_PLAYER - 1 :]
    if not rest.strip():
        raise TrfError(lineno, BYE_FIRST_PLAYER, msg("record 240 names no player"))
    for m in re.finditer(r"\S+", rest):
        column = BYE_FIRST_PLAYER + m.start()
        player = _whole_number(m[0], lineno, column, msg("record 240: player id"), low=1)
        reading.byes.append((lineno, column, player, rnd, BYE_RECORD_KINDS[kind_code]))


def _is_team_event(reading: _Reading) -> bool:
    """Team records, or a 092/192 that says so: then 240 names teams, not players (TRF-26)."""
    if reading.team_records_seen:
        return True
    typed = " ".join(
        [reading.header.tournament_type, *(r[4:] for r in reading.header.other_records if r.startswith("192"))]
    ).lower()
    return "team" in typed


@dataclass(slots=True)
class _Results:
    """Every result of the tournament, player after player (each player's in round order)."""

    counts: np.ndarray
    rounds: np.ndarray
    kind: np.ndarray  # ResultKind.code
    opponent: np.ndarray  # start number, 0 for none
    colour: np.ndarray  # 0 none, 1 white, 2 black
    unrated: np.ndarray  # W, D, L
    byes: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)  # put in by 240: where


def _results(reading: _Reading) -> _Results:
    """The results of the 001 lines: those read at once, and those read block by block put in their place."""
    blocks = reading.blocks
    assert blocks is not None  # parse_trf reads them before the first line
    clean = np.array(blocks.clean, bool)
    found = (blocks.kind >= 0) & clean[:, None]
    counts = found.sum(1, dtype=np.int64)
    results = _Results(
        counts,
        np.nonzero(found)[1] + 1,
        blocks.kind[found],
        blocks.opponent[found].astype(np.int64),
        blocks.colour[found],
        blocks.unrated[found],
    )
    one_by_one = reading.results_read_one_by_one
    if one_by_one:
        starts = np.cumsum(counts) - counts  # these lines have no result read at once
        at: list[int] = []
        read: list[tuple[int, int, int, int, bool]] = []
        for i, line_results in one_by_one.items():  # in line order
            at += [int(starts[i])] * len(line_results)
            read += line_results
            counts[i] = len(line_results)
        _insert(results, at, read)
    return results


def _insert(results: _Results, at: list[int], read: list[tuple[int, int, int, int, bool]]) -> None:
    """Put results (round, kind code, opponent, colour code, rated) before the flat positions `at`
    (equal positions keep their order); the counts are the caller's."""
    if not read:
        return
    rounds, kinds, opponents, colours, rated = zip(*read, strict=True)
    results.rounds = np.insert(results.rounds, at, rounds)
    results.kind = np.insert(results.kind, at, kinds)
    results.opponent = np.insert(results.opponent, at, opponents)
    results.colour = np.insert(results.colour, at, colours)
    results.unrated = np.insert(results.unrated, at, [not r for r in rated])


def _apply_byes(reading: _Reading, results: _Results) -> None:
    """Put each 240 bye into its player's results: into a blank round, or agreeing with the 001 line."""
    if not reading.byes:
        return
    if _is_team_event(reading):
        lines = sorted({b[0] for b in reading.byes})
        reading.warnings.append(
            TrfWarning(
                lines[0],
                1,
                msg(
                    "record 240 ({lines} line(s)) names teams in a team event; not applied to players (team events are not computed yet)",
                    lines=len(lines),
                ),
            )
        )
        return
    index = {p.id: i for i, p in enumerate(reading.players)}
    offsets = [0, *itertools.accumulate(results.counts.tolist())]
    kinds = list(ResultKind)
    added: dict[tuple[int, int], ResultKind] = {}
    for lineno, column, player_id, rnd, kind in reading.byes:
        if player_id not in index:
            raise TrfError(
                lineno, column, msg("record 240: no player has start number {player_id}", player_id=player_id)
            )
        i = index[player_id]
        existing, paired = added.get((i, rnd)), False
        if existing is None:
            start, end = offsets[i], offsets[i + 1]
            same_round = np.flatnonzero(results.rounds[start:end] == rnd)
            if same_round.size:
                existing = kinds[results.kind[start + same_round[0]]]
                paired = bool(results.opponent[start + same_round[0]])
        if existing is None:
            added[(i, rnd)] = kind
            results.byes[(i, rnd)] = (lineno, column)
        elif existing is not kind or paired:
            raise TrfError(
                lineno,
                column,
                msg(
                    "record 240 gives player {player_id} a {kind} in round {rnd}, but line {line} records {existing}",
                    player_id=player_id,
                    kind=kind.value,
                    rnd=rnd,
                    line=reading.player_lines[player_id],
                    existing=existing.value,
                ),
            )
    at, read = [], []
    for (i, rnd), kind in sorted(added.items()):  # by player, then round: each before the later rounds
        start, end = offsets[i], offsets[i + 1]
        at.append(start + int(np.searchsorted(results.rounds[start:end], rnd)))
        read.append((rnd, kind.code, 0, 0, True))
        results.counts[i] += 1
    _insert(results, at, read)


def _lenient_readings(
    reading: _Reading, lines: list[int]
) -> tuple[dict[int, tuple[tuple[int, int], int]], dict[str, tuple[tuple[int, int], int]]]:
    """Pairings without a result by round, and old bye spellings by code: (first line and column, how
    many), of the blocks read at once and of the lines read block by block together."""
    blocks = reading.blocks
    assert blocks is not None  # parse_trf reads them before the first line
    clean = np.array(blocks.clean, bool)[:, None]
    found: dict[tuple[str, int | str], tuple[tuple[int, int], int]] = {}
    marks = blocks.not_played & clean
    if marks.any():
        counts, first_rows = marks.sum(0).tolist(), marks.argmax(0).tolist()
        for col, count in enumerate(counts):
            if count:
                found[("not-played", col + 1)] = (
                    (lines[first_rows[col]], FIRST_ROUND_RESULT + col * ROUND_WIDTH),
                    count,
                )
    old_bye = blocks.old_bye & clean
    for code in OLD_BYE_SPELLINGS if old_bye.any() else ():  # most files have none: no matrix per spelling
        marks = old_bye & (blocks.code == ord(code))
        if marks.any():
            row, col = divmod(int(marks.argmax()), marks.shape[1])  # the first, by line and then round
            found[("old-bye", code)] = ((lines[row], FIRST_ROUND_RESULT + col * ROUND_WIDTH), int(marks.sum()))
    for kind, noted in (("not-played", reading.not_played), ("old-bye", reading.old_byes)):
        for key, where in noted.items():
            first, count = found.get((kind, key), (where[0], 0))
            found[(kind, key)] = (min(first, where[0]), count + len(where))
    not_played = {key: seen for (kind, key), seen in found.items() if kind == "not-played" and isinstance(key, int)}
    # in the order the reader met them, as one reading line after line would
    old_byes = {
        key: seen
        for (kind, key), seen in sorted(found.items(), key=lambda item: item[1][0])
        if kind == "old-bye" and isinstance(key, str)
    }
    return not_played, old_byes


def _note_lenient_readings(
    reading: _Reading,
    not_played: dict[int, tuple[tuple[int, int], int]],
    old_byes: dict[str, tuple[tuple[int, int], int]],
) -> None:
    """One warning per kind of lenient reading, located at its first occurrence."""
    for code, ((line, column), count) in old_byes.items():
        kind, letter = OLD_BYE_SPELLINGS[code]
        reading.warnings.append(
            TrfWarning(
                line,
                column,
                msg(
                    "'0000 - {code}' read as a {kind} (TRF-26 writes '0000 - {letter}'); {count} round(s) spelt so",
                    code=code,
                    kind=kind.value.replace("_", "-"),
                    letter=letter,
                    count=count,
                ),
                "trf-unusual-spelling",
            )
        )
    for rnd in sorted(not_played):
        (line, column), count = not_played[rnd]
        reading.warnings.append(
            TrfWarning(
                line,
                column,
                msg_n(
                    "round {round}: {n} pairing without a result (blank or '*'): counted as not played",
                    "round {round}: {n} pairings without a result (blank or '*'): counted as not played",
                    count,
                    round=rnd,
                ),
                "trf-not-played",
            )
        )
    for what, where in reading.not_carried.items():
        (line, value), more = where[0], len(where) - 1
        reading.warnings.append(
            TrfWarning(
                line,
                1,
                msg("{what} ({value}): not carried into the JSON tournament", what=what, value=repr(value))
                if not more
                else msg(
                    "{what} ({value}, and {more} more line(s)): not carried into the JSON tournament",
                    what=what,
                    value=repr(value),
                    more=more,
                ),
                "trf-not-carried",
            )
        )


def _resolve_dates(reading: _Reading) -> date | None:
    """042 and 052, read once the round dates (132) are known."""
    first_round = next((d for d in reading.header.round_dates if d is not None), None)
    start = None
    if reading.start_text is not None:
        lineno, value = reading.start_text
        start, note = parse_date(value, first_round)
        if start is None and value:
            reading.warnings.append(
                TrfWarning(
                    lineno,
                    HEADER_VALUE,
                    msg(
                        "start date {value} is not a date (YYYY/MM/DD); ignored, so regulations 'auto' cannot use it",
                        value=repr(value),
                    ),
                )
            )
        elif note:
            reading.warnings.append(
                TrfWarning(lineno, HEADER_VALUE, msg("start date: {note}", note=note), "trf-unusual-spelling")
            )
    if reading.end_text is not None:
        lineno, value = reading.end_text
        end, _ = parse_date(value, start or first_round)
        if end is None and value:
            _not_carried(reading, msg("end date (052) that is not a date"), value, lineno)
        reading.header.end_date = end
    return start


# Columns 81-84 as most files write them: digits, and a decimal part after a point or a comma.
_PLAIN_POINTS = re.compile(r"(\d{1,12})(?:[.,](\d{0,12}))?")


def _written_points(text: str) -> Fraction:
    """The points a column's text says, exactly (ValueError and the like when it is no number)."""
    return Fraction(Decimal(text.replace(",", ".")))


def _in_units(text: str, unit: int) -> int | None:
    """The points a column's text says in units of 1/`unit` (whole units as the results give), None
    when they are not a whole number of units; ValueError (or InvalidOperation, OverflowError for
    `inf`) when the text is no number. Plain decimals are read as integers, no Fraction made."""
    plain = _PLAIN_POINTS.fullmatch(text)
    if plain is not None:
        whole, decimals = plain.groups()
        places = 10 ** len(decimals or "")
        units, rest = divmod(int(whole + (decimals or "")) * unit, places)
        return None if rest else units
    points = _written_points(text) * unit
    return points.numerator if points.denominator == 1 else None


def _check_points_column(
    reading: _Reading, scoring: Scoring, results: _Results, last_round: int, awarded: dict[int, Fraction]
) -> None:
    """Columns 81-84 against the results: a mismatch is a warning per player (a column of zeros is unused).
    A round up to `last_round` without a result is an absence, as the standings count it (162's `A`).
    Compared in the scoring's units (half-points for 1-½-0), and the points 299 awarded, as integers."""
    unit = math.lcm(_scoring_unit(scoring), *(added.denominator for added in awarded.values()))
    claimed: list[tuple[int, int, str, int | None]] = []  # line, player index, text, points in units
    for i, (lineno, text) in enumerate(reading.points_columns):
        text = text.strip()
        if not text:
            continue
        try:
            claimed.append((lineno, i, text, _in_units(text, unit)))
        except (InvalidOperation, ValueError, OverflowError):  # OverflowError: `inf`, `-inf`
            reading.warnings.append(
                TrfWarning(
                    lineno,
                    POINTS.first,
                    msg("points {text} (columns 81-84) are not a number; not compared", text=repr(text)),
                    "trf-points-mismatch",
                )
            )
    if not any(units != 0 for *_, units in claimed):  # None: not whole units, so not zero
        return
    kinds_by_player = _kinds_by_player(results)
    kinds_by_player[:, ResultKind.ABSENT.code] += np.maximum(last_round - results.counts, 0)
    computed_units = _units_by_player(kinds_by_player, scoring, unit)
    for i, added in awarded.items():  # record 299 (the unit is a whole number of its points too)
        computed_units[i] += int(added * unit)
    mismatches = 0
    for lineno, i, text, units in claimed:
        if computed_units[i] != units:
            mismatches += 1
            reading.warnings.append(
                TrfWarning(
                    lineno,
                    POINTS.first,
                    msg(
                        "player {player}: the points column says {claimed}, the results give {computed} under "
                        "the scoring read ({win}-{draw}-{loss}); the standings use the results",
                        player=reading.players[i].id,
                        claimed=_points(_written_points(text)),
                        computed=_points(Fraction(computed_units[i], unit)),
                        win=_points(scoring.win),
                        draw=_points(scoring.draw),
                        loss=_points(scoring.loss),
                    ),
                    "trf-points-mismatch",
                )
            )
    if mismatches and not reading.scoring_line:
        hint = _scoring_hint([(line, i, _written_points(text)) for line, i, text, _ in claimed], kinds_by_player)
        if hint:
            reading.warnings.append(
                TrfWarning(
                    claimed[0][0],
                    POINTS.first,
                    msg(
                        "the points column fits {hint} scoring: the file has no record 162 saying so; send `scoring` (or add 162) to compute with it",
                        hint=hint,
                    ),
                    "trf-points-mismatch",
                )
            )


def _kinds_by_player(results: _Results) -> np.ndarray:
    """How many results of each kind (column: ResultKind.code) each player has."""
    kinds = len(ResultKind)
    owners = np.repeat(np.arange(len(results.counts), dtype=np.int64), results.counts)
    return np.bincount(owners * kinds + results.kind, minlength=len(results.counts) * kinds).reshape(-1, kinds)


def _scoring_unit(scoring: Scoring) -> int:
    """The smallest unit every result's points are a whole number of (2: half-points)."""
    return math.lcm(*(scoring.points_for(kind).denominator for kind in ResultKind))


def _units_by_player(kinds_by_player: np.ndarray, scoring: Scoring, unit: int) -> list[int]:
    """Each player's points under `scoring` in units of 1/`unit`, exactly: counts times points."""
    units = [int(scoring.points_for(kind) * unit) for kind in ResultKind]
    most = max(units) * int(kinds_by_player.sum(1).max(initial=0))
    if most < 2**62:  # int64 cannot overflow
        totals: list[int] = (kinds_by_player @ np.array(units, np.int64)).tolist()
        return totals
    return [sum(c * u for c, u in zip(row, units, strict=True)) for row in kinds_by_player.tolist()]


def _points_by_player(kinds_by_player: np.ndarray, scoring: Scoring) -> list[Fraction]:
    """Each player's points under `scoring`, exactly."""
    unit = _scoring_unit(scoring)
    return [Fraction(total, unit) for total in _units_by_player(kinds_by_player, scoring, unit)]


def _scoring_hint(claimed: list[tuple[int, int, Fraction]], kinds_by_player: np.ndarray) -> str | None:
    """A common scoring under which every points column agrees, if there is one."""
    for win, draw in ((3, 1), (2, 1), (3, 2)):
        computed = _points_by_player(
            kinds_by_player, scoring_with_defaults({"win": Fraction(win), "draw": Fraction(draw)})
        )
        if all(computed[i] == points for _, i, points in claimed):
            return f"{win}-{draw}-0"
    return None


def _points(value: Fraction) -> float | str:
    """Points for a text: a float where the decimal is exact (the language writes its sign), else a fraction."""
    return float(value) if value.denominator in (1, 2, 4, 5, 10, 20, 25, 50, 100) else str(value)


def _decimal(value: Fraction) -> str:
    return f"{float(value):g}" if value.denominator in (1, 2, 4, 5, 10, 20, 25, 50, 100) else str(value)


_KINDS_BY_CODE = list(ResultKind)
_COLOURS_BY_CODE = [None, Color.WHITE, Color.BLACK]


def _attach_results(players: list[Player], results: _Results, overrides: dict[int, Fraction]) -> None:
    """Give each player its RoundResult objects (the form the TRF writer and the JSON conversion read);
    `overrides`: the points of results a record 299 changed, by flat index."""
    kinds, colours = _KINDS_BY_CODE, _COLOURS_BY_CODE
    flat = [
        RoundResult(rnd, kinds[kind], opponent or None, colours[colour], None, not unrated)
        for rnd, kind, opponent, colour, unrated in zip(
            results.rounds.tolist(),
            results.kind.tolist(),
            results.opponent.tolist(),
            results.colour.tolist(),
            results.unrated.tolist(),
            strict=True,
        )
    ]
    for at, points in overrides.items():
        flat[at] = dataclasses.replace(flat[at], points=points)
    start = 0
    for player, count in zip(players, results.counts.tolist(), strict=True):
        player.results = tuple(flat[start : start + count])  # built here, treated as immutable from now on
        start += count


def _apply_awarded(
    reading: _Reading, results: _Results, last_round: int
) -> tuple[dict[int, Fraction], dict[int, Fraction]]:
    """Records 299 applied (TRF-26): each adds its points to the named participants' results of its round
    (of every round with results when it names none). Returns the results' new points by flat index and
    the points added by player index; a participant without a result in the round is reported."""
    overrides: dict[int, Fraction] = {}
    added: dict[int, Fraction] = {}
    if not reading.awarded:
        return overrides, added
    index = {p.id: i for i, p in enumerate(reading.players)}
    starts = (np.cumsum(results.counts) - results.counts).tolist()
    counts = results.counts.tolist()
    for award in reading.awarded:
        ids = award.players if award.players is not None else tuple(index)
        rounds = [award.round] if award.round is not None else list(range(1, last_round + 1))
        for player in ids:
            i = index.get(player)
            if i is None:
                raise TrfError(
                    award.line, _AWARD_TARGETS, msg("record 299: no player {player} in the file", player=player)
                )
            for rnd in rounds:
                found = np.nonzero(results.rounds[starts[i] : starts[i] + counts[i]] == rnd)[0]
                if not len(found):
                    reading.warnings.append(
                        TrfWarning(
                            award.line,
                            _AWARD_ROUND.first,
                            msg(
                                "record 299: player {player} has no result in round {round}; the points are not "
                                "applied",
                                player=player,
                                round=rnd,
                            ),
                        )
                    )
                    continue
                at = starts[i] + int(found[0])
                base = overrides.get(at, reading.scoring.points_for(_KINDS_BY_CODE[int(results.kind[at])]))
                overrides[at] = base + award.points
                added[i] = added.get(i, Fraction(0)) + award.points
        reading.warnings.append(
            TrfWarning(
                award.line,
                _AWARD_POINTS.first,
                msg(
                    "record 299: {points} points awarded by the arbiter to {players} in {rounds}; counted in the "
                    "score (TRF-26)",
                    points=_points(award.points),
                    players=", ".join(map(str, ids)) if award.players is not None else msg("every player"),
                    rounds=msg("round {round}", round=award.round) if award.round is not None else msg("every round"),
                ),
                "trf-points-awarded",
            )
        )
    return overrides, added


def _finish(reading: _Reading, columns: bool) -> TrfDocument:
    if not reading.players:
        raise TrfError(1, 1, msg("no player records (001) found"))
    results = _results(reading)
    _apply_byes(reading, results)
    start = _resolve_dates(reading)
    last_round = int(results.rounds.max(initial=0))
    lines = [reading.player_lines[p.id] for p in reading.players]
    not_played, old_byes = _lenient_readings(reading, lines)
    # Pairings without a result count for the number of rounds too: the round exists.
    last_paired = max([last_round, *not_played])
    rounds = reading.rounds
    if rounds is None:
        rounds = max(last_paired, 1)
    elif last_round > rounds:
        raise TrfError(
            reading.rounds_line,
            HEADER_VALUE,
            msg(
                "record 142 says {rounds} rounds but results reach round {last_round}",
                rounds=rounds,
                last_round=last_round,
            ),
        )
    if reading.tiebreaks_202 is not None:
        tiebreaks = reading.tiebreaks_202
    else:  # 212 is 202 with PTS in front (TRF-26); points always rank first here
        tiebreaks = [t for t in reading.tiebreaks_212 or [] if t.upper() != "PTS"]
    overrides, awarded = _apply_awarded(reading, results, last_round)
    _check_points_column(reading, reading.scoring, results, last_paired or rounds, awarded)
    _note_lenient_readings(reading, not_played, old_byes)
    system = reading.system or reading.system_192
    if columns:
        result_columns = ResultColumns(
            results.counts, results.rounds, results.kind, results.opponent, results.colour, overrides
        )
    else:
        result_columns = None
        _attach_results(reading.players, results, overrides)
    tournament = Tournament(
        players=tuple(reading.players),
        rounds=rounds,
        system=system,
        scoring=reading.scoring,
        name=reading.name,
        start_date=start,
        columns=result_columns,
        end_date=reading.header.end_date,
        ratings=PlayerRatings(national=dict(reading.national)) if reading.national else None,
    )
    source = TrfSource(lines, results.counts, results.rounds, results.byes)
    return TrfDocument(
        tournament,
        list(reading.warnings),
        tiebreaks,
        header=reading.header,
        source=source,
        points_written=[text for _, text in reading.points_columns],
        ranks_written=list(reading.rank_columns),
        warnings_omitted=getattr(reading.warnings, "omitted", 0),
    )


# The header records read into the document, each by its reader (reading, line, value from column 5,
# line number); the other records are kept verbatim, derived again, or skipped with a warning.
_HEADER_READERS: dict[str, Callable[[_Reading, str, str, int], None]] = {
    "012": _read_name,
    "022": _set_header("city"),
    "032": _set_header("federation"),
    "042": _read_start,
    "052": _read_end,
    "092": _read_type,
    "102": _set_header("chief_arbiter"),
    "112": _read_deputy,
    "122": _set_header("time_control"),
    "132": _read_round_dates,
    "142": _read_rounds_record,
    "XXR": _read_rounds_record,  # the same, as written by pairing programs before TRF-26
    "152": _read_initial_colour,
    "162": _read_scoring_record,
    "202": _read_rules("tiebreaks_202"),
    "212": _read_rules("tiebreaks_212"),
    "240": _read_byes,
    "299": _read_abnormal_points,
}
