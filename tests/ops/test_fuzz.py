"""Fuzzing through the HTTP API: schemathesis over every documented operation, and
random consistent crosstables (with random `top`/`player`/`explain`) and random NDJSON
batches, each answer checked against the OpenAPI document and the engine.

Every request goes to a real uvicorn with the test-only lower limits of
tests/contract/target.py (the document schemathesis reads is the one that server serves:
the committed one with smaller bounds), so no generated body costs more than a moment of work.

Two modes:
- `make test`: the crosstables and the batches, 15 examples each, derandomized (the same
  cases every run, no example database). schemathesis over every operation is
  tests/contract's (derandomized too); its random run here is marked `fuzz` and deselected.
- `make fuzz` (TIEBREAK_FUZZ_EXAMPLES set, `-m "fuzz or not fuzz"`): every test of this file
  with that many examples, at random (a new seed each run, printed with a failure; hypothesis'
  example database replays what failed before), and hypothesis' statistics.
"""

from __future__ import annotations

import os

import httpx
import jsonschema
import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# The one import of the service here: the strategies draw engine tournaments, the API takes JSON.
from tiebreak.usecases.convert import tournament_to_wire
from tests.contract.target import REQUEST_TIMEOUT_S, limited_document, limited_server, load_schema  # noqa: F401
from tests.contract.test_schemathesis import CHECKS, assert_ndjson_lines_conform
from tests.strategies import swiss_tournaments

FUZZING = "TIEBREAK_FUZZ_EXAMPLES" in os.environ  # `make fuzz`
EXAMPLES = int(os.environ.get("TIEBREAK_FUZZ_EXAMPLES", "15"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    **({} if FUZZING else {"derandomize": True, "database": None}),
)

schema = load_schema()  # the contract test's document and schemathesis.toml, its own copy
if not FUZZING:
    # Deselected by `make test`, but built when collected: the coverage phase's cases are most of that
    # and the same every run, which tests/contract/test_schemathesis.py sends (`make fuzz` keeps them).
    schema.config.phases.coverage.enabled = False
pytestmark = pytest.mark.server  # every test here talks to the limited uvicorn


@pytest.mark.fuzz
@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_fuzz_every_operation(case, limited_server):
    # the contract test's checks, more examples, at random
    response = case.call_and_validate(base_url=limited_server, checks=CHECKS, timeout=REQUEST_TIMEOUT_S)
    assert_ndjson_lines_conform(response, case.path)


STANDINGS = schema["/v1/standings"]["POST"]
RULES = st.lists(
    st.sampled_from(
        [
            "BH/C1",
            "BH",
            "BH/M1",
            "SB",
            "SB/C1",
            "DE",
            "PS",
            "KS",
            "FB",
            "AOB",
            "ARO",
            "TPR",
            "PTP",
            "APRO",
            "WIN",
            "WON",
            "BPG",
            "BWG",
            "GE",
        ]
    ),
    max_size=8,
)


@pytest.fixture(scope="module")
def http(limited_server):
    with httpx.Client(base_url=limited_server, timeout=REQUEST_TIMEOUT_S) as client:
        yield client


@FUZZ
@given(drawn=swiss_tournaments(max_players=24), rules=RULES, data=st.data())
def test_fuzz_random_crosstables_over_http(limited_server, drawn, rules, data):
    wire = msgspec.to_builtins(tournament_to_wire(drawn.tournament))
    ids = [p["id"] for p in wire["players"]]
    body = {
        "tournament": wire,
        "tiebreaks": rules,
        "explain": data.draw(st.booleans()),
        "regulations": data.draw(st.sampled_from(["auto", "fide-2026", "fide-2024"])),
    }
    if data.draw(st.booleans()):
        body["top"] = data.draw(st.integers(1, len(ids) + 2))
    if data.draw(st.booleans()):
        body["player"] = data.draw(st.sampled_from(ids))
    if data.draw(st.booleans()):
        body["unrated_rating"] = data.draw(st.integers(0, 4000))
    if data.draw(st.booleans()):
        body["after_round"] = data.draw(st.integers(1, wire["rounds"]))
    case = STANDINGS.Case(body=body, media_type="application/json")
    response = case.call_and_validate(base_url=limited_server, checks=CHECKS, timeout=REQUEST_TIMEOUT_S)
    # a consistent crosstable is always answered, and the selection is honoured
    assert response.status_code == 200, response.text
    result = response.json()
    assert result["total_players"] == len(ids)
    rows = result["standings"]
    expected = min(len(ids), body.get("top", 0)) if "top" in body else 0
    if "player" in body and not any(r["id"] == body["player"] for r in rows[:expected]):
        expected += 1
    if "top" not in body and "player" not in body:
        expected = len(ids)
    assert len(rows) == expected


# schemathesis has no NDJSON serializer (and registering one is global: it would change
# tests/contract too), so the batch endpoint's NDJSON form is fuzzed here: random lines,
# valid items among them; the batch is answered 200 with one result line per input line,
# and every result line matches the documented BatchResult schema.
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12,
)
BATCH_RESULT = jsonschema.Draft202012Validator(
    {
        "$ref": "#/components/schemas/BatchResult",
        "components": limited_document()["components"],
    }
)


@FUZZ
@given(
    lines=st.lists(
        st.one_of(
            JSON_VALUES,
            swiss_tournaments(max_players=10).map(
                lambda d: {
                    "tournament": msgspec.to_builtins(tournament_to_wire(d.tournament)),
                    "tiebreaks": ["BH", "SB"],
                }
            ),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_fuzz_ndjson_batches(http, lines):
    body = b"".join(msgspec.json.encode(line) + b"\n" for line in lines)
    response = http.post("/v1/standings/batch", content=body, headers={"content-type": "application/x-ndjson"})
    assert response.status_code == 200, response.text
    results = [msgspec.json.decode(line) for line in response.content.splitlines()]
    assert [r["index"] for r in results] == list(range(len(lines)))
    for line, result in zip(lines, results, strict=True):
        assert result["status"] < 500
        # A generated tournament (the random JSON values can be {"tournament": null} too).
        if isinstance(line, dict) and isinstance(line.get("tournament"), dict) and "players" in line["tournament"]:
            assert result["status"] == 200, result
    for result in results:
        BATCH_RESULT.validate(result)
