"""POST /v1/standings through the real ASGI app: answers, breakdowns and every kind of bad input."""

import json
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent.parent / "fixtures" / "conformance_fide"
PROBLEM = "application/problem+json"


def game(rnd, opp, color, result, **extra):
    return {"round": rnd, "opponent": opp, "color": color, "result": result, **extra}


def two_player_tournament(**overrides):
    tournament = {
        "rounds": 2,
        "players": [
            {"id": 1, "name": "A", "rating": 2000, "results": [game(1, 2, "w", "win"), game(2, 2, "b", "draw")]},
            {"id": 2, "name": "B", "rating": 1900, "results": [game(1, 1, "b", "loss"), game(2, 1, "w", "draw")]},
        ],
    }
    tournament.update(overrides)
    return tournament


def assert_problem(response, status):
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    body = response.json()
    assert body["status"] == status and body["title"] and body["detail"]
    return body


class TestBreakdown:
    def test_the_bye_example_reads_naturally(self, client):
        # SPEC 2.2: 4½ from 5 rounds with a half-point bye in round 3; dummy = min(4½, ½ × 5) = 2½.
        trf = (FIXTURES / "worked-c-hpb-2026.trf").read_text()
        response = client.post("/v1/standings", json={"trf": trf, "tiebreaks": ["BH", "BH/C1"]})
        assert response.status_code == 200
        hugo = response.json()["standings"][0]
        assert hugo["id"] == 1 and hugo["values"] == [13.5, 11.0]
        bye = [c for c in hugo["breakdown"]["BH"]["contributions"] if c["round"] == 3][0]
        assert bye["kind"] == "dummy" and bye["unplayed"] == "half_bye" and bye["value"] == 2.5
        assert "16.4.2" in bye["note"] and "cut" not in bye
        cut = [c for c in hugo["breakdown"]["BH/C1"]["contributions"] if c.get("cut")]
        assert len(cut) == 1 and cut[0]["round"] == 3 and "16.5" in cut[0]["cut_reason"]

    def test_the_bye_example_before_2026_is_uncapped(self, client):
        trf = (FIXTURES / "worked-c-hpb-2024.trf").read_text()
        response = client.post("/v1/standings", json={"trf": trf, "tiebreaks": ["BH"], "regulations": "auto"})
        body = response.json()
        assert body["regulations"] == "fide-2024"  # the TRF's start date is before 1 March 2026
        assert body["standings"][0]["values"] == [15.5]

    def test_explain_false_leaves_the_breakdown_out(self, client):
        response = client.post(
            "/v1/standings", json={"tournament": two_player_tournament(), "tiebreaks": ["SB"], "explain": False}
        )
        assert response.json()["standings"][0]["breakdown"] is None

    def test_rule_objects_are_echoed_as_canonical_specs(self, client):
        response = client.post(
            "/v1/standings",
            json={
                "tournament": two_player_tournament(),
                "tiebreaks": ["bh-c1", {"code": "ks", "modifiers": {"limit": 40}}, "Buchholz"],
            },
        )
        assert response.status_code == 200, response.text
        specs = [t["spec"] for t in response.json()["tiebreaks"]]
        assert specs == ["BH/C1", "KS/L40", "BH"]


