"""A body that breaks the document is answered 400 by validation before the cost model prices it.

schemathesis found it (issue 20, item 7): `rounds` past the schema's maximum (4,191,376) with a
few hundred players was answered 413 by the cost model ("estimated … s of computation") instead
of 400 naming the field, and a schema-invalid request answered 413 counts as accepted
(negative data rejection, ST201). Validate first, then price.
"""

PLAYERS = 300
ROUNDS_PAST_THE_MAXIMUM = 4_191_376  # the document's maximum is 100 (limit max_rounds)


def standings_body(rounds: int) -> dict:
    """PLAYERS players paired 1-2, 3-4, … in round 1 (the odd one wins with white)."""
    players = [
        {
            "id": n,
            "name": f"Player {n}",
            "results": [
                {
                    "round": 1,
                    "opponent": n + 1 if n % 2 else n - 1,
                    "color": "w" if n % 2 else "b",
                    "result": "win" if n % 2 else "loss",
                }
            ],
        }
        for n in range(1, PLAYERS + 1)
    ]
    return {"tournament": {"rounds": rounds, "players": players}, "tiebreaks": ["BH"]}


def test_the_body_is_valid_with_rounds_in_range(client):
    """The control: nothing but `rounds` is wrong with the body of the test below."""
    response = client.post("/v1/standings", json=standings_body(rounds=1))
    assert response.status_code == 200, response.text
    assert response.json()["total_players"] == PLAYERS


def test_rounds_past_the_schema_maximum_is_400_before_the_cost_model(client):
    response = client.post("/v1/standings", json=standings_body(rounds=ROUNDS_PAST_THE_MAXIMUM))
    assert response.status_code == 400, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert "tournament.rounds" in [error["path"] for error in response.json()["errors"]], response.text
