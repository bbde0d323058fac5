"""`GET /`: the arbiter's page (docs/page.md). One HTML document, one script and one style sheet
from the package (static/), with the vendored chart library; nothing loaded from outside the
server, which the Content-Security-Policy makes a rule for the browser too."""

from __future__ import annotations

from pathlib import Path

from litestar import Response, get
from litestar.datastructures import CacheControlHeader
from litestar.static_files import create_static_files_router

STATIC = Path(__file__).parent / "static"
PAGE_ASSETS = "/page"
# Only this server: scripts, styles, fetches, images. uPlot sizes its elements through
# element.style, which 'self' alone would not block; inline <style> and style="" are not used.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'self'"
)


@get("/", include_in_schema=False, sync_to_thread=False)
def page() -> Response[bytes]:
    return Response(
        (STATIC / "index.html").read_bytes(),
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