class TestRanking:
    def test_players_equal_on_everything_share_a_rank(self, client):
        tournament = {
            "rounds": 1,
            "players": [
                {"id": 1, "results": [game(1, 2, "w", "draw")]},
                {"id": 2, "results": [game(1, 1, "b", "draw")]},
                {"id": 3, "results": [{"round": 1, "result": "zero_bye"}]},
            ],
        }
        body = client.post("/v1/standings", json={"tournament": tournament, "tiebreaks": ["BH"]}).json()
        ranks = [(row["id"], row["rank"], row["decided_by"]) for row in body["standings"]]
        assert ranks == [(1, 1, None), (2, 1, "PTS"), (3, 3, None)]

    def test_quarter_points_stay_exact_in_the_json_text(self, client):
        # 3-1-0 scoring with a quarter-point override: SB values need exact decimals.
        tournament = two_player_tournament(scoring={"win": 3, "draw": 1.25, "loss": 0})
        response = client.post("/v1/standings", json={"tournament": tournament, "tiebreaks": ["SB"], "explain": False})
        assert response.status_code == 200, response.text
        text = response.text
        assert '"points":4.25' in text and '"points":1.25' in text
        # SB: A scored 3 and 1.25 against B (1.25 points) = 3 × 1.25 + 1.25 × 1.25 = 5.3125
        assert '"values":[5.3125]' in text

    def test_unrated_players_drop_rating_rules_with_a_warning(self, client):
        tournament = two_player_tournament()
        tournament["players"][1]["rating"] = None
        body = client.post("/v1/standings", json={"tournament": tournament, "tiebreaks": ["ARO"]}).json()
        assert body["standings"][0]["values"] == [None]
        assert body["tiebreaks"][0]["dropped"]
        assert [w["code"] for w in body["warnings"]] == ["rating-tiebreak-dropped"]
        with_rating = client.post(
            "/v1/standings", json={"tournament": tournament, "tiebreaks": ["ARO"], "unrated_rating": 1400}
        ).json()
        assert with_rating["standings"][0]["values"] == [1400]

    def test_after_round_is_echoed(self, client):
        body = client.post(
            "/v1/standings", json={"tournament": two_player_tournament(), "tiebreaks": ["BH"], "after_round": 1}
        ).json()
        assert body["after_round"] == 1 and body["standings"][0]["points"] == 1.0

    def test_buchholz_in_a_round_robin_is_warned_about(self, client):
        body = client.post(
            "/v1/standings", json={"tournament": two_player_tournament(system="round_robin"), "tiebreaks": ["BH", "SB"]}
        ).json()
        assert "buchholz-in-round-robin" in [w["code"] for w in body["warnings"]]


class TestBadInput:
    def post(self, client, body, content_type="application/json"):
        data = body if isinstance(body, (str, bytes)) else json.dumps(body)
        return client.post("/v1/standings", content=data, headers={"content-type": content_type})

    def test_malformed_json(self, client):
        assert_problem(self.post(client, '{"tournament": '), 400)

    def test_wrong_media_type(self, client):
        assert_problem(self.post(client, "{}", "text/plain"), 415)

    def test_unknown_route_and_method(self, client):
        assert_problem(client.get("/v1/nothing"), 404)
        assert_problem(client.get("/v1/standings"), 405)

    def test_unknown_code_lists_the_valid_ones(self, client):
        body = assert_problem(
            self.post(client, {"tournament": two_player_tournament(), "tiebreaks": ["BH", "XYZ"]}), 422
        )
        assert body["errors"][0]["path"] == "tiebreaks[1]"
        assert "SB" in body["errors"][0]["message"] and "BH" in body["errors"][0]["message"]

    def test_a_string_is_not_a_number(self, client):
        body = assert_problem(
            self.post(client, {"tournament": two_player_tournament(rounds="2"), "tiebreaks": []}), 400
        )
        assert body["errors"][0]["path"] == "tournament.rounds"

    def test_unknown_fields_are_rejected(self, client):
        body = assert_problem(self.post(client, {"tournament": two_player_tournament(), "tiebreak": ["BH"]}), 400)
        assert "tiebreak" in body["errors"][0]["message"]

    def test_exactly_one_of_tournament_and_trf(self, client):
        assert_problem(self.post(client, {"tiebreaks": ["BH"]}), 400)
        assert_problem(self.post(client, {"tournament": two_player_tournament(), "trf": "012 x"}), 400)

    @pytest.mark.parametrize(
        "tournament, path",
        [
            (two_player_tournament(rounds=-1), "tournament.rounds"),
            (two_player_tournament(rounds=0), "tournament.rounds"),
            ({"rounds": 1, "players": [{"id": 10**12}]}, "tournament.players[0].id"),
            ({"rounds": 1, "players": []}, "tournament.players"),
            ({"rounds": 1, "players": [{"id": 1, "rating": -5}]}, "tournament.players[0].rating"),
            (
                {"rounds": 1, "players": [{"id": 1, "results": [{"round": 1, "result": "resigned"}]}]},
                "tournament.players[0].results[0].result",
            ),
        ],
    )
    def test_shape_errors_name_the_field(self, client, tournament, path):
        body = assert_problem(self.post(client, {"tournament": tournament, "tiebreaks": ["BH"]}), 400)
        assert body["errors"][0]["path"] == path

    def test_nan_and_infinity_are_not_json(self, client):
        text = '{"tournament": {"rounds": 1, "players": [{"id": 1, "results": [{"round": 1, "result": "draw", "opponent": 2, "points": NaN}]}]}}'
        assert_problem(self.post(client, text), 400)

    def test_deep_nesting_is_refused_cleanly(self, client):
        assert_problem(self.post(client, "[" * 100_000 + "]" * 100_000), 400)

    def test_more_than_two_decimals_is_refused(self, client):
        body = assert_problem(
            self.post(client, {"tournament": two_player_tournament(scoring={"draw": 0.333}), "tiebreaks": ["BH"]}), 422
        )
        assert body["errors"][0]["path"] == "tournament.scoring.draw"

    def test_too_many_players(self, client):
        players = ",".join(f'{{"id":{i}}}' for i in range(1, 60_002))
        body = assert_problem(self.post(client, '{"tournament":{"rounds":1,"players":[' + players + "]}}"), 400)
        assert body["errors"][0]["path"] == "tournament.players"


