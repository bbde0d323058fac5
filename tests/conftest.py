"""What every test shares: the command line run by the tests speaks English whatever the machine's
locale (the golden files are English; tests/texts/ sets the locale it tests itself), hypothesis'
profile (tests/profiles.py), and `client`, the app with its default configuration behind
litestar's TestClient, one for the session."""

import os

for name in ("LC_MESSAGES", "LANG", "LANGUAGE"):
    os.environ.pop(name, None)
os.environ["LC_ALL"] = "C.UTF-8"

import pytest  # noqa: E402 (after the locale: nothing imported may read it first)
from litestar.testing import TestClient  # noqa: E402
from litestar.testing.transport import TestClientTransport  # noqa: E402

from tiebreak.http.app import app  # noqa: E402
from tests import profiles  # noqa: E402

profiles.load()  # before any test module builds its settings (tests/profiles.py)

_parse_request = TestClientTransport.parse_request


def _from_loopback(self, request):
    """litestar's TestClient names its client "testclient", an address no server gives; an in-process
    request comes from this machine, as a developer's on localhost does: 127.0.0.1 (private.py serves
    /metrics and /schema to loopback clients). Tests of other clients use a real server."""
    scope = _parse_request(self, request)
    scope["client"] = ("127.0.0.1", 50000)
    return scope


TestClientTransport.parse_request = _from_loopback  # type: ignore[method-assign]


@pytest.fixture(scope="session")
def client():
    """Tests that need another configuration make their own app (create_app) and client."""
    with TestClient(app) as c:
        yield c


def pytest_collection_modifyitems(items):
    """schemathesis names each operation's item (`test_x[POST /v1/standings]`), but under pytest 9.2
    the node id is the bare function's, the same for every operation; pytest-xdist, which tells the
    items apart by node id, ran one of them. The operation goes into the id, as pytest's own
    parametrization puts a parameter there."""
    for item in items:
        label = getattr(item, "operation_label", None)  # set on schemathesis' items only
        if label is not None and item.id.params is None:
            item._id = item.id.with_params(label)
