"""The TRF reader's two ways to the same document.

Round blocks, and the numbers of the fixed fields before them (start number, rating, FIDE ID,
sex), are read for all 001 lines at once (numpy); a line with a block or a field that is not
plainly valid is read block by block and field by field instead, which raises the located
error or notes the warning. And the results go either into the engine's columns (`columns=True`, what the standings use) or
into RoundResult objects (the writer, the JSON conversion). Each pair must agree on
everything: results, warnings, errors, where each result came from, and the standings.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from unittest import mock

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tiebreak.usecases.convert import standings_to_wire
from tiebreak.engine import compute_standings
from tiebreak.engine.model import Regulations, result_columns
from tiebreak.engine.registry import parse_spec
from tiebreak.formats import trf
from tiebreak.formats.trf import TrfError, parse_trf
from tiebreak.formats.trf_writer import write_trf
from tests.formats.test_trf_fuzz import mutated_real_files
from tests.formats.trf_lines import player
from tests.strategies import swiss_tournaments

from tiebreak.texts.catalogue import enc_hook
from tests.profiles import examples

_encode = msgspec.json.Encoder(enc_hook=enc_hook).encode

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
REAL_WORLD = Path(__file__).resolve().parents[3] / "shared" / "conformance" / "realworld-trf"
FILES = sorted(FIXTURES.rglob("*.trf"))
RULES = [parse_spec(code, Regulations.FIDE_2026) for code in ("BH/C1", "BH", "SB", "PS", "DE", "ARO")]


@pytest.fixture(autouse=True)
def fields_at_once():
    """The fixed fields read at once however few the lines (the reader does from 128 on), so that
    the small files here compare both ways."""
    with mock.patch.object(trf, "_FIELDS_AT_ONCE", 0):
        yield


@contextmanager
def block_by_block():
    """Every 001 line read block by block and field by field, as if no line were plainly valid."""
    scan, scan_fields = trf._scan_round_blocks, trf._scan_player_fields

    def nothing_clean(lines):
        blocks = scan(lines)
        return replace(blocks, clean=[False] * len(blocks.clean))

    def nothing_plain(lines):
        fields = scan_fields(lines)
        return replace(fields, plain=[False] * len(fields.plain))

    with (
        mock.patch.object(trf, "_scan_round_blocks", nothing_clean),
        mock.patch.object(trf, "_scan_player_fields", nothing_plain),
    ):
        yield


def outcome(text: str, columns: bool = False, max_warnings: int | None = None):
    """The document, or the error as (line, column, message, warnings noted before it)."""
    try:
        return parse_trf(text, max_warnings, columns=columns)
    except TrfError as exc:
        return exc.line, exc.column, exc.message, exc.warnings


def warnings_of(document) -> list[tuple]:
    return [(w.line, w.column, w.message, w.code) for w in document.warnings]


def where_results_are(document) -> list[tuple[int, int]]:
    """Where each result (and its colour and result code) came from, and one past each player's last."""
    source = document.source
    return [
        source.locate(i, j, what)
        for i, count in enumerate(source.counts)
        for j in range(int(count) + 1)
        for what in (None, "color", "result")
    ]


def assert_same_documents(a, b) -> None:
    if isinstance(a, tuple) or isinstance(b, tuple):
        assert a == b
        return
    assert a.tournament == b.tournament
    assert warnings_of(a) == warnings_of(b)
    assert (a.tiebreaks, a.header, a.points_written, a.ranks_written, a.warnings_omitted) == (
        b.tiebreaks,
        b.header,
        b.points_written,
        b.ranks_written,
        b.warnings_omitted,
    )
    assert where_results_are(a) == where_results_are(b)


def assert_columns_match_objects(text: str) -> None:
    objects, columns = outcome(text), outcome(text, columns=True)
    if isinstance(objects, tuple):
        assert columns == objects
        return
    assert all(p.results == () for p in columns.tournament.players)
    assert columns.tournament.players == tuple(replace(p, results=()) for p in objects.tournament.players)
    expected, got = result_columns(objects.tournament.players), columns.tournament.columns
    for name in ("counts", "round", "kind", "opponent", "color"):
        assert [int(v) for v in getattr(got, name)] == list(getattr(expected, name)), name
    assert dict(got.points) == dict(expected.points)  # per-game points: record 299's only
    assert warnings_of(columns) == warnings_of(objects)
    assert where_results_are(columns) == where_results_are(objects)


