"""The arbiter's page in the reader's language (issue 24), in a real headless Chromium against a
real uvicorn: the language negotiated from Accept-Language, every text of the page from the
catalogue (no English word of the page left in ru, pl, zh or ja), the API's own texts and a
problem in the same language, the language picker remembered, axe-core in every language."""

from __future__ import annotations

import json
import os
import re
import urllib.request

import pytest

from tests.contract.browser import Browser, find_chromium
from tests.contract.real_server import uvicorn_server
from tests.contract.test_page_in_browser import AXE, compute, js, set_value
from tests.texts.test_answers import BODY, NAMES
from tiebreak.http.page_texts import PAGE_TEXTS, page_texts
from tiebreak.texts.catalogue import LANGUAGES

CHROMIUM = find_chromium()
pytestmark = [
    pytest.mark.server,
    pytest.mark.skipif(
        CHROMIUM is None,
        reason="no Chromium on PATH: install Debian's `chromium` package (.ci/run does) to test the page in a browser",
    ),
]
TRANSLATED = [code for code in LANGUAGES if code != "en"]
WORD = re.compile(r"[A-Za-z]{4,}")


@pytest.fixture(scope="module")
def server():
    with uvicorn_server() as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    browser = Browser(CHROMIUM, width=1280, height=1000)
    yield browser
    browser.close()


