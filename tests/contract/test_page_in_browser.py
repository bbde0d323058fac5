"""The arbiter's page (GET /, issue 22) used as a person uses it, in a real headless Chromium
against a real uvicorn: a real-world TRF export through the file input, the table against the
API's own answer row by row, a player's audit with a cut value and a capped dummy, the chart,
another rule set, a broken TRF line and a misspelt rule located, compare, CSV, print, the
keyboard, a phone-sized screen, axe-core's WCAG 2 A/AA checks, and no request leaving 127.0.0.1.

Screenshots of each step go to test-artifacts/page/ (gitignored). Skipped, saying why, where no
Chromium is installed; CI installs Debian's `chromium`. axe-core comes from the committed npm lock
(`npm ci`, which `make test` and .ci/run do where npm is installed).
"""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.contract.browser import Browser, find_chromium, png_pixels
from tests.contract.page import axe_violations, js, open_page, require_axe, set_value
from tiebreak.http.examples import TOURNAMENT

CHROMIUM = find_chromium()
pytestmark = [
    pytest.mark.server,
    pytest.mark.skipif(
        CHROMIUM is None,
        reason="no Chromium on PATH: install Debian's `chromium` package (.ci/run does) to test the page in a browser",
    ),
]

ROOT = Path(__file__).resolve().parents[2]
REALWORLD = ROOT.parent / "shared" / "conformance" / "realworld-trf"
EXPORT = REALWORLD / "fide-tec-swiss-many-unplayed.trf"  # unplayed rounds: capped dummies under fide-2026
ARTIFACTS = ROOT / "test-artifacts" / "page"
RULES = "BH/C1 BH SB"
needs_export = pytest.mark.skipif(not EXPORT.is_file(), reason=f"{EXPORT} is not here (../shared/conformance)")


@pytest.fixture(scope="module")
def browser(chromium):
    browser = Browser(chromium, width=1280, height=1000)
    browser.call("DOM.enable", session=True)
    browser.call("Log.enable", session=True)  # a refusal of the Content-Security-Policy is logged
    yield browser
    browser.close()


def shot(browser: Browser, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"{name}.png").write_bytes(browser.screenshot())


