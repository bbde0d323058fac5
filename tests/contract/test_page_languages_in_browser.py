"""The arbiter's page in each of its languages (issue 24) and its "Before the last round" view
(issue 25), in a real headless Chromium against a real uvicorn: no English text of the page left
on screen or in its labels in ru/pl/zh/ja, a problem of the API in the page's language, the
language picker remembered, axe-core in every language, and the scenarios view showing what
POST /v1/scenarios answers, with the command line's sentences, and a 413 with its suggestion.

Skipped, saying why, where no Chromium is installed (see test_page_in_browser.py).
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from pathlib import Path

import msgspec
import pytest

from tests.contract.browser import Browser, find_chromium
from tests.contract.page import axe_violations, js, open_page, require_axe, set_value
from tiebreak.http.page_texts import english_texts, page_texts
from tiebreak.texts.catalogue import current
from tiebreak.texts.message import language
from tiebreak.usecases.scenario_text import player_text, scenarios_text
from tiebreak.usecases.scenarios import file_request

CHROMIUM = find_chromium()
pytestmark = [
    pytest.mark.server,
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on PATH: install Debian's `chromium` package"),
]

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "conformance_fide"
EVENT = FIXTURES / "worked-a-alekhine-memorial.trf"  # 8 players, 4 games in the last round
BIG = FIXTURES / "swiss-0014.trf"  # 120 players: 3^60 outcomes of the last round, refused
REALWORLD = ROOT.parent / "shared" / "conformance" / "realworld-trf" / "fide-tec-swiss-many-unplayed.trf"
RULES = "BH/C1 BH SB"
ENUMERATED_ONLY = "DE BH"
TRANSLATED = ["ru", "pl", "zh", "ja"]


@pytest.fixture(scope="module")
def browser(chromium):
    browser = Browser(chromium, width=1280, height=1000)
    browser.call("DOM.enable", session=True)
    yield browser
    browser.close()


def api(server: str, path: str, body: dict, lang: str = "en") -> tuple[int, dict]:
    request = urllib.request.Request(
        server + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Accept-Language": lang},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def forget_language(browser: Browser) -> None:
    browser.evaluate("localStorage.removeItem('tiebreak-page-language')")


def wait_state(browser: Browser, states: list[str], what: str) -> str:
    return browser.wait_for(
        f"{js(states)}.includes(document.documentElement.dataset.state) && document.documentElement.dataset.state",
        timeout=120,
        what=what,
    )


def compute(browser: Browser, text: str, rules: str = RULES) -> str:
    set_value(browser, "trf-input", text)
    set_value(browser, "rules-input", rules)
    browser.evaluate("document.documentElement.dataset.state = 'idle'")
    browser.evaluate("document.querySelector('[data-testid=compute-button]').click()")
    return wait_state(browser, ["done", "error"], "the standings or an error")


def take_last_round(browser: Browser) -> None:
    browser.evaluate("document.querySelector('[data-testid=scenarios-take]').click()")
    browser.wait_for("!document.getElementById('scenarios-form').hidden", what="the last round's games")


def ask_scenarios(browser: Browser, places: int) -> str:
    set_value(browser, "scenarios-places", str(places))
    browser.evaluate("document.documentElement.dataset.state = 'idle'")
    browser.evaluate("document.querySelector('[data-testid=scenarios-button]').click()")
    return wait_state(browser, ["scenarios", "error"], "the scenarios or an error")


def everything_shown(browser: Browser, trf: str) -> None:
    """Standings, a player's audit, compare and the scenarios view, all on the page at once."""
    assert compute(browser, trf) == "done"
    browser.evaluate("document.querySelector('[data-testid=standings-row]').click()")
    browser.wait_for("!document.querySelector('[data-testid=audit-panel]').hidden", what="the audit panel")
    set_value(browser, "compare-regulations-select", "fide-2024")
    browser.evaluate("document.documentElement.dataset.state = 'idle'")
    browser.evaluate("document.querySelector('[data-testid=compare-button]').click()")
    assert wait_state(browser, ["compared", "error"], "compare") == "compared"
    take_last_round(browser)
    assert ask_scenarios(browser, 2) == "scenarios"