def standings_json(tournament) -> bytes:
    result = compute_standings(tournament, RULES, Regulations.FIDE_2026, explain=True)
    return _encode(standings_to_wire(result, True, None, None, tournament))


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fixture_files_read_the_same_every_way(path):
    text = trf.decode_trf(path.read_bytes())[0]
    with block_by_block():
        one_by_one = outcome(text)
    assert_same_documents(outcome(text), one_by_one)
    assert_columns_match_objects(text)


def test_real_world_files_read_the_same_every_way():
    if not REAL_WORLD.is_dir():
        pytest.skip(f"{REAL_WORLD} is absent (the shared real-world TRF corpus is read in place, never copied)")
    paths = sorted(REAL_WORLD.glob("*.trf"))
    assert paths
    for path in paths:
        text = trf.decode_trf(path.read_bytes())[0]
        with block_by_block():
            one_by_one = outcome(text)
        assert_same_documents(outcome(text), one_by_one)
        assert_columns_match_objects(text)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_real_files(), st.sampled_from([None, 1, 3]))
def test_mutated_files_read_the_same_every_way(data, max_warnings):
    text = trf.decode_trf(data)[0]
    with block_by_block():
        one_by_one = outcome(text, max_warnings=max_warnings)
    assert_same_documents(outcome(text, max_warnings=max_warnings), one_by_one)
    assert_columns_match_objects(text)


# Blocks the reader accepts though they are not the common case (old bye spellings, not played,
# letters in either case, a left-aligned opponent), and blocks it refuses.
ACCEPTED_BLOCKS = [
    "0000 - +",
    "   5 w *",
    "   5 w  ",
    "0000 - =",
    "     - -",
    "   3 B W",
    "   3 w d",
    "       H",
    "0000 - U",
    "   7 - +",
    "  7  w 1",
    "0    - F",
    "",
    "   2 w l",
    "   2 w *",
    "0000 - Z",
    "   4 b 0",
]
REFUSED_BLOCKS = ["0000 w 1", "   2 x 1", "   2 w 1 x", "  1 2 w 1", "   2 w U", "   2 w é", "  -2 w 1"]
UNUSUAL_BLOCKS = st.sampled_from(ACCEPTED_BLOCKS * 8 + REFUSED_BLOCKS)


@settings(max_examples=examples(300), deadline=None)
@given(
    st.lists(st.lists(UNUSUAL_BLOCKS, max_size=5), min_size=2, max_size=6),
    st.lists(st.tuples(st.sampled_from("FHZ"), st.integers(1, 6), st.integers(1, 7)), max_size=3),
)
def test_unusual_blocks_and_byes_read_the_same_every_way(lines, byes):
    """Lines of unusual blocks (not played, old bye spellings, letters in either case, broken
    ones) and 240 byes: read at once or block by block, into columns or objects, the same."""
    rows = [
        player(i + 1, f"P{i + 1}").ljust(91) + "".join(f"{b:<10}" for b in blocks) for i, blocks in enumerate(lines)
    ]
    text = "\n".join(["012 Unusual", *(f"240 {kind} {rnd:>3} {pid:>4}" for kind, rnd, pid in byes), *rows]) + "\n"
    with block_by_block():
        one_by_one = outcome(text)
    assert_same_documents(outcome(text), one_by_one)
    assert_columns_match_objects(text)


# The fixed fields before round 1, as files write them and as they should not: start numbers and
# ratings right- or left-aligned, zero-padded, zero, signed, with other scripts' digits; FIDE IDs
# with dashes; sex in either case or unknown; birth dates full, year-only or not dates; text in
# columns 90-91 (each spelling exactly as wide as its field).
def _mostly(plain: list[str], odd: list[str]) -> st.SearchStrategy[str]:
    """A field's spelling: a plain one most of the time, so that whole lines are plain too."""
    return st.sampled_from(plain * 6 + odd)


START_NUMBERS = _mostly(["   1", "   2", "  12", "9999"], ["12  ", "0003", "   0", "  -4", " ٣  ", "    ", " 1 2"])
RATINGS = _mostly(["    ", "2010", " 987", "   0"], ["0000", "987 ", "-100", "１２３ ", "12a4"])
FIDE_IDS = _mostly(["           ", "    4100018", "00000000000"], ["4100018    ", "-----------", "  41000-18 "])
SEXES = _mostly(list(" mMwWfF"), list("x?é"))
BIRTHS = st.sampled_from(
    ["          ", "1987/05/04", "1959      ", "2014/00/00", "0000/00/00", "not a date", "1987.05.04"]
)
GAPS = _mostly(["  "], [" x", "1 "])


