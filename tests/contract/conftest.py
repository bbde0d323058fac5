import pytest
from litestar.testing import TestClient

from tiebreak.http.app import app
from tests.contract.target import limited_server  # noqa: F401 (a fixture: uvicorn with test-only lower limits)


@pytest.fixture(scope="session")
def client():
    with TestClient(app) as c:
        yield c
