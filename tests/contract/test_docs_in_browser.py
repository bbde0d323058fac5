"""The documentation pages in a real headless Chromium, against a real uvicorn.

- Swagger UI (/schema/swagger) and ReDoc (/schema) render every operation of the document,
  loading nothing from outside the server (a tournament hall may have no internet).
- The screenshot of Swagger UI shows the operations: its POST and GET blocks' colours cover
  a real part of the page.
- Swagger's "Try it out" succeeds as generated: for every operation and every example of
  its request body, Execute in the browser gets a 200.

Skipped, saying why, where no Chromium is installed; CI installs Debian's `chromium`.
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

import pytest

from tests.contract.browser import Browser, find_chromium, png_pixels
from tests.contract.test_openapi_drift import COMMITTED

CHROMIUM = find_chromium()
pytestmark = [
    pytest.mark.server,
    pytest.mark.skipif(
        CHROMIUM is None,
        reason="no Chromium on PATH: install Debian's `chromium` package "
        "(.ci/run does) to test the documentation pages in a browser",
    ),
]

DOCUMENT = json.loads(COMMITTED.read_text())
OPERATIONS = {
    op["operationId"]: (method, path, op) for path, item in DOCUMENT["paths"].items() for method, op in item.items()
}

# Swagger UI's colours for the POST and GET method badges (swagger-ui.css: .opblock-post, .opblock-get)
POST_GREEN, GET_BLUE = (73, 204, 144), (97, 175, 254)

# Expand the operation, press "Try it out", choose the request-body example, press "Execute" and
# read the live response's status code from the table Swagger UI renders.
TRY_IT_OUT = """
(async ([operationId, example]) => {
  const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));
  const until = async (find, what) => {
    for (let i = 0; i < 600; i++) { const found = find(); if (found) return found; await sleep(100); }
    throw new Error('timed out waiting for ' + what);
  };
  const block = document.getElementById('operations-default-' + operationId);
  if (!block.classList.contains('is-open')) block.querySelector('.opblock-summary-control').click();
  (await until(() => block.querySelector('.try-out__btn:not(.cancel)'), 'Try it out')).click();
  if (example !== null) {
    const select = await until(() => block.querySelector('.opblock-section-request-body .examples-select select'),
                               'the examples menu');
    const setValue = Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set;
    setValue.call(select, example);
    select.dispatchEvent(new Event('change', {bubbles: true}));
    await sleep(300);
  }
  const body = block.querySelector('.body-param textarea');
  (await until(() => block.querySelector('.execute'), 'Execute')).click();
  const status = await until(
    () => block.querySelector('.live-responses-table tbody .response-col_status'), 'the response');
  const sent = body ? body.value : null;
  const result = [status.textContent.trim(), sent];
  block.querySelector('.try-out__btn.cancel').click();
  // Closed again: the operations left open would each render again with every later one.
  block.querySelector('.opblock-summary-control').click();
  return result;
})
"""


@pytest.fixture(scope="module")
def browser(chromium):
    browser = Browser(chromium)
    yield browser
    browser.close()


def assert_offline(browser: Browser, base: str) -> None:
    origin = urlsplit(base).netloc
    browser.drain(0.5)
    outside = [
        url
        for url in browser.requested_urls()
        if urlsplit(url).scheme not in ("data", "blob") and urlsplit(url).netloc != origin
    ]
    assert outside == [], f"the page loaded from outside the server: {outside}"


def colour_share(png: bytes, colour: tuple[int, int, int]) -> float:
    width, height, pixel = png_pixels(png)
    hits = sum(1 for y in range(0, height, 2) for x in range(0, width, 2) if pixel(x, y) == colour)
    return hits / ((width // 2) * (height // 2))


def test_swagger_ui_renders_every_operation_from_the_server_alone(server, browser):
    browser.events.clear()
    browser.navigate(f"{server}/schema/swagger")
    ids = browser.wait_for(
        f"(() => {{ const ids = Array.from(document.querySelectorAll('.opblock'), e => e.id);"
        f" return ids.length >= {len(OPERATIONS)} && ids; }})()",
        what="every operation",
    )
    assert sorted(i.removeprefix("operations-default-") for i in ids) == sorted(OPERATIONS)
    png = browser.screenshot()
    # The method badges of the operations are on the screenshot: POST green and GET blue each
    # cover a visible share of the page (a blank or unstyled page has none).
    assert colour_share(png, POST_GREEN) > 0.002 and colour_share(png, GET_BLUE) > 0.002
    assert_offline(browser, server)


@pytest.mark.parametrize(
    "operation_id, example",
    [
        (operation_id, example)
        for operation_id, (_, _, op) in OPERATIONS.items()
        for example in (
            list(op["requestBody"]["content"]["application/json"]["examples"]) if "requestBody" in op else [None]
        )
    ],
)
def test_try_it_out_succeeds_as_generated(server, browser, operation_id, example):
    def open_swagger() -> None:
        browser.navigate(f"{server}/schema/swagger")
        browser.wait_for("document.querySelectorAll('.opblock').length", what="the operations")

    if not browser.evaluate("!!document.getElementById('operations-default-computeStandings')"):
        open_swagger()
    # The script's promise is held by the page (window.__tryItOut) and its outcome polled: a promise
    # only the protocol's evaluate call awaited could be collected by Chromium on a loaded machine.
    # Generous: a minute per step inside the page, four minutes in all, before giving up.
    script = TRY_IT_OUT + f"({json.dumps([operation_id, example])})"
    browser.evaluate(
        f"window.__tryItOut = null; ({script}).then(r => window.__tryItOut = {{ok: r}}, "
        "e => window.__tryItOut = {error: String(e)}); true"
    )
    outcome = browser.wait_for("window.__tryItOut", timeout=240, what=f"Try it out of {operation_id}")
    assert isinstance(outcome, dict) and "ok" in outcome, outcome
    status, sent = outcome["ok"]
    assert status == "200", f"{operation_id} ({example}): Swagger UI got {status}"
    if example is not None:  # what was sent is the example the document gives
        expected = OPERATIONS[operation_id][2]["requestBody"]["content"]["application/json"]["examples"][example]
        assert json.loads(sent) == expected["value"]


def test_redoc_renders_every_operation_from_the_server_alone(server, browser):
    browser.events.clear()
    browser.navigate(f"{server}/schema")
    summaries = [op["summary"] for _, _, op in OPERATIONS.values()]
    browser.wait_for(
        f"(() => {{ const text = document.body ? document.body.innerText : '';"
        f" return {json.dumps(summaries)}.every(s => text.includes(s)); }})()",
        what="every operation's summary",
    )
    width, height, pixel = png_pixels(browser.screenshot())
    colours = {pixel(x, y) for y in range(0, height, 8) for x in range(0, width, 8)}
    assert len(colours) > 20, "the ReDoc page looks blank"
    assert_offline(browser, server)


def test_redoc_asks_nothing_of_any_other_host_not_even_a_blocked_request(server, browser):
    """Issue 37 point 13: ReDoc's sidebar fetched Redocly's logo from their CDN; the policy blocked it,
    but the request was still made (and failed with an error in the console). Every request the page
    starts, blocked or not, is to this server."""
    # The logo's <img> ends in `load` or `error` (not bubbling: caught on the way down); by then
    # its request, if it has one, was started. Listening from before the page's first script.
    listen = browser.call(
        "Page.addScriptToEvaluateOnNewDocument",
        session=True,
        source="window.__logo = null; for (const kind of ['load', 'error']) document.addEventListener(kind, e => {"
        " if (e.target.alt === 'redocly logo') window.__logo = kind; }, true);",
    )
    try:
        browser.events.clear()
        browser.navigate(f"{server}/schema")
        browser.wait_for("window.__logo", what="ReDoc's sidebar logo, drawn or failed")
    finally:
        browser.call("Page.removeScriptToEvaluateOnNewDocument", session=True, identifier=listen["identifier"])
    origin = urlsplit(server).netloc
    started = [e["params"]["request"]["url"] for e in browser.events if e.get("method") == "Network.requestWillBeSent"]
    assert started, "no request recorded"
    outside = [
        url for url in started if urlsplit(url).scheme not in ("data", "blob") and urlsplit(url).netloc != origin
    ]
    assert outside == []