# Every visible text node, and every label a screen reader or a tooltip gives, of the page.
SHOWN_TEXTS = """(() => {
  const out = [];
  const visible = (e) => !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement && visible(n.parentElement) && n.textContent.trim()) out.push(n.textContent.trim());
  }
  for (const e of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
    for (const a of ['aria-label', 'title', 'placeholder']) if (e.getAttribute(a)) out.push(e.getAttribute(a));
  }
  // a preset's option is its name and codes (never translated, like rule codes)
  for (const o of document.querySelectorAll('option')) if (!o.closest('[id$=preset-select]') || !o.value) out.push(o.textContent);
  out.push(document.title);
  return out;
})()"""


def english_fragments(code: str) -> list[str]:
    """The words of the page's English texts (between their placeholders) that the language's
    own texts do not also use (FIDE, CSV, TRF, codes): none of them may be on its page."""
    own = json.dumps(json.loads(page_texts(code)), ensure_ascii=False)
    fragments = set()
    for text in english_texts():
        for part in re.split(r"\{[a-z_]+\}", text):
            part = part.strip(" .,:;()–—·“”")
            if len(re.findall(r"[A-Za-z]", part)) >= 3 and part not in own:
                fragments.add(part)
    return sorted(fragments, key=len, reverse=True)


def english_left(shown: list[str], fragments: list[str]) -> list[tuple[str, str]]:
    found = []
    for text in shown:
        for fragment in fragments:
            if re.search(rf"(?<![A-Za-z]){re.escape(fragment)}(?![A-Za-z])", text):
                found.append((fragment, text))
    return found


def test_the_english_check_finds_the_english_page(server, browser):
    """The check below can fail: on the English page it finds the page's English texts."""
    open_page(browser, server, "?lang=en")
    forget_language(browser)
    everything_shown(browser, EVENT.read_text(encoding="utf-8"))
    found = english_left(browser.evaluate(SHOWN_TEXTS), english_fragments("ru"))
    assert len({fragment for fragment, _ in found}) > 40


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_page_in_each_language_shows_no_english_ui_text(server, browser, code):
    open_page(browser, server, f"?lang={code}")
    assert browser.evaluate("document.documentElement.lang") == code
    everything_shown(browser, EVENT.read_text(encoding="utf-8"))
    shown = browser.evaluate(SHOWN_TEXTS)
    assert english_left(shown, english_fragments(code)) == []
    # the API's texts came back in the same language: a rule name of the catalogue is on screen
    _, answer = api(
        server, "/v1/standings", {"trf": EVENT.read_text(encoding="utf-8"), "tiebreaks": RULES.split()}, code
    )
    heading = browser.evaluate("document.querySelector('#audit-rules h3').textContent")
    assert answer["tiebreaks"][0]["name"] in heading


@pytest.mark.parametrize("code", ["en", *TRANSLATED])
def test_a_problem_from_the_api_comes_back_in_the_pages_language(server, browser, code):
    open_page(browser, server, f"?lang={code}")
    trf = EVENT.read_text(encoding="utf-8")
    assert compute(browser, trf, "BH/C1 XYZ") == "error"
    status, problem = api(server, "/v1/standings", {"trf": trf, "tiebreaks": ["BH/C1", "XYZ"]}, code)
    assert status in (400, 422)
    box = browser.evaluate("document.querySelector('[data-testid=error-box]').textContent")
    rules_error = browser.evaluate("document.getElementById('rules-error').textContent")
    assert problem["title"] in box and problem["errors"][0]["message"] in rules_error
    if code != "en":
        _, english = api(server, "/v1/standings", {"trf": trf, "tiebreaks": ["BH/C1", "XYZ"]}, "en")
        assert english["title"] not in box


