"""The prize package on small cases worked by hand (each test says how)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from fractions import Fraction

import pytest

from tiebreak.prizes import Category, Entrant, Kind, PrizeGroup, PrizeInputError, distribute
from tiebreak.prizes.matching import CategoryMatching
from tiebreak.prizes.payment import pay_exactly

from .helpers import entrant, prize, request, totals

D = Decimal


# ---- paying a pool exactly ----


def test_a_three_way_split_of_100_pays_the_odd_cent_to_the_first():
    assert pay_exactly([Fraction(100, 3)] * 3, D("100.00"), D("0.01")) == [D("33.34"), D("33.33"), D("33.33")]


def test_the_odd_units_go_to_the_largest_remainders_first():
    # 10.005 + 10.007 + 9.988 = 30: floors 10.00, 10.00, 9.98 leave 2 cents, for the
    # remainders .008 (third) and .007 (second); the first (.005) gets none.
    shares = [Fraction("10.005"), Fraction("10.007"), Fraction("9.988")]
    assert pay_exactly(shares, D("30.00"), D("0.01")) == [D("10.00"), D("10.01"), D("9.99")]


def test_units_other_than_cents():
    # 100 in whole euros among 3: 34, 33, 33; in steps of 0.05: 33.35, 33.35, 33.30
    assert pay_exactly([Fraction(100, 3)] * 3, D("100"), D("1")) == [D("34"), D("33"), D("33")]
    assert pay_exactly([Fraction(100, 3)] * 3, D("100"), D("0.05")) == [D("33.35"), D("33.35"), D("33.30")]


def test_shares_that_do_not_add_up_are_refused():
    with pytest.raises(ArithmeticError):
        pay_exactly([Fraction(50), Fraction(40)], D("100"), D("1"))


# ---- can the chosen prizes go to distinct players ----


@pytest.mark.parametrize("order", [("A", "B"), ("B", "A")])
def test_a_player_eligible_for_two_categories_switches_to_make_room(order):
    both, only_a = frozenset({"A", "B"}), frozenset({"A"})
    matching = CategoryMatching({both: 1, only_a: 1})
    assert all(matching.add(c) for c in order)
    assert not matching.add("A")  # two players, two prizes held


def test_no_second_prize_of_a_category_only_one_player_can_win():
    matching = CategoryMatching({frozenset({"overall", "u1600"}): 1, frozenset({"overall"}): 2})
    assert matching.add("u1600")
    assert not matching.add("u1600")
    assert matching.add("overall") and matching.add("overall")
    assert not matching.add("overall")


# ---- categories ----


def test_who_a_category_admits():
    rated, unrated = entrant(1, 0, 1750), entrant(2, 0, None)
    u1800 = Category("u1800", rating_below=1800)
    assert u1800.admits(rated) and not u1800.admits(unrated)  # a rating bound leaves unrated players out
    assert Category("u1800", rating_below=1800, unrated=True).admits(unrated)
    assert Category("overall").admits(unrated) and not Category("rated", unrated=False).admits(unrated)
    assert not Category("band", rating_at_least=1800, rating_below=2000).admits(rated)
    girl = Entrant(3, D(0), sex="f", birth_date=date(2010, 4, 2), federation="ENG", tags=frozenset({"junior", "club"}))
    assert Category("girls", sex="f", born_on_or_after=date(2008, 1, 1)).admits(girl)
    assert not Category("seniors", born_before=date(1966, 1, 1)).admits(girl)
    assert not Category("seniors", born_before=date(1966, 1, 1)).admits(rated)  # birth date unknown
    assert Category("eng", federation="eng", tags=frozenset({"junior"})).admits(girl)
    assert not Category("sco", federation="SCO").admits(girl)
    assert [Category("o").kind, Category("r", rating_below=1).kind, Category("w", sex="f").kind] == [
        Kind.OVERALL,
        Kind.RATING,
        Kind.OTHER,
    ]


# ---- score groups and what they bring in ----


def test_identical_priority_can_put_class_prizes_first():
    # The tournament of the 'Prize Example' thread (tests/fixtures/prizes/p05-*): with the
    # default priority the tied experts pool 2nd and 3rd; the director's first reading,
    # class before place, has them pool 2nd and U2200, and the NM on 3 takes 3rd.
    standings = [
        entrant(1, 4, 2550),
        entrant(2, 3.5, 2150),
        entrant(3, 3.5, 2080),
        entrant(4, 3, 2230),
        entrant(5, 2.5, 2010),
    ]
    prizes = [prize("1", "250"), prize("2", "150"), prize("3", "100"), prize("u2200", "100", "u2200")]
    result = distribute(
        request(standings, prizes, {"u2200": {"rating_below": 2200}}, identical_priority=("rating", "overall"))
    )
    assert totals(result) == {1: D("250.00"), 2: D("125.00"), 3: D("125.00"), 4: D("100.00")}


def test_without_one_cash_prize_each_category_is_shared_on_its_own():
    # A (1500) alone on 5 wins 1st overall 300 and the 1st U1600 100. B (1550) and C (1580)
    # on 4 share 2nd overall 200 (100 each) and the U1600 2nd and 3rd, 60 + 40 (50 each).
    standings = [entrant(1, 5, 1500), entrant(2, 4, 1550), entrant(3, 4, 1580), entrant(4, 3, 1590)]
    prizes = [
        prize("1", "300"),
        prize("2", "200"),
        prize("u1", "100", "u1600"),
        prize("u2", "60", "u1600"),
        prize("u3", "40", "u1600"),
    ]
    result = distribute(request(standings, prizes, {"u1600": {"rating_below": 1600}}, one_cash_prize=False))
    assert totals(result) == {1: D("400.00"), 2: D("150.00"), 3: D("150.00")}
    assert result.unawarded == []


def test_a_tiebreak_category_is_paid_whole_by_the_standings_order():
    # Juniors J1, J2 tied on 4 after the overall prizes are gone: 1st junior 80 to J1 (first
    # in the standings), 2nd junior 40 to J2, nothing shared.
    standings = [entrant(1, 5), entrant(2, 4, tags=frozenset({"junior"})), entrant(3, 4, tags=frozenset({"junior"}))]
    prizes = [prize("1", "500"), prize("j1", "80", "junior"), prize("j2", "40", "junior")]
    result = distribute(request(standings, prizes, {"junior": {"tags": ["junior"], "tie_rule": "tiebreak"}}))
    assert totals(result) == {1: D("500.00"), 2: D("80.00"), 3: D("40.00")}
    assert [p.method for p in result.pools] == ["pool", "tiebreak", "tiebreak"]


def test_a_prize_that_is_not_shared_is_left_to_lower_groups_when_the_pool_pays_more():
    # A (junior) and B tie on 4 for 2nd overall 180; A could take the junior prize 60 whole,
    # but a share of the pool is 90 (one cash prize each: the larger), so A and B share 180
    # and the junior prize goes down to C, the next junior.
    junior = frozenset({"junior"})
    standings = [entrant(1, 5), entrant(2, 4, tags=junior), entrant(3, 4), entrant(4, 2, tags=junior)]
    prizes = [prize("1", "500"), prize("2", "180"), prize("junior", "60", "junior")]
    result = distribute(request(standings, prizes, {"junior": {"tags": ["junior"], "tie_rule": "tiebreak"}}))
    assert totals(result) == {1: D("500.00"), 2: D("90.00"), 3: D("90.00"), 4: D("60.00")}


def test_items_follow_the_prize_to_the_player_who_brought_it_in():
    # A and B share 1st + 2nd; the trophy of 1st goes to A, first in the standings.
    standings = [entrant(1, 5), entrant(2, 5), entrant(3, 4)]
    prizes = [prize("1", "400", items=("Trophy",)), prize("2", "200", items=("Medal",)), prize("3", "100")]
    result = distribute(request(standings, prizes))
    assert {a.entrant.id: a.items for a in result.awards} == {1: ["Trophy"], 2: ["Medal"], 3: []}


def test_a_prize_of_items_only_goes_by_the_standings_order_within_its_category():
    # Juniors: 1st junior 100 (cash) and 2nd junior a book (items only). Player 1, the best
    # junior, takes 1st overall (one cash prize), so the junior cash goes to player 3; the
    # book, the category's 2nd prize, goes to the 2nd junior in the standings: player 3 too.
    standings = [entrant(1, 5, tags=frozenset({"junior"})), entrant(2, 4), entrant(3, 3, tags=frozenset({"junior"}))]
    prizes = [prize("1", "300"), prize("j1", "100", "junior"), prize("j2", "0", "junior", items=("Book",))]
    result = distribute(request(standings, prizes, {"junior": {"tags": ["junior"]}}))
    assert {a.entrant.id: (a.total, a.items) for a in result.awards} == {
        1: (D("300.00"), []),
        3: (D("100.00"), ["Book"]),
    }
    assert [s.pool for s in result.awards[1].shares] == ["P2", None]


def test_a_category_nobody_can_win_is_a_warning_and_unawarded():
    standings = [entrant(1, 3, 2100, sex="m"), entrant(2, 2, 1900, sex="m")]
    prizes = [prize("1", "200"), prize("w1", "50", "women"), prize("u2000", "30", "u2000")]
    result = distribute(request(standings, prizes, {"women": {"sex": "f"}, "u2000": {"rating_below": 2000}}))
    assert totals(result) == {1: D("200.00"), 2: D("30.00")}
    assert [(u.prize.id, u.reason) for u in result.unawarded] == [
        ("w1", "nobody in the standings is eligible for category 'women'")
    ]
    assert [w.code for w in result.warnings] == ["category-without-players"]
    assert result.total_paid == D("230.00") and result.total_announced == D("280.00")


def test_a_prize_left_over_when_its_players_won_more():
    # Only A is under 2000 and A wins 1st: the U2000 prize has nobody left (one cash prize each).
    result = distribute(
        request(
            [entrant(1, 3, 1900), entrant(2, 2, 2100)],
            [prize("1", "200"), prize("u2000", "50", "u2000")],
            {"u2000": {"rating_below": 2000}},
        )
    )
    assert totals(result) == {1: D("200.00")}
    assert [(u.prize.id, u.reason) for u in result.unawarded] == [
        ("u2000", "every player eligible for it won a larger prize or a share of one")
    ]
    assert [w.code for w in result.warnings] == ["prizes-unawarded"]


def test_the_32b3_exception_with_nested_under_prizes():
    # X (2100), A (1300) and B (1700) tie on 4 for 3rd 60, U1800 90 and U1400 80: one prize each,
    # 230 / 3 = 76.67. A and B, the only ones under 1800, could split the prizes only they can win
    # (U1800 and the narrower U1400): 170 / 2 = 85 each; A alone could take U1400: 80. The group
    # that gains most goes first: A and B take 85 each, X keeps 3rd, 60. Inside A and B, A alone
    # would get 80 < 85, so they stay together.
    standings = [entrant(1, 4, 2100, name="X"), entrant(2, 4, 1300, name="A"), entrant(3, 4, 1700, name="B")]
    prizes = [prize("3", "60"), prize("u1800", "90", "u1800"), prize("u1400", "80", "u1400")]
    result = distribute(request(standings, prizes, {"u1800": {"rating_below": 1800}, "u1400": {"rating_below": 1400}}))
    assert totals(result) == {1: D("60.00"), 2: D("85.00"), 3: D("85.00")}
    assert [(p.method, p.players, p.prizes) for p in result.pools] == [
        ("class_prize", (2, 3), ("u1800", "u1400")),
        ("pool", (1,), ("3",)),
    ]


def test_hort_keeping_nothing_is_pooling_and_keeping_everything_is_the_standings_order():
    standings = [entrant(1, 5), entrant(2, 5), entrant(3, 5), entrant(4, 4)]
    prizes = [prize("1", "600"), prize("2", "300"), prize("3", "90"), prize("4", "10")]
    # keep 0: 990 / 3 = 330 each; keep 1: 600, 300, 90; D alone takes 4th either way
    assert totals(distribute(request(standings, prizes, sharing="hort", hort_keep="0"))) == {
        1: D("330.00"),
        2: D("330.00"),
        3: D("330.00"),
        4: D("10.00"),
    }
    assert totals(distribute(request(standings, prizes, sharing="hort", hort_keep="1"))) == {
        1: D("600.00"),
        2: D("300.00"),
        3: D("90.00"),
        4: D("10.00"),
    }


def test_prize_groups_are_independent():
    # Main prizes shared by A and B; a separate 'best game' group pays C; A also wins the
    # rating group's prize although A shares a main prize.
    standings = [entrant(1, 5, 1500), entrant(2, 5, 2000), entrant(3, 3, 1900)]
    groups = (
        PrizeGroup("main", (prize("1", "100"), prize("2", "50"))),
        PrizeGroup("rating", (prize("u1600", "40", "u1600"),)),
    )
    result = distribute(request(standings, (), {"u1600": {"rating_below": 1600}}, groups=groups))
    assert totals(result) == {1: D("115.00"), 2: D("75.00")}
    assert [p.prize_group for p in result.pools] == ["main", "rating"]


def test_the_explanation_names_the_tie_the_prizes_and_the_share():
    standings = [
        entrant(1, 5, name="A"),
        entrant(2, 4, name="C"),
        entrant(3, 4, name="D"),
        entrant(4, 4, name="E"),
        entrant(5, 4, name="F"),
    ]
    prizes = [
        prize("1", "1000"),
        prize("3", "500", name="3rd"),
        prize("4", "300", name="4th"),
        prize("5", "200", name="5th"),
        prize("6", "100", name="6th"),
    ]
    result = distribute(request(standings, prizes))
    why = result.awards[1].shares[0].why
    assert why == (
        "tied on 4 with D, E and F; the group brings in 3rd 500 + 4th 300 + 5th 200 + 6th 100 = 1,100; "
        "all 4 eligible → 275 each"
    )


# ---- what cannot be distributed ----


def _problems(exc) -> list[tuple[str, str]]:
    from tiebreak.prizes import format_path

    return [(format_path(p.path), p.message) for p in exc.value.problems]


def test_invalid_fields_are_400_with_paths():
    prizes = [
        prize("1", "100.005", path=("prizes", 0)),
        prize("2", "50", "juniors", path=("prizes", 1)),
        prize("3", "40", path=("prizes", 2)),
        prize("3", "60", path=("prizes", 3)),
    ]
    with pytest.raises(PrizeInputError) as exc:
        distribute(request([entrant(1, 3)], prizes, identical_priority=("place",)))
    assert exc.value.status == 400
    paths = [p for p, _ in _problems(exc)]
    assert paths == [
        "rules.identical_priority[0]",
        "prizes[0].amount",
        "prizes[1].category",
        "prizes[3].id",
        "prizes[3].amount",
    ]
    messages = dict(_problems(exc))
    assert "finer than the currency unit 0.01" in messages["prizes[0].amount"]
    assert "unknown category 'juniors'" in messages["prizes[1].category"]
    assert "used twice (first at prizes[2])" in messages["prizes[3].id"]
    assert "listed from the largest down: 60 follows 40 (prizes[2])" in messages["prizes[3].amount"]


def test_unit_and_hort_keep_out_of_range():
    with pytest.raises(PrizeInputError) as exc:
        distribute(request([entrant(1, 3)], [prize("1", "1")], unit="0", hort_keep="1.5"))
    assert [p for p, _ in _problems(exc)] == ["rules.rounding.unit", "rules.hort_keep"]


def test_standings_out_of_order_or_with_a_player_twice_are_422():
    with pytest.raises(PrizeInputError) as exc:
        distribute(request([entrant(1, 3), entrant(2, 3.5), entrant(1, 2)], [prize("1", "10")]))
    assert exc.value.status == 422
    assert _problems(exc) == [
        ("standings[1].points", "the standings must be in final order, best first: 3.5 points after 3"),
        ("standings[2].id", "player 1 appears twice in the standings (also standings[0])"),
    ]
