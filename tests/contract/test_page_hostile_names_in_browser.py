"""Hostile player names on the page, in a real headless Chromium (issue 39): in the Download CSV a
name a spreadsheet would read as a formula is written as text (a leading apostrophe), so opening
the arbiter's file runs nothing, and numbers, negative ones too, stay numbers (point 5); the
longest name the schema allows, unbroken, does not widen the page past its window, and an unclosed
U+202E in a name reverses nothing after it in a scenarios sentence (point 8)."""

from __future__ import annotations

import copy
import csv
import json
import time

import pytest

from tests.contract.browser import Browser, find_chromium
from tests.contract.page import open_page, set_value
from tests.contract.test_page_in_browser import compute
from tests.contract.test_page_languages_in_browser import EVENT, ask_scenarios, take_last_round
from tiebreak.http.examples import TOURNAMENT

pytestmark = [
    pytest.mark.server,
    pytest.mark.skipif(find_chromium() is None, reason="no Chromium installed (Debian: apt install chromium)"),
]

NAMES = ["=HYPERLINK(1)", "@SUM(1)", "+1", "-2"]


def trf_line(number: int, name: str, points: str, opponent: int, colour: str, result: str) -> str:
    return f"001 {number:4d}      {name:<34}2000                             {points}    {number}  {opponent:4d} {colour} {result}"


@pytest.fixture(scope="module")
def browser(chromium):
    browser = Browser(chromium, width=1280, height=1000)
    yield browser
    browser.close()


def test_a_name_that_looks_like_a_formula_is_text_in_the_csv(server, browser, tmp_path):
    open_page(browser, server)
    lines = ["012 Formula names"]
    for n, name in enumerate(NAMES, start=1):
        opponent = n + 1 if n % 2 else n - 1
        won = n % 2 == 1
        lines.append(trf_line(n, name, "1.0" if won else "0.0", opponent, "w" if won else "b", "1" if won else "0"))
    set_value(browser, "trf-input", "\n".join(lines) + "\n")
    set_value(browser, "rules-input", "BH")
    assert compute(browser) == "done"
    browser.call(
        "Browser.setDownloadBehavior", behavior="allow", downloadPath=str(tmp_path), browserContextId=browser.context
    )
    browser.evaluate("document.getElementById('csv-button').click()")
    target = tmp_path / "standings.csv"
    deadline = time.monotonic() + 120  # a guard against a download that never comes, not a speed
    while not (target.is_file() and target.stat().st_size) and time.monotonic() < deadline:
        time.sleep(0.1)
    rows = list(csv.DictReader(target.read_text(encoding="utf-8").splitlines()))
    assert sorted(r["name"] for r in rows) == sorted("'" + name for name in NAMES)
    for row in rows:
        assert not any(value[:1] in ("=", "@", "+") for value in row.values()), row
        float(row["points"])  # still a number


def test_the_longest_unbroken_name_stays_inside_the_window(server, browser):
    tournament = copy.deepcopy(TOURNAMENT)
    for player in tournament["players"]:
        player["name"] = f"{player['id']}" + "W" * 199  # the schema's maxLength, every player (and opponent)
    open_page(browser, server)
    set_value(browser, "trf-input", json.dumps(tournament))
    set_value(browser, "rules-input", "BH")
    assert compute(browser) == "done"
    browser.evaluate("document.querySelector('[data-testid=standings-row]').click()")
    browser.wait_for("!document.getElementById('audit-panel').hidden", what="the audit panel")
    widths = browser.evaluate(
        """(() => { const panel = document.getElementById('audit-panel');
             return {page: document.documentElement.scrollWidth, window: window.innerWidth,
                     panel: panel.scrollWidth, panelBox: panel.clientWidth}; })()"""
    )
    assert widths["page"] <= widths["window"] and widths["panel"] <= widths["panelBox"], widths


def test_an_unclosed_right_to_left_override_stays_inside_its_name(server, browser):
    trf = EVENT.read_text(encoding="utf-8").replace("Fischer ", "\u202eFischer", 1)  # same width
    open_page(browser, server)
    set_value(browser, "trf-input", trf)
    set_value(browser, "rules-input", "BH")
    assert compute(browser) == "done"
    take_last_round(browser)
    assert ask_scenarios(browser, 3) == "scenarios"
    sentences = browser.evaluate(
        "Array.from(document.querySelectorAll('[data-column=needs] li'), li => li.textContent)"
    )
    naming = [s for s in sentences if "\u202e" in s]
    assert naming, sentences
    for sentence in naming:
        assert "\u2068\u202eFischer\u2069" in sentence, sentence
