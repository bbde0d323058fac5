"""What FIDE's checklist for tournament programs (C.02, VCL4THP.13, questions 197-216) asks of
tie-breaks, answered through POST /v1/standings (SPEC 3.12). Every expected value is worked by
hand in the comments; docs/arbiters.md's checklist table names these tests."""

from __future__ import annotations

import json

import pytest


def _game(rnd: int, opponent: int, colour: str, result: str) -> dict:
    return {"round": rnd, "opponent": opponent, "color": colour, "result": result}


OTHER = {"win": "loss", "loss": "win", "draw": "draw"}


def _crosstable(pairings: list[tuple[int, int, int, str]], players: dict[int, dict]) -> list[dict]:
    """Players with their games from (round, white, black, white's result)."""
    results: dict[int, list[dict]] = {pid: [] for pid in players}
    for rnd, white, black, result in pairings:
        results[white].append(_game(rnd, black, "w", result))
        results[black].append(_game(rnd, white, "b", OTHER[result]))
    return [{"id": pid, "name": f"P{pid}", **fields, "results": results[pid]} for pid, fields in players.items()]


# A four-player round robin, every game drawn: player 1 meets 2 in round 1, 3 in round 2, 4 in round 3.
ROUND_ROBIN = [(1, 1, 2, "draw"), (1, 3, 4, "draw"), (2, 3, 1, "draw"), (2, 2, 4, "draw"), (3, 1, 4, "draw")]
ROUND_ROBIN += [(3, 2, 3, "draw")]


def _standings(client, players: dict[int, dict], **request) -> dict:
    tournament = {"rounds": 3, "players": _crosstable(ROUND_ROBIN, players), **request.pop("tournament", {})}
    answer = client.post("/v1/standings", json={"tournament": tournament, **request})
    assert answer.status_code == 200, answer.text
    return answer.json()


def _row(body: dict, pid: int) -> dict:
    return next(row for row in body["standings"] if row["id"] == pid)


def _aro(client, players: dict[int, dict], ratings: dict | None = None, **request) -> float | None:
    body = _standings(client, players, tiebreaks=["ARO"], ratings=ratings, **request)
    return _row(body, 1)["values"][0]


# Opponents of player 1: 2 (FIDE 1800, national 1850), 3 (no FIDE rating, national 1700, estimated
# 1750), 4 (FIDE 2000, no national rating).
SOURCES = {
    1: {"rating": 2100},
    2: {"rating": 1800, "national_rating": 1850},
    3: {"national_rating": 1700, "estimated_rating": 1750},
    4: {"rating": 2000},
}


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("fide", 1600),  # 1800 + 1000 (3 unrated, counted 1000) + 2000 = 4800 / 3
        ("national", 1517),  # 1850 + 1700 + 1000 (4 has none) = 4550 / 3 = 1516.67, rounded up
        ("fide-else-national", 1833),  # 1800 + 1700 + 2000 = 5500 / 3 = 1833.33
        ("national-else-fide", 1850),  # 1850 + 1700 + 2000 = 5550 / 3
        ("highest", 1867),  # 1850 + 1750 (the estimate is 3's highest) + 2000 = 5600 / 3 = 1866.67
    ],
)
def test_checklist_q145_each_rating_source_gives_its_aro(client, source, expected):
    assert _aro(client, SOURCES, {"source": source, "unrated": 1000}) == expected


def test_checklist_q145_the_breakdown_names_each_ratings_source(client):
    body = _standings(client, SOURCES, tiebreaks=["ARO"], ratings={"source": "fide-else-national", "unrated": 1000})
    games = _row(body, 1)["breakdown"]["ARO"]["contributions"]
    assert [(c["opponent"], c["value"], c["rating_source"]) for c in games] == [
        (2, 1800, "fide"),
        (3, 1700, "national"),
        (4, 2000, "fide"),
    ]
    assert body["ratings"] == {"source": "fide-else-national", "per_round": False, "unrated": 1000}


