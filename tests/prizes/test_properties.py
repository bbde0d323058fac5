"""Properties of every distribution (hypothesis), from issue 12 item 5:

- the total paid equals the prizes awarded (announced minus unawarded), to the unit;
- nobody receives a negative amount;
- permuting the players inside a score group (the standings order is still an order of
  equal points) changes no pool, and each player's amount by at most one unit (the odd one) per pool;
- `none` equals a walk down the standings, computed here independently;
- Hort (and pooling) with no ties equals `none`.
"""

from __future__ import annotations

from decimal import Decimal
from itertools import groupby

from hypothesis import given, settings
from hypothesis import strategies as st

from tiebreak.prizes import Category, Entrant, Prize, PrizeGroup, PrizeRequest, Rules, Sharing, TieRule, distribute
from tests.profiles import examples

CATEGORY_FILTERS = {
    "u1800": {"rating_below": 1800},
    "u1400": {"rating_below": 1400},  # inside u1800: nested restricted categories
    "band": {"rating_at_least": 1600, "rating_below": 2000},
    "junior": {"tags": frozenset({"junior"})},
    "women": {"sex": "f"},
}
UNITS = [Decimal("0.01"), Decimal("1"), Decimal("0.05")]


@st.composite
def prize_requests(draw, sharing=None, ties=True, distinct_amounts=False, rated=False, tie_rules=tuple(TieRule)):
    n = draw(st.integers(1, 10))
    if ties:
        halves = sorted(draw(st.lists(st.integers(0, 8), min_size=n, max_size=n)), reverse=True)
    else:
        halves = sorted(draw(st.lists(st.integers(0, 40), min_size=n, max_size=n, unique=True)), reverse=True)
    ratings = draw(st.lists(st.integers(1000, 2400), min_size=n, max_size=n, unique=True))
    standings = []
    for i, (half, rating) in enumerate(zip(halves, ratings, strict=True)):
        unrated = not rated and draw(st.booleans()) and draw(st.booleans())
        standings.append(
            Entrant(
                id=i + 1,
                points=Decimal(half) / 2,
                name=f"P{i + 1}",
                rating=None if unrated else rating,
                sex=draw(st.sampled_from(["f", "m"])),
                tags=frozenset({"junior"}) if draw(st.booleans()) else frozenset(),
            )
        )
    names = draw(st.lists(st.sampled_from(sorted(CATEGORY_FILTERS)), unique=True, max_size=5))
    categories = {
        name: Category(name, tie_rule=draw(st.sampled_from(tie_rules)), **CATEGORY_FILTERS[name]) for name in names
    }
    unit = draw(st.sampled_from(UNITS))
    counts = {name: draw(st.integers(0 if name != "overall" else 1, 4)) for name in ["overall", *names]}
    total = sum(counts.values())
    if distinct_amounts:
        steps = draw(st.lists(st.integers(1, 500), min_size=total, max_size=total, unique=True))
    else:
        steps = draw(st.lists(st.integers(0, 60), min_size=total, max_size=total))
    prizes, k = [], 0
    for name, count in counts.items():
        for j, step in enumerate(sorted(steps[k : k + count], reverse=True)):
            items = ("Trophy",) if j == 0 and draw(st.booleans()) else ()
            prizes.append(Prize(f"{name}-{j + 1}", step * unit * (10 if unit == UNITS[0] else 1), name, items=items))
        k += count
    rules = Rules(
        sharing=sharing or draw(st.sampled_from(list(Sharing))),
        one_cash_prize=draw(st.booleans()),
        cap_at_untied_prize=draw(st.booleans()),
        unit=unit,
        hort_keep=draw(st.sampled_from([Decimal("0.5"), Decimal("0.25"), Decimal("1"), Decimal("0")])),
    )
    return PrizeRequest(tuple(standings), categories, (PrizeGroup(None, tuple(prizes)),), rules)


def _totals(result) -> dict[int, Decimal]:
    return {a.entrant.id: a.total for a in result.awards if a.total}


