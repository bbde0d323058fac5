"""A headless Chromium driven over the DevTools protocol on a pipe, with the standard library only
(and numpy to read a screenshot's pixels).

Chromium (Debian's `chromium` package) is started with `--remote-debugging-pipe`: it reads
JSON commands on file descriptor 3 and writes replies and events on 4, each message ending
with a NUL byte. That is all the tests need (navigate, evaluate, screenshot, watch the
network), without a websocket client or a browser download.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import shutil
import struct
import subprocess
import tempfile
import time
import zlib
from collections.abc import Callable

import numpy as np

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-extensions",
    "--mute-audio",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
]


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


class BrowserError(Exception):
    pass


# A mark set on a page's window before it navigates: the next document's window has none.
_LEFT = "__tiebreakTestsLeft"
# What Runtime.evaluate answers while one document replaces another.
_BETWEEN_DOCUMENTS = ("Inspected target navigated or closed", "Cannot find context with specified id")


class Chromium:
    """One headless Chromium process and its DevTools pipe; `close()` ends it and removes its profile.

    Pages (`Browser`) open in it, each in a browser context of its own: a session's test modules
    share one process (tests/contract/conftest.py) and none sees another's storage or cache."""

    def __init__(self, executable: str, width: int = 1280, height: int = 1600):
        self.profile = tempfile.mkdtemp(prefix="tiebreak-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def child_fds() -> None:  # runs in the child before exec: the pipe ends become fds 3 and 4
            # first out of the way (one of them may be 3 or 4 already), then into place
            high_r = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD, 10)
            high_w = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD, 10)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        self.process = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={self.profile}", f"--window-size={width},{height}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=child_fds,
            close_fds=False,
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next_id = 0
        self.events: dict[str | None, list[dict]] = {}  # by the session they came from (None: the browser's)

    def _read_message(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise BrowserError("no answer from the browser in time")
            if self.process.poll() is not None:
                raise BrowserError(f"the browser exited with {self.process.returncode}")
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise BrowserError("the browser closed its pipe")
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(message)

    def call(self, method: str, session: str | None = None, timeout: float = 30, **params) -> dict:
        """Send a command (to a page's session, or to the browser) and wait for its reply; the events
        that come meanwhile are kept in `events`."""
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if session is not None:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.setdefault(reply.get("sessionId"), []).append(reply)

    def close(self) -> None:
        try:
            if self.process.poll() is None:
                try:
                    self.call("Browser.close", timeout=5)
                except BrowserError:
                    pass
                try:
                    self.process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait(timeout=10)
        finally:
            os.close(self._to_browser)
            os.close(self._from_browser)
            shutil.rmtree(self.profile, ignore_errors=True)


class Browser:
    """One page, in a browser context of its own, of `chromium` (a Chromium shared with other pages)
    or of a Chromium started for it from an executable's path; `close()` ends what it started."""

    def __init__(self, chromium: Chromium | str, width: int = 1280, height: int = 1600):
        self._own = isinstance(chromium, str)
        self.chromium = Chromium(chromium, width, height) if isinstance(chromium, str) else chromium
        self.context = self.chromium.call("Target.createBrowserContext")["browserContextId"]
        # The window's size, as --window-size gives a browser's first one (the viewport is smaller).
        target = self.chromium.call(
            "Target.createTarget", url="about:blank", browserContextId=self.context, width=width, height=height
        )["targetId"]
        self.session = self.chromium.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.events: list[dict] = self.chromium.events.setdefault(self.session, [])
        for domain in ("Page", "Runtime", "Network"):
            self.call(f"{domain}.enable", session=True)

    def call(self, method: str, session: bool = False, timeout: float = 30, **params) -> dict:
        """A command to the page (`session=True`) or to the browser."""
        return self.chromium.call(method, self.session if session else None, timeout, **params)

    # ---- what the tests use ----

    def navigate(self, url: str, timeout: float = 60) -> None:
        """Load `url` and return once its document has replaced the one before: Page.navigate can
        answer before that, and a wait_for would then read the old page."""
        self.evaluate(f"window.{_LEFT} = true")
        self.call("Page.navigate", session=True, url=url)
        self.wait_for(f"!window.{_LEFT}", timeout=timeout, what=f"the new document of {url}")

    def evaluate(self, expression: str, timeout: float = 30):
        result = self.call(
            "Runtime.evaluate",
            session=True,
            timeout=timeout,
            expression=expression,
            returnByValue=True,
            awaitPromise=True,
        )
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression[:80]}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 30, what: str = "") -> object:
        """Evaluate `expression` until it is truthy; its value."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = self.evaluate(expression)
            except BrowserError as error:
                if not any(text in str(error) for text in _BETWEEN_DOCUMENTS):
                    raise
                value = None  # the page was between two documents: ask the new one
            if value:
                return value
            if time.monotonic() > deadline:
                raise BrowserError(f"timed out waiting for {what or expression}")
            time.sleep(0.2)

    def screenshot(self) -> bytes:
        """The viewport as a PNG. optimizeForSpeed: the same pixels, encoded with the Up filter on every
        row, which png_pixels undoes a row at a time (the adaptive filters cost seconds in Python)."""
        shot = self.call(
            "Page.captureScreenshot", session=True, format="png", captureBeyondViewport=False, optimizeForSpeed=True
        )
        return base64.b64decode(shot["data"])

    def requested_urls(self) -> list[str]:
        """The URLs the page asked for, except those the browser blocked before sending (CSP)."""
        blocked = {
            e["params"]["requestId"]
            for e in self.events
            if e.get("method") == "Network.loadingFailed" and e["params"].get("blockedReason")
        }
        return [
            e["params"]["request"]["url"]
            for e in self.events
            if e.get("method") == "Network.requestWillBeSent" and e["params"]["requestId"] not in blocked
        ]

    def drain(self, seconds: float) -> None:
        """Collect the events of the next `seconds` (requests still starting after a page rendered)."""
        self.evaluate(f"new Promise(resolve => setTimeout(resolve, {int(seconds * 1000)}))")

    def close(self) -> None:
        if self._own:
            self.chromium.close()
        else:
            self.chromium.call("Target.disposeBrowserContext", browserContextId=self.context)
            self.chromium.events.pop(self.session, None)


# ---- reading the screenshot ----


def png_pixels(data: bytes) -> tuple[int, int, Callable[[int, int], tuple[int, int, int]]]:
    """Width, height and a pixel reader (RGB) of an 8-bit RGB or RGBA PNG, as Chromium writes them."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    position, idat, header = 8, b"", None
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position : position + 8])
        chunk = data[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
        position += 12 + length
    width, height, depth, colour_type, _, _, interlace = header
    if depth != 8 or colour_type not in (2, 6) or interlace:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour_type}, interlace {interlace}")
    channels = 4 if colour_type == 6 else 3
    stride = width * channels
    raw = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(height, stride + 1)
    rows: list[bytes] = []
    previous = np.zeros(stride, dtype=np.uint8)
    for y in range(height):  # undo the row filter (PNG spec, section 9)
        kind, line = raw[y, 0], raw[y, 1:]
        if kind == 0:
            current = line
        elif kind == 1:  # Sub: each byte plus the one a pixel to its left, a running sum per channel
            current = np.cumsum(line.reshape(width, channels), axis=0, dtype=np.uint64).astype(np.uint8).reshape(-1)
        elif kind == 2:  # Up: plus the byte above (uint8 wraps as the spec's modulo 256)
            current = line + previous
        else:
            current = np.frombuffer(_average_or_paeth(kind, bytearray(line), previous.tobytes(), channels), np.uint8)
        rows.append(current.tobytes())
        previous = current

    def pixel(x: int, y: int) -> tuple[int, int, int]:
        row = rows[y]
        return row[x * channels], row[x * channels + 1], row[x * channels + 2]

    return width, height, pixel


def _average_or_paeth(kind: int, line: bytearray, previous: bytes, channels: int) -> bytearray:
    """The two filters that depend on the bytes just undone, a byte at a time."""
    for x in range(len(line)):
        left = line[x - channels] if x >= channels else 0
        up = previous[x]
        if kind == 3:
            line[x] = (line[x] + (left + up) // 2) & 0xFF
        else:
            upper_left = previous[x - channels] if x >= channels else 0
            estimate = left + up - upper_left
            pa, pb, pc = abs(estimate - left), abs(estimate - up), abs(estimate - upper_left)
            predictor = left if pa <= pb and pa <= pc else up if pb <= pc else upper_left
            line[x] = (line[x] + predictor) & 0xFF
    return line
