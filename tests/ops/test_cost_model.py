"""The cost model (service/tiebreak/usecases/cost.py) against what it prices: its recorded calibration, and the
shapes that cost most per unit (a `player` list, compare with many lists), over the real ASGI app.

Time is not measured here (figures belong to tools/calibrate_cost.py and the docs); the
answer's size is, since it is exact.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from litestar.testing import TestClient

from tiebreak.usecases import cost
from tiebreak.http.app import create_app
from tiebreak.usecases.cost import Counts, estimate
from tiebreak.wire.limits import LIMITS
from testkit.synthetic import swiss_wire
from tools import calibrate_cost as calibrate

ROOT = Path(__file__).resolve().parents[2]

# The calibration cost.py's constants were taken from (named in cost.py; docs/operations.md).
CALIBRATION = sorted((ROOT / "docs" / "calibration").glob(f"{cost.CALIBRATION}-run*.json"))


def test_the_calibration_cost_py_names_is_recorded():
    assert len(CALIBRATION) >= 2, f"docs/calibration/{cost.CALIBRATION}-run*.json: the runs behind cost.py"


@pytest.mark.parametrize("path", CALIBRATION, ids=lambda p: p.name)
def test_the_constants_over_estimate_every_recorded_run(path):
    """The model errs towards refusing: no shape measured for it costs more than it is priced."""
    runs = json.loads(path.read_text())["runs"]
    assert len(runs) == len(calibrate.SHAPES)
    for name, run in runs.items():
        e = estimate(calibrate.counts_of(run))
        grown = e.memory_bytes - cost.BYTES_BASE - cost.BYTES_PER_BODY_BYTE * run["body_bytes"]
        assert e.seconds >= run["cpu_s"], (name, e.seconds, run["cpu_s"])
        assert grown >= run["growth_bytes"], (name, grown, run["growth_bytes"])
        assert e.answer_bytes >= run["answer_bytes"], (name, e.answer_bytes, run["answer_bytes"])


def test_the_constants_are_the_larger_figure_of_the_recorded_runs():
    k, _, _ = calibrate.merged([str(p) for p in CALIBRATION])
    assert calibrate.rounded(k) == {name: getattr(cost, name) for name in calibrate.CONSTANTS}


def test_merging_calibrations_takes_the_larger_figure_per_constant(tmp_path):
    """A second run twice as slow and with half the memory: the merge takes its time constants and the
    first run's memory constants (each run is fitted again by the script)."""
    first = json.loads(CALIBRATION[0].read_text())
    slower = {
        name: {**run, "cpu_s": 2 * run["cpu_s"], "growth_bytes": run["growth_bytes"] // 2}
        for name, run in first["runs"].items()
    }
    files = [tmp_path / "a.json", tmp_path / "b.json"]
    files[0].write_text(json.dumps(first))
    files[1].write_text(json.dumps({**first, "runs": slower}))
    k, runs, _ = calibrate.merged([str(f) for f in files])
    assert len(runs) == 2 * len(first["runs"])
    alone, slow = calibrate.fit(first["runs"]), calibrate.fit(slower)
    for name in calibrate.CONSTANTS:
        assert k[name] == max(alone[name], slow[name])
        if name.startswith("SECONDS"):
            assert k[name] == pytest.approx(2 * alone[name], rel=1e-6)
        elif name.startswith("BYTES"):
            assert k[name] == alone[name]


def test_the_fit_never_under_estimates_a_run():
    # noisy runs: a cost per player and per cell, each run off by up to ±30 %
    runs = [
        {"players": p, "cells": p * r, "y": (2e-6 * p + 3e-7 * p * r) * noise}
        for p, r, noise in [(1000, 1, 1.3), (5000, 11, 0.7), (20_000, 3, 1.1), (300, 100, 0.9), (2000, 50, 1.25)]
    ]
    a, b = calibrate.nonnegative_fit(runs, "y", ["players", "cells"])
    assert a >= 0 and b >= 0
    assert all(a * run["players"] + b * run["cells"] >= run["y"] * (1 - 1e-9) for run in runs)


def test_printed_constants_are_rounded_up():
    k = {"SECONDS_PER_CELL": 1.2341e-7, "BYTES_PER_CELL": 12.01, "ANSWER_BYTES_PER_ROW": 0.0}
    assert calibrate.rounded(k) == {"SECONDS_PER_CELL": 1.24e-7, "BYTES_PER_CELL": 12.1, "ANSWER_BYTES_PER_ROW": 0.0}


# ---- the shapes that cost most per unit, priced as they cost ----


def test_a_player_list_is_priced_as_the_rows_it_returns():
    """`player` takes a list: with every start number in it, every breakdown is returned."""
    tournament = swiss_wire(200, 9, seed=2)
    ids = [p["id"] for p in tournament["players"]]
    body = {"tournament": tournament, "tiebreaks": ["BH", "SB", "PS"], "player": ids}
    with TestClient(create_app(replace(LIMITS, max_response_bytes=1 << 30))) as c:
        whole = c.post("/v1/standings", json=body)
        one = c.post("/v1/standings", json={**body, "player": ids[0]})
    assert whole.status_code == one.status_code == 200
    priced = estimate(Counts(players=200, rounds=9, rule_passes=3, explained_rules=200 * 3)).answer_bytes
    assert priced >= len(whole.content) > 20 * len(one.content)
    # a limit between the two answers: the list is refused before it is computed, the single player is not
    limit = len(whole.content) // 2
    with TestClient(create_app(replace(LIMITS, max_response_bytes=limit))) as c:
        problem = c.post("/v1/standings", json=body)
        assert problem.status_code == 413 and "max_response_bytes" in problem.text
        assert c.post("/v1/standings", json={**body, "player": ids[0]}).status_code == 200


def test_compare_prices_a_whole_standings_per_list():
    """Ten lists of one rule: ten rankings and ten full standings in the answer, not one."""
    tournament = swiss_wire(1000, 5, seed=4)
    lists = [
        {"name": f"list {i}", "tiebreaks": [rule]}
        for i, rule in enumerate(["BH", "SB", "PS", "WIN", "ARO", "KS", "BH/C1", "SB/C1", "WON", "BPG"])
    ]
    ten = {"tournament": tournament, "lists": lists, "explain": False}
    one = {**ten, "lists": lists[:1]}
    with TestClient(create_app(replace(LIMITS, max_response_bytes=1 << 30))) as c:
        answers = [c.post("/v1/compare", json=body) for body in (one, ten)]
    assert [a.status_code for a in answers] == [200, 200]
    for answer, count in zip(answers, (1, 10), strict=True):
        priced = estimate(Counts(players=1000, rounds=5, rule_passes=count, lists=count)).answer_bytes
        assert priced >= len(answer.content), (count, priced, len(answer.content))
    assert len(answers[1].content) > 5 * len(answers[0].content)
    limit = 2 * len(answers[0].content)
    with TestClient(create_app(replace(LIMITS, max_response_bytes=limit))) as c:
        assert c.post("/v1/compare", json=one).status_code == 200
        problem = c.post("/v1/compare", json=ten)
        assert problem.status_code == 413 and "max_response_bytes" in problem.text
        assert "in 10 rule lists" in problem.json()["errors"][0]["message"]


def test_compare_of_an_event_without_results_names_every_champion():
    """Every player tied first under every list (the shape where a scan of the start numbers per
    champion cost players² / 2 comparisons per list, most of the request's time)."""
    players = 3000
    body = {
        "tournament": {"rounds": 1, "players": [{"id": 7 * i + 1, "name": f"P{i}"} for i in range(players)]},
        "lists": [{"name": "a", "tiebreaks": ["BH"]}, {"name": "b", "tiebreaks": ["SB"]}],
        "explain": False,
    }
    with TestClient(create_app()) as c:
        answer = c.post("/v1/compare", json=body)
    assert answer.status_code == 200, answer.text[:300]
    for champion in answer.json()["summary"]["champions"]:
        assert sorted(champion["ids"]) == [7 * i + 1 for i in range(players)]
        assert champion["names"] == [f"P{(pid - 1) // 7}" for pid in champion["ids"]]
