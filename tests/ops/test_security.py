"""Issue 39: no 5xx from a URL alone, the admin port's hiding not bypassed by another spelling of
a path, HEAD for every GET, 304 for a page file the browser has, and the security headers on
every response (docs/operations.md, "Security")."""

from __future__ import annotations

import pytest
from litestar.testing import TestClient

from tiebreak.http.app import create_app
from tiebreak.http.ops import OpsConfig
from tools.hostile import ADMIN_SPELLINGS, HOSTILE_URLS

BASE = "http://testserver.local"  # full URLs: httpx would read `//metrics` as a host


@pytest.mark.parametrize("url", HOSTILE_URLS)
def test_no_url_alone_makes_a_5xx_or_names_the_install_path(client, url):
    response = client.get(BASE + url)
    assert response.status_code == 404, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert "/service/" not in response.text and "static" not in response.text  # issue 39 point 4


@pytest.mark.parametrize("url", HOSTILE_URLS)
def test_hostile_urls_log_no_traceback(client, url, caplog):
    client.get(BASE + url)
    assert not [r for r in caplog.records if r.exc_info], "an unexpected error was logged"


def test_page_and_docs_files_are_still_served(client):
    for url in ("/page/page.js", "/page/page.css", "/page/vendor/uplot/uPlot.iife.min.js"):
        response = client.get(url)
        assert response.status_code == 200 and response.content, url
    assert client.get("/schema/static/redoc/redoc.standalone.js").status_code == 200
    assert client.get("/schema/static/swagger-ui/swagger-ui.css").status_code == 200


# ---- point 2: the admin port's paths, however spelt ----


@pytest.fixture(scope="module")
def with_admin_port():
    # TestClient's requests arrive on port 80: the public port here.
    with TestClient(create_app(ops=OpsConfig(admin_port=9))) as c:
        yield c


@pytest.mark.parametrize("url", ADMIN_SPELLINGS)
def test_admin_paths_are_hidden_on_the_public_port_however_spelt(with_admin_port, url):
    assert with_admin_port.get(BASE + url).status_code == 404


def test_the_public_port_still_answers_the_api_and_probes(with_admin_port):
    assert with_admin_port.get("/healthz").status_code == 200
    assert with_admin_port.get("/v1/version").status_code == 200
    assert with_admin_port.get(BASE + "//healthz").status_code == 200


# ---- point 6: HEAD ----


@pytest.mark.parametrize("url", ["/", "/healthz", "/readyz", "/v1/version", "/v1/tiebreaks", "/page/page.js"])
def test_head_answers_as_get_without_a_body(client, url):
    got = client.get(url)
    head = client.head(url)
    assert head.status_code == got.status_code == 200
    assert head.content == b""
    assert head.headers["content-type"] == got.headers["content-type"]


def test_head_of_a_post_only_route_is_405(client):
    assert client.head("/v1/standings").status_code == 405


# ---- point 7: 304 ----


@pytest.mark.parametrize("url", ["/page/page.js", "/page/index.html", "/schema/static/redoc/redoc.standalone.js"])
def test_a_page_file_the_browser_has_is_304(client, url):
    first = client.get(url)
    etag = first.headers["etag"]
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == etag
    assert client.get(url, headers={"If-None-Match": f'W/{etag}, "other"'}).status_code == 304
    assert client.get(url, headers={"If-None-Match": '"other"'}).status_code == 200


# ---- point 9: the headers ----


@pytest.mark.parametrize(
    "url",
    ["/", "/page/index.html", "/page/page.js", "/schema", "/schema/swagger", "/healthz", "/v1/version", "/nowhere"],
)
def test_every_response_has_nosniff_no_referrer_and_a_policy_with_frame_ancestors(client, url):
    response = client.get(url)
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"
    [policy] = response.headers.get_list("content-security-policy")
    assert "frame-ancestors" in policy


def test_the_page_and_its_html_file_carry_the_page_policy(client):
    for url in ("/", "/page/index.html"):
        policy = client.get(url).headers["content-security-policy"]
        assert "script-src 'self';" in policy and "unsafe-inline" not in policy, url


def test_the_docs_cannot_be_framed_by_another_site(client):
    policy = client.get("/schema/swagger").headers["content-security-policy"]
    assert "frame-ancestors 'self'" in policy


@pytest.mark.parametrize("url", ["/", "/page/index.html", "/schema/swagger", "/schema/redoc"])
def test_html_names_one_charset(client, url):
    assert client.get(url).headers["content-type"] == "text/html; charset=utf-8"


