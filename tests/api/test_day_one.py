"""What a new client meets first (issue 11): scoring defaults, a tournament in progress, the client's
own identities, located TRF errors and wrong-input answers that say what would have been right."""

from __future__ import annotations

import pytest

from tests.formats.trf_lines import player, trf


def post(client, body, path="/v1/standings"):
    return client.post(path, json=body)


def codes(data):
    return [w["code"] for w in data["warnings"]]


# A 4-player Swiss, 3 rounds: 1 beats 2, 3 has the pairing bye in round 1; half-point bye for 4 in round 3.
def results(**extra):
    return {
        "rounds": 3,
        "players": [
            {
                "id": 1,
                "name": "Ann",
                "results": [
                    {"round": 1, "opponent": 2, "color": "w", "result": "win"},
                    {"round": 2, "opponent": 3, "color": "b", "result": "draw"},
                    {"round": 3, "opponent": 2, "color": "w", "result": "win"},
                ],
            },
            {
                "id": 2,
                "name": "Ben",
                "results": [
                    {"round": 1, "opponent": 1, "color": "b", "result": "loss"},
                    {"round": 2, "opponent": 4, "color": "w", "result": "win"},
                    {"round": 3, "opponent": 1, "color": "b", "result": "loss"},
                ],
            },
            {
                "id": 3,
                "name": "Cy",
                "results": [
                    {"round": 1, "result": "pairing_bye"},
                    {"round": 2, "opponent": 1, "color": "w", "result": "draw"},
                    {"round": 3, "result": "full_bye"},
                ],
            },
            {
                "id": 4,
                "name": "Di",
                "results": [
                    {"round": 1, "result": "absent"},
                    {"round": 2, "opponent": 2, "color": "b", "result": "loss"},
                    {"round": 3, "result": "half_bye"},
                ],
            },
        ],
        **extra,
    }


# ---- item 1: scoring defaults that cannot mislead


def test_a_partial_scoring_gives_byes_and_forfeits_the_values_of_win_draw_and_loss(client):
    data = post(client, {"tournament": results(scoring={"win": 3, "draw": 1, "loss": 0})}).json()
    assert data["scoring"] == {
        "win": 3.0,
        "draw": 1.0,
        "loss": 0.0,
        "forfeit_win": 3.0,
        "forfeit_loss": 0.0,
        "pairing_bye": 3.0,
        "full_bye": 3.0,
        "half_bye": 1.0,
        "zero_bye": 0.0,
        "absent": 0.0,
    }
    points = {row["id"]: row["points"] for row in data["standings"]}
    assert points == {1: 7.0, 2: 3.0, 3: 7.0, 4: 1.0}  # Cy: PAB 3 + draw 1 + full-point bye 3


def test_a_partial_scoring_scores_absence_zero_bye_and_forfeit_loss_0_whatever_loss_is(client):
    # TRF-26 162: `A` (zero-point bye, forfeit loss, absence) has its own default 0, not `L`'s value.
    data = post(client, {"tournament": results(scoring={"win": 3, "draw": 2, "loss": 1})}).json()
    echoed = data["scoring"]
    assert (echoed["loss"], echoed["absent"], echoed["zero_bye"], echoed["forfeit_loss"]) == (1.0, 0.0, 0.0, 0.0)
    points = {row["id"]: row["points"] for row in data["standings"]}
    # Di: absent 0 + loss 1 + half-point bye 2 (follows draw) = 3; Ben: loss 1 + win 3 + loss 1 = 5
    assert (points[4], points[2]) == (3.0, 5.0)


def test_a_value_given_still_wins_over_its_default(client):
    data = post(client, {"tournament": results(scoring={"win": 3, "draw": 1, "pairing_bye": 1})}).json()
    assert (data["scoring"]["pairing_bye"], data["scoring"]["full_bye"]) == (1.0, 3.0)


def test_the_default_scoring_is_echoed_too(client):
    assert post(client, {"tournament": results()}).json()["scoring"]["half_bye"] == 0.5


def test_json_and_trf_of_the_same_event_score_the_same(client):
    text = trf(
        "142 3",
        "162  W 3.0    D 1.0",
        player(1, "Ann", rounds=[(2, "w", "1"), (3, "b", "="), (2, "w", "1")]),
        player(2, "Ben", rounds=[(1, "b", "0"), (4, "w", "1"), (1, "b", "0")]),
        player(3, "Cy", rounds=[(0, "-", "U"), (1, "w", "="), (0, "-", "F")]),
        player(4, "Di", rounds=[(0, "-", "-"), (2, "b", "0"), (0, "-", "H")]),
    )
    from_trf = post(client, {"trf": text, "tiebreaks": ["BH", "SB"]}).json()
    from_json = post(client, {"tournament": results(scoring={"win": 3, "draw": 1}), "tiebreaks": ["BH", "SB"]}).json()
    assert from_trf["scoring"] == from_json["scoring"]
    assert [(r["id"], r["points"], r["values"]) for r in from_trf["standings"]] == [
        (r["id"], r["points"], r["values"]) for r in from_json["standings"]
    ]


