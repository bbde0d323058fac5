"""The page's "API documentation" link and `/docs` (issue 37, point 10): with TIEBREAK_ADMIN_PORT
(as deploy/ and compose set it) the API description answers on the admin port only, so the page on
the public port links to nothing there; `/docs`, the address people try, leads to ReDoc at /schema."""

from __future__ import annotations

from litestar.testing import TestClient

from tiebreak.http.app import create_app
from tiebreak.http.ops import OpsConfig

LINK = 'href="schema/swagger"'


def test_without_an_admin_port_the_page_links_to_the_docs_it_serves(client):
    page = client.get("/")
    assert LINK in page.text
    assert client.get("/schema/swagger").status_code == 200


def test_with_an_admin_port_the_public_page_has_no_dead_docs_link():
    # TestClient's requests arrive on port 80 (its scope's server): the public port here
    with TestClient(create_app(ops=OpsConfig(admin_port=9090))) as c:
        assert c.get("/schema/swagger").status_code == 404
        page = c.get("/")
        assert page.status_code == 200 and LINK not in page.text
        assert c.get("/docs", follow_redirects=False).status_code == 404  # the docs are not public here


def test_docs_redirects_to_the_api_description(client):
    answer = client.get("/docs", follow_redirects=False)
    assert answer.status_code == 308 and answer.headers["location"] == "schema"
    assert client.get("/docs").url.path == "/schema"
    assert client.get("/docs").status_code == 200


def test_docs_is_open_when_api_keys_are_on():
    with TestClient(create_app(ops=OpsConfig(api_keys=("k",)))) as c:
        assert c.get("/docs", follow_redirects=False).status_code == 308