def api(server: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(
        server + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.loads(response.read())


def pick_file(browser: Browser, path: Path) -> None:
    """The file chosen in the file input, as a person's file dialog does (DOM.setFileInputFiles)."""
    root = browser.call("DOM.getDocument", session=True)["root"]["nodeId"]
    node = browser.call("DOM.querySelector", session=True, nodeId=root, selector="[data-testid=file-input]")["nodeId"]
    browser.call("DOM.setFileInputFiles", session=True, nodeId=node, files=[str(path)])
    browser.wait_for("document.querySelector('[data-testid=trf-input]').value.length > 0", what="the file read")


def compute(browser: Browser) -> str:
    """Press Compute and wait for the standings and the chart, or for an error: "done" or "error"."""
    browser.evaluate("document.documentElement.dataset.state = 'idle'")
    browser.evaluate("document.querySelector('[data-testid=compute-button]').click()")
    return browser.wait_for(
        "['done', 'error'].includes(document.documentElement.dataset.state) && document.documentElement.dataset.state",
        timeout=120,
        what="the standings or an error",
    )


def export_on_page(browser: Browser, server: str, regulations: str = "fide-2026") -> None:
    """The page with the real export ranked by RULES under `regulations` (loaded through the file
    input when it is not already what the page shows)."""
    if browser.evaluate(f"!!document.documentElement && document.documentElement.dataset.shows === {js(regulations)}"):
        return
    open_page(browser, server)
    pick_file(browser, EXPORT)
    set_value(browser, "rules-input", RULES)
    set_value(browser, "regulations-select", regulations)
    assert compute(browser) == "done"
    browser.evaluate(f"document.documentElement.dataset.shows = {js(regulations)}")


def table_rows(browser: Browser) -> list[dict]:
    return browser.evaluate(
        """Array.from(document.querySelectorAll('[data-testid=standings-row]'), tr => {
             const cells = {};
             for (const c of tr.children) cells[c.dataset.column] = c.textContent;
             return {id: Number(tr.dataset.id), rank: Number(tr.querySelector('[data-column=rank]').dataset.rank),
                     rankText: cells.rank, cells};
           })"""
    )


def assert_table_is_the_answer(browser: Browser, answer: dict) -> None:
    shown = table_rows(browser)
    assert len(shown) == len(answer["standings"])
    ranks = [row["rank"] for row in answer["standings"]]
    for mine, theirs in zip(shown, answer["standings"], strict=True):
        assert mine["id"] == theirs["id"] and mine["rank"] == theirs["rank"]
        assert mine["cells"]["name"] == theirs["name"]
        assert mine["cells"]["points"] == format_number(theirs["points"])
        for i, value in enumerate(theirs["values"]):
            assert mine["cells"][f"rule-{i}"] == format_number(value), (theirs["id"], i)
        assert mine["cells"]["decided_by"] == (theirs["decided_by"] or "")
        shared = ranks.count(theirs["rank"])
        expected = str(theirs["rank"]) if shared == 1 else f"{theirs['rank']}–{theirs['rank'] + shared - 1}"
        assert mine["rankText"] == expected


def format_number(value) -> str:
    """A JSON number as JavaScript's String() writes it (3.0 is 3)."""
    if value is None:
        return "–"
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def assert_offline(browser: Browser, server: str) -> None:
    browser.drain(0.3)
    origin = urlsplit(server).netloc
    assert origin.startswith("127.0.0.1:")
    outside = [
        url
        for url in browser.requested_urls()
        if urlsplit(url).scheme not in ("data", "blob") and urlsplit(url).netloc != origin
    ]
    assert outside == [], f"the page asked for something outside 127.0.0.1: {outside}"
    errors = [
        e["params"]
        for e in browser.events
        if e.get("method") == "Runtime.exceptionThrown"
        or (
            e.get("method") == "Log.entryAdded"
            and e["params"]["entry"]["level"] == "error"
            and "/v1/" not in e["params"]["entry"].get("url", "")
        )
    ]
    assert errors == [], errors


def press(browser: Browser, key: str, code: int) -> None:
    """A key pressed and released, as the keyboard sends it (Enter also types its character,
    which is what activates a focused button)."""
    text = {"Enter": "\r", " ": " "}.get(key)
    down = {"text": text} if text else {}
    browser.call(
        "Input.dispatchKeyEvent", session=True, type="keyDown", key=key, code=key, windowsVirtualKeyCode=code, **down
    )
    browser.call("Input.dispatchKeyEvent", session=True, type="keyUp", key=key, code=key, windowsVirtualKeyCode=code)


def compared(server: str, a: tuple[list[str], str], b: tuple[list[str], str]) -> dict:
    """The API's comparison of the export under two lists, a and b: (rules, regulations) each."""
    lists = [
        {"name": name, "tiebreaks": rules, "regulations": regulations}
        for name, (rules, regulations) in (("a", a), ("b", b))
    ]
    return api(server, "/v1/compare", {"trf": export_body()["trf"], "explain": False, "lists": lists})


def export_body(regulations: str = "fide-2026") -> dict:
    return {"trf": EXPORT.read_text(encoding="utf-8"), "tiebreaks": RULES.split(), "regulations": regulations}


# ---- the steps ----


@needs_export
def test_a_real_export_through_the_file_input_is_the_apis_answer_row_by_row(server, browser):
    open_page(browser, server)
    shot(browser, "01-empty-page")
    pick_file(browser, EXPORT)
    set_value(browser, "rules-input", RULES)
    set_value(browser, "regulations-select", "fide-2026")
    assert compute(browser) == "done"
    browser.evaluate("document.documentElement.dataset.shows = 'fide-2026'")
    shot(browser, "02-standings-fide-2026")
    answer = api(server, "/v1/standings", export_body())
    assert_table_is_the_answer(browser, answer)
    assert_offline(browser, server)


@needs_export
def test_the_audit_shows_a_cut_value_and_a_capped_dummy_as_the_api_words_them(server, browser):
    answer = api(server, "/v1/standings", export_body())
    row = next(
        r
        for r in answer["standings"]
        if any(c.get("capped_at") is not None for c in r["breakdown"]["BH/C1"]["contributions"])
        and any(c.get("cut") for c in r["breakdown"]["BH/C1"]["contributions"])
    )
    contributions = row["breakdown"]["BH/C1"]["contributions"]
    cut = next(c for c in contributions if c.get("cut"))
    dummy = next(c for c in contributions if c.get("capped_at") is not None)
    export_on_page(browser, server)
    browser.evaluate(f"document.querySelector('[data-testid=standings-row][data-id=\"{row['id']}\"]').click()")
    browser.wait_for("!document.querySelector('[data-testid=audit-panel]').hidden", what="the audit panel")
    panel = browser.evaluate(
        """(() => { const rule = document.querySelector('[data-testid=audit-panel] [data-rule="BH/C1"]');
             return {
               cut: Array.from(rule.querySelectorAll('tr[data-cut] del'), d => d.textContent),
               reasons: Array.from(rule.querySelectorAll('tr[data-cut] .cut-reason'), d => d.textContent),
               caps: Array.from(rule.querySelectorAll('tr[data-kind=dummy] .cap'), d => d.textContent),
               notes: Array.from(rule.querySelectorAll('tr[data-kind=dummy] .how li'), d => d.textContent),
               heading: rule.querySelector('h3').textContent,
             }; })()"""
    )
    assert format_number(cut["value"]) in panel["cut"]
    assert any(cut["cut_reason"] in reason for reason in panel["reasons"])
    assert any(format_number(dummy["capped_at"]) in cap and dummy["article"] in cap for cap in panel["caps"])
    if dummy.get("note"):
        assert dummy["note"] in panel["notes"]  # the API's own words
    assert panel["heading"].endswith(f"= {format_number(row['breakdown']['BH/C1']['value'])}")
    browser.evaluate("document.querySelector('[data-testid=audit-panel]').scrollIntoView()")
    shot(browser, "03-audit-panel")


@needs_export
def test_the_audit_shows_a_16_3_adjustment_and_links_to_the_opponent(server, browser):
    answer = api(server, "/v1/standings", export_body())
    row, c = next(
        (r, c)
        for r in answer["standings"]
        for c in r["breakdown"]["BH"]["contributions"]
        if c.get("counted_score") is not None
    )
    export_on_page(browser, server)
    browser.evaluate(f"document.querySelector('[data-testid=standings-row][data-id=\"{row['id']}\"]').click()")
    browser.wait_for(f"document.getElementById('audit-heading').textContent.includes('No. {row['id']})')")
    adjusted = browser.evaluate(
        f"""(() => {{ const rule = document.querySelector('[data-testid=audit-panel] [data-rule="BH"]');
             const tr = Array.from(rule.querySelectorAll('tbody tr')).find(tr => tr.cells[0].textContent === '{c["round"]}');
             return Array.from(tr.querySelectorAll('.how li'), li => li.textContent); }})()"""
    )
    assert c["note"] in adjusted  # the API's words
    expected = f"opponent's score {format_number(c['opponent_score'])} counted as {format_number(c['counted_score'])}"
    assert any(expected in line and c["article"] in line for line in adjusted), adjusted
    # The opponent is a link to their own audit.
    browser.evaluate(
        f'document.querySelector(\'[data-testid=audit-panel] [data-rule="BH"] a[data-player="{c["opponent"]}"]\').click()'
    )
    browser.wait_for(
        f"document.getElementById('audit-heading').textContent.includes('No. {c['opponent']})')", what="the opponent"
    )


@needs_export
def test_the_chart_draws_one_series_per_player_shown(server, browser):
    export_on_page(browser, server)
    # the last row: outside the leaders drawn, so the selected player adds a series
    browser.evaluate("Array.from(document.querySelectorAll('[data-testid=standings-row]')).pop().click()")
    browser.wait_for("!!document.querySelector('[data-testid=progression-chart] canvas')", what="the chart")
    progression = api(server, "/v1/standings/progression", export_body())
    selected = browser.evaluate("Number(document.querySelector('#standings-table tr.selected').dataset.id)")
    shown = [p["id"] for p in progression["players"][:10]]
    assert selected not in shown
    expected = len(shown) + 1
    chart = browser.evaluate(
        """(() => { const box = document.querySelector('[data-testid=progression-chart]');
             const canvas = box.querySelector('canvas');
             const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
             let inked = 0;
             for (let i = 0; i < data.length; i += 16) if (data[i + 3] > 0) inked++;
             return {series: Number(box.dataset.series), legend: box.querySelectorAll('.u-legend .u-series').length,
                     inked, width: canvas.width};
           })()"""
    )
    assert chart["series"] == expected
    assert chart["legend"] == expected  # uPlot's legend: a line per series drawn
    assert chart["width"] > 0 and chart["inked"] > 500
    # The table beside the chart: every player, every round, as the endpoint answered.
    cells = browser.evaluate(
        "Array.from(document.querySelectorAll('[data-testid=progression-table] tbody tr'),"
        " tr => [Number(tr.dataset.id), Array.from(tr.querySelectorAll('td'), td => td.textContent)])"
    )
    assert [c[0] for c in cells] == [p["id"] for p in progression["players"]]
    first = progression["players"][0]
    assert cells[0][1] == [f"{r} ({format_number(p)})" for r, p in zip(first["ranks"], first["points"], strict=True)]
    browser.evaluate("document.getElementById('progression').scrollIntoView()")
    shot(browser, "04-progression-chart")


@needs_export
def test_another_rule_set_is_the_apis_answer_under_it(server, browser):
    export_on_page(browser, server, "fide-2026")
    set_value(browser, "regulations-select", "fide-2024")
    assert compute(browser) == "done"
    browser.evaluate("document.documentElement.dataset.shows = 'fide-2024'")
    answer = api(server, "/v1/standings", export_body("fide-2024"))
    assert answer["regulations"] == "fide-2024"
    assert_table_is_the_answer(browser, answer)
    assert "fide-2024" in browser.evaluate("document.getElementById('summary').textContent")
    browser.evaluate("window.scrollTo(0, 0)")
    shot(browser, "05-standings-fide-2024")


@needs_export
def test_swiss_manager_numbers_in_the_rules_box_are_the_apis_c07_rules(server, browser):
    """A number keeps its comma-separated parameters; the comma after them separates the next rule."""
    export_on_page(browser, server, "fide-2026")
    set_value(browser, "rules-input", "SM84:0,0,1,P,-,0,1, SM85:0,0,0,- BH")
    assert compute(browser) == "done"
    browser.evaluate("document.documentElement.dataset.shows = 'swiss-manager'")  # not RULES: load again after
    answer = api(
        server,
        "/v1/standings",
        {**export_body(), "tiebreaks": ["BH/C1/P", "SB", "BH"]},
    )
    assert_table_is_the_answer(browser, answer)


@needs_export
def test_points_awarded_by_the_arbiter_are_shown_on_the_page(server, browser):
    """A record 299 (decision 0180): the page lists the points the arbiter awarded among the warnings."""
    open_page(browser, server)
    pick_file(browser, REALWORLD / "sharly-bbp-indiv-299-bonus.trf")
    set_value(browser, "rules-input", "BH")
    assert compute(browser) == "done"
    browser.evaluate("document.documentElement.dataset.shows = 'awarded'")  # not RULES: load again after
    shown = browser.evaluate(
        "Array.from(document.querySelectorAll('#warnings li[data-code=trf-points-awarded]'), li => li.textContent)"
    )
    assert len(shown) == 1 and "points awarded by the arbiter to 4 in round 1" in shown[0], shown


@needs_export
def test_compare_marks_the_rows_that_moved(server, browser):
    export_on_page(browser, server, "fide-2024")
    set_value(browser, "compare-rules-input", "SB BH")
    browser.evaluate("document.querySelector('[data-testid=compare-button]').click()")
    browser.wait_for("document.documentElement.dataset.state === 'compared'", what="the compare table")
    answer = compared(server, (RULES.split(), "fide-2024"), (["SB", "BH"], "fide-2024"))
    moved = {m["id"]: m["ranks"]["a"] - m["ranks"]["b"] for m in answer["summary"]["moves"]}
    marked = browser.evaluate(
        "Object.fromEntries(Array.from(document.querySelectorAll('[data-testid=compare-table] tr[data-moved]'),"
        " tr => [tr.dataset.id, Number(tr.dataset.moved)]))"
    )
    assert {int(k): v for k, v in marked.items()} == moved
    browser.evaluate("document.getElementById('compare').scrollIntoView()")
    shot(browser, "06-compare")

    # The same rules under two editions: the rules field left empty, another rule set chosen.
    set_value(browser, "compare-rules-input", "")
    set_value(browser, "compare-regulations-select", "fide-2026")
    browser.evaluate("document.documentElement.dataset.state = 'idle'")
    browser.evaluate("document.querySelector('[data-testid=compare-button]').click()")
    browser.wait_for("document.documentElement.dataset.state === 'compared'", what="the second compare")
    editions = compared(server, (RULES.split(), "fide-2024"), (RULES.split(), "fide-2026"))
    moved = {m["id"]: m["ranks"]["a"] - m["ranks"]["b"] for m in editions["summary"]["moves"]}
    assert moved, "the two editions rank this event differently"
    marked = browser.evaluate(
        "Object.fromEntries(Array.from(document.querySelectorAll('[data-testid=compare-table] tr[data-moved]'),"
        " tr => [tr.dataset.id, Number(tr.dataset.moved)]))"
    )
    assert {int(k): v for k, v in marked.items()} == moved
    header = browser.evaluate("document.querySelector('[data-testid=compare-table] thead').textContent")
    assert "(fide-2024)" in header and "(fide-2026)" in header


@needs_export
def test_the_csv_download_is_the_table(server, browser, tmp_path):
    export_on_page(browser, server, "fide-2024")
    # The page's own browser context (tests/contract/browser.py) downloads into tmp_path.
    browser.call(
        "Browser.setDownloadBehavior", behavior="allow", downloadPath=str(tmp_path), browserContextId=browser.context
    )
    browser.evaluate("document.getElementById('csv-button').click()")
    target = tmp_path / "standings.csv"
    deadline = time.monotonic() + 120  # a guard against a download that never comes, not a speed
    while not (target.is_file() and target.stat().st_size) and time.monotonic() < deadline:
        time.sleep(0.1)
    lines = target.read_text(encoding="utf-8").splitlines()
    answer = api(server, "/v1/standings", export_body("fide-2024"))
    assert lines[0] == "rank,id,name,federation,title,points,BH/C1,BH,SB,decided_by"
    assert len(lines) == len(answer["standings"]) + 1
    first = answer["standings"][0]
    assert lines[1].startswith(f"{first['rank']},{first['id']},")


@needs_export
def test_the_print_view_shows_the_standings_or_one_audit(server, browser):
    export_on_page(browser, server)
    browser.evaluate("document.querySelector('[data-testid=standings-row]').click()")
    browser.call("Emulation.setEmulatedMedia", session=True, media="print")
    try:
        shown = browser.evaluate(
            """(() => { const visible = id => getComputedStyle(document.getElementById(id)).display !== 'none';
                 const before = {form: visible('input-form'), table: visible('standings-table'),
                                 chart: visible('progression'), audit: visible('audit-panel')};
                 document.body.classList.add('print-audit');
                 const audit = {table: visible('standings-table'), audit: visible('audit-panel')};
                 return {before, audit}; })()"""
        )
        browser.evaluate("window.scrollTo(0, 0)")
        shot(browser, "07-print-audit")
        browser.evaluate("document.body.classList.remove('print-audit')")
        shot(browser, "08-print-standings")
    finally:
        browser.call("Emulation.setEmulatedMedia", session=True, media="")
    assert shown["before"] == {"form": False, "table": True, "chart": False, "audit": False}
    assert shown["audit"] == {"table": False, "audit": True}


@needs_export
def test_the_table_and_the_panel_work_from_the_keyboard(server, browser):
    export_on_page(browser, server)
    browser.evaluate("document.querySelector('[data-testid=standings-row]').focus()")
    press(browser, "ArrowDown", 40)
    second = browser.evaluate("document.activeElement.dataset.id")
    assert second == browser.evaluate("document.querySelectorAll('[data-testid=standings-row]')[1].dataset.id")
    press(browser, "Enter", 13)
    browser.wait_for(
        f"document.getElementById('audit-heading').textContent.includes('No. {second})')", what="that player's audit"
    )
    assert browser.evaluate("document.activeElement.id") == "audit-panel"
    press(browser, "Escape", 27)
    assert browser.evaluate("document.querySelector('[data-testid=audit-panel]').hidden")
    assert browser.evaluate("document.activeElement.dataset.id") == second
    # A column header is a button: Enter sorts by it.
    browser.evaluate("document.querySelector('#standings-table button[data-column=name]').focus()")
    press(browser, "Enter", 13)
    names = browser.evaluate(
        "Array.from(document.querySelectorAll('[data-testid=standings-row] [data-column=name]'), c => c.textContent)"
    )
    assert names == sorted(names, key=str.casefold)
    assert (
        browser.evaluate("document.querySelector('#standings-table th[aria-sort=ascending] button').dataset.column")
        == "name"
    )


def test_a_broken_trf_line_and_a_misspelt_rule_are_located(server, browser):
    open_page(browser, server)
    trf = (
        "012 Broken club event\n"
        "001    1      Alpha, Ann                        2000                             1.0    1     2 w 1\n"
        "001    2      Beta, Bob                         1900                             0.0    2     9 b 0\n"
    )
    set_value(browser, "trf-input", trf)
    set_value(browser, "rules-input", "BH")
    assert compute(browser) == "error"
    box = browser.evaluate(
        "(() => { const b = document.querySelector('[data-testid=error-box]');"
        " return {hidden: b.hidden, text: b.innerText, paths: Array.from(b.querySelectorAll('[data-path]'), e => e.dataset.path)}; })()"
    )
    assert not box["hidden"]
    assert any(p.startswith("trf:3:") for p in box["paths"]), box
    assert "TRF line 3" in box["text"] and "Beta, Bob" in box["text"]
    selected = browser.evaluate(
        "(() => { const a = document.querySelector('[data-testid=trf-input]');"
        " return a.value.slice(a.selectionStart, a.selectionEnd); })()"
    )
    assert selected == trf.splitlines()[2]
    shot(browser, "09-trf-error")

    set_value(browser, "trf-input", trf.replace("     9 b 0", "     1 b 0"))
    set_value(browser, "rules-input", "BH/C1 XYZ")
    assert compute(browser) == "error"
    rule_error = browser.evaluate(
        "(() => { const e = document.getElementById('rules-error');"
        " return {hidden: e.hidden, text: e.textContent,"
        " invalid: document.querySelector('[data-testid=rules-input]').getAttribute('aria-invalid')}; })()"
    )
    assert not rule_error["hidden"] and "XYZ" in rule_error["text"] and rule_error["invalid"] == "true"
    shot(browser, "10-rule-error")
    assert_offline(browser, server)


@needs_export
def test_a_phone_shows_the_table_without_the_page_overflowing(server, browser):
    browser.call(
        "Emulation.setDeviceMetricsOverride", session=True, width=390, height=844, deviceScaleFactor=1, mobile=True
    )
    try:
        open_page(browser, server)
        pick_file(browser, EXPORT)
        set_value(browser, "rules-input", RULES)
        assert compute(browser) == "done"
        sizes = browser.evaluate(
            "({scroll: document.documentElement.scrollWidth, width: window.innerWidth,"
            " table: document.querySelector('[data-testid=standings-table]').getBoundingClientRect().width})"
        )
        browser.evaluate("document.getElementById('results').scrollIntoView()")
        shot(browser, "11-phone-standings")
        # A long name wraps in its cell: all of it there, nothing clipped, the page still not wider.
        long_name = "Wolfeschlegelsteinhausenbergerdorff-Oberammergau, Maximiliane Alexandra Konstanze"
        tournament = json.loads(json.dumps(TOURNAMENT))
        tournament["players"][0]["name"] = long_name
        set_value(browser, "trf-input", json.dumps({"tournament": tournament}))
        set_value(browser, "rules-input", "BH")
        assert compute(browser) == "done"
        cell = browser.evaluate(
            "(() => { const c = document.querySelector('[data-testid=standings-row][data-id=\"1\"] [data-column=name]');"
            " return {text: c.textContent, clipped: c.scrollWidth > c.clientWidth,"
            " page: document.documentElement.scrollWidth}; })()"
        )
        shot(browser, "12-phone-long-name")
    finally:
        browser.call("Emulation.clearDeviceMetricsOverride", session=True)
    assert sizes["width"] == 390
    assert sizes["scroll"] <= sizes["width"], sizes
    assert sizes["table"] > 0
    assert cell == {"text": long_name, "clipped": False, "page": 390}


@needs_export
def test_axe_finds_no_wcag_a_or_aa_violation(server, browser):
    require_axe()
    export_on_page(browser, server)
    browser.evaluate("document.querySelector('[data-testid=standings-row]').click()")
    browser.wait_for("!!document.querySelector('[data-testid=progression-chart] canvas')", what="the chart")
    violations = axe_violations(browser)
    assert violations == [], json.dumps(violations, indent=1)


def test_every_asset_of_the_page_is_served_by_the_service(server, browser):
    open_page(browser, server)
    assert_offline(browser, server)
    failed = [e for e in browser.events if e.get("method") == "Network.loadingFailed"]
    statuses = [
        (e["params"]["response"]["url"], e["params"]["response"]["status"])
        for e in browser.events
        if e.get("method") == "Network.responseReceived"
    ]
    # 304: a file the browser already has (its ETag, issue 39 point 7)
    assert failed == [] and statuses and all(status in (200, 304) for _, status in statuses), statuses
    width, height, pixel = png_pixels(browser.screenshot())
    assert len({pixel(x, y) for y in range(0, height, 8) for x in range(0, width, 8)}) > 5, "the page looks blank"
