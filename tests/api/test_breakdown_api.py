"""A breakdown an arbiter can check without a calculator (issue 11 item 6), through the real app.

The tournament (4 rounds, scores by hand): 1 beat 2, lost to 3 by forfeit, took a half-point
bye and beat 4: 2½. 2 beat 5 in round 2 and then withdrew: 1 at face value, counted 2 (the two
closing absences as draws, C.07 16.3). 3: 2, 4: 2, 5: 2½.
"""

from __future__ import annotations


def g(rnd, opp, color, result):
    return {"round": rnd, "opponent": opp, "color": color, "result": result}


TOURNAMENT = {
    "rounds": 4,
    "start_date": "2026-05-01",
    "players": [
        {
            "id": 1,
            "name": "Ada",
            "results": [
                g(1, 2, "w", "win"),
                g(2, 3, "b", "forfeit_loss"),
                {"round": 3, "result": "half_bye"},
                g(4, 4, "w", "win"),
            ],
        },
        {"id": 2, "name": "Ben", "results": [g(1, 1, "b", "loss"), g(2, 5, "w", "win")]},
        {
            "id": 3,
            "name": "Cy",
            "results": [g(1, 4, "w", "draw"), g(2, 1, "w", "forfeit_win"), g(3, 5, "b", "loss"), g(4, 5, "w", "draw")],
        },
        {
            "id": 4,
            "name": "Dee",
            "results": [
                g(1, 3, "b", "draw"),
                {"round": 2, "result": "half_bye"},
                {"round": 3, "result": "pairing_bye"},
                g(4, 1, "b", "loss"),
            ],
        },
        {
            "id": 5,
            "name": "Eve",
            "results": [
                {"round": 1, "result": "pairing_bye"},
                g(2, 2, "b", "loss"),
                g(3, 3, "w", "win"),
                g(4, 3, "b", "draw"),
            ],
        },
    ],
}


def ada(client, *rules):
    response = client.post(
        "/v1/standings", json={"tournament": TOURNAMENT, "tiebreaks": list(rules), "regulations": "fide-2026"}
    )
    assert response.status_code == 200, response.text
    return next(row for row in response.json()["standings"] if row["id"] == 1)


def by_round(breakdown):
    return {c["round"]: c for c in breakdown["contributions"]}


def test_an_opponent_counted_above_face_value_says_why(client):
    bh = by_round(ada(client, "BH")["breakdown"]["BH"])
    ben = bh[1]
    assert (ben["opponent"], ben["opponent_score"], ben["counted_score"], ben["value"]) == (2, 1.0, 2.0, 2.0)
    assert ben["article"] == "16.3" and "1 + 2 closing" in ben["note"] and "= 2" in ben["note"]
    # An opponent counted at face value: the value is the face score, nothing more to say.
    dee = bh[4]
    assert dee["value"] == 2.0 and not {"opponent_score", "counted_score", "article", "note"} & set(dee)


def test_dummies_name_the_scheduled_opponent_and_show_the_cap(client):
    bh = by_round(ada(client, "BH")["breakdown"]["BH"])
    forfeit, bye = bh[2], bh[3]
    # 16.4.1: own 2½ capped at the scheduled opponent 3's score 2.
    assert forfeit["kind"] == "dummy" and forfeit["unplayed"] == "forfeit_loss" and forfeit["opponent"] == 3
    assert (forfeit["own_score"], forfeit["capped_at"], forfeit["value"]) == (2.5, 2.0, 2.0)
    assert (forfeit["article"], forfeit["reason_code"]) == ("16.4.1", "dummy-capped-at-opponent")
    # 16.4.2: own 2½ capped at ½ × 4 rounds = 2; no scheduled opponent.
    assert bye["opponent"] is None and bye["unplayed"] == "half_bye"
    assert (bye["own_score"], bye["capped_at"], bye["article"]) == (2.5, 2.0, "16.4.2")
    assert bye["reason_code"] == "dummy-capped-at-half"


def test_a_cut_rule_shows_its_total_before_the_cut_and_why_each_value_went(client):
    row = ada(client, "BH", "BH/C1")
    assert row["values"] == [8.0, 6.0]
    c1 = row["breakdown"]["BH/C1"]
    assert c1["total_before_cut"] == 8.0 and row["breakdown"]["BH"]["total_before_cut"] is None
    (cut,) = [c for c in c1["contributions"] if c.get("cut")]
    # Both VURs count 2, as does every game: the first VUR goes (16.5).
    assert cut["round"] == 2 and cut["cut_code"] == "vur-cut-first" and "16.5" in cut["cut_reason"]


def test_sonneborn_berger_shows_its_factors(client):
    sb = ada(client, "SB")["breakdown"]["SB"]
    assert sb["value"] == 5.0  # 2 × 1 + 2 × 0 + 2 × ½ + 2 × 1
    rounds = by_round(sb)
    assert (rounds[1]["counted_score"], rounds[1]["result"], rounds[1]["value"]) == (2.0, 1.0, 2.0)
    assert (rounds[3]["capped_at"], rounds[3]["result"], rounds[3]["value"]) == (2.0, 0.5, 1.0)
    assert (rounds[2]["result"], rounds[2]["value"]) == (0.0, 0.0)


def test_the_row_names_every_player_its_breakdown_mentions(client):
    row = ada(client, "BH")
    assert row["opponents"] == [{"id": 2, "name": "Ben"}, {"id": 3, "name": "Cy"}, {"id": 4, "name": "Dee"}]


def test_a_rule_listed_twice_keeps_its_position(client):
    row = ada(client, "BH", "BH/C1", "BH")
    assert list(row["breakdown"]) == ["BH", "BH/C1", "BH#3"]
    assert [b["position"] for b in row["breakdown"].values()] == [0, 1, 2]
    assert [b["spec"] for b in row["breakdown"].values()] == ["BH", "BH/C1", "BH"]
