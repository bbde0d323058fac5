import pytest
from litestar.testing import TestClient

from tiebreak.api.app import app


@pytest.fixture(scope="session")
def client():
    with TestClient(app) as c:
        yield c
