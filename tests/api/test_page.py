"""GET / (the arbiter's page, issue 22) without a browser: one HTML document whose every asset is
served by the service from the package, under a Content-Security-Policy of 'self' only; the
browser tests (tests/contract/test_page_in_browser.py) use it."""

from __future__ import annotations

import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path

from tiebreak.http.page import STATIC

ROOT = Path(__file__).resolve().parents[2]


def test_the_page_is_html_with_a_policy_of_this_server_only(client):
    response = client.get("/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    policy = response.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy and "http" not in policy
    assert "<script" in response.text and 'data-testid="standings-table"' in response.text


def test_every_asset_the_page_names_is_served_and_local(client):
    html = client.get("/").text
    assets = re.findall(r'(?:src|href)="([^"#]+)"', html)
    assert assets
    for asset in assets:
        if asset.startswith("data:"):
            continue
        assert not re.match(r"^[a-z]+://|^//", asset), f"{asset} is not served by the service"
        response = client.get("/" + asset)
        assert response.status_code == 200, asset


def test_the_data_testid_hooks_the_issue_names_are_on_the_page():
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    for hook in [
        "trf-input",
        "file-input",
        "rules-input",
        "regulations-select",
        "compute-button",
        "standings-table",
        "audit-panel",
        "progression-chart",
        "error-box",
    ]:
        assert f'data-testid="{hook}"' in html, hook
    assert 'data-testid": "standings-row"' in (STATIC / "page.js").read_text(encoding="utf-8")


def test_every_file_of_the_page_is_package_data():
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["tiebreak"]
    files = [p.relative_to(STATIC.parent.parent).as_posix() for p in STATIC.rglob("*") if p.is_file()]
    assert files
    missing = [f for f in files if not any(fnmatch(f, g) and f.count("/") == g.count("/") for g in globs)]
    assert missing == [], f"not in [tool.setuptools.package-data]: {missing}"


def test_no_font_or_script_is_fetched_from_a_cdn():
    for path in STATIC.rglob("*"):
        if path.suffix in (".html", ".css", ".js"):
            text = path.read_text(encoding="utf-8")
            urls = re.findall(r"https?://[^\s\"')]+", text)
            # The vendored library's banner names its home page; nothing is loaded from it.
            assert all(u.startswith("https://github.com/leeoniya/uPlot") for u in urls), (path, urls)
            assert "@import" not in text and "@font-face" not in text, path
