"""What the two modules that use the arbiter's page in a browser share (test_page_in_browser.py,
test_page_languages_in_browser.py): opening the page, setting a field, and axe-core's check."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.contract.browser import Browser

ROOT = Path(__file__).resolve().parents[2]
# From the committed npm lock (package-lock.json): `make test` and .ci/run install it where npm is.
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
WCAG_A_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def js(value) -> str:
    return json.dumps(value)


def open_page(browser: Browser, server: str, query: str = "") -> None:
    """The page at `/{query}`, ready and with its presets; the events before it forgotten."""
    browser.events.clear()
    browser.navigate(f"{server}/{query}")
    browser.wait_for(
        "!!document.documentElement && document.documentElement.dataset.ready === 'true'"
        " && document.querySelectorAll('#preset-select option').length > 1",
        what="the page and its presets",
    )


def set_value(browser: Browser, testid: str, value: str) -> None:
    browser.evaluate(
        f"(() => {{ const e = document.querySelector('[data-testid={testid}]'); e.value = {js(value)};"
        f" e.dispatchEvent(new Event('change', {{bubbles: true}})); }})()"
    )


def require_axe() -> None:
    """Skip the test, saying why, without axe-core; fail instead where CI asks for it (TIEBREAK_REQUIRE_AXE)."""
    if not AXE.is_file():
        if os.environ.get("TIEBREAK_REQUIRE_AXE"):
            pytest.fail(f"{AXE} is missing: run `npm ci`")
        pytest.skip(f"{AXE} is missing: run `npm ci` (package-lock.json; make test does where npm is installed)")


def axe_violations(browser: Browser) -> list[dict]:
    """axe-core's WCAG 2 A and AA violations of the page as it is now (the first three nodes of each)."""
    browser.evaluate(AXE.read_text(encoding="utf-8"))
    return browser.evaluate(
        f"axe.run(document, {{runOnly: {{type: 'tag', values: {js(WCAG_A_AA)}}}}})"
        ".then(r => r.violations.map(v => ({id: v.id, help: v.help, nodes: v.nodes.slice(0, 3).map(n => n.target)})))",
        timeout=120,
    )
