"""Schemathesis over the OpenAPI document against a real uvicorn, with every check that
applies to a stateless API, positive data acceptance included.

Every operation: no 5xx; every response conforms to its documented status code, content
type, headers and schema (each NDJSON line of the batch response too); schema-invalid
requests are refused; schema-valid requests are accepted, where accepted means 2xx or,
for a body whose content cannot be computed (a crosstable that contradicts itself, a rule
unknown under the rule set), the documented 422 (schemathesis.toml; docs/decisions/0037-400-or-422.md).

The server runs with the test-only lower limits of tests/contract/target.py and the document
is the one it serves: the committed document with smaller bounds, nothing else
(test_the_limited_document_is_the_committed_one_with_lower_bounds), so no generated body
costs more than a moment of work. Generation is
derandomized (hypothesis' seed is a hash of the test, no example database): every run sends
the same cases. `make fuzz` explores at random (tests/ops/test_fuzz.py).
test_schemathesis_cli.py runs the `schemathesis run` command itself.
"""

import json

import jsonschema
import msgspec
import pytest
from hypothesis import HealthCheck, settings
from schemathesis import checks

from tests.contract.target import REQUEST_TIMEOUT_S, limited_document, load_schema, served_document
from tests.contract.test_openapi_drift import COMMITTED
from tests.profiles import examples

schema = load_schema()
pytestmark = pytest.mark.server  # every test here talks to the limited uvicorn

CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_schema_conformance,
    checks.response_headers_conformance,
    checks.negative_data_rejection,
    checks.positive_data_acceptance,
    checks.missing_required_header,
    checks.unsupported_method,
    checks.allow_header_conformance,
    checks.ignored_auth,
]
NDJSON = "application/x-ndjson"
DOCUMENT = limited_document()  # what the limited server answers by
# The keywords a limit of tiebreak/wire/limits.py sets in the document.
BOUNDS = {"maxItems", "maxLength", "maximum", "maxProperties"}
EXAMPLES = examples(80)


def _line_validator(path: str) -> jsonschema.Draft202012Validator:
    """The schema every NDJSON line of `path`'s 200 answer has (BatchResult, CheckLine)."""
    content = DOCUMENT["paths"][path]["post"]["responses"]["200"]["content"][NDJSON]
    return jsonschema.Draft202012Validator({**content["itemSchema"], "components": DOCUMENT["components"]})


def assert_ndjson_lines_conform(response, path: str = "/v1/standings/batch") -> None:
    """schemathesis has no NDJSON reader: each line of a streamed answer is checked here."""
    if response.headers.get("content-type", [""])[0].startswith(NDJSON):
        validator = _line_validator(path)
        for line in response.content.splitlines():
            validator.validate(msgspec.json.decode(line))


def _bounds_lowered(committed, served, path=""):
    """Where `served` differs from `committed`: (path, committed value, served value)."""
    if isinstance(committed, dict) and isinstance(served, dict) and committed.keys() == served.keys():
        for key in committed:
            yield from _bounds_lowered(committed[key], served[key], f"{path}/{key}")
    elif isinstance(committed, list) and isinstance(served, list) and len(committed) == len(served):
        for i, (a, b) in enumerate(zip(committed, served, strict=True)):
            yield from _bounds_lowered(a, b, f"{path}/{i}")
    elif committed != served:
        yield path, committed, served


def test_the_limited_document_is_the_committed_one_with_lower_bounds(limited_server):
    """What schemathesis reads here is the committed contract, only with smaller numbers, and
    the limited server serves it."""
    served = served_document(limited_server)
    assert served == limited_document()
    differences = list(_bounds_lowered(json.loads(COMMITTED.read_text()), served))
    assert differences, "the test limits change no bound: is the server reading TEST_LIMITS?"
    for path, committed, lowered in differences:
        keyword = path.rsplit("/", 1)[-1]
        assert keyword in BOUNDS and isinstance(committed, int) and isinstance(lowered, int), (path, committed, lowered)
        assert lowered < committed, (path, committed, lowered)
    lowered = {path for path, _, _ in differences}
    assert "/paths//v1/check/post/requestBody/content/application/json/schema/maxItems" in lowered
    assert "/components/schemas/Tournament/properties/players/maxItems" in lowered


@schema.parametrize()
# schemathesis has no NDJSON writer: the batch operations' NDJSON bodies (bytes in the document,
# decision 0213) are not generated, only their JSON arrays; test_batch_media_types.py sends NDJSON.
@pytest.mark.filterwarnings("ignore:Skipped test cases with unsupported payload media types. application/x-ndjson")
@settings(
    max_examples=EXAMPLES, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)
def test_every_operation_conforms(case, limited_server):
    response = case.call_and_validate(base_url=limited_server, checks=CHECKS, timeout=REQUEST_TIMEOUT_S)
    assert_ndjson_lines_conform(response, case.path)