@settings(max_examples=examples(150), deadline=None)
@given(prize_requests())
def test_the_total_paid_is_what_was_awarded_and_nobody_pays_in(request):
    result = distribute(request)
    announced = sum(p.amount for p in request.groups[0].prizes)
    unawarded = sum(u.prize.amount for u in result.unawarded)
    assert result.total_announced == announced
    assert result.total_paid == announced - unawarded
    assert result.total_paid == sum(a.total for a in result.awards) == sum(p.total for p in result.pools)
    unit = request.rules.unit
    for award in result.awards:
        for share in award.shares:
            assert share.amount >= 0
            assert (share.amount / unit) == (share.amount / unit).to_integral_value()
    paid = {p.id: sum(s.amount for a in result.awards for s in a.shares if s.pool == p.id) for p in result.pools}
    assert all(paid[p.id] == p.total for p in result.pools)
    awarded = {pid for pool in result.pools for pid in pool.prizes} | {
        s.prize for a in result.awards for s in a.shares if s.pool is None
    }
    assert awarded.isdisjoint({u.prize.id for u in result.unawarded})
    assert awarded | {u.prize.id for u in result.unawarded} == {p.id for p in request.groups[0].prizes}


def _permuted(request: PrizeRequest, data) -> PrizeRequest:
    rows = []
    for _, group in groupby(request.standings, key=lambda e: e.points):
        rows += data.draw(st.permutations(list(group)))
    return PrizeRequest(tuple(rows), request.categories, request.groups, request.rules)


@settings(max_examples=examples(150), deadline=None)
@given(prize_requests(sharing=Sharing.POOL, rated=True, tie_rules=(TieRule.SHARE, TieRule.LOWEST_RATING)), st.data())
def test_permuting_players_inside_a_score_group_changes_no_pool(request, data):
    before, after = distribute(request), distribute(_permuted(request, data))

    def pools(result):
        return sorted((p.method, sorted(p.players), sorted(p.prizes), p.total) for p in result.pools)

    assert pools(before) == pools(after)
    assert before.total_paid == after.total_paid
    unit = request.rules.unit
    was, now = _totals(before), _totals(after)
    for pid in set(was) | set(now):
        in_pools = sum(1 for p in before.pools if pid in p.players)
        assert abs(was.get(pid, 0) - now.get(pid, 0)) <= unit * in_pools


def _walk(request: PrizeRequest) -> dict[int, Decimal]:
    """Down the standings, nobody sharing: with one cash prize each, every player takes the
    largest next prize of a category they are eligible for; otherwise every category's
    prizes go to its eligible players in order."""
    queues = {}
    for prize in request.groups[0].prizes:
        if prize.amount > 0:
            queues.setdefault(prize.category, []).append(prize)
    categories = {"overall": Category("overall"), **request.categories}
    paid: dict[int, Decimal] = {}
    for entrant in request.standings:
        open_ = [c for c, q in queues.items() if q and categories[c].admits(entrant)]
        if request.rules.one_cash_prize:
            if open_:
                best = max(open_, key=lambda c: queues[c][0].amount)
                paid[entrant.id] = queues[best].pop(0).amount
        else:
            for c in open_:
                paid[entrant.id] = paid.get(entrant.id, 0) + queues[c].pop(0).amount
    return {pid: amount for pid, amount in paid.items() if amount}


@settings(max_examples=examples(150), deadline=None)
@given(prize_requests(sharing=Sharing.NONE, distinct_amounts=True))
def test_none_is_a_walk_down_the_standings(request):
    assert _totals(distribute(request)) == _walk(request)


def _with(request: PrizeRequest, sharing: Sharing) -> PrizeRequest:
    rules = Rules(
        sharing=sharing,
        hort_keep=request.rules.hort_keep,
        one_cash_prize=request.rules.one_cash_prize,
        cap_at_untied_prize=request.rules.cap_at_untied_prize,
        unit=request.rules.unit,
    )
    return PrizeRequest(request.standings, request.categories, request.groups, rules)


@settings(max_examples=examples(150), deadline=None)
@given(prize_requests(ties=False))
def test_without_ties_hort_and_pooling_equal_none(request):
    none = _totals(distribute(_with(request, Sharing.NONE)))
    assert _totals(distribute(_with(request, Sharing.HORT))) == none
    assert _totals(distribute(_with(request, Sharing.POOL))) == none
