"""/metrics and the API description are private by default (issue 39, point 13; http/private.py):
served on the main port to this machine's clients (a developer on localhost), to nobody else unless
TIEBREAK_PUBLIC_METRICS / TIEBREAK_PUBLIC_SCHEMA ask, and only on the admin port when there is one
(tests/ops/test_connections.py). A real uvicorn on loopback: the client address is uvicorn's. A
client of the hall is one a proxy on the laptop forwards for (X-Forwarded-For, which uvicorn trusts
from 127.0.0.1 by default): the address uvicorn then gives the app is the hall's."""

from __future__ import annotations

import httpx
import pytest

from tests.contract.real_server import uvicorn_server
from tiebreak.http.private import loopback

HALL = {"x-forwarded-for": "192.168.1.37"}
SCHEMA_URLS = ["/schema/openapi.json", "/schema/swagger", "/schema", "/docs", "//schema/openapi.json"]
METRICS_URLS = ["/metrics", "/metrics/", "//metrics", "/metrics%2f"]
DOCS_LINK = 'href="schema/swagger"'


def status(base: str, url: str, headers: dict | None = None) -> int:
    return httpx.get(base + url, headers=headers, follow_redirects=False).status_code


@pytest.fixture(scope="module")
def default_server():
    with uvicorn_server() as base:
        yield base


def test_a_loopback_client_reads_metrics_and_docs(default_server):
    assert status(default_server, "/metrics") == 200
    assert status(default_server, "/schema/openapi.json") == 200
    assert status(default_server, "/docs") == 308
    assert DOCS_LINK in httpx.get(default_server + "/").text


@pytest.mark.parametrize("url", METRICS_URLS + SCHEMA_URLS)
def test_a_hall_client_does_not_however_the_path_is_spelt(default_server, url):
    assert status(default_server, url, HALL) == 404


def test_a_hall_client_gets_the_page_and_the_api_but_no_dead_docs_link(default_server):
    page = httpx.get(default_server + "/", headers=HALL)
    assert page.status_code == 200 and DOCS_LINK not in page.text
    assert status(default_server, "/page/page.js", HALL) == 200
    assert status(default_server, "/v1/tiebreaks", HALL) == 200
    assert status(default_server, "/healthz", HALL) == 200


def test_public_metrics_asked_leaves_the_docs_private():
    with uvicorn_server({"TIEBREAK_PUBLIC_METRICS": "1"}) as base:
        assert all(status(base, url, HALL) == 200 for url in METRICS_URLS)
        assert [status(base, url, HALL) for url in SCHEMA_URLS] == [404] * len(SCHEMA_URLS)


def test_public_schema_asked_leaves_the_metrics_private():
    with uvicorn_server({"TIEBREAK_PUBLIC_SCHEMA": "1"}) as base:
        assert status(base, "/schema/openapi.json", HALL) == 200
        assert status(base, "/docs", HALL) == 308
        assert DOCS_LINK in httpx.get(base + "/", headers=HALL).text
        assert [status(base, url, HALL) for url in METRICS_URLS] == [404] * len(METRICS_URLS)


@pytest.mark.parametrize(
    ("client", "expected"),
    [
        (("127.0.0.1", 1), True),
        (("127.3.0.9", 1), True),  # all of 127/8 is this machine
        (("::1", 1), True),
        (("::ffff:127.0.0.1", 1), True),  # IPv4 on a dual-stack socket
        (("192.168.1.37", 1), False),
        (("::ffff:192.168.1.37", 1), False),
        (("10.0.0.1", 1), False),
        (("testclient", 1), False),  # not an address
        (None, False),  # no address (a Unix socket, whoever is behind it)
    ],
)
def test_loopback_is_an_address_of_this_machine(client, expected):
    assert loopback({"client": client}) is expected