def test_switching_language_is_remembered(server, browser):
    open_page(browser, server, "?lang=en")
    forget_language(browser)
    open_page(browser, server)
    assert browser.evaluate("document.documentElement.lang") == "en"
    set_value(browser, "trf-input", EVENT.read_text(encoding="utf-8"))
    set_value(browser, "rules-input", "BH SB")
    set_value(browser, "language-select", "pl")
    browser.wait_for(
        "!!document.documentElement && document.documentElement.lang === 'pl' && document.documentElement.dataset.ready === 'true'",
        what="the page in Polish",
    )
    assert browser.evaluate("document.title") == json.loads(page_texts("pl"))["title"]
    assert (
        browser.evaluate("document.querySelector('[data-testid=compute-button]').textContent") == "Oblicz klasyfikację"
    )
    # what was typed is still there, in the other language
    assert browser.evaluate("document.querySelector('[data-testid=trf-input]').value") == EVENT.read_text(
        encoding="utf-8"
    )
    assert browser.evaluate("document.querySelector('[data-testid=rules-input]').value") == "BH SB"
    open_page(browser, server)  # no ?lang=: the language chosen before
    assert browser.evaluate("document.documentElement.lang") == "pl"
    assert browser.evaluate("new URL(location.href).searchParams.get('lang')") == "pl"
    set_value(browser, "language-select", "en")
    browser.wait_for(
        "!!document.documentElement && document.documentElement.lang === 'en' && document.documentElement.dataset.ready === 'true'",
        what="the page in English",
    )
    forget_language(browser)


