import pytest
from litestar.testing import TestClient

from tiebreak.api.app import app
from tests.contract.target import limited_server as _limited_server


@pytest.fixture(scope="session")
def client():
    with TestClient(app) as c:
        yield c


@pytest.fixture(scope="session")
def limited_server():
    """The base URL of a real uvicorn with the test-only lower limits (tests/contract/target.py)."""
    with _limited_server() as base:
        yield base

