"""`GET /`: the arbiter's page (docs/page.md). One HTML document, one script and one style sheet
from the package (static/), with the vendored chart library; nothing loaded from outside the
server, which the Content-Security-Policy makes a rule for the browser too."""

from __future__ import annotations

import functools
from pathlib import Path

import msgspec
from litestar import Response, get
from litestar.datastructures import CacheControlHeader
from litestar.static_files import create_static_files_router

from ..texts.catalogue import LANGUAGES
from ..texts.message import LANGUAGE
from .page_texts import page_texts

STATIC = Path(__file__).parent / "static"
PAGE_ASSETS = "/page"
# Only this server: scripts, styles, fetches, images. uPlot sizes its elements through
# element.style, which 'self' alone would not block; inline <style> and style="" are not used.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'self'"
)


@functools.cache
def page_in(code: str) -> bytes:
    """index.html in the language negotiated (`<html lang>`), with every language's texts in a
    JSON block that page.js reads, so that the language picker needs no second request
    (decision 0132). A data block is not a script: the CSP's script-src does not apply to it."""
    texts = {"lang": code, "languages": LANGUAGES, "texts": {other: page_texts(other) for other in LANGUAGES}}
    block = msgspec.json.encode(texts).replace(b"</", b"<\\/")
    html = (STATIC / "index.html").read_bytes()
    html = html.replace(b'<html lang="en">', f'<html lang="{code}">'.encode(), 1)
    return html.replace(
        b"</head>", b'<script type="application/json" id="page-texts">' + block + b"</script>\n</head>", 1
    )


@get("/", include_in_schema=False, sync_to_thread=False)
def page() -> Response[bytes]:
    return Response(
        page_in(LANGUAGE.get()),  # negotiated from Accept-Language by the middleware (ops.py)
        media_type="text/html; charset=utf-8",
        headers={"Content-Security-Policy": CSP, "Cache-Control": "no-cache"},
    )


PAGE_ROUTES: list = [
    page,
    create_static_files_router(
        path=PAGE_ASSETS,
        directories=[STATIC],
        include_in_schema=False,
        cache_control=CacheControlHeader(no_cache=True),
        name="page-assets",
    ),
]