# ---- item 2: a tournament in progress


def in_progress():
    t = results()
    t["rounds"] = 9  # results to round 3 of 9
    return t


def test_after_round_defaults_to_the_last_round_played_and_says_so(client):
    data = post(client, {"tournament": in_progress(), "tiebreaks": ["BH"]}).json()
    assert data["after_round"] == 3 and data["rounds"] == 9
    [warning] = [w for w in data["warnings"] if w["code"] == "after-round-defaulted"]
    assert "round 3 of 9" in warning["message"]
    # Nobody is given dummy opponents for rounds 4-9: Ann's Buchholz is her three opponents' scores,
    # Ben 1 (twice) and Cy 2.5 (pairing bye 1, draw, full-point bye 1).
    ann = next(r for r in data["standings"] if r["id"] == 1)
    assert ann["values"] == [1.0 + 2.5 + 1.0]


def test_an_explicit_after_round_still_wins(client):
    data = post(client, {"tournament": in_progress(), "after_round": 9, "tiebreaks": ["BH"]}).json()
    assert data["after_round"] is None and "after-round-defaulted" not in codes(data)
    data = post(client, {"tournament": in_progress(), "after_round": 2, "tiebreaks": ["BH"]}).json()
    assert data["after_round"] == 2


def test_byes_entered_in_advance_do_not_make_a_round_played(client):
    t = in_progress()
    t["players"][3]["results"].append({"round": 5, "result": "half_bye"})  # a bye requested for round 5
    assert post(client, {"tournament": t}).json()["after_round"] == 3


# ---- item 3: clients' own identities


def with_identities():
    t = results()
    t["players"][0].update(
        key="9b2f-ann", fide_id=4100018363, federation="NOR", title="GM", sex="f", birth_date="1990-11-30"
    )
    t["players"][2].update(key="cy", birth_date="2011")
    return t


def test_identities_come_back_in_every_row_and_breakdown(client):
    data = post(client, {"tournament": with_identities(), "tiebreaks": ["BH"]}).json()
    rows = {row["id"]: row for row in data["standings"]}
    assert {k: rows[1][k] for k in ("key", "fide_id", "federation", "title", "sex", "birth_date")} == {
        "key": "9b2f-ann",
        "fide_id": 4100018363,
        "federation": "NOR",
        "title": "GM",
        "sex": "f",
        "birth_date": "1990-11-30",
    }
    assert rows[3]["key"] == "cy" and "fide_id" not in rows[3] and "key" not in rows[2]
    ben = rows[2]["breakdown"]["BH"]["contributions"]
    assert [c.get("opponent_key") for c in ben] == ["9b2f-ann", None, "9b2f-ann"]
    assert {"id": 1, "name": "Ann", "key": "9b2f-ann"} in rows[2]["opponents"]


def test_a_fide_id_above_a_million_is_data_not_a_start_number(client):
    t = results()
    t["players"][0]["fide_id"] = 24_100_018
    assert post(client, {"tournament": t}).status_code == 200
    t["players"][0]["id"] = 24_100_018
    error = post(client, {"tournament": t}).json()["errors"][0]
    assert error["path"] == "tournament.players[0].id"
    assert "fide_id" in error["message"] and "TIEBREAK_MAX_PLAYER_ID" in error["message"]


def test_two_players_with_one_key_are_refused(client):
    t = results()
    t["players"][0]["key"] = t["players"][1]["key"] = "same"
    response = post(client, {"tournament": t})  # JSON Schema cannot say "unique by key": a 422
    assert response.status_code == 422 and response.json()["errors"][0]["path"] == "tournament.players[1].key"


@pytest.mark.parametrize(
    "birth_date, status",
    [
        ("1990-02-30", 422),  # the document's pattern accepts it; no such day
        ("90-01-01", 400),
        ("1990/01/01", 400),
    ],
)
def test_a_birth_date_that_is_no_date_is_refused(client, birth_date, status):
    t = results()
    t["players"][0]["birth_date"] = birth_date
    response = post(client, {"tournament": t})
    assert response.status_code == status and response.json()["errors"][0]["path"].startswith("tournament.players[0]")


def test_an_unknown_field_lists_the_fields_that_exist(client):
    t = results()
    t["players"][0]["fideid"] = 1
    [error] = post(client, {"tournament": t}).json()["errors"]
    assert error["path"] == "tournament.players[0]"
    assert "did you mean `fide_id`?" in error["message"] and "fields here: id, name, rating" in error["message"]


@pytest.mark.parametrize(
    "field, value, limit",
    [
        ("rating", 5000, "TIEBREAK_MAX_RATING"),
        ("id", 2_000_000, "TIEBREAK_MAX_PLAYER_ID"),
    ],
)
def test_every_limit_names_its_variable(client, field, value, limit):
    t = results()
    t["players"][0][field] = value
    assert limit in post(client, {"tournament": t}).json()["errors"][0]["message"]


