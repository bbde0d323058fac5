"""The document's response examples are what the service answers to its request examples today."""

import json

from tiebreak.http import response_examples
from tiebreak.http.export import compute_response_examples, document


def test_the_stored_response_examples_are_what_the_service_answers():
    assert response_examples.stored() == compute_response_examples(json.loads(document())), (
        "service/tiebreak/http/response_examples.json drifted: run `make openapi`"
    )


def test_every_request_example_has_its_answer_on_the_200_response():
    doc = json.loads(document())
    for item in doc["paths"].values():
        for operation in item.values():
            asked = (operation.get("requestBody") or {}).get("content", {}).get("application/json", {})
            answered = next(iter(operation["responses"]["200"].get("content", {}).values()), {})
            if "requestBody" in operation:
                assert set(asked.get("examples", {})) == set(answered.get("examples", {})), operation["operationId"]
            elif "application/json" in operation["responses"]["200"].get("content", {}):
                assert set(answered.get("examples", {})) == {"answer"}, operation["operationId"]


def test_a_get_example_is_the_start_of_the_real_answer():
    """The catalogue's example is its first entries as GET /v1/tiebreaks lists them, untouched."""
    from litestar.testing import TestClient

    from tiebreak.http.app import app

    doc = json.loads(document())
    example = doc["paths"]["/v1/tiebreaks"]["get"]["responses"]["200"]["content"]["application/json"]["examples"]
    entries = example["answer"]["value"]
    with TestClient(app) as client:
        listed = client.get("/v1/tiebreaks").json()
    assert len(entries) == 3 < len(listed) and entries == listed[:3]
    assert entries[0]["code"] == "PTS" and entries[0]["article"] == "C.07 7.1"
    assert f"first 3 of {len(listed)} entries" in example["answer"]["summary"]
    version = doc["paths"]["/v1/version"]["get"]["responses"]["200"]["content"]["application/json"]["examples"]
    assert version["answer"]["value"]["api"] == "v1"


def test_a_standings_example_is_a_real_answer_not_a_placeholder():
    """Riverside (examples.py) by BH/C1, BH, SB: Chen 2.5 first, worked by hand from the crosstable
    (opponents Petrova 2, Okafor 1.5, Lind 1: BH 4.5, cut the least 1: 3.5)."""
    doc = json.loads(document())
    answer = doc["paths"]["/v1/standings"]["post"]["responses"]["200"]["content"]["application/json"]
    first = answer["examples"]["tournament"]["value"]["standings"][0]
    assert (first["name"], first["points"], first["values"][:2]) == ("Chen, Wei", 2.5, [3.5, 4.5])
