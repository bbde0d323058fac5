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

from tiebreak.http.app import app  # noqa: E402
from tests import profiles  # noqa: E402

profiles.load()  # before any test module builds its settings (tests/profiles.py)


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