# ---- item 5: TRF errors located in the TRF, with the reader's warnings


def test_a_crosstable_error_after_reading_a_trf_points_at_its_line_and_column(client):
    text = trf(
        "777 unknown record",
        player(1, "A", rounds=[(2, "w", "1")]),
        player(2, "B", rounds=[(3, "b", "0")]),
        player(3, "C", rounds=[(2, "w", "1")]),
    )
    response = post(client, {"trf": text})
    assert response.status_code == 422
    data = response.json()
    assert {e["path"] for e in data["errors"]} <= {"trf:2:92", "trf:3:92", "trf:4:92"} and data["errors"]
    assert "trf:LINE:COLUMN" in data["detail"]
    assert any(w["message"].startswith("line 1, column 1") for w in data["warnings"])


def test_a_trf_that_cannot_be_read_carries_the_warnings_before_it(client):
    text = trf("777 odd", player(1, "A", rounds=[(2, "x", "1")]))
    data = post(client, {"trf": text}).json()
    assert data["errors"][0]["path"] == "trf:2:97" and data["warnings"][0]["message"].startswith("line 1")


def test_problems_without_warnings_have_no_warnings_member(client):
    assert "warnings" not in post(client, {"tournament": results(), "tiebreaks": ["XX"]}).json()


# ---- item 9: better wrong-input answers


def test_an_enum_error_lists_the_valid_values(client):
    [error] = post(client, {"tournament": results(), "regulations": "fide-2025"}).json()["errors"]
    assert "did you mean 'fide-2026'?" in error["message"]
    listed = error["message"].split("(valid values: ")[1].rstrip(")").split(", ")
    assert {"auto", "fide-2024", "fide-2026", "uscf"} <= set(listed)


@pytest.mark.parametrize(
    "spelling, spec",
    [
        ("BH Cut 1", "BH/C1"),
        ("SB Cut 1", "SB/C1"),
        ("Buchholz C1", "BH/C1"),
        ("Koya 40", "KS/L40"),
        ("buchholz median 2", "BH/M2"),
        ("bh-c1", "BH/C1"),
    ],
)
def test_one_grammar_for_rule_names(client, spelling, spec):
    data = post(client, {"tournament": results(), "tiebreaks": [spelling]}).json()
    assert data["tiebreaks"][0]["spec"] == spec


@pytest.mark.parametrize("spelling, guess", [("Buchholtz", "BH"), ("Sonnenborn-Berger", "SB"), ("BHX", "BH")])
def test_a_misspelt_rule_gets_a_did_you_mean(client, spelling, guess):
    message = post(client, {"tournament": results(), "tiebreaks": [spelling]}).json()["errors"][0]["message"]
    assert f"did you mean {guess!r}?" in message


def test_aro_under_uscf_suggests_arous(client):
    body = {"tournament": results(), "tiebreaks": ["ARO"], "regulations": "uscf"}
    assert "did you mean 'AROUS'" in post(client, body).json()["errors"][0]["message"]


def test_raw_trf_as_text_plain_is_a_415_that_says_how_to_send_it(client):
    response = client.post("/v1/standings", content=b"012 Open\n", headers={"content-type": "text/plain"})
    assert response.status_code == 415 and '{"trf":' in response.json()["detail"]


def test_an_empty_body_says_so(client):
    response = client.post("/v1/standings", content=b"", headers={"content-type": "application/json"})
    assert response.status_code == 400 and response.json()["detail"] == "the request body is empty"


def test_a_cut_that_removes_every_round_warns(client):
    t = results()
    t["rounds"] = 2
    for p in t["players"]:
        p["results"] = p["results"][:2]
    data = post(client, {"tournament": t, "tiebreaks": ["BH/C9"]}).json()
    assert "cut-removes-every-round" in codes(data)


def test_several_pairing_byes_in_one_round_warn(client):
    t = results()
    t["players"][3]["results"][0] = {"round": 1, "result": "pairing_bye"}
    [warning] = [w for w in post(client, {"tournament": t}).json()["warnings"] if w["code"] == "several-pairing-byes"]
    assert "round 1 has 2 pairing-allocated byes (players 3, 4)" in warning["message"]


# ---- C.07 7.2: WIN counts rounds scored as a win


def test_a_pairing_bye_worth_less_than_a_win_is_not_a_win(client):
    # Cy: pairing bye in round 1, draw, full-point bye in round 3.
    usual = post(client, {"tournament": results(), "tiebreaks": ["WIN"]}).json()
    nothing_for_the_bye = post(client, {"tournament": results(scoring={"pairing_bye": 0}), "tiebreaks": ["WIN"]}).json()
    cy = lambda data: next(r for r in data["standings"] if r["id"] == 3)["values"]  # noqa: E731
    assert cy(usual) == [2.0] and cy(nothing_for_the_bye) == [1.0]