def test_checklist_q208_unrated_players_at_the_estimated_rating(client):
    # 1800 + 1750 (3's estimate) + 2000 = 5550 / 3 = 1850
    body = _standings(client, SOURCES, tiebreaks=["ARO"], ratings={"unrated": "estimated"})
    assert _row(body, 1)["values"] == [1850]
    games = _row(body, 1)["breakdown"]["ARO"]["contributions"]
    assert [c["rating_source"] for c in games] == ["fide", "estimated", "fide"]


def test_checklist_q208_an_unrated_player_without_an_estimate_is_a_422(client):
    players = {**SOURCES, 3: {"national_rating": 1700}}
    tournament = {"rounds": 3, "players": _crosstable(ROUND_ROBIN, players)}
    answer = client.post(
        "/v1/standings", json={"tournament": tournament, "tiebreaks": ["ARO"], "ratings": {"unrated": "estimated"}}
    )
    assert answer.status_code == 422
    assert answer.json()["errors"][0]["path"] == "tournament.players[2].estimated_rating"


def test_checklist_q209_unrated_players_at_a_fixed_rating(client):
    # 1800 + 1400 + 2000 = 5200 / 3 = 1733.33; `unrated_rating` is the same as `unrated`
    assert _aro(client, SOURCES, {"unrated": 1400}) == 1733
    assert _aro(client, SOURCES, None, unrated_rating=1400) == 1733
    assert _aro(client, SOURCES, {"unrated": 0}) == 1267  # 1800 + 0 + 2000 = 3800 / 3 = 1266.67


def test_checklist_q209_without_a_method_the_rating_rules_are_dropped(client):
    body = _standings(client, SOURCES, tiebreaks=["ARO"], ratings={"unrated": "drop"})
    assert _row(body, 1)["values"] == [None]
    assert "rating-tiebreak-dropped" in [w["code"] for w in body["warnings"]]


# Ratings by round: 3's rating is 1900, 1950 from round 2; 4's 2000, 2030 from round 3.
BY_ROUND = {
    1: {"rating": 2100},
    2: {"rating": 1800},
    3: {"rating": 1900, "rating_history": [{"from_round": 2, "rating": 1950}]},
    4: {"rating": 2000, "rating_history": [{"from_round": 3, "rating": 2030}]},
}


def test_checklist_q210_aro_with_the_rating_in_force_in_each_round(client):
    # Player 1 meets 2 in round 1 (1800), 3 in round 2 (1950), 4 in round 3 (2030): 5780 / 3 = 1926.67
    assert _aro(client, BY_ROUND, {"per_round": True}) == 1927
    # Without per_round each game counts the first rating: 1800 + 1900 + 2000 = 5700 / 3
    assert _aro(client, BY_ROUND, {"per_round": False}) == 1900
    # Player 2 meets 1 in round 1 (2100), 4 in round 2 (2000), 3 in round 3 (1950): 6050 / 3 = 2016.67
    body = _standings(client, BY_ROUND, tiebreaks=["ARO"], ratings={"per_round": True})
    assert _row(body, 2)["values"] == [2017]
    games = _row(body, 2)["breakdown"]["ARO"]["contributions"]
    assert [(c["round"], c["value"]) for c in games] == [(1, 2100), (2, 2000), (3, 1950)]


def test_checklist_q211_a_long_event_with_rating_rules_is_warned(client):
    def codes(end: str, rules: list[str]) -> list[str]:
        tournament = {"start_date": "2026-09-01", "end_date": end}
        body = _standings(client, BY_ROUND, tiebreaks=rules, tournament=tournament)
        return [w["code"] for w in body["warnings"]]

    assert "long-event-rating-tiebreaks" in codes("2026-10-02", ["ARO"])  # 31 days
    assert "long-event-rating-tiebreaks" not in codes("2026-10-01", ["ARO"])  # 30 days
    assert "long-event-rating-tiebreaks" not in codes("2026-12-01", ["DE"])  # no rating rule


# A Swiss of six players over three rounds; 6 wins rounds 1 and 2 and is expelled after round 2.
SWISS = [(1, 1, 2, "win"), (1, 3, 4, "win"), (1, 5, 6, "loss")]
SWISS += [(2, 1, 3, "draw"), (2, 6, 4, "win"), (2, 2, 5, "win")]
SWISS += [(3, 4, 1, "loss"), (3, 3, 2, "win")]


