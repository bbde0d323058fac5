"""The servers and the browser the contract tests share: one of each per session.

`server`: a uvicorn with the default configuration on a loopback port; `limited_server`: one with
the test-only lower limits (tests/contract/target.py); `chromium`: one headless Chromium, in which
each browser module opens its page in a browser context of its own (tests/contract/browser.py).
A test that needs another configuration starts its own."""

from collections.abc import Iterator

import pytest

from tests.contract.browser import Chromium, find_chromium
from tests.contract.real_server import uvicorn_server
from tests.contract.target import limited_server  # noqa: F401 (a fixture: uvicorn with test-only lower limits)


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    with uvicorn_server() as base:
        yield base


@pytest.fixture(scope="session")
def chromium() -> Iterator[Chromium]:
    """The browser modules skip, saying why, where there is no Chromium: this runs only where there is."""
    executable = find_chromium()
    assert executable is not None, "a browser test ran without Chromium: its module's skipif is missing"
    browser = Chromium(executable)
    yield browser
    browser.close()