def api(server: str, path: str, body: dict, code: str) -> tuple[int, dict]:
    request = urllib.request.Request(
        server + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Accept-Language": code},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def open_in(browser: Browser, server: str, code: str) -> None:
    """The page as a browser whose Accept-Language is `code` opens it, nothing remembered."""
    browser.call("Emulation.setUserAgentOverride", session=True, userAgent="tiebreak-test", acceptLanguage=code)
    browser.navigate(f"{server}/")
    browser.wait_for("!!document.documentElement && document.documentElement.dataset.ready === 'true'", what="the page")
    browser.evaluate("localStorage.clear()")
    browser.navigate(f"{server}/")
    browser.wait_for(
        "!!document.documentElement && document.documentElement.dataset.ready === 'true'"
        " && document.querySelectorAll('#preset-select option').length > 1",
        what="the page and its presets",
    )


def english_words(code: str) -> set[str]:
    """The page's English words that its `code` texts do not keep (FIDE, TRF, JSON, Enter are kept)."""
    english = {word for text in PAGE_TEXTS.values() for word in WORD.findall(re.sub(r"\{\w+\}", "", text))}
    return english - {word for text in page_texts(code).values() for word in WORD.findall(text)}


def shown_text(browser: Browser) -> str:
    """What a person reads or a screen reader says: the visible text, titles, labels, options
    (the language picker's own names aside)."""
    return browser.evaluate(
        """(() => {
             const parts = [document.title, document.body.innerText];
             for (const e of document.querySelectorAll('[aria-label], [title]'))
               parts.push(e.getAttribute('aria-label') || '', e.getAttribute('title') || '');
             for (const o of document.querySelectorAll('option'))
               if (o.parentElement.id !== 'language-select') parts.push(o.textContent);
             return parts.join('\\n');
           })()"""
    )


def test_every_text_the_page_uses_is_in_the_catalogue():
    from pathlib import Path

    static = Path(__file__).resolve().parents[2] / "service" / "tiebreak" / "http" / "static"
    script = (static / "page.js").read_text(encoding="utf-8")
    html = (static / "index.html").read_text(encoding="utf-8")
    used = (
        set(re.findall(r"TEXTS\.(\w+)", script))
        | set(re.findall(r'TEXTS\["([\w.-]+)"\]', script))
        | set(re.findall(r'\bt\(\s*"([\w.-]+)"', script))
        | set(re.findall(r'data-text="(\w+)"', html))
    )
    assert used and used <= set(PAGE_TEXTS), sorted(used - set(PAGE_TEXTS))
    for prefix in ("regulations.", "columns.", "kinds.", "contributions."):  # keys made from a value
        assert f"TEXTS[`{prefix}$" in script, prefix
    for code in LANGUAGES:
        assert set(page_texts(code)) == set(PAGE_TEXTS)


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_page_speaks_the_readers_language(server, browser, code):
    open_in(browser, server, code)
    assert browser.evaluate("document.documentElement.lang") == code
    assert browser.evaluate("document.getElementById('language-select').value") == code
    # an event with a bye, forfeits, a cut and a direct-encounter group, its first row's audit, a compare
    set_value(browser, "trf-input", json.dumps(BODY))
    assert compute(browser) == "done"
    browser.evaluate("document.querySelector('[data-testid=standings-row]').click()")
    browser.wait_for("!document.getElementById('audit-panel').hidden", what="the audit")
    set_value(browser, "compare-rules-input", "BH SB")
    browser.evaluate("document.documentElement.dataset.state = 'idle'")
    browser.evaluate("document.querySelector('[data-testid=compare-button]').click()")
    browser.wait_for("document.documentElement.dataset.state === 'compared'", what="the comparison")

    text = shown_text(browser)
    with urllib.request.urlopen(server + "/v1/presets", timeout=60) as response:
        presets = [preset["name"] for preset in json.loads(response.read())]
    for name in [*NAMES, *presets]:  # player names and preset names are never translated
        text = text.replace(name, "")
    left = sorted(set(WORD.findall(text)) & english_words(code))
    assert left == [], f"English words of the page left in {code}: {left}"
    assert page_texts(code)["standingsHeading"] in text
    # the API's own texts in the same language: the audit shows the answer's notes as they are
    status, answer = api(server, "/v1/standings", {**BODY, "explain": True}, code)
    assert status == 200
    first = answer["standings"][0]
    notes = [b["note"] for b in first["breakdown"].values() if b.get("note")]
    notes += [c["note"] for b in first["breakdown"].values() for c in b["contributions"] if c.get("note")]
    assert notes and all(note in text for note in notes), notes
    # points in the language's style: 4,5 in Russian and Polish
    points = browser.evaluate("document.querySelector('[data-testid=standings-row] [data-column=points]').textContent")
    assert points == ("4,5" if code in ("ru", "pl") else "4.5")


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_problem_comes_back_in_the_pages_language(server, browser, code):
    open_in(browser, server, code)
    body = {**BODY, "tiebreaks": ["BH/C1", "XYZ"]}
    set_value(browser, "trf-input", json.dumps(body))
    assert compute(browser) == "error"
    box = browser.evaluate("document.querySelector('[data-testid=error-box]').innerText")
    status, problem = api(server, "/v1/standings", body, code)
    _, english = api(server, "/v1/standings", body, "en")
    assert status == 422 and problem["title"] != english["title"]
    assert problem["title"] in box and english["title"] not in box
    assert all(error["message"] in box for error in problem["errors"]), (box, problem)


def test_the_language_picker_switches_and_is_remembered(server, browser):
    open_in(browser, server, "en")
    set_value(browser, "trf-input", json.dumps(BODY))
    assert compute(browser) == "done"
    english_summary = browser.evaluate("document.getElementById('summary').textContent")
    browser.evaluate("document.documentElement.dataset.state = 'idle'")
    set_value(browser, "language-select", "ja")
    # the page's texts at once, then the standings asked again for the API's texts in Japanese
    browser.wait_for("document.documentElement.dataset.state === 'done'", what="the standings again", timeout=120)
    assert browser.evaluate("document.documentElement.lang") == "ja"
    assert browser.evaluate("document.querySelector('h1').textContent") == page_texts("ja")["title"]
    summary = browser.evaluate("document.getElementById('summary').textContent")
    assert summary != english_summary and "スイス式" in summary
    _, answer = api(server, "/v1/standings", BODY, "ja")
    warnings = browser.evaluate("Array.from(document.querySelectorAll('#warnings li'), li => li.textContent)")
    assert warnings == [w["message"] + (f" ({w['rule']})" if w.get("rule") else "") for w in answer["warnings"]]
    # remembered: the next visit opens in Japanese whatever the browser asks for
    browser.navigate(f"{server}/")
    browser.wait_for(
        "!!document.documentElement && document.documentElement.dataset.ready === 'true'", what="the page again"
    )
    assert browser.evaluate("document.documentElement.lang") == "ja"
    assert browser.evaluate(f"document.title === {js(page_texts('ja')['title'])}")
    browser.evaluate("localStorage.clear()")


@pytest.mark.parametrize("code", TRANSLATED)
def test_axe_finds_no_violation_in_any_language(server, browser, code):
    if not AXE.is_file():
        if os.environ.get("TIEBREAK_REQUIRE_AXE"):
            pytest.fail(f"{AXE} is missing: run `npm ci`")
        pytest.skip(f"{AXE} is missing: run `npm ci` (package-lock.json) to check the page with axe-core")
    open_in(browser, server, code)
    set_value(browser, "trf-input", json.dumps(BODY))
    assert compute(browser) == "done"
    browser.evaluate("document.querySelector('[data-testid=standings-row]').click()")
    browser.evaluate(AXE.read_text(encoding="utf-8"))
    violations = browser.evaluate(
        "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})"
        ".then(r => r.violations.map(v => ({id: v.id, help: v.help, nodes: v.nodes.slice(0, 3).map(n => n.target)})))",
        timeout=120,
    )
    assert violations == [], json.dumps(violations, indent=1)
