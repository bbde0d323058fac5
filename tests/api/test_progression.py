"""POST /v1/standings/progression (SPEC 3.9): the ranks and points after each round.

The hand-worked event is examples.py's 5-player club Swiss; the property is SPEC 3.9's own:
round k of the answer is /v1/standings with `after_round: k`, rank for rank and point for point."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from litestar.testing import TestClient

from testkit.conformance_teams import load_team_cases
from tests.strategies import swiss_tournaments
from tiebreak.http.app import app
from tiebreak.http.examples import TOURNAMENT, TRF
from tiebreak.usecases.convert import tournament_to_wire
from tiebreak.usecases.cost import Counts, estimate, progression_counts
from tests.profiles import examples

REALWORLD = Path(__file__).resolve().parents[2].parent / "shared" / "conformance" / "realworld-trf"
RULES = ["BH/C1", "BH", "SB", "DE", "PS", "WIN"]
CLIENT = TestClient(app)  # no lifespan hooks to run; one client for every example


def progression(client, body, status=200):
    response = client.post("/v1/standings/progression", json=body)
    assert response.status_code == status, response.text
    return response.json()


def by_round_from_standings(client, body, rounds):
    """Per round k, {id: (rank, points)} from /v1/standings with after_round k."""
    out = []
    for k in rounds:
        response = client.post("/v1/standings", json={**body, "after_round": k, "explain": False})
        assert response.status_code == 200, response.text
        out.append({row["id"]: (row["rank"], row["points"]) for row in response.json()["standings"]})
    return out


def assert_same_as_standings(client, body):
    answer = progression(client, body)
    expected = by_round_from_standings(client, body, answer["rounds"])
    assert len(answer["players"]) == len(expected[-1])
    for row in answer["players"]:
        got = list(zip(row["ranks"], row["points"], strict=True))
        assert got == [per_round[row["id"]] for per_round in expected], row["id"]
    return answer


def test_points_only_worked_by_hand(client):
    # Round 1: Okafor beat Lind, Novak had the pairing bye (1 each); Petrova-Chen drawn.
    # Round 2: Petrova beat Novak, Chen beat Okafor (1.5 each); Lind had the bye (1).
    answer = progression(client, {"trf": TRF, "after_round": 2})
    assert answer["rounds"] == [1, 2]
    rows = {row["id"]: (row["ranks"], row["points"]) for row in answer["players"]}
    assert rows == {
        1: ([3, 1], [0.5, 1.5]),
        2: ([1, 3], [1.0, 1.0]),
        3: ([3, 1], [0.5, 1.5]),
        4: ([5, 3], [0.0, 1.0]),
        5: ([1, 3], [1.0, 1.0]),
    }
    # In the order of the last round's standings: the two leaders, then the three on 1 point.
    assert {row["id"] for row in answer["players"][:2]} == {1, 3}
    assert [w["code"] for w in answer["warnings"]] == ["no-tiebreaks"]


def test_every_round_by_default_and_the_rules_echoed(client):
    answer = progression(client, {"tournament": TOURNAMENT, "tiebreaks": ["BH/C1", "SB"]})
    assert answer["rounds"] == [1, 2, 3]
    assert [t["spec"] for t in answer["tiebreaks"]] == ["BH/C1", "SB"]
    assert answer["regulations"] == "fide-2026"
    # After round 3 Chen has 2.5, alone first; Lind has 1 point, alone last.
    assert answer["players"][0]["id"] == 3 and answer["players"][0]["ranks"][-1] == 1
    assert answer["players"][-1] == {"id": 4, "name": "Lind, Dora", "ranks": [5, 5, 5], "points": [0.0, 1.0, 1.0]}


@pytest.mark.parametrize(
    "body",
    [
        {"tournament": TOURNAMENT, "tiebreaks": ["BH/C1", "BH", "SB"]},
        {"trf": TRF, "preset": "fide-swiss-traditional"},
        {"tournament": TOURNAMENT, "tiebreaks": ["DE", "WIN", "AOB"], "unrated_rating": 1500},
    ],
)
def test_each_round_is_the_standings_after_that_round(client, body):
    assert_same_as_standings(client, body)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=list(HealthCheck))
@given(drawn=swiss_tournaments(max_players=10, max_rounds=6))
def test_random_crosstables_rank_each_round_as_the_standings_do(drawn):
    body = {
        "tournament": msgspec.to_builtins(tournament_to_wire(drawn.tournament)),
        "tiebreaks": RULES,
        "unrated_rating": 1500,
        "after_round": drawn.tournament.rounds,
    }
    answer = assert_same_as_standings(CLIENT, body)
    assert answer["rounds"] == list(range(1, drawn.tournament.rounds + 1))


@pytest.mark.skipif(not REALWORLD.is_dir(), reason="../shared/conformance/realworld-trf/ is not here")
def test_a_real_export_ranks_each_round_as_the_standings_do(client):
    text = (REALWORLD / "fide-tec-held-swiss-9.trf").read_text(encoding="utf-8", errors="replace")
    answer = assert_same_as_standings(client, {"trf": text, "preset": "fide-swiss-traditional"})
    assert answer["rounds"] == list(range(1, 10))


def test_a_team_event_gives_both_scores_each_round(client):
    case = next(c for c in load_team_cases() if c.id == "tswiss-0003")
    body = {k: v for k, v in case.body.items() if k not in ("explain", "top", "offset", "player")}
    answer = progression(client, body)
    standings = []
    for k in answer["rounds"]:
        response = client.post("/v1/standings", json={**body, "after_round": k, "explain": False})
        assert response.status_code == 200, response.text
        standings.append({row["id"]: row for row in response.json()["standings"]})
    assert len(answer["rounds"]) >= 2
    for row in answer["players"]:
        assert row["ranks"] == [s[row["id"]]["rank"] for s in standings]
        assert row["match_points"] == [s[row["id"]]["match_points"] for s in standings]
        assert row["game_points"] == [s[row["id"]]["game_points"] for s in standings]


@pytest.mark.parametrize("field", ["explain", "top", "offset", "player"])
def test_the_row_choices_of_standings_are_refused(client, field):
    problem = progression(client, {"trf": TRF, field: 1}, status=400)
    assert field in problem["errors"][0]["message"]


def test_a_round_past_the_event_is_the_standings_error(client):
    body = {"tournament": TOURNAMENT, "after_round": 4}
    mine = progression(client, body, status=422)
    theirs = client.post("/v1/standings", json=body).json()
    assert mine["errors"] == theirs["errors"]


def test_a_broken_trf_line_is_located(client):
    broken = TRF.replace("5 b 1     2 w =", "9 b 1     2 w =")  # Petrova's round-2 opponent does not exist
    problem = progression(client, {"trf": broken}, status=422)
    assert any(e["path"].startswith("trf:") for e in problem["errors"]), problem


def test_priced_as_one_ranking_per_round():
    one = Counts(players=400, rounds=9, rule_passes=5)
    priced = estimate(progression_counts(one, 9))
    single = estimate(one)
    assert priced.seconds >= 9 * single.seconds * 0.9
    assert priced.memory_bytes > single.memory_bytes


def test_computed_by_a_worker_process_as_inline():
    """Priced over the inline threshold, the progression goes to the gate's pool: the same answer."""
    from dataclasses import replace

    from tiebreak.http.app import create_app
    from tiebreak.wire.limits import LIMITS

    body = {"tournament": TOURNAMENT, "tiebreaks": ["BH/C1", "BH", "SB"]}
    inline = progression(CLIENT, body)
    with TestClient(create_app(replace(LIMITS, inline_max_cost_ms=0.0))) as pooled:
        assert progression(pooled, body) == inline