@settings(max_examples=examples(300), deadline=None)
@given(
    st.lists(
        st.tuples(START_NUMBERS, st.text("Ab é", max_size=33), RATINGS, FIDE_IDS, SEXES, BIRTHS, GAPS, st.booleans()),
        min_size=1,
        max_size=6,
    )
)
def test_unusual_player_fields_read_the_same_every_way(lines):
    """Player lines with fixed fields plainly written or not: read at once or field by field, the
    same players, warnings and errors (the located one of the first line that has one)."""
    rows = []
    for number, name, rating, fide_id, sex, birth, gap, games in lines:
        head = f"001 {number} {sex}GM  {name:<33} {rating} FID {fide_id} {birth}  1.0 {'':4}{gap}"
        assert len(head) == 91
        rows.append(head + ("   1 w 1  " if games else ""))
    text = "\n".join(["012 Fields", *rows]) + "\n"
    with block_by_block():
        one_by_one = outcome(text)
    assert_same_documents(outcome(text), one_by_one)
    assert_columns_match_objects(text)


# Round blocks, mostly well formed, some odd (decision 0156): a game (the opponent right- or
# left-aligned or zero-padded; a colour in either case or none; a result of a game, or none yet),
# a round without an opponent (a bye, an absence, an old spelling), or pieces that do not fit.
GAME = st.builds(
    "{} {} {}".format,
    st.sampled_from(["   1", "   2", "   3", "  12", "1   ", " 2  ", "0002"]),
    st.sampled_from("wbWB-"),
    st.sampled_from(list("10=+-WDLwdl* ")),
)
NO_GAME = st.builds(
    "{} {} {}".format, st.sampled_from(["0000", "    "]), st.sampled_from("- "), st.sampled_from(list("UFHZ-+= *"))
)
ODD = st.builds(
    "{} {} {}".format,
    st.sampled_from(["  -1", "12345", "0000", "ab  "]),
    st.sampled_from("wx "),
    st.sampled_from(["1", "U", "é", "?"]),
)
ROUND_BLOCKS = st.one_of(GAME, GAME, GAME, NO_GAME, NO_GAME, ODD)


@st.composite
def shifted_player_lines(draw, number: int) -> str:
    """An 001 line built field by field, then knocked about as real files are: a field shifted a
    column left or right, a field left out, blanks doubled or dropped between fields."""
    start = draw(st.sampled_from([f"{number:>4}", f"{number:<4}", f"{number:04}"]))
    name = draw(st.text(alphabet="AZaz ,.-'é", max_size=40))
    rating = draw(st.sampled_from(["    ", "2100", "1800", "  0 "] * 3 + ["abcd", "21000"]))
    points = draw(st.sampled_from(["    ", " 1.5", "   2", "2,5 ", "x"]))
    head = f"001 {start}      {name:<33.33} {rating:>4.4}{'':28}{points:>4.4} {'':>4}  "
    blocks = [f"{draw(ROUND_BLOCKS)}  " for _ in range(draw(st.integers(0, 5)))]
    line = head + "".join(blocks)
    for _ in range(draw(st.sampled_from([0, 0, 1, 1, 2, 3]))):
        at = draw(st.integers(0, max(len(line) - 1, 0)))
        action = draw(st.sampled_from(["shift-right", "shift-left", "blank", "double-blanks", "cut"]))
        if action == "shift-right":
            line = line[:at] + " " + line[at:]
        elif action == "shift-left" and line[at : at + 1] == " ":
            line = line[:at] + line[at + 1 :]
        elif action == "blank":
            width = draw(st.integers(1, 4))
            line = line[:at] + " " * width + line[at + width :]
        elif action == "double-blanks":
            line = line[:at] + line[at:].replace(" ", "  ", 1)
        elif action == "cut":
            line = line[: max(at, 4)]
    return line


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_shifted_and_incomplete_player_lines_read_the_same_every_way(data):
    """Generated 001 lines with shifted columns, missing fields and odd spacing, among plain ones:
    read at once or block by block, into columns or objects, the same document or the same error."""
    count = data.draw(st.integers(1, 6))
    plain = data.draw(st.lists(st.booleans(), min_size=count, max_size=count))
    rows = [
        player(i + 1, f"P{i + 1}", None, [(1 + (i + 1) % count, "w", "1")])
        if keep
        else data.draw(shifted_player_lines(i + 1))
        for i, keep in enumerate(plain)
    ]
    header = data.draw(st.sampled_from([[], ["142 5"], ["142 2", "240 H   2    1"]]))
    text = "\n".join(["012 Shifted", *header, *rows]) + "\n"
    with block_by_block():
        one_by_one = outcome(text)
    assert_same_documents(outcome(text), one_by_one)
    assert_columns_match_objects(text)