def _swiss(client, expelled: bool = True, **request) -> dict:
    players = _crosstable(SWISS, {pid: {} for pid in range(1, 7)})
    players[4]["results"].append({"round": 3, "result": "pairing_bye"})
    if expelled:
        players[5]["expelled_after_round"] = 2
    tournament = {"rounds": 3, "system": "swiss", "start_date": "2026-04-01", "players": players}
    return client.post("/v1/standings", json={"tournament": tournament, "tiebreaks": ["BH"], **request})


def test_checklist_q197_an_expelled_player_is_ranked_nowhere(client):
    answer = _swiss(client)
    assert answer.status_code == 200, answer.text
    rows = answer.json()["standings"]
    # Scores: 1 and 3 2½, 6 2 (expelled), 2 and 5 1, 4 0.
    assert [(r["id"], r["rank"], r.get("status")) for r in rows] == [
        (1, 1, None),
        (3, 1, None),
        (2, 3, None),
        (5, 4, None),
        (4, 5, None),
        (6, None, "expelled"),
    ]
    assert rows[4]["decided_by"] is None and rows[5]["decided_by"] is None


def test_checklist_q198_the_expelled_players_games_stand_as_a_withdrawal(client):
    rows = {r["id"]: r for r in _swiss(client).json()["standings"]}
    # 6 counts for its opponents as one who withdrew after round 2 (C.07 16.3): 1 + 1 + ½ for the
    # last round's absence = 2½. BH(5) = 2½ (6) + 1 (2) + 1 (the pairing bye's dummy, own score 1,
    # under the cap 1½, 16.4.2) = 4½; BH(2) = 2½ (1) + 1 (5) + 2½ (3) = 6; BH(4) = 2½ + 2½ + 2½ = 7½.
    assert rows[5]["values"] == [4.5]
    assert rows[2]["values"] == [6]
    assert rows[4]["values"] == [7.5]
    assert rows[2]["decided_by"] == "BH"


def test_checklist_q198_a_round_robin_leaver_under_half_the_games_still_counts(client):
    # Decision 0243: the rule of C.06 (2011) V.4.1, a round-robin player who leaves before half the
    # games has the points scored by or against them left out of the final standings, is not
    # applied; the games stand as sent. Four players, 4 expelled after round 1 having played 1 of 3:
    # round 1 1-2 draw, 3 beats 4; round 2 3-1 draw, 2 a full-point bye ("+", 4 gone); round 3
    # 2-3 draw, 1 a full-point bye. Points: 1, 2, 3 each 2 (3 keeps the win over 4). WON (C.07 7.3,
    # over the board): 3 has 1, 1 and 2 none, so 3 is first; under V.4.1 all three would be level.
    players = _crosstable(
        [(1, 1, 2, "draw"), (1, 3, 4, "win"), (2, 3, 1, "draw"), (3, 2, 3, "draw")], {pid: {} for pid in range(1, 5)}
    )
    players[1]["results"].append({"round": 2, "result": "full_bye"})
    players[0]["results"].append({"round": 3, "result": "full_bye"})
    players[3]["expelled_after_round"] = 1
    players[3]["results"] += [{"round": 2, "result": "absent"}, {"round": 3, "result": "absent"}]
    tournament = {"rounds": 3, "system": "round_robin", "players": players}
    answer = client.post("/v1/standings", json={"tournament": tournament, "tiebreaks": ["WON"]})
    assert answer.status_code == 200, answer.text
    rows = answer.json()["standings"]
    assert [(r["id"], r["rank"], r["values"]) for r in rows] == [
        (3, 1, [1]),
        (1, 2, [0]),
        (2, 2, [0]),
        (4, None, [0]),
    ]


