"""The brute-force oracle of POST /v1/scenarios: one POST /v1/standings per outcome, and the checks
that an answer agrees with it (ranks, places, exact and minimal `needs`)."""

from __future__ import annotations

import itertools
import random

RESULTS = ("white", "draw", "black")
WHITE_SIDE = {"white": "win", "draw": "draw", "black": "loss"}
BLACK_SIDE = {"white": "loss", "draw": "draw", "black": "win"}
RULE_LISTS = [
    [],
    ["BH"],
    ["BH/C1", "BH"],
    ["SB"],
    ["DE"],
    ["DE", "SB"],
    ["WIN", "BH"],
    ["ARO"],
    ["PS", "BH/M1"],
    ["AOB", "TPN"],
    ["FB", "KS"],
]  # DE: every outcome ranked whole; the others: by parts (engine/scenario_parts.py)


def random_event(rng: random.Random) -> dict:
    """A small Swiss-like event before its next round: a scenarios request body (JSON tournament),
    many players level on points so that tie-breaks decide places."""
    n = rng.randint(3, 8)
    played = rng.randint(1, 3)
    rounds = played + 1 + (rng.random() < 0.2)  # sometimes a round is still to come after the one paired
    results: dict[int, list[dict]] = {pid: [] for pid in range(1, n + 1)}
    for rnd in range(1, played + 1):
        _pair_round(rng, rnd, list(results), results)
    pairings: list[dict] = []
    order = list(results)
    rng.shuffle(order)
    if len(order) % 2:
        pairings.append({"round": played + 1, "player": order.pop(), "bye": rng.choice(["pairing_bye", "half_bye"])})
    games = [{"round": played + 1, "white": a, "black": b} for a, b in zip(order[::2], order[1::2], strict=True)]
    assume = []
    if len(games) > 1 and rng.random() < 0.3:
        fixed = games[-1]
        assume.append({**fixed, "result": rng.choice(RESULTS)})
    pairings += games
    body: dict = {
        "tournament": {
            "name": "random",
            "system": "swiss",
            "rounds": rounds,
            "players": [
                {"id": pid, "name": f"P{pid}", "rating": 1500 + 37 * pid, "results": res}
                for pid, res in results.items()
            ],
        },
        "tiebreaks": rng.choice(RULE_LISTS),
        "regulations": rng.choice(["fide-2026", "fide-2024"]),
        "pairings": pairings,
        "places": rng.randint(1, 3),
    }
    if assume:
        body["assume"] = assume
    if rng.random() < 0.3:
        body["players"] = sorted(rng.sample(list(results), rng.randint(1, n)))
    return body


def _pair_round(rng: random.Random, rnd: int, ids: list[int], results: dict[int, list[dict]]) -> None:
    order = ids[:]
    rng.shuffle(order)
    if len(order) % 2:
        results[order.pop()].append({"round": rnd, "result": rng.choice(["pairing_bye", "half_bye", "zero_bye"])})
    for a, b in zip(order[::2], order[1::2], strict=True):
        outcome = rng.choice(RESULTS)
        results[a].append({"round": rnd, "opponent": b, "color": "w", "result": WHITE_SIDE[outcome]})
        results[b].append({"round": rnd, "opponent": a, "color": "b", "result": BLACK_SIDE[outcome]})


def open_games(body: dict) -> list[dict]:
    fixed = {(a["round"], a["white"], a["black"]) for a in body.get("assume", [])}
    return [p for p in body["pairings"] if "white" in p and (p["round"], p["white"], p["black"]) not in fixed]


def oracle_ranks(client, body: dict) -> tuple[list[dict], list[tuple[str, ...]], list[dict], list[dict]]:
    """Every outcome of the open games, and each player's rank and points in it from POST /v1/standings."""
    games = open_games(body)
    fixed = {(a["round"], a["white"], a["black"]): a["result"] for a in body.get("assume", [])}
    outcomes = list(itertools.product(RESULTS, repeat=len(games)))
    ranks, points = [], []
    for outcome in outcomes:
        chosen = dict(fixed)
        chosen.update({(g["round"], g["white"], g["black"]): r for g, r in zip(games, outcome, strict=True)})
        rank, point = outcome_standings(client, body, chosen)
        ranks.append(rank)
        points.append(point)
    return games, outcomes, ranks, points


