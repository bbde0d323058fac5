"""Record 162 read as TRF-26 defines it: the points computed from the results equal the points
column a program that follows TRF-26 writes (the differential run of issue 21 found `A` scored
at `L`'s value when the file gives no `A`)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tiebreak.engine import compute_standings
from tiebreak.formats.trf import _in_units, parse_trf
from tests.formats.trf_lines import player, trf
from tests.profiles import examples

# What each 001 result code scores under TRF-26 162: the letter whose value it takes.
LETTER_OF_CODE = {"1": "W", "+": "W", "F": "W", "U": "P", "=": "D", "H": "D", "0": "L", "-": "A", "Z": "A", "": "A"}
DEFAULTS = {"W": Fraction(1), "D": Fraction(1, 2), "L": Fraction(0), "A": Fraction(0)}
GAMES = [("1", "0"), ("0", "1"), ("=", "="), ("+", "-"), ("-", "+")]
UNPAIRED = ["H", "F", "U", "Z", ""]  # "" leaves the round blank: absent

halves = st.integers(0, 8).map(lambda n: Fraction(n, 2))
rounds_of_two = st.lists(
    st.one_of(
        st.sampled_from(GAMES).map(lambda game: ("game", *game)),
        st.tuples(st.just("unpaired"), st.sampled_from(UNPAIRED), st.sampled_from(UNPAIRED)),
    ),
    max_size=5,
).map(lambda rounds: [*rounds, ("game", "=", "=")])  # a last round played: the file's points are up to it


def value(letter: str, given: dict[str, Fraction]) -> Fraction:
    if letter == "P":  # TRF-26: P defaults to W
        return given.get("P", given.get("W", DEFAULTS["W"]))
    return given.get(letter, DEFAULTS[letter])


@settings(max_examples=examples(150), deadline=None)
@given(
    given_letters=st.dictionaries(st.sampled_from(["W", "D", "L", "A", "P"]), halves, min_size=1),
    rounds=rounds_of_two,
)
def test_the_points_of_a_162_scoring_equal_the_files_own_points_column(given_letters, rounds):
    codes: list[list[str]] = [[], []]
    blocks: list[list[tuple[int, str, str] | None]] = [[], []]
    for kind, first, second in rounds:
        for me, code in enumerate((first, second)):
            codes[me].append(code)
            if kind == "game":
                blocks[me].append((2 - me, "w" if me == 0 else "b", code))
            else:
                blocks[me].append(None if code == "" else (0, "-", code))
    points = [sum((value(LETTER_OF_CODE[c], given_letters) for c in codes[me]), Fraction(0)) for me in (0, 1)]
    scoring = "162 " + "".join(f" {letter} {float(v):4.1f}   " for letter, v in given_letters.items()).rstrip()
    text = trf(
        f"142 {len(rounds)}",
        scoring,
        *[player(me + 1, f"P{me + 1}", None, blocks[me], points=f"{float(points[me]):.1f}") for me in (0, 1)],
    )
    document = parse_trf(text)
    table = compute_standings(document.tournament, []).table
    computed = {table.ids[p]: Fraction(int(table.scores[p]), table.scale) for p in range(2)}
    assert computed == {1: points[0], 2: points[1]}
    assert [w.message for w in document.warnings if w.code == "trf-points-mismatch"] == []


written_points = st.one_of(
    st.decimals(min_value=-50, max_value=500, places=3, allow_nan=False).map(str),
    st.from_regex(r"\A[0-9]{1,3}([.,][0-9]{0,3})?\Z"),
    st.sampled_from(["4.", ".5", "+3", "-0", "1_0", "1e1", "0.50", "٣.٥", "inf", "4.5.", "x", "1/2"]),
)


@settings(max_examples=examples(300), deadline=None)
@given(text=written_points, unit=st.sampled_from([1, 2, 4, 10]))
def test_the_points_column_is_read_in_whole_units_as_its_exact_decimal_says(text, unit):
    """`_in_units` (integers for the plain decimals) against the exact decimal through Fraction:
    the same number of units, None where the points are no whole number of them, the same refusal."""
    try:
        exact = Fraction(Decimal(text.replace(",", "."))) * unit
    except (InvalidOperation, ValueError, OverflowError) as refused:
        with pytest.raises(type(refused)):
            _in_units(text, unit)
        return
    assert _in_units(text, unit) == (exact.numerator if exact.denominator == 1 else None)
