"""The page's ratings policy (SPEC 3.12, issue 35) in a real headless Chromium against a real
uvicorn: the form's fields reach the request, and the audit shows the rating each game counted
and where it came from. The event and its values are test_checklist.py's, worked by hand there."""

from __future__ import annotations

import json

import pytest

from tests.api.test_checklist import LOWER_NATIONAL, ROUND_ROBIN, _crosstable
from tests.contract.browser import Browser, find_chromium
from tests.contract.page import open_page, set_value

CHROMIUM = find_chromium()
pytestmark = [
    pytest.mark.server,
    pytest.mark.skipif(
        CHROMIUM is None,
        reason="no Chromium on PATH: install Debian's `chromium` package (.ci/run does) to test the page in a browser",
    ),
]
# Every game drawn. Opponents of player 1: 2 (FIDE 1800, national 1750), 3 (national 1700 only),
# 4 (FIDE 2000 only).
EVENT = json.dumps({"rounds": 3, "players": _crosstable(ROUND_ROBIN, LOWER_NATIONAL)})


@pytest.fixture(scope="module")
def browser(chromium):
    browser = Browser(chromium, width=1280, height=1000)
    yield browser
    browser.close()


def _compute(browser: Browser) -> str:
    browser.evaluate("document.documentElement.dataset.state = 'idle'")
    browser.evaluate("document.querySelector('[data-testid=compute-button]').click()")
    return browser.wait_for(
        "['done', 'error'].includes(document.documentElement.dataset.state) && document.documentElement.dataset.state",
        timeout=120,
        what="the standings or an error",
    )


def _aro_of(browser: Browser, pid: int) -> str:
    return browser.evaluate(
        f"document.querySelector('[data-testid=standings-row][data-id=\"{pid}\"] [data-column=rule-0]').textContent"
    )


def test_the_ratings_fields_reach_the_request_and_the_audit_names_each_rating(server, browser):
    open_page(browser, server)
    set_value(browser, "trf-input", EVENT)
    set_value(browser, "rules-input", "ARO")
    set_value(browser, "ratings-source", "lowest")
    assert _compute(browser) == "done"
    # LBFN: 1750 (2's national, the lower) + 1700 + 2000 = 5450 / 3 = 1816.67, rounded up to 1817
    assert _aro_of(browser, 1) == "1817"
    browser.evaluate("document.querySelector('[data-testid=standings-row][data-id=\"1\"]').click()")
    browser.wait_for("!document.querySelector('[data-testid=audit-panel]').hidden", what="the audit panel")
    notes = browser.evaluate(
        "Array.from(document.querySelectorAll('[data-testid=audit-panel] [data-rule=\"ARO\"] .rating-source'),"
        " li => li.textContent)"
    )
    assert notes == [
        "rating 1750 counted: national rating",
        "rating 1700 counted: national rating",
        "rating 2000 counted: FIDE rating",
    ]
    # FIDE ratings, 3 unrated at 1000: 1800 + 1000 + 2000 = 4800 / 3 = 1600
    set_value(browser, "ratings-source", "fide")
    set_value(browser, "ratings-unrated", "rating")
    set_value(browser, "ratings-unrated-rating", "1000")
    assert _compute(browser) == "done"
    assert _aro_of(browser, 1) == "1600"


def test_a_rating_for_unrated_players_must_be_given(server, browser):
    open_page(browser, server)
    set_value(browser, "trf-input", EVENT)
    set_value(browser, "rules-input", "ARO")
    set_value(browser, "ratings-unrated", "rating")
    # refused before any request (as an empty input is): the error box, no state change
    browser.evaluate("document.querySelector('[data-testid=compute-button]').click()")
    shown = browser.wait_for(
        "!document.querySelector('[data-testid=error-box]').hidden"
        " && document.querySelector('[data-testid=error-box]').textContent",
        what="the error box",
    )
    assert "Give the rating unrated players count as" in shown, shown