def test_the_page_follows_accept_language_when_nothing_is_chosen(server):
    for header, code in [("ru-RU, en;q=0.5", "ru"), ("ja", "ja"), ("de", "en"), ("zh-TW", "en")]:
        request = urllib.request.Request(server + "/", headers={"Accept-Language": header})
        with urllib.request.urlopen(request, timeout=30) as response:
            html = response.read().decode()
            assert f'<html lang="{code}">' in html and response.headers["Content-Language"] == code
            assert "Accept-Language" in response.headers["Vary"]
    request = urllib.request.Request(server + "/?lang=zh", headers={"Accept-Language": "ru"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert '<html lang="zh">' in response.read().decode() and response.headers["Content-Language"] == "zh"


@pytest.mark.parametrize("code", ["en", *TRANSLATED])
def test_axe_finds_no_violation_in_each_language(server, browser, code):
    require_axe()
    open_page(browser, server, f"?lang={code}")
    everything_shown(browser, EVENT.read_text(encoding="utf-8"))
    violations = axe_violations(browser)
    assert violations == [], json.dumps(violations, indent=1)


# ---- before the last round ----

EVENTS = [
    pytest.param(EVENT, 3, id="alekhine-memorial"),
    pytest.param(
        REALWORLD,
        3,
        id="fide-tec-swiss-many-unplayed",
        marks=pytest.mark.skipif(not REALWORLD.is_file(), reason=f"{REALWORLD} is not here (../shared/conformance)"),
    ),
]


def expected_answer(server: str, path: Path, places: int, code: str) -> tuple[dict, list[list[str]], str]:
    """The API's answer for the file's last round reopened as the command line does it
    (`--pairings last`), and the command line's sentences for each player in `code`."""
    request, names, _ = file_request(None, path.read_text(encoding="utf-8"), None, RULES.split(), places=places)
    body = json.loads(msgspec.json.encode(request))
    status, answer = api(server, "/v1/scenarios", {k: v for k, v in body.items() if v is not None}, code)
    assert status == 200, answer
    from tiebreak.wire.scenarios import ScenariosResponse

    typed = msgspec.convert(answer, ScenariosResponse)
    with language(code):
        sentences = [[line.strip() for line in player_text(p, places, names)[1:]] for p in typed.players]
        header = scenarios_text(typed, places, names).split("\n")[0]
    return answer, sentences, current(header)


@pytest.mark.parametrize("code", ["en", "ru"])
@pytest.mark.parametrize(("path", "places"), EVENTS)
def test_before_the_last_round_shows_the_apis_answer_in_the_command_lines_sentences(
    server, browser, path, places, code
):
    open_page(browser, server, f"?lang={code}")
    assert compute(browser, path.read_text(encoding="utf-8")) == "done"
    take_last_round(browser)
    assert ask_scenarios(browser, places) == "scenarios"
    answer, sentences, header = expected_answer(server, path, places, code)
    rows = browser.evaluate(
        """Array.from(document.querySelectorAll('[data-testid=scenarios-row]'), tr => ({
             id: Number(tr.dataset.id),
             best: tr.querySelector('[data-column=best]').textContent,
             worst: tr.querySelector('[data-column=worst]').textContent,
             clinched: tr.querySelector('[data-column=clinched]').textContent,
             folded: !!tr.closest('[data-testid=scenarios-folded]'),
             needs: Array.from(tr.querySelectorAll('[data-column=needs] li'), li => li.textContent.replace(/[\u2068\u2069]/g, ''))}))"""  # names isolated
    )
    # contenders first, by best rank (then worst rank, start number); the others folded away
    by_id = {p["id"]: (p, lines) for p, lines in zip(answer["players"], sentences, strict=True)}
    order = sorted(answer["players"], key=lambda p: (not p["places"], p["best_rank"], p["worst_rank"], p["id"]))
    assert [r["id"] for r in rows] == [p["id"] for p in order]
    assert [r["folded"] for r in rows] == [not p["places"] for p in order]
    for row in rows:
        player, lines = by_id[row["id"]]
        assert row["best"] == str(player["best_rank"]) and row["worst"] == str(player["worst_rank"])
        assert row["clinched"] == ("–" if player["clinched"] is None else str(player["clinched"]))
        assert row["needs"] == lines
    assert browser.evaluate("document.querySelector('[data-testid=scenarios-summary]').textContent") == header
    assert any(p["places"] for p in answer["players"]) and any(not p["places"] for p in answer["players"])


def test_a_result_fixed_on_the_page_is_sent_as_assume(server, browser):
    open_page(browser, server, "?lang=en")
    assert compute(browser, EVENT.read_text(encoding="utf-8")) == "done"
    take_last_round(browser)
    games = browser.evaluate("document.querySelectorAll('#scenarios-games select').length")
    assert games == 4
    set_value(browser, "scenarios-game-0", "white")
    assert ask_scenarios(browser, 1) == "scenarios"
    summary = browser.evaluate("document.querySelector('[data-testid=scenarios-summary]').textContent")
    assert summary.startswith("27 outcomes of 3 open games")


@pytest.mark.parametrize("code", ["en", "pl"])
def test_too_many_open_games_show_the_413_and_the_suggestion(server, browser, code):
    open_page(browser, server, f"?lang={code}")
    trf = BIG.read_text(encoding="utf-8")
    # DE is outside the solver's model (decision 0220): 60 open games go to enumeration, refused
    assert compute(browser, trf, ENUMERATED_ONLY) == "done"
    take_last_round(browser)
    assert ask_scenarios(browser, 1) == "error"
    request, _, _ = file_request(None, trf, None, ENUMERATED_ONLY.split(), places=1)
    body = json.loads(msgspec.json.encode(request))
    status, problem = api(server, "/v1/scenarios", {k: v for k, v in body.items() if v is not None}, code)
    assert status == 413
    box = browser.evaluate("document.querySelector('[data-testid=scenarios-error]').textContent")
    assert problem["detail"] in box
    assert json.loads(page_texts(code))["scTooMany"] in box
