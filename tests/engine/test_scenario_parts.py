"""engine/scenario_parts.py: ranks assembled from each player's rule values agree, player by player
and outcome by outcome, with every outcome ranked whole (engine/scenarios.py's `Ranker`), on
synthetic Swiss events larger than the oracle's, with byes, forfeits and open games spread over
the field; and the pieces it stands on."""

from __future__ import annotations

import random

import msgspec
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tiebreak.usecases.scenarios as use
from tiebreak.engine import Regulations
from tiebreak.engine.registry import TIEBREAKS, valid_codes
from tiebreak.engine.scenario_parts import READS, covering_outcomes, games_read, reach_of
from tiebreak.engine.rules import parse_rule
from tiebreak.engine.scenarios import OpenGame
from testkit.synthetic import swiss_wire
from tiebreak.wire import scenarios as w
from tiebreak.wire import schemas as s
from tests.profiles import examples

RULE_LISTS = [
    ["BH/C1", "BH", "SB"],
    ["AOB", "SB/C1"],
    ["FB", "KS"],
    ["ARO/C1", "TPR", "PTP"],
    ["APRO", "APPO"],
    ["PS", "WIN", "WON", "BPG", "BWG", "GE"],
    ["BH/M1", "STD", "TPN"],
    ["MM", "SOLK", "CUM", "OCUM"],  # US Chess (uscf)
    ["KASH", "SBUS", "BLK", "AROUS", "OPERF"],  # US Chess (uscf)
]
USCF_LISTS = RULE_LISTS[-2:]
WHOLE = {"DE", "RBT", "RND"}  # read whoever is tied, or are no result: ranked whole


def _request(seed: int) -> w.ScenariosRequest:
    rng = random.Random(seed)
    players, rounds = rng.randint(10, 24), rng.randint(4, 6)
    wire = swiss_wire(players, rounds, seed=seed, half_bye_rate=0.05, forfeit_rate=0.05)
    tournament = msgspec.convert(wire, s.Tournament)
    before, pairings, played = use.opened_round(tournament)
    games = [p for p in pairings if p.white is not None]
    open_keys = {(g.white, g.black) for g in rng.sample(games, min(len(games), rng.randint(2, 7)))}
    assume = [a for a in played if (a.white, a.black) not in open_keys]
    ids = [p.id for p in before.players]
    rules = rng.choice(RULE_LISTS)
    reported = sorted(rng.sample(ids, rng.randint(1, len(ids)))) if rng.random() < 0.5 else None
    if rng.random() < 0.3:  # the leaders only: games far below them are set aside
        points = {
            p.id: sum(r.result in ("win", "forfeit_win", "pairing_bye") for r in p.results) for p in before.players
        }
        reported = sorted(pid for pid, won in points.items() if won == max(points.values()))
    return w.ScenariosRequest(
        tournament=before,
        tiebreaks=list(rules),
        regulations="uscf" if rules in USCF_LISTS else rng.choice(["fide-2026", "fide-2024", "fide-2009"]),
        pairings=pairings,
        assume=assume,
        players=reported,
        places=rng.randint(1, 4),
    )


def _whole(body: w.ScenariosRequest, monkeypatch) -> w.ScenariosResponse:
    with monkeypatch.context() as patch:
        patch.setattr(use, "reach_of", lambda specs: None)
        plan = use.plan_scenarios(body)
    assert plan.parts is None
    return use.compute_scenarios(plan)


