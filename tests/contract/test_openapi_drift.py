"""The committed OpenAPI document is the one the app serves (`make openapi` rewrites it)."""

import json
from pathlib import Path

from tiebreak.http.export import document

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "openapi" / "openapi.json"


def test_committed_openapi_matches_the_app():
    assert COMMITTED.exists(), "run `make openapi`"
    assert json.loads(COMMITTED.read_text()) == json.loads(document()), (
        "openapi/openapi.json drifted: run `make openapi`"
    )


def test_the_app_serves_the_same_document(client):
    served = client.get("/schema/openapi.json").json()
    assert served == json.loads(COMMITTED.read_text())
