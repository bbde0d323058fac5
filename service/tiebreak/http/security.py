"""The headers a security review expects, in one place for every response, and HEAD for every GET.

`security_headers(path)` is what every response carries (errors, 401s and 404s included; ops.py's
one send wrapper adds them): `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer` and a
Content-Security-Policy with `frame-ancestors`: the page's own on `/` and `/page/...`, the docs' on
`/schema...`, and "nothing at all" on the API's answers (JSON is never a document to run).
docs/operations.md, "Security", says why each.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

from .openapi import DOCS_POLICY, SCHEMA_PATH
from .page import CSP as PAGE_POLICY
from .page import PAGE_ASSETS

# Framed only by the server's own pages (clickjacking): the page and the docs.
DOCS_HEADER_POLICY = f"{DOCS_POLICY}; frame-ancestors 'self'; object-src 'none'; base-uri 'self'"
API_POLICY = "default-src 'none'; frame-ancestors 'none'"
_SLASHES = re.compile(r"/{2,}")


def normalised(path: str) -> str:
    """The path as the router matches it: percent-decoded (again: `%2f` arrives as `/` once decoded
    by the server, `%252f` does not), runs of slashes collapsed, no trailing slash."""
    for _ in range(3):  # bounded: `%25252f...` stays as it is after three rounds
        decoded = unquote(path)
        if decoded == path:
            break
        path = decoded
    path = _SLASHES.sub("/", path)
    return path.rstrip("/") or "/"


def policy_for(path: str) -> str:
    """The policy of a path already normalised (`normalised`)."""
    if path == "/" or path.startswith(PAGE_ASSETS + "/"):
        return PAGE_POLICY
    if path == SCHEMA_PATH or path.startswith(SCHEMA_PATH + "/"):
        return DOCS_HEADER_POLICY
    return API_POLICY


# A handler's own header of these names is dropped: one policy, this one (two would both apply).
REPLACED = frozenset({b"content-security-policy", b"x-content-type-options", b"referrer-policy"})


def _headers(policy: str) -> tuple[tuple[bytes, bytes], ...]:
    return (
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
        (b"content-security-policy", policy.encode()),
    )


# Built once: a response takes one of the three as it is.
_BY_POLICY = {policy: _headers(policy) for policy in (PAGE_POLICY, DOCS_HEADER_POLICY, API_POLICY)}


def security_headers(path: str) -> tuple[tuple[bytes, bytes], ...]:
    """The security headers of a response to `path` (normalised)."""
    return _BY_POLICY[policy_for(path)]


class HeadAsGet:
    """`HEAD` answered as the `GET` of the same URL, without its body (RFC 9110 9.3.2): load
    balancers and monitors probe with HEAD. The length header stays that of the GET's body."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or scope.get("method") != "HEAD":
            await self.app(scope, receive, send)
            return

        async def send_without_body(message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, send_without_body)