def test_checklist_q197_an_expelled_player_with_a_later_game_is_a_422(client):
    players = _crosstable(SWISS, {pid: {} for pid in range(1, 7)})
    players[4]["results"].append({"round": 3, "result": "pairing_bye"})
    players[3]["expelled_after_round"] = 2  # 4 played 1 in round 3
    tournament = {"rounds": 3, "system": "swiss", "players": players}
    answer = client.post("/v1/standings", json={"tournament": tournament, "tiebreaks": ["BH"]})
    assert answer.status_code == 422
    assert answer.json()["errors"][0]["path"] == "tournament.players[3].expelled_after_round"


def test_checklist_q205_a_playoff_between_two_tied_players(client):
    # 1 and 3 are tied on 2½ and on BH 3½ (1: 1 + 2½ + 0 for 2, 3, 4; 3: 0 + 2½ + 1 for 4, 1, 2).
    rows = _swiss(client, expelled=False).json()["standings"]
    assert [(r["id"], r["rank"], r["values"]) for r in rows[:2]] == [(1, 1, [3.5]), (3, 1, [3.5])]
    answer = _swiss(client, expelled=False, playoffs=[{"order": [3, 1]}])
    rows = answer.json()["standings"]
    assert [(r["id"], r["rank"], r["decided_by"]) for r in rows[:3]] == [
        (3, 1, "playoff"),
        (1, 2, "PTS"),
        (6, 3, "PTS"),
    ]


def test_checklist_q205_a_playoff_between_players_not_tied_on_points_is_a_422(client):
    answer = _swiss(client, expelled=False, playoffs=[{"order": [1, 6]}])
    assert answer.status_code == 422
    assert answer.json()["errors"][0]["path"] == "playoffs[0].order"


def test_checklist_q207_manual_values_rank_by_rule_man(client):
    values = {"1": 1, "2": 0, "3": 2.5, "4": 0, "5": 0, "6": 0}
    body = _swiss(client, expelled=False, tiebreaks=["MAN", "BH"], manual_values=values).json()
    rows = body["standings"]
    assert [(r["id"], r["rank"], r["values"][0], r["decided_by"]) for r in rows[:2]] == [
        (3, 1, 2.5, "MAN"),
        (1, 2, 1, "PTS"),
    ]
    # 2 and 5 tied on 1 point and MAN 0: BH separates them. 6 is not expelled here but its last
    # round is still an absence in the last round, a draw for its opponents (16.3): as above,
    # BH(2) = 6 and BH(5) = 4½.
    assert [(r["id"], r["values"]) for r in rows[3:5]] == [(2, [0, 6]), (5, [0, 4.5])]


def test_checklist_q207_a_player_without_a_manual_value_is_a_422(client):
    answer = _swiss(client, expelled=False, tiebreaks=["MAN"], manual_values={"1": 1})
    assert answer.status_code == 422
    assert answer.json()["errors"][0]["path"] == "manual_values"


def test_checklist_q201_a_changed_list_is_warned_and_echoed(client):
    changes = [{"from_round": 3, "previous": ["Buchholz Cut 1", "SB"]}]
    body = _swiss(client, expelled=False, tiebreak_changes=changes).json()
    warning = next(w for w in body["warnings"] if w["code"] == "tiebreaks-changed")
    assert warning["rule"] == "C.07 4.1.1" and "round 3" in warning["message"]
    assert body["tiebreak_changes"] == [{"from_round": 3, "previous": ["BH/C1", "SB"]}]


def _swiss_tournament() -> dict:
    players = _crosstable(SWISS, {pid: {"rating": 1500 + 10 * pid} for pid in range(1, 7)})
    players[4]["results"].append({"round": 3, "result": "pairing_bye"})
    players[0]["national_rating"] = 1620
    return {"rounds": 3, "start_date": "2026-04-01", "end_date": "2026-04-03", "federation": "NOR", "players": players}


