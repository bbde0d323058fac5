import pytest
from litestar.testing import TestClient

from tiebreak.http.app import app


@pytest.fixture(scope="session")
def client():
    with TestClient(app) as c:
        yield c
