"""The page with API keys on (TIEBREAK_API_KEYS; issue 39, point 12) in a real headless Chromium
against a real uvicorn: the page loads without a key (its files hold no data), shows its key field,
says in the page's language what to do on a 401, and with the key typed computes as without keys;
the key is kept for the tab (sessionStorage) across a reload. Without keys the field stays hidden."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from tests.contract.browser import Browser, find_chromium
from tests.contract.page import axe_violations, open_page, require_axe, set_value
from tests.contract.real_server import uvicorn_server
from tiebreak.http.examples import TOURNAMENT

CHROMIUM = find_chromium()
pytestmark = [
    pytest.mark.server,
    pytest.mark.skipif(
        CHROMIUM is None,
        reason="no Chromium on PATH: install Debian's `chromium` package (.ci/run does) to test the page in a browser",
    ),
]
KEY = "hall-key-2026"
EVENT = json.dumps({"tournament": TOURNAMENT, "tiebreaks": ["BH"]})
REFUSED = {
    "en": "The server refused the request: the API key is missing or not accepted.",
    "ru": "Сервер отклонил запрос: ключ API не указан или не принят.",
}


@pytest.fixture(scope="module")
def keyed_server() -> Iterator[str]:
    with uvicorn_server({"TIEBREAK_API_KEYS": KEY}) as base:
        yield base


@pytest.fixture(scope="module")
def browser(chromium):
    browser = Browser(chromium, width=1280, height=1000)
    yield browser
    browser.close()


def ready(browser: Browser, url: str, forget_key: bool = False) -> None:
    browser.events.clear()
    browser.navigate(url)
    if forget_key:  # a new tab's storage: the page loaded again without the key an earlier test kept
        browser.evaluate("sessionStorage.clear()")
        browser.navigate(url)
    browser.wait_for("document.documentElement.dataset.ready === 'true'", what="the page's script")


def compute(browser: Browser) -> str:
    browser.evaluate("document.documentElement.dataset.state = 'idle'")
    browser.evaluate("document.querySelector('[data-testid=compute-button]').click()")
    return browser.wait_for(
        "['done', 'error'].includes(document.documentElement.dataset.state) && document.documentElement.dataset.state",
        timeout=120,
        what="the standings or an error",
    )


def text(browser: Browser, testid: str) -> str:
    return browser.evaluate(f"document.querySelector('[data-testid={testid}]').textContent")


def presets(browser: Browser) -> int:
    return browser.evaluate("document.querySelectorAll('#preset-select option').length")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_without_a_key_the_page_loads_and_says_where_to_type_it(keyed_server, browser, lang):
    ready(browser, f"{keyed_server}/?lang={lang}", forget_key=True)  # page.js ran: the page's files need no key
    assert browser.evaluate("document.querySelector('[data-testid=api-key-field]').hidden") is False
    assert presets(browser) == 1  # "(none)": the presets need the key
    set_value(browser, "trf-input", EVENT)
    assert compute(browser) == "error"
    assert "401" in text(browser, "error-box") and REFUSED[lang] in text(browser, "error-box")
    assert browser.evaluate("document.activeElement.id") == "api-key-input"
    assert browser.evaluate("document.getElementById('api-key-input').getAttribute('aria-invalid')") == "true"


def test_a_wrong_key_is_refused_and_the_right_one_computes_and_is_kept_for_the_tab(keyed_server, browser):
    ready(browser, f"{keyed_server}/?lang=en", forget_key=True)
    set_value(browser, "trf-input", EVENT)
    set_value(browser, "api-key-input", "not-the-key")
    assert compute(browser) == "error" and REFUSED["en"] in text(browser, "error-box")

    set_value(browser, "api-key-input", KEY)
    browser.wait_for("document.querySelectorAll('#preset-select option').length > 1", what="the presets, with the key")
    assert compute(browser) == "done"
    assert browser.evaluate("document.querySelectorAll('[data-testid=standings-row]').length") == len(
        TOURNAMENT["players"]
    )
    assert browser.evaluate("sessionStorage.getItem('tiebreak.apiKey')") == KEY

    ready(browser, f"{keyed_server}/?lang=en")  # a reload: the key is still there, and used
    assert browser.evaluate("document.getElementById('api-key-input').value") == KEY
    browser.wait_for("document.querySelectorAll('#preset-select option').length > 1", what="the presets")
    set_value(browser, "trf-input", EVENT)
    assert compute(browser) == "done"
    require_axe()
    assert axe_violations(browser) == []


def test_a_key_typed_and_not_yet_left_is_sent(keyed_server, browser):
    # Enter in the form before the field fires `change`: the field itself is what is sent
    ready(browser, f"{keyed_server}/?lang=en", forget_key=True)
    set_value(browser, "trf-input", EVENT)
    browser.evaluate(
        f"(() => {{ const e = document.getElementById('api-key-input'); e.value = {json.dumps(KEY)};"
        " e.dispatchEvent(new Event('input', {bubbles: true})); })()"
    )
    assert compute(browser) == "done"
    assert browser.evaluate("sessionStorage.getItem('tiebreak.apiKey')") == KEY


def test_without_keys_the_field_stays_hidden(server, browser):
    open_page(browser, server)
    assert browser.evaluate("document.querySelector('[data-testid=api-key-field]').hidden") is True
