"""Schemathesis over the committed OpenAPI document against the real ASGI app, with every
check that applies to a stateless API, positive data acceptance included.

Every operation: no 5xx; every response conforms to its documented status code, content
type, headers and schema (each NDJSON line of the batch response too); schema-invalid
requests are refused; schema-valid requests are accepted, where accepted means 2xx or,
for a body whose content cannot be computed (a crosstable that contradicts itself, a rule
unknown under the rule set), the documented 422 (schemathesis.toml; docs/decisions.md).
test_schemathesis_cli.py runs the `schemathesis run` command itself against uvicorn.
"""

import jsonschema
import msgspec
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import checks
from schemathesis.config import SchemathesisConfig

from tiebreak.http.app import app
from tests.contract.test_openapi_drift import COMMITTED, ROOT

def load_schema():
    """The committed document with the repository's schemathesis.toml (each call its own copy)."""
    schema = schemathesis.openapi.from_path(COMMITTED, config=SchemathesisConfig.from_path(ROOT / "schemathesis.toml"))
    schema.app = app
    return schema


schema = load_schema()

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
DOCUMENT = msgspec.json.decode(COMMITTED.read_bytes())


def _line_validator(path: str) -> jsonschema.Draft202012Validator:
    """The schema every NDJSON line of `path`'s 200 answer has (BatchResult, CheckLine)."""
    content = DOCUMENT["paths"][path]["post"]["responses"]["200"]["content"][NDJSON]
    return jsonschema.Draft202012Validator({**content["schema"], "components": DOCUMENT["components"]})


def assert_ndjson_lines_conform(response, path: str = "/v1/standings/batch") -> None:
    """schemathesis has no NDJSON reader: each line of a streamed answer is checked here."""
    if response.headers.get("content-type", [""])[0].startswith(NDJSON):
        validator = _line_validator(path)
        for line in response.content.splitlines():
            validator.validate(msgspec.json.decode(line))


@schema.parametrize()
@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_conforms(case):
    assert_ndjson_lines_conform(case.call_and_validate(checks=CHECKS), case.path)