def test_a_progression_over_the_cost_ceiling_is_a_413_where_its_standings_are_not():
    """Priced as one ranking per round: between the two estimates, the standings pass and the
    progression is refused up front, naming the limit."""
    from dataclasses import replace

    from tiebreak.http.app import create_app
    from tiebreak.wire.limits import LIMITS

    players, rounds, rules = 2000, 9, 3
    body = {
        "tournament": {"rounds": rounds, "players": [{"id": i + 1, "name": f"P{i + 1}"} for i in range(players)]},
        "tiebreaks": ["BH/C1", "BH", "SB"],
        "after_round": rounds,
    }
    one = Counts(players=players, rounds=rounds, rule_passes=rules)
    standings_s = estimate(one).seconds
    progression_s = estimate(progression_counts(one, rounds)).seconds
    assert progression_s > 2 * standings_s
    ceiling = (standings_s + progression_s) / 2 + 1e-3  # the bodies' bytes add a little to both
    with TestClient(create_app(replace(LIMITS, max_cost_s=ceiling))) as client:
        standings = client.post("/v1/standings", json={**body, "explain": False})
        assert standings.status_code == 200, standings.text
        problem = progression(client, body, status=413)
        assert "max_cost_s" in problem["errors"][0]["message"]


def test_one_draw_of_lots_for_every_round_echoed_to_reproduce_it(client):
    from tests.api.test_drawing_of_lots_api import FOUR_TIED

    body = {"tournament": FOUR_TIED, "tiebreaks": ["RND"]}
    drawn = progression(client, body)
    assert isinstance(drawn["seed"], int)
    again = assert_same_as_standings(client, {**body, "seed": drawn["seed"]})
    assert again == drawn
    # Round 1: Ana and Bo won, Cai and Dan lost; round 2 leaves all four on 1 point: the lots decide.
    assert sorted(p["points"][0] for p in drawn["players"]) == [0.0, 0.0, 1.0, 1.0]
    assert [p["ranks"][1] for p in drawn["players"]] == [1, 2, 3, 4]


def test_no_seed_without_lots(client):
    assert progression(client, {"trf": TRF})["seed"] is None


def test_a_large_progression_is_priced_as_rankings_one_after_another_and_admitted():
    # 50,000 players × 9 rounds, 3 rules: its time, answer and peak memory in docs/benchmarks.md
    # (bench/progression.py). Priced as compare prices its lists it was
    # a 413 on the answer's size (99 MiB estimated); one after another it fits the default limits.
    from tiebreak.usecases.cost import Counts, check_cost, estimate, progression_counts
    from tiebreak.wire.limits import LIMITS

    one = Counts(players=50_000, rounds=9, rule_passes=3, body_bytes=26 * 2**20)
    priced = check_cost(progression_counts(one, 9), LIMITS)
    assert priced.seconds > 1.6 and priced.answer_bytes > 6.8 * 2**20 and priced.memory_mib > 265
    assert priced.seconds > estimate(one).seconds  # nine rankings cost more than one