def test_checklist_q202_the_trf_records_a_changed_list_and_reads_it_back(client):
    changes = [{"from_round": 3, "previous": ["BH/C1", "SB"]}]
    written = client.post(
        "/v1/trf", json={"tournament": _swiss_tournament(), "tiebreaks": ["BH"], "tiebreak_changes": changes}
    )
    assert written.status_code == 200, written.text
    text = written.json()["trf"]
    assert "### tiebreaks changed from round 3; previous: BH/C1, SB" in text.splitlines()
    read = client.post("/v1/trf", json={"trf": text}).json()
    assert read["tiebreak_changes"] == [{"from_round": 3, "previous": ["BH/C1", "SB"]}]
    # ranking the file warns of the change it records (C.07 4.1.1)
    body = client.post("/v1/standings", json={"trf": text, "explain": False}).json()
    assert body["tiebreak_changes"] == [{"from_round": 3, "previous": ["BH/C1", "SB"]}]
    assert "tiebreaks-changed" in [w["code"] for w in body["warnings"]]


def test_trf_052_and_the_national_rating_of_an_nrs_record_round_trip(client):
    written = client.post("/v1/trf", json={"tournament": _swiss_tournament()}).json()["trf"]
    lines = written.splitlines()
    assert "052 2026/04/03" in lines
    nrs = next(line for line in lines if line.startswith("NOR "))
    assert nrs[4:8] == "   1" and nrs[48:52] == "1620"  # TRF-26 NRS: starting rank 5-8, national rating 49-52
    read = client.post("/v1/trf", json={"trf": written}).json()["tournament"]
    assert read["end_date"] == "2026-04-03"
    assert read["players"][0]["national_rating"] == 1620
    assert read["players"][1]["national_rating"] is None
    # read back, the file's NRS record is kept verbatim and not written twice
    again = client.post("/v1/trf", json={"tournament": read}).json()["trf"]
    assert sum(line.startswith("NOR ") for line in again.splitlines()) == 1


def test_trf_has_no_record_for_rating_histories_or_expulsions_and_says_so(client):
    tournament = _swiss_tournament()
    tournament["players"][1]["rating_history"] = [{"from_round": 2, "rating": 1530}]
    tournament["players"][5]["expelled_after_round"] = 2
    warnings = client.post("/v1/trf", json={"tournament": tournament}).json()["warnings"]
    messages = [w["message"] for w in warnings if w["code"] == "trf-not-carried"]
    assert any("ratings by round" in m for m in messages) and any("expulsion" in m for m in messages)


def test_the_national_rating_of_a_trf_ranks_under_ratings_source_national(client):
    text = client.post("/v1/trf", json={"tournament": _swiss_tournament()}).json()["trf"]
    body = client.post(
        "/v1/standings", json={"trf": text, "tiebreaks": ["RTNG"], "ratings": {"source": "national", "unrated": 0}}
    ).json()
    # only player 1 has a national rating (1620); the others count as 0
    assert _row(body, 1)["values"] == [1620] and _row(body, 3)["values"] == [0]


def test_progression_and_compare_take_the_decisions_too(client):
    tournament = _swiss_tournament()
    progression = client.post(
        "/v1/standings/progression",
        json={"tournament": tournament, "tiebreaks": ["BH"], "playoffs": [{"order": [3, 1]}], "after_round": 3},
    )
    assert progression.status_code == 200, progression.text
    # 1 and 3 are level after every round (1, 1½, 2½ points): the play-off ranks 3 first each time
    ranks = {row["id"]: row["ranks"] for row in progression.json()["players"]}
    assert ranks[3][-1] == 1 and ranks[1][-1] == 2
    compare = client.post(
        "/v1/compare",
        json={
            "tournament": tournament,
            "lists": [{"name": "a", "tiebreaks": ["BH"]}],
            "ratings": {"source": "national"},
        },
    )
    assert compare.status_code == 200, compare.text
    assert compare.json()["lists"][0]["standings"]["ratings"]["source"] == "national"


