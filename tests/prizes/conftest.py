import json
from pathlib import Path

import pytest
from litestar.testing import TestClient

from tiebreak.http.app import app

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "prizes"


def fixture_files() -> list[Path]:
    return sorted(FIXTURES.glob("*.json"))


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def client():
    with TestClient(app) as c:
        yield c