class TestContradictions:
    def post(self, client, players, rounds=1):
        return client.post(
            "/v1/standings", json={"tournament": {"rounds": rounds, "players": players}, "tiebreaks": ["BH"]}
        )

    def test_one_sided_pairing(self, client):
        body = assert_problem(
            self.post(
                client,
                [
                    {"id": 1, "results": [game(1, 2, "w", "win")]},
                    {"id": 2, "results": [{"round": 1, "result": "half_bye"}]},
                ],
            ),
            422,
        )
        assert body["errors"][0]["path"] == "tournament.players[0].results[0].opponent"

    def test_duplicate_ids(self, client):
        body = assert_problem(self.post(client, [{"id": 1}, {"id": 1}]), 422)
        assert body["errors"][0]["path"] == "tournament.players[1].id"

    def test_self_pairing(self, client):
        body = assert_problem(self.post(client, [{"id": 1, "results": [game(1, 1, "w", "win")]}]), 422)
        assert "themself" in body["errors"][0]["message"]

    def test_results_that_do_not_match(self, client):
        body = assert_problem(
            self.post(
                client,
                [
                    {"id": 1, "results": [game(1, 2, "w", "win")]},
                    {"id": 2, "results": [game(1, 1, "b", "draw")]},
                ],
            ),
            422,
        )
        assert "complementary" in body["errors"][0]["message"]

    def test_an_arbiters_unusual_result_is_accepted_with_points(self, client):
        response = self.post(
            client,
            [
                {"id": 1, "results": [game(1, 2, "w", "draw", points=0.5)]},
                {"id": 2, "results": [game(1, 1, "b", "loss", points=0)]},
            ],
        )
        assert response.status_code == 200, response.text
        assert [row["points"] for row in response.json()["standings"]] == [0.5, 0.0]

    def test_same_colour_on_both_sides(self, client):
        body = assert_problem(
            self.post(
                client,
                [
                    {"id": 1, "results": [game(1, 2, "w", "win")]},
                    {"id": 2, "results": [game(1, 1, "w", "loss")]},
                ],
            ),
            422,
        )
        assert body["errors"][0]["path"].endswith(".color")

    def test_round_beyond_the_tournament(self, client):
        body = assert_problem(self.post(client, [{"id": 1, "results": [{"round": 2, "result": "half_bye"}]}]), 422)
        assert body["errors"][0]["path"] == "tournament.players[0].results[0].round"

    def test_after_round_beyond_the_tournament(self, client):
        response = client.post(
            "/v1/standings", json={"tournament": two_player_tournament(), "tiebreaks": [], "after_round": 3}
        )
        body = assert_problem(response, 422)
        assert body["errors"][0]["path"] == "after_round"


def test_body_too_large_is_413():
    from litestar.testing import TestClient

    from tiebreak.http.app import create_app
    from tiebreak.wire.limits import Limits

    with TestClient(create_app(Limits(max_body_bytes=1000))) as small:
        response = small.post(
            "/v1/standings", content=b"{" + b" " * 2000 + b"}", headers={"content-type": "application/json"}
        )
        assert_problem(response, 413)


def test_catalogue_lists_every_code(client):
    codes = {entry["code"] for entry in client.get("/v1/tiebreaks").json()}
    assert {"BH", "SB", "DE", "KS", "ARO", "TPR", "PTP", "APRO", "APPO", "AOB", "FB", "PS"} <= codes


def test_health(client):
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json() == {"status": "ok"}