@settings(max_examples=examples(150), deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_ranks_by_parts_agree_with_whole_outcomes(seed):
    body = _request(seed)
    plan = use.plan_scenarios(body)
    assert plan.parts is not None
    by_parts = use.compute_scenarios(plan)
    with pytest.MonkeyPatch.context() as patch:
        whole = _whole(body, patch)
    assert msgspec.to_builtins(by_parts.players) == msgspec.to_builtins(whole.players)
    assert by_parts.ranked_by_tiebreaks == whole.ranked_by_tiebreaks


@pytest.mark.parametrize("seed", [70, 118])
def test_every_open_game_set_aside(seed, monkeypatch):
    """The reported player can be level on points with nobody whose games are open: every game is
    set aside and the one outcome left is ranked (it once raised on an empty set of games)."""
    body = _request(seed)
    plan = use.plan_scenarios(body)
    assert plan.parts is not None and not plan.parts.kept and plan.games
    by_parts = use.compute_scenarios(plan)
    whole = _whole(body, monkeypatch)
    assert msgspec.to_builtins(by_parts.players) == msgspec.to_builtins(whole.players)
    assert (by_parts.outcomes, by_parts.ranked_by_tiebreaks) == (whole.outcomes, whole.ranked_by_tiebreaks)


def test_the_synthetic_events_include_games_set_aside():
    """Some requests have open games that change no reported rank (both players never level on
    points with a reported one, no value reads them): the property above covers them."""
    set_aside = 0
    for seed in range(80):
        plan = use.plan_scenarios(_request(seed))
        assert plan.parts is not None
        set_aside += len(plan.parts.kept) < len(plan.games)
    assert set_aside >= 5


def test_every_rule_says_how_far_it_reads_or_is_ranked_whole():
    """A rule added to the catalogue must be placed consciously: absent from READS it is ranked
    whole, which is safe but slow; this names the rules that are, so that none is by accident."""
    assert set(TIEBREAKS) - set(READS) == WHOLE
    codes = valid_codes(Regulations.FIDE_2026)
    assert reach_of([parse_rule("DE", codes), parse_rule("BH", codes)]) is None
    assert reach_of([parse_rule(code, codes) for code in ("PS", "AOB", "SB")]) == 2
    assert reach_of([]) == 0


def test_covering_outcomes_show_every_player_every_combination_of_their_games():
    rng = np.random.default_rng(3)
    for _ in range(20):
        games = int(rng.integers(1, 8))
        read = {
            p: sorted(rng.choice(games, size=int(rng.integers(0, games + 1)), replace=False).tolist()) for p in range(6)
        }
        chosen, shown = covering_outcomes(read, games)
        for player, own in read.items():
            weights = 3 ** np.arange(len(own) - 1, -1, -1)
            combination = chosen[shown[player]][:, own].astype(int) @ weights if own else np.zeros(len(shown[player]))
            assert combination.tolist() == list(range(3 ** len(own)))


def test_games_read_follow_the_opponents_out_to_the_reach():
    # a chain 0-1-2-3 of earlier games; the open games are 0-4 and 3-5
    body = w.ScenariosRequest(
        tournament=msgspec.convert(
            {
                "rounds": 2,
                "players": [
                    {"id": 1, "results": [{"round": 1, "opponent": 2, "color": "w", "result": "win"}]},
                    {"id": 2, "results": [{"round": 1, "opponent": 1, "color": "b", "result": "loss"}]},
                    {"id": 3, "results": [{"round": 1, "opponent": 4, "color": "w", "result": "draw"}]},
                    {"id": 4, "results": [{"round": 1, "opponent": 3, "color": "b", "result": "draw"}]},
                    {"id": 5, "results": [{"round": 1, "result": "half_bye"}]},
                    {"id": 6, "results": [{"round": 1, "result": "half_bye"}]},
                ],
            },
            s.Tournament,
        ),
        tiebreaks=["BH"],
        pairings=[
            w.Pairing(round=2, white=1, black=5),
            w.Pairing(round=2, white=4, black=6),
            w.Pairing(round=2, white=2, black=3),
        ],
    )
    plan = use.plan_scenarios(body)
    table, games = plan.table, plan.games
    assert games == [OpenGame(0, 4, 1), OpenGame(3, 5, 1), OpenGame(1, 2, 1)]
    assert games_read(table, games, 4, 0) == [0]  # player 5: own game only
    assert games_read(table, games, 4, 1) == [0]  # ... and player 1's, the same game
    assert games_read(table, games, 0, 1) == [0, 2]  # player 1: own, and player 2's
    assert games_read(table, games, 0, 2) == [0, 2]  # player 3, two steps away, plays game 2
    assert games_read(table, games, 0, 3) == [0, 1, 2]  # player 4, three steps away, plays game 1
