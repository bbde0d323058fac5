"""The OpenAPI document accepts exactly what the server accepts, and says what it answers.

- The cross-field rules (exactly one of `tournament`/`trf`, at most one of `tiebreaks`/`preset`,
  each compare list, the two directions of /v1/trf): every combination of absent, null and
  given is valid for the document exactly when the server decodes it.
- `1.0` is an integer for JSON Schema, and for the server.
- Every request-body example is valid for the document and answered 200; the success
  bodies (standings, compare, both /v1/trf directions, every batch line) are valid for the
  document's response schemas.
- A batch error line never echoes an `id` its schema does not allow.
- With API keys on, the served document requires them and the 401 is what it says.
"""

from __future__ import annotations

import itertools
import json

import jsonschema
import msgspec
import pytest
from litestar.testing import TestClient

from tiebreak.http.app import create_app
from tiebreak.http.examples import TOURNAMENT, TRF
from tiebreak.http.ops import OpsConfig
from tiebreak.wire.decode import WireDecoder
from tiebreak.version import __version__
from tests.contract.test_openapi_drift import COMMITTED

DOCUMENT = json.loads(COMMITTED.read_text())
COMPONENTS = DOCUMENT["components"]


def validator(component: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator({"$ref": f"#/components/schemas/{component}", "components": COMPONENTS})


def struct_of(component: str):
    from tiebreak.http.app import DOCUMENTED_MODELS
    from tiebreak.wire.compare import RuleList

    return {m.__name__: m for m in [*DOCUMENTED_MODELS, RuleList]}[component]  # RuleList: inside CompareRequest


def server_accepts(component: str, body) -> bool:
    try:
        WireDecoder(struct_of(component)).decode(msgspec.json.encode(body))
    except msgspec.ValidationError:
        return False
    return True


ABSENT = object()


def combinations(base: dict, choices: dict[str, list]):
    for values in itertools.product(*choices.values()):
        body = dict(base)
        for name, value in zip(choices, values, strict=True):
            if value is not ABSENT:
                body[name] = value
        yield body


SOURCES = {"tournament": [ABSENT, None, TOURNAMENT], "trf": [ABSENT, None, TRF]}
RULES = {"tiebreaks": [ABSENT, None, ["BH/C1"]], "preset": [ABSENT, None, "fide-swiss-traditional"]}
CASES = [
    ("StandingsRequest", {"explain": False}, {**SOURCES, **RULES}),
    ("BatchItem", {"id": "x"}, {**SOURCES, **RULES}),
    ("ProgressionRequest", {}, {**SOURCES, **RULES}),
    ("CompareRequest", {"lists": [{"name": "a", "tiebreaks": ["BH"]}]}, SOURCES),
    ("RuleList", {"name": "a"}, RULES),
    (
        "TrfConvertRequest",
        {},
        {
            **SOURCES,
            "tiebreaks": [ABSENT, None, ["BH"]],
            "regulations": [ABSENT, "auto", "uscf"],
            "unrated_rating": [ABSENT, None, 1400],
        },
    ),
    (
        "PrizeRequest",
        {},
        {
            "standings": [ABSENT, None, [{"id": 1, "points": 1}]],
            "standings_request": [ABSENT, None, {"trf": TRF}],
            "players": [ABSENT, None, [{"id": 1}]],
            "prizes": [ABSENT, None, [{"id": "1", "amount": "10"}]],
            "prize_groups": [ABSENT, None, [{"id": "main", "prizes": []}]],
        },
    ),
]


@pytest.mark.parametrize("component, base, choices", CASES, ids=[c[0] for c in CASES])
def test_the_document_accepts_exactly_the_combinations_the_server_accepts(component, base, choices):
    schema = validator(component)
    checked = accepted = 0
    for body in combinations(base, choices):
        documented = schema.is_valid(body)
        assert documented == server_accepts(component, body), (
            f"{component}: the document {'accepts' if documented else 'refuses'} "
            f"{ {k: ('…' if isinstance(v, (dict, str)) and len(str(v)) > 40 else v) for k, v in body.items()} }"
        )
        checked += 1
        accepted += documented
    assert 0 < accepted < checked  # both sides of every rule were exercised


@pytest.fixture(scope="module")
def client():
    """Not the session's (tests/conftest.py): API keys off whatever TIEBREAK_API_KEYS says, since the
    document's answers are compared with what the server accepts."""
    with TestClient(create_app(ops=OpsConfig(api_keys=()))) as c:
        yield c


def floats_for_integers(tournament: dict) -> dict:
    """The tournament with every integer written as a float (1 -> 1.0)."""
    return json.loads(json.dumps(tournament), parse_int=float)


def test_an_integral_float_is_an_integer_for_the_server_as_for_the_document(client):
    body = {"tournament": floats_for_integers(TOURNAMENT), "tiebreaks": ["BH"], "top": 2.0, "after_round": 3.0}
    assert validator("StandingsRequest").is_valid(body)
    as_floats = client.post("/v1/standings", json=body)
    as_integers = client.post(
        "/v1/standings", json={"tournament": TOURNAMENT, "tiebreaks": ["BH"], "top": 2, "after_round": 3}
    )
    assert as_floats.status_code == 200, as_floats.text
    assert as_floats.json() == as_integers.json()


@pytest.mark.parametrize("field, value", [("top", 2.5), ("after_round", "3"), ("top", True)])
def test_a_float_with_a_fraction_or_a_string_is_still_not_an_integer(client, field, value):
    body = {"tournament": TOURNAMENT, field: value}
    assert not validator("StandingsRequest").is_valid(body)
    response = client.post("/v1/standings", json=body)
    assert response.status_code == 400 and response.json()["errors"][0]["path"] == field


def request_examples():
    for path, item in DOCUMENT["paths"].items():
        for operation in item.values():
            for media, content in operation.get("requestBody", {}).get("content", {}).items():
                for name, example in content.get("examples", {}).items():
                    yield pytest.param(
                        path, operation, media, example["value"], id=f"{operation['operationId']}-{name}"
                    )


def response_validator(operation: dict) -> tuple[str, jsonschema.Draft202012Validator]:
    ((media, content),) = operation["responses"]["200"]["content"].items()
    schema = content["itemSchema"] if media == "application/x-ndjson" else content["schema"]  # a line's schema
    return media, jsonschema.Draft202012Validator({**schema, "components": COMPONENTS})


@pytest.mark.parametrize("path, operation, media, example", list(request_examples()))
def test_every_example_is_valid_and_answered_200_with_a_body_the_document_describes(
    client, path, operation, media, example
):
    request_schema = operation["requestBody"]["content"][media]["schema"]
    jsonschema.Draft202012Validator({**request_schema, "components": COMPONENTS}).validate(example)
    if media == "application/x-ndjson":  # an example is one line
        response = client.post(path, content=msgspec.json.encode(example) + b"\n", headers={"content-type": media})
        example = [example]
    else:
        response = client.post(path, json=example)
    assert response.status_code == 200, response.text
    assert response.headers["tiebreak-version"] == __version__
    response_media, schema = response_validator(operation)
    assert response.headers["content-type"].startswith(response_media)
    if response_media == "application/x-ndjson":  # one BatchResult per line, each 200
        lines = [msgspec.json.decode(line) for line in response.content.splitlines()]
        assert len(lines) == len(example)
        for line, item in zip(lines, example, strict=True):
            schema.validate(line)
            assert line["status"] == 200 and line["id"] == item.get("id") and line["version"] == __version__
    else:
        schema.validate(response.json())


def test_both_directions_of_trf_conversion_answer_bodies_the_document_describes(client):
    _, schema = response_validator(DOCUMENT["paths"]["/v1/trf"]["post"])
    read = client.post("/v1/trf", json={"trf": TRF}).json()
    written = client.post("/v1/trf", json={"tournament": TOURNAMENT, "tiebreaks": ["BH"]}).json()
    for body in (read, written):
        schema.validate(body)
    assert read["trf"] is None and read["tournament"]["players"][0]["name"] == "Petrova, Ana"
    assert written["tournament"] is None and written["trf"].startswith("012 Riverside Club Rapid")


@pytest.mark.parametrize("bad_id", [2**60, -(2**60), "x" * 201, 1.5, {"a": 1}, [1]])
def test_a_batch_error_line_never_echoes_an_id_outside_its_schema(client, bad_id):
    items = [
        {"id": bad_id, "tournament": {"rounds": 1}},  # players missing: an error line
        {"id": "kept", "trf": "not a TRF"},
    ]
    response = client.post("/v1/standings/batch", json=items)
    lines = [msgspec.json.decode(line) for line in response.content.splitlines()]
    line_schema = validator("BatchResult")
    for line in lines:
        line_schema.validate(line)
    assert [line["id"] for line in lines] == [None, "kept"]
    assert [line["status"] for line in lines] == [400, 422]


def test_an_id_at_the_edges_of_its_schema_is_echoed(client):
    items = [{"id": 2**53, "tournament": {"rounds": 1}}, {"id": "x" * 200, "tournament": {"rounds": 1}}]
    lines = [msgspec.json.decode(line) for line in client.post("/v1/standings/batch", json=items).content.splitlines()]
    assert [line["id"] for line in lines] == [2**53, "x" * 200]


def test_the_batch_response_is_described_as_ndjson_of_batch_results():
    response = DOCUMENT["paths"]["/v1/standings/batch"]["post"]["responses"]["200"]
    assert list(response["content"]) == ["application/x-ndjson"]
    assert response["content"]["application/x-ndjson"]["itemSchema"] == {"$ref": "#/components/schemas/BatchResult"}
    assert "one line per item" in response["description"]


def test_api_keys_are_documented_optional_by_default_and_required_when_on():
    assert set(COMPONENTS["securitySchemes"]) == {"ApiKeyHeader", "BearerKey"}
    standings = DOCUMENT["paths"]["/v1/standings"]["post"]
    assert {} in standings["security"] and "401" in standings["responses"]
    assert "security" not in DOCUMENT["paths"]["/healthz"]["get"]
    with TestClient(create_app(ops=OpsConfig(api_keys=("k1",)))) as keyed:
        served = keyed.get("/schema/openapi.json").json()
        assert served["paths"]["/v1/standings"]["post"]["security"] == [{"ApiKeyHeader": []}, {"BearerKey": []}]
        refused = keyed.post("/v1/standings", json={"tournament": TOURNAMENT})
        assert refused.status_code == 401 and refused.headers["tiebreak-version"] == __version__
        validator("Problem").validate(refused.json())
        assert (
            keyed.post("/v1/standings", json={"tournament": TOURNAMENT}, headers={"X-API-Key": "k1"}).status_code == 200
        )
        assert (
            keyed.post(
                "/v1/standings", json={"tournament": TOURNAMENT}, headers={"Authorization": "Bearer k1"}
            ).status_code
            == 200
        )


def test_every_response_names_the_service_version(client):
    for response in (
        client.get("/v1/version"),
        client.get("/v1/nowhere"),
        client.get("/healthz"),
        client.post("/v1/standings", content=b"{", headers={"content-type": "application/json"}),
    ):
        assert response.headers["tiebreak-version"] == __version__
    from typing import get_args

    from tiebreak.wire.schemas import AppliedRegulations

    assert client.get("/v1/version").json() == {
        "service": __version__,
        "api": "v1",
        "regulations": list(get_args(AppliedRegulations)),
    }
    assert {"fide-2026", "fide-2024", "uscf"} <= set(get_args(AppliedRegulations))
    assert DOCUMENT["info"]["version"] == __version__


def test_explain_has_one_default_on_every_endpoint_and_the_command_line():
    from tiebreak.cli.parser import parser

    for component in ("StandingsRequest", "BatchItem", "CompareRequest"):
        explain = COMPONENTS["schemas"][component]["properties"]["explain"]
        assert "default" not in explain and explain["description"].endswith("Default: `true`."), component
    assert parser().parse_args(["batch", "events/"]).explain is True
    assert parser().parse_args(["batch", "events/", "--no-explain"]).explain is False


def test_the_installed_package_has_the_version_the_service_names():
    """pyproject.toml reads the version from service/tiebreak/version.py: the metadata agrees."""
    from importlib.metadata import version

    assert version("tiebreak-service") == __version__


def test_the_command_line_names_the_version():
    import subprocess
    import sys
    from pathlib import Path

    tiebreak = Path(sys.executable).parent / "tiebreak"
    result = subprocess.run([str(tiebreak), "--version"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stdout.strip() == f"tiebreak {__version__}"


def test_every_schema_property_and_operation_is_described_and_every_body_has_examples():
    for name, schema in COMPONENTS["schemas"].items():
        assert schema.get("description"), f"schema {name}"
        for field, field_schema in schema.get("properties", {}).items():
            assert field_schema.get("description"), f"{name}.{field}"
    for path, item in DOCUMENT["paths"].items():
        for method, operation in item.items():
            assert operation.get("summary") and operation.get("description"), f"{method} {path}"
            if "requestBody" in operation:  # the JSON form; NDJSON has none (schemathesis cannot send it)
                assert operation["requestBody"]["content"]["application/json"]["examples"], f"{method} {path}"