def outcome_standings(client, body: dict, chosen: dict) -> tuple[dict, dict]:
    """Each player's rank and points from POST /v1/standings when the games of `pairings` have
    the results `chosen` ((round, white, black) -> result) and the byes theirs."""
    after = max(p["round"] for p in body["pairings"])
    players = {p["id"]: {**p, "results": list(p["results"])} for p in body["tournament"]["players"]}
    for p in body["pairings"]:
        if "player" in p:
            players[p["player"]]["results"].append({"round": p["round"], "result": p["bye"]})
            continue
        result = chosen[(p["round"], p["white"], p["black"])]
        players[p["white"]]["results"].append(
            {"round": p["round"], "opponent": p["black"], "color": "w", "result": WHITE_SIDE[result]}
        )
        players[p["black"]]["results"].append(
            {"round": p["round"], "opponent": p["white"], "color": "b", "result": BLACK_SIDE[result]}
        )
    request = {
        "tournament": {**body["tournament"], "players": list(players.values())},
        "tiebreaks": body.get("tiebreaks", []),
        "regulations": body.get("regulations", "auto"),
        "explain": False,
        "after_round": after,
    }
    if body.get("unrated_rating") is not None:  # the rating rules as the scenarios computed them
        request["unrated_rating"] = body["unrated_rating"]
    response = client.post("/v1/standings", json=request)
    assert response.status_code == 200, response.text
    rows = response.json()["standings"]
    return {row["id"]: row["rank"] for row in rows}, {row["id"]: row["points"] for row in rows}


def satisfied(needs: list[list[dict]], games: list[dict], outcome: tuple[str, ...]) -> bool:
    where = {(g["round"], g["white"], g["black"]): i for i, g in enumerate(games)}
    return any(
        all(outcome[where[(c["round"], c["white"], c["black"])]] in c["results"] for c in term) for term in needs
    )


def winning_set(needs, games, outcomes) -> set[tuple[str, ...]]:
    return {o for o in outcomes if satisfied(needs, games, o)}


def check_agrees(answer: dict, body: dict, games, outcomes, ranks) -> None:
    """Assert the answer agrees with the oracle on every reported player, place and need."""
    assert answer["outcomes"] == len(outcomes)
    assert [(g["round"], g["white"], g["black"]) for g in answer["open_games"]] == [
        (g["round"], g["white"], g["black"]) for g in games
    ]
    wanted = body.get("players") or sorted(ranks[0])
    assert [p["id"] for p in answer["players"]] == sorted(wanted)
    for player in answer["players"]:
        pid = player["id"]
        mine = [r[pid] for r in ranks]
        assert player["best_rank"] == min(mine), pid
        assert player["worst_rank"] == max(mine), pid
        shown = {p["place"]: p["needs"] for p in player["places"]}
        clinched = None
        for place in range(1, body["places"] + 1):
            reach = {o for o, r in zip(outcomes, mine, strict=True) if r <= place}
            if not reach:
                assert place not in shown, (pid, place)
                continue
            if clinched is None and len(reach) == len(outcomes):
                clinched = place
            needs = shown[place]
            assert winning_set(needs, games, outcomes) == reach, (pid, place, needs)
            check_minimal(needs, games, outcomes, reach)
            if len(reach) == len(outcomes):
                assert needs == [[]]
        assert player["clinched"] == clinched, pid


def check_minimal(needs, games, outcomes, reach) -> None:
    """Dropping a term or a condition, or widening a condition, changes the set; only games that
    matter are named."""
    for i in range(len(needs)):
        assert winning_set(needs[:i] + needs[i + 1 :], games, outcomes) != reach, ("term", i, needs)
        for j, condition in enumerate(needs[i]):
            assert 1 <= len(condition["results"]) <= 2
            dropped = needs[i][:j] + needs[i][j + 1 :]
            assert winning_set([*needs[:i], dropped, *needs[i + 1 :]], games, outcomes) != reach
            for extra in set(RESULTS) - set(condition["results"]):
                widened = [*dropped[:j], {**condition, "results": [*condition["results"], extra]}, *dropped[j:]]
                assert winning_set([*needs[:i], widened, *needs[i + 1 :]], games, outcomes) != reach
            index = [(g["round"], g["white"], g["black"]) for g in games].index(
                (condition["round"], condition["white"], condition["black"])
            )
            assert _matters(index, outcomes, reach)


def _matters(index: int, outcomes, reach) -> bool:
    return any((o in reach) != ((*o[:index], other, *o[index + 1 :]) in reach) for o in outcomes for other in RESULTS)


def tie_break_decides_a_place(ranks, points, places: int) -> bool:
    """Whether in some outcome two players level on points are ranked apart, one of them within `places`."""
    for rank, score in zip(ranks, points, strict=True):
        for a, b in itertools.combinations(rank, 2):
            if score[a] == score[b] and rank[a] != rank[b] and min(rank[a], rank[b]) <= places:
                return True
    return False
