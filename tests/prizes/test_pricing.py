"""POST /v1/prizes is priced before it runs (issue 21 item 10): a distribution the cost model
says is past `max_cost_s` or `max_response_bytes` is a 413 up front, naming the limit and what to
ask for instead, not a 503 at the deadline. bench/prizes.py measures the constants."""

from __future__ import annotations

from tiebreak.usecases.cost import Counts, estimate, prize_counts
from tiebreak.wire.limits import LIMITS


def big_tie(entrants=50_000, categories=100, prizes=1000, **rules):
    # The shape: everyone on the same points, 100 nested rating categories, 1,000 prizes.
    return {
        "standings": [{"id": i + 1, "points": 5, "rating": 1000 + i % 2000} for i in range(entrants)],
        "categories": {f"c{j}": {"rating_below": 1000 + 20 * (j + 1)} for j in range(categories)},
        "prizes": [{"id": f"p{k}", "amount": "10", "category": f"c{k % categories}"} for k in range(prizes)],
        "rules": rules,
    }


def test_a_tie_of_fifty_thousand_over_a_hundred_categories_is_refused_up_front(client):
    response = client.post("/v1/prizes", json=big_tie())
    assert response.status_code == 413, response.text[:300]
    assert response.headers["content-type"] == "application/problem+json"
    message = " ".join(e["message"] for e in response.json()["errors"])
    assert "limit max_cost_s = " in message
    assert "5050000 entrant × category checks, 50000 tied entrants" in message
    assert "fewer categories or prizes, or `one_cash_prize: true`" in message


def test_the_same_entrants_apart_on_points_are_computed(client):
    body = big_tie(entrants=2000, categories=20, prizes=100)
    for i, row in enumerate(body["standings"]):
        row["points"] = (2000 - i) / 4
    response = client.post("/v1/prizes", json=body)
    assert response.status_code == 200, response.text[:300]
    assert response.json()["total_announced"] == "1000.00"  # 100 prizes of 10, all priced and distributed


def test_ties_are_counted_from_the_standings_given():
    # 1 alone, 2 and 3 tied, 4 5 6 tied: five tied entrants, the largest tie three.
    counts = prize_counts([5, 4, 4, 3, 3, 3], categories=2, prizes=4, groups=1, one_cash_prize=False)
    assert counts == {
        "prize_checks": 6 * 3,
        "prize_tied": 5,
        "prize_tied_checks": 0,  # no class-prize parts without one cash prize each
        "prize_shares": min(6 * 3, 6 + 4 * 3),
    }
    one_cash = prize_counts([5, 4, 4, 3, 3, 3], categories=2, prizes=4, groups=1, one_cash_prize=True)
    assert one_cash["prize_tied_checks"] == 5 * 3 and one_cash["prize_shares"] == 6 + 4


def test_standings_still_to_compute_count_everyone_as_tied():
    counts = prize_counts([None] * 10, categories=1, prizes=3, groups=1, one_cash_prize=True)
    assert counts["prize_tied"] == 10


def test_many_shares_are_past_the_answer_limit():
    # 10,000 tied, 100 categories, a share each in every category: about 400 MiB of answer.
    points = [5] * 10_000
    counts = Counts(players=10_000, rounds=1, **prize_counts(points, 100, 1000, 1, one_cash_prize=False))
    assert estimate(counts).answer_bytes > LIMITS.max_response_bytes
