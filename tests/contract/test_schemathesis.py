"""Schemathesis over the committed OpenAPI document against the real ASGI app.

Every operation: no 5xx, every response conforms to its documented schema,
status code and content type, and schema-invalid requests are refused. The
positive-data check is left out on purpose: a schema-valid crosstable can still
contradict itself (A played B, B did not play A), and that is a 422 by design.
"""

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import checks

from service.api.app import app
from tests.contract.test_openapi_drift import COMMITTED

schema = schemathesis.openapi.from_path(COMMITTED)
schema.app = app

CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_schema_conformance,
    checks.response_headers_conformance,
    checks.negative_data_rejection,
]


@schema.parametrize()
@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_conforms(case):
    case.call_and_validate(checks=CHECKS)