def test_checklist_q145_the_command_line_takes_the_ratings_policy(tmp_path):
    from tests.command import tiebreak

    path = tmp_path / "event.json"
    path.write_text(json.dumps({"rounds": 3, "players": _crosstable(ROUND_ROBIN, SOURCES)}))
    ran = tiebreak(
        "standings", path, "-t", "ARO", "--ratings-source", "highest", "--unrated", "1000", "--format", "json"
    )
    assert ran.returncode == 0, ran.stderr
    body = json.loads(ran.stdout)
    assert _row(body, 1)["values"] == [1867]  # as worked above for `highest`
    assert body["ratings"] == {"source": "highest", "per_round": False, "unrated": 1000}
    ran = tiebreak("standings", path, "-t", "ARO", "--unrated", "estimated", "--format", "json")
    assert _row(json.loads(ran.stdout), 1)["values"] == [1850]
    by_round = tmp_path / "by-round.json"
    by_round.write_text(json.dumps({"rounds": 3, "players": _crosstable(ROUND_ROBIN, BY_ROUND)}))
    ran = tiebreak("standings", by_round, "-t", "ARO", "--per-round-ratings", "--format", "json")
    assert _row(json.loads(ran.stdout), 1)["values"] == [1927]


def test_checklist_q145_the_python_api_takes_the_ratings_policy():
    import tiebreak

    tournament = {"rounds": 3, "players": _crosstable(ROUND_ROBIN, SOURCES)}
    answer = tiebreak.standings(tournament, ["ARO"], ratings={"source": "fide-else-national", "unrated": 1000})
    assert next(row for row in answer.standings if row.id == 1).values == [1833]
    answer = tiebreak.standings(tournament, ["ARO"], playoffs=[[3, 1]], manual_values={1: 1})
    assert [row.decided_by for row in answer.standings][0] == "playoff"


def test_checklist_q201_check_reports_the_change_a_file_records(client, tmp_path):
    from tests.cli.test_check import ALEKHINE
    from tests.command import tiebreak

    lines = ALEKHINE.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("001"))
    text = "\n".join([*lines[:at], "### tiebreaks changed from round 5; previous: SB", *lines[at:]]) + "\n"
    answer = client.post("/v1/check", json=[{"id": "changed", "trf": text}])
    assert answer.status_code == 200, answer.text
    report = json.loads(answer.text.splitlines()[0])["result"]
    assert "tiebreaks-changed" in [w["code"] for w in report["warnings"]]
    path = tmp_path / "changed.trf"
    path.write_text(text, encoding="utf-8")
    done = tiebreak("check", path)  # NDJSON reports on stdout
    assert "tiebreaks-changed" in done.stdout, done.stdout + done.stderr


def test_scenarios_read_the_ratings_policy_through_the_shared_preparation(client):
    # The four-player round robin before its last round (1-4 and 2-3 to play), ranked by RTNG. By
    # FIDE ratings 3 is unrated and RTNG is dropped; by national ratings 1 and 4 have none and
    # count 1000 (`unrated`), so it stays.
    players = _crosstable([p for p in ROUND_ROBIN if p[0] < 3], SOURCES)
    tournament = {"rounds": 3, "players": players}
    pairings = [{"round": 3, "white": 1, "black": 4}, {"round": 3, "white": 2, "black": 3}]
    request = {"tournament": tournament, "tiebreaks": ["RTNG"], "pairings": pairings, "places": 1}
    answer = client.post("/v1/scenarios", json={**request, "ratings": {"source": "national", "unrated": 1000}})
    assert answer.status_code == 200, answer.text
    assert "rating-tiebreak-dropped" not in [w["code"] for w in answer.json()["warnings"]]
    plain = client.post("/v1/scenarios", json=request).json()
    assert "rating-tiebreak-dropped" in [w["code"] for w in plain["warnings"]]
    refused = client.post("/v1/scenarios", json={**request, "ratings": {"per_round": True}})
    assert refused.status_code == 422
    assert refused.json()["errors"][0]["path"] == "ratings.per_round"


def _before_the_last_round(**request) -> dict:
    # The four-player round robin after two rounds, every game drawn (1 point each); 1-4 and 2-3 to play.
    players = _crosstable([p for p in ROUND_ROBIN if p[0] < 3], {pid: {} for pid in (1, 2, 3, 4)})
    pairings = [{"round": 3, "white": 1, "black": 4}, {"round": 3, "white": 2, "black": 3}]
    return {"tournament": {"rounds": 3, "players": players}, "pairings": pairings, "places": 1, **request}


