"""`GET /`: the arbiter's page (docs/page.md). One HTML document, one script and one style sheet
from the package (static/), with the vendored chart library; nothing loaded from outside the
server, which the Content-Security-Policy makes a rule for the browser too."""

from __future__ import annotations

from pathlib import Path

from litestar import Request, Response, get
from litestar.enums import MediaType

from ..texts.catalogue import LANGUAGES, negotiate, translations
from .assets import static_files
from .page_texts import page_texts
from .private import shown

STATIC = Path(__file__).parent / "static"
DOCS_LINK = b'    <a href="schema/swagger" data-text="apiDocs"></a>\n'
KEY_FIELD = b'<div id="api-key-field" class="field" data-testid="api-key-field" hidden>'
PAGE_ASSETS = "/page"
# Only this server: scripts, styles, fetches, images. uPlot sizes its elements through
# element.style, which 'self' alone would not block; inline <style> and style="" are not used.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'self'"
)


def page_language(request: Request) -> str:
    """`?lang=` (the page's language picker) over `Accept-Language`, as the API negotiates it."""
    chosen = request.query_params.get("lang")
    if chosen in LANGUAGES:
        return chosen
    return negotiate(request.headers.get("accept-language"))


def page_html(code: str, docs: bool = True, keys: bool = False) -> bytes:
    """index.html in the language `code`: `<html lang>`, the title and the page's texts as a JSON
    data block (not a script: the Content-Security-Policy runs none inline) that page.js reads.
    Without `docs` (the API description not served to this client) the page has no link to it;
    with `keys` (TIEBREAK_API_KEYS set) it shows its API key field."""
    html = (STATIC / "index.html").read_bytes()
    if not docs:
        html = html.replace(DOCS_LINK, b"", 1)
    if keys:
        html = html.replace(KEY_FIELD, KEY_FIELD.replace(b" hidden>", b">"), 1)
    title = translations(code).gettext("Tie-break standings").encode()
    block = b'<script type="application/json" id="page-texts">' + page_texts(code) + b"</script>\n</head>"
    html = html.replace(b'<html lang="en">', f'<html lang="{code}">'.encode(), 1)
    html = html.replace(b"<title>Tie-break standings</title>", b"<title>" + title + b"</title>", 1)
    return html.replace(b"</head>", block, 1)


@get("/", include_in_schema=False, sync_to_thread=False)
def page(request: Request) -> Response[bytes]:
    code = page_language(request)
    # a link only to docs this client may read (private.py): else it would be a 404
    ops = request.app.state["ops"]
    docs = shown("/schema", request.scope, ops.admin_port, ops.public_metrics, ops.public_schema)
    return Response(
        page_html(code, docs, keys=bool(ops.api_keys)),
        media_type=MediaType.HTML,  # litestar adds the charset itself
        headers={
            "Cache-Control": "no-cache",
            "Content-Language": code,
            "Vary": "Accept-Language",
        },
    )


@get("/docs", include_in_schema=False, sync_to_thread=False)
def docs() -> Response[bytes]:
    """The address people try for API documentation: a redirect to ReDoc at /schema (relative, so a
    path prefix of a proxy in front is kept). With an admin port, both are there only (ops.py)."""
    return Response(b"", status_code=308, headers={"Location": "schema"})


PAGE_ROUTES: list = [
    page,
    docs,
    static_files(PAGE_ASSETS, STATIC, "no-cache", "page-assets"),
]