def test_errors_and_refusals_carry_the_headers_too():
    with TestClient(create_app(ops=OpsConfig(api_keys=("k",)))) as c:
        refused = c.get("/v1/version")
        assert refused.status_code == 401
        assert refused.headers["x-content-type-options"] == "nosniff"
        assert "frame-ancestors 'none'" in refused.headers["content-security-policy"]


def test_one_send_wrapper_normalises_the_path_once_per_request(monkeypatch):
    """Issue 40: the host, key, admin-port and admission checks and the policy read one normalised
    path, and the headers come from the middleware's one send wrapper, in the order they always had."""
    from tiebreak.http import ops, security

    calls = []
    original = security.normalised

    def counted(path):
        calls.append(path)
        return original(path)

    monkeypatch.setattr(ops, "normalised", counted)
    monkeypatch.setattr(security, "normalised", counted)
    config = OpsConfig(api_keys=("k",), allowed_hosts=("hall.local",))
    with TestClient(create_app(ops=config), base_url="http://hall.local") as c:
        assert isinstance(c.app.asgi_handler, ops.OpsMiddleware)
        for url, status in [("/v1/version", 200), ("/page//page.js/", 200), ("/nowhere", 404)]:
            calls.clear()
            response = c.get(url, headers={"X-API-Key": "k"})
            assert response.status_code == status, url
            assert len(calls) == 1, (url, calls)
            names = [name for name, _ in response.headers.multi_items()]
            assert names[-4:] == [
                "x-content-type-options",
                "referrer-policy",
                "content-security-policy",
                "tiebreak-version",
            ]


# ---- point 11: CORS ----


@pytest.fixture(scope="module")
def cors():
    with TestClient(create_app(ops=OpsConfig(cors_origins=("https://app.example",), api_keys=("k",)))) as c:
        yield c


def test_cors_exposes_retry_after_version_and_etag(cors):
    response = cors.get("/v1/version", headers={"Origin": "https://app.example", "X-API-Key": "k"})
    exposed = {h.strip() for h in response.headers["access-control-expose-headers"].lower().split(",")}
    assert {"retry-after", "tiebreak-version", "etag", "x-request-id"} <= exposed


@pytest.mark.parametrize("origin", [None, "https://app.example", "https://evil.example"])
def test_cors_answers_vary_by_origin_whatever_the_origin(cors, origin):
    headers = {"X-API-Key": "k", **({"Origin": origin} if origin else {})}
    response = cors.get("/v1/version", headers=headers)
    varies = [v.strip().lower() for value in response.headers.get_list("vary") for v in value.split(",")]
    assert varies.count("origin") == 1


def test_an_options_that_is_no_preflight_needs_the_key(cors):
    assert cors.options("/v1/standings").status_code == 401
    assert cors.options("/v1/standings", headers={"Origin": "https://app.example"}).status_code == 401
    preflight = cors.options(
        "/v1/standings", headers={"Origin": "https://app.example", "Access-Control-Request-Method": "POST"}
    )
    assert preflight.status_code in (200, 204)


# ---- allowed hosts (DNS rebinding) and the page with API keys (points 12, 13) ----


@pytest.fixture(scope="module")
def hall():
    with TestClient(create_app(ops=OpsConfig(allowed_hosts=("hall.local", "192.168.1.20", "[::1]")))) as c:
        yield c


@pytest.mark.parametrize("host", ["hall.local", "hall.local:8000", "HALL.local", "192.168.1.20:8000", "[::1]:8000"])
def test_an_allowed_host_is_answered(hall, host):
    assert hall.get("/v1/version", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "hall.local.evil.example", ""])
def test_another_host_is_a_400_naming_the_header(hall, host):
    response = hall.get("/v1/version", headers={"Host": host})
    assert response.status_code == 400
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["errors"][0]["path"] == "header:Host"
    assert hall.get("/", headers={"Host": host}).status_code == 400


def test_the_probes_answer_whatever_the_host(hall):
    # the kubelet probes the pod's address
    assert hall.get("/healthz", headers={"Host": "10.1.2.3:8000"}).status_code == 200
    assert hall.get("/readyz", headers={"Host": "10.1.2.3:8000"}).status_code == 200


def test_any_host_by_default(client):
    assert client.get("/v1/version", headers={"Host": "anything.example"}).status_code == 200


def test_with_api_keys_the_page_loads_and_the_api_asks_for_the_key():
    with TestClient(create_app(ops=OpsConfig(api_keys=("k",)))) as c:
        assert c.get("/").status_code == 200
        assert c.get("/page/page.js").status_code == 200
        assert c.get("/v1/tiebreaks").status_code == 401
        assert c.get("/v1/tiebreaks", headers={"X-API-Key": "k"}).status_code == 200
        assert c.get("/pagex").status_code == 401  # only the page's own paths