def test_checklist_q207_scenarios_rank_the_outcomes_by_rule_man(client):
    # MAN 4, 3, 2, 1 for players 1-4. 4 is first only by beating 1 (2 points) while 2-3 is drawn
    # (1½ each): had 2 or 3 won, the winner's 2 points and higher MAN would be ahead. 1 is last
    # when 4 beats it and 2-3 is drawn (1 point against 2, 1½, 1½), first whenever it wins or
    # draws while 2-3 is drawn; a draw beside a decisive 2-3 leaves the winner of 2-3 ahead.
    values = {"1": 4, "2": 3, "3": 2, "4": 1}
    answer = client.post("/v1/scenarios", json=_before_the_last_round(tiebreaks=["MAN"], manual_values=values))
    assert answer.status_code == 200, answer.text
    rows = {p["id"]: p for p in answer.json()["players"]}
    assert (rows[1]["best_rank"], rows[1]["worst_rank"]) == (1, 4)
    assert (rows[4]["best_rank"], rows[4]["worst_rank"]) == (1, 4)
    needs = rows[4]["places"][0]["needs"]
    assert needs == [
        [
            {"round": 3, "white": 1, "black": 4, "results": ["black"]},
            {"round": 3, "white": 2, "black": 3, "results": ["draw"]},
        ]
    ]
    missing = client.post("/v1/scenarios", json=_before_the_last_round(tiebreaks=["MAN"], manual_values={"1": 1}))
    assert missing.status_code == 422
    assert missing.json()["errors"][0]["path"] == "manual_values"


def test_checklist_q205_scenarios_refuse_a_playoff_before_the_last_round(client):
    # C.07 3: a play-off is played by the players tied after the last round (decision 0240).
    answer = client.post("/v1/scenarios", json=_before_the_last_round(playoffs=[{"order": [2, 1]}]))
    assert answer.status_code == 422
    error = answer.json()["errors"][0]
    assert error["path"] == "playoffs"
    assert "tied after the last round" in error["message"]


# Player 2's national rating below its FIDE rating, so that the lower of the two is not the FIDE one.
LOWER_NATIONAL = {**SOURCES, 2: {"rating": 1800, "national_rating": 1750}, 3: {"national_rating": 1700}}


def test_checklist_q145_lbfn_the_lower_of_the_fide_and_national_ratings(client):
    # TRF-26 172 LBFN. Player 1's opponents: 2 min(1800, 1750) = 1750 national; 3 has only a
    # national 1700; 4 has only a FIDE 2000: 5450 / 3 = 1816.67, rounded up to 1817.
    body = _standings(client, LOWER_NATIONAL, tiebreaks=["ARO"], ratings={"source": "lowest"})
    games = _row(body, 1)["breakdown"]["ARO"]["contributions"]
    assert [(c["opponent"], c["value"], c["rating_source"]) for c in games] == [
        (2, 1750, "national"),
        (3, 1700, "national"),
        (4, 2000, "fide"),
    ]
    assert _row(body, 1)["values"] == [1817]
    # Equal ratings count the FIDE one. Player 4's opponents: 3 (1700 national), 2 (1800 both), 1
    # (2100 FIDE): 5600 / 3 = 1866.67, rounded up to 1867.
    equal = {**LOWER_NATIONAL, 2: {"rating": 1800, "national_rating": 1800}}
    body = _standings(client, equal, tiebreaks=["ARO"], ratings={"source": "lowest"})
    games = _row(body, 4)["breakdown"]["ARO"]["contributions"]
    assert [(c["opponent"], c["rating_source"]) for c in games] == [(3, "national"), (2, "fide"), (1, "fide")]
    assert _row(body, 4)["values"] == [1867]


def test_checklist_q145_lbfn_on_the_command_line(tmp_path):
    from tests.command import tiebreak

    path = tmp_path / "event.json"
    path.write_text(json.dumps({"rounds": 3, "players": _crosstable(ROUND_ROBIN, LOWER_NATIONAL)}))
    ran = tiebreak("standings", path, "-t", "ARO", "--ratings-source", "lowest", "--format", "json")
    assert ran.returncode == 0, ran.stderr
    assert _row(json.loads(ran.stdout), 1)["values"] == [1817]  # as worked above
