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
            assert set(asked.get("examples", {})) == set(answered.get("examples", {})), operation["operationId"]


def test_a_standings_example_is_a_real_answer_not_a_placeholder():
    """Riverside (examples.py) by BH/C1, BH, SB: Chen 2.5 first, worked by hand from the crosstable
    (opponents Petrova 2, Okafor 1.5, Lind 1: BH 4.5, cut the least 1: 3.5)."""
    doc = json.loads(document())
    answer = doc["paths"]["/v1/standings"]["post"]["responses"]["200"]["content"]["application/json"]
    first = answer["examples"]["tournament"]["value"]["standings"][0]
    assert (first["name"], first["points"], first["values"][:2]) == ("Chen, Wei", 2.5, [3.5, 4.5])