REAL_WORLD_FILES = sorted(REAL_WORLD.glob("*.trf")) if REAL_WORLD.is_dir() else []


@pytest.mark.skipif(not REAL_WORLD_FILES, reason=f"{REAL_WORLD} is absent (read in place, never copied)")
@settings(
    max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(st.data())
def test_mutated_real_world_files_read_the_same_every_way(data):
    """The real-world corpus (other programs' exports) with a few lines knocked about: a character
    replaced, inserted or deleted, a line's tail shifted a column, a line doubled."""
    path = data.draw(st.sampled_from(REAL_WORLD_FILES))
    lines = trf.decode_trf(path.read_bytes())[0].splitlines()
    for _ in range(data.draw(st.integers(1, 6))):
        i = data.draw(st.integers(0, len(lines) - 1))
        line = lines[i]
        at = data.draw(st.integers(0, len(line)))
        action = data.draw(st.sampled_from(["replace", "insert", "delete", "shift", "double"]))
        if action == "replace" and at < len(line):
            lines[i] = line[:at] + data.draw(st.sampled_from(list(" 0123456789wbWB-+=UFHZDL*x"))) + line[at + 1 :]
        elif action == "insert":
            lines[i] = line[:at] + data.draw(st.sampled_from([" ", "  ", "1", "w", "\t"])) + line[at:]
        elif action == "delete":
            lines[i] = line[:at] + line[at + data.draw(st.integers(1, 3)) :]
        elif action == "shift":
            lines[i] = line[:at] + " " + line[at:] if data.draw(st.booleans()) else line[:at] + line[at + 1 :]
        elif action == "double":
            lines.insert(i, line)
    text = "\n".join(lines) + "\n"
    with block_by_block():
        one_by_one = outcome(text)
    assert_same_documents(outcome(text), one_by_one)
    assert_columns_match_objects(text)


def test_a_line_far_longer_than_the_others_is_read_block_by_block():
    """The arrays of the blocks stay near the size of the text: one line of 300 rounds among
    short ones is read on its own, and its results land in its place."""
    short = [player(i, f"P{i}", None, [(0, "-", "H")]) for i in range(1, 2001)]
    long = player(2001, "Long", None, [(0, "-", "F")] * 300)
    text = "\n".join(["012 Long", "142 300", *short[:1000], long, *short[1000:]]) + "\n"
    document = parse_trf(text, columns=True)
    columns = document.tournament.columns
    assert [int(c) for c in columns.counts] == [1] * 1000 + [300] + [1] * 1000
    assert [int(r) for r in columns.round[999:1301]] == [1, *range(1, 301), 1]
    assert document.source.locate(1000, 299, "result") == (1003, 99 + 299 * 10)
    assert_columns_match_objects(text)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(swiss_tournaments(max_players=14, max_rounds=7))
def test_standings_from_columns_and_from_objects_are_the_same(drawn):
    """A random consistent tournament written as TRF: the standings (values, ranks, every
    breakdown) from the columns the reader builds equal those from its RoundResult objects."""
    tournament = drawn.tournament
    if any(r.points is not None for p in tournament.players for r in p.results):
        return  # TRF has no per-game points
    text = write_trf(tournament, tiebreaks=["BH/C1", "BH", "SB"]).text
    from_objects = parse_trf(text).tournament
    from_columns = parse_trf(text, columns=True).tournament
    assert from_columns.columns is not None and from_objects.columns is None
    assert standings_json(from_columns) == standings_json(from_objects)


@pytest.mark.parametrize("path", sorted((FIXTURES / "conformance_fide").glob("*.trf"))[:40], ids=lambda p: p.name)
def test_conformance_standings_from_columns_and_from_objects_are_the_same(path):
    text = trf.decode_trf(path.read_bytes())[0]
    assert standings_json(parse_trf(text, columns=True).tournament) == standings_json(parse_trf(text).tournament)
