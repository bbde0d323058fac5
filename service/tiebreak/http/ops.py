"""What an operator needs around the API: request ids, JSON logs, metrics, API keys,
CORS and gzip, each configured from the environment.

`OpsMiddleware` wraps the whole litestar application (routing and its exception
handling included), so every response, 404s and problem+json errors too, carries
`X-Request-ID`, its language, the version and the security headers (security.py), is counted
in `/metrics` and is logged as one JSON line. It is the one send wrapper around the app, and it
normalises the request's path once for every check that reads it.
"""

from __future__ import annotations

import functools
import hmac
import logging
import os
import time
from dataclasses import dataclass, field

from litestar import Response, get
from litestar.config.compression import CompressionConfig
from litestar.config.cors import CORSConfig

from ..compute import metrics
from ..compute.gate import SHED_RETRY_AFTER_S, Admission
from ..wire.limits import env_variable
from ..wire.schemas import Problem, ProblemItem
from ..compute.logs import REQUEST_FAULTS, REQUEST_ID, Faults, faults_ended, request_id_from
from ..texts.catalogue import json_encoder, negotiate
from ..texts.message import LANGUAGE, language, msg
from ..version import __version__
from .handling import COMPRESSION_OPT_KEY
from .private import private, shown
from .security import REPLACED, normalised, security_headers


def _env_list(name: str) -> tuple[str, ...]:
    return tuple(v.strip() for v in os.environ.get(name, "").split(",") if v.strip())


def _env_port(name: str) -> int | None:
    value = os.environ.get(name, "").strip()
    return int(value) if value else None


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "0").strip().lower() not in ("0", "false", "")


@dataclass(frozen=True)
class OpsConfig:
    # Comma-separated origins allowed to call the API from a browser ("*" for any); empty: CORS off.
    cors_origins: tuple[str, ...] = field(default_factory=lambda: _env_list("TIEBREAK_CORS_ORIGINS"))
    # Comma-separated host names the server answers for (the Host header, port aside; "*": any);
    # empty: any (the default). Against DNS rebinding: a page from elsewhere that renames its
    # host to this server's address still sends its own name. The probes are exempt (kubelet).
    allowed_hosts: tuple[str, ...] = field(
        default_factory=lambda: tuple(h.lower() for h in _env_list("TIEBREAK_ALLOWED_HOSTS"))
    )
    # Comma-separated accepted API keys; empty: authentication off (the default).
    api_keys: tuple[str, ...] = field(default_factory=lambda: _env_list("TIEBREAK_API_KEYS"))
    # Responses at least this large are gzip-compressed for clients that accept it; 0: never.
    gzip_min_bytes: int = field(default_factory=lambda: int(os.environ.get("TIEBREAK_GZIP_MIN_BYTES", "1024")))
    gzip_level: int = field(default_factory=lambda: int(os.environ.get("TIEBREAK_GZIP_LEVEL", "5")))
    # The batch's NDJSON stream: level 1 compresses 111 MB of lines with breakdowns in 0.41 s of CPU
    # to 11.3 MB, level 5 in 0.94 s to 7.6 MB (docs/decisions/0310-batch-stream-gzip-level-1.md).
    batch_gzip_level: int = field(default_factory=lambda: int(os.environ.get("TIEBREAK_BATCH_GZIP_LEVEL", "1")))
    access_log: bool = field(default_factory=lambda: os.environ.get("TIEBREAK_ACCESS_LOG", "1") not in ("0", "false"))
    log_level: str = field(default_factory=lambda: os.environ.get("TIEBREAK_LOG_LEVEL", "INFO").upper())
    # A second port for /metrics and the API description (/schema...): when set, the main
    # port answers 404 for them and this port answers only them and the probes.
    admin_port: int | None = field(default_factory=lambda: _env_port("TIEBREAK_ADMIN_PORT"))
    # /metrics, /schema on the main port to any client; else to loopback clients only, and not
    # at all with an admin port (private.py).
    public_metrics: bool = field(default_factory=lambda: _env_flag("TIEBREAK_PUBLIC_METRICS"))
    public_schema: bool = field(default_factory=lambda: _env_flag("TIEBREAK_PUBLIC_SCHEMA"))
    # Start the compute workers with the app (`tiebreak serve` does) rather than on first use.
    prestart_workers: bool = field(
        default_factory=lambda: os.environ.get("TIEBREAK_PRESTART_WORKERS", "0") not in ("0", "false", "")
    )

    def __post_init__(self) -> None:
        # checked at start-up: zlib refuses any other level only when the first answer is compressed
        for variable, level in (
            ("TIEBREAK_GZIP_LEVEL", self.gzip_level),
            ("TIEBREAK_BATCH_GZIP_LEVEL", self.batch_gzip_level),
        ):
            if not 0 <= level <= 9:
                raise ValueError(f"{variable} must be a gzip level from 0 to 9, not {level}")

    def compression(self) -> CompressionConfig | None:
        if self.gzip_min_bytes <= 0:
            return None
        # The compute routes gzip their answers themselves (in the worker process), see gate.py.
        return CompressionConfig(
            backend="gzip",
            minimum_size=self.gzip_min_bytes,
            gzip_compress_level=self.gzip_level,
            exclude_opt_key=COMPRESSION_OPT_KEY,
        )

    def cors(self) -> CORSConfig | None:
        if not self.cors_origins:
            return None
        return CORSConfig(
            allow_origins=list(self.cors_origins),
            allow_methods=["GET", "POST", "OPTIONS"],
            allow_headers=["content-type", "x-api-key", "authorization", "x-request-id"],
            # what a script may read: the id, the language, when to retry, the version, the cache tag
            expose_headers=["x-request-id", "content-language", "retry-after", "tiebreak-version", "etag"],
            max_age=600,
        )


access_log = logging.getLogger("tiebreak.access")
VERSION_HEADER = "Tiebreak-Version"
_VERSION = (VERSION_HEADER.lower().encode(), __version__.encode())


# ---- the middleware ----

# Reachable without an API key: probes and the page itself (its HTML, script and styles hold no
# data; what it asks the API needs the key); the scraper's and the API's description, private.py's
# paths, are let through beside them.
PUBLIC_PATHS = ("/healthz", "/readyz", "/")
PROBES = frozenset({"/healthz", "/readyz"})


def _refusals() -> dict[str, Problem]:
    """The problems the middleware answers before a request is read (texts in the request's language)."""
    return {
        "401": Problem(
            type="about:blank",
            title=msg("Unauthorized"),
            status=401,
            detail=msg("an API key is required: send it as `X-API-Key: <key>` or `Authorization: Bearer <key>`"),
            errors=[ProblemItem(path="header:X-API-Key", message=msg("missing or not accepted"))],
        ),
        "404": Problem(type="about:blank", title=msg("Not Found"), status=404, detail=msg("Not Found"), errors=[]),
        "host": Problem(
            type="about:blank",
            title=msg("Bad Request"),
            status=400,
            detail=msg("this server does not answer for the host the request names"),
            errors=[
                ProblemItem(path="header:Host", message=msg("not one of the allowed hosts (TIEBREAK_ALLOWED_HOSTS)"))
            ],
        ),
        "415": Problem(
            type="about:blank",
            title=msg("Unsupported Media Type"),
            status=415,
            detail=msg("the request body must not be compressed: send it without Content-Encoding (identity)"),
            errors=[ProblemItem(path="header:Content-Encoding", message=msg("only identity is accepted"))],
        ),
        "in_flight": _shed_problem("max_in_flight"),
        "body_bytes": _shed_problem("max_in_flight_body_bytes"),
    }


def _shed_problem(limit: str) -> Problem:
    variable = env_variable(limit)
    return Problem(
        type="about:blank",
        title=msg("Service Unavailable"),
        status=503,
        detail=msg(
            "the service cannot answer now ({reason}); retry after {seconds} s",
            reason="saturated",
            seconds=SHED_RETRY_AFTER_S,
        ),
        errors=[
            ProblemItem(
                path="",
                message=msg("the server is at its limit {limit} ({variable})", limit=limit, variable=variable),
            )
        ],
    )


@functools.cache
def _refusal(kind: str, lang: str) -> bytes:
    """A refusal's body, encoded once per language."""
    with language(lang):
        return json_encoder().encode(_refusals()[kind])


_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


def _preflight(scope) -> bool:
    """A CORS preflight: OPTIONS with an Origin and the method it asks for (any other OPTIONS
    needs the key like every request)."""
    return (
        scope.get("method") == "OPTIONS"
        and _header(scope, b"origin") is not None
        and _header(scope, b"access-control-request-method") is not None
    )


def _declared_length(scope) -> int | None:
    value = _header(scope, b"content-length")
    if value is None:
        return None if _header(scope, b"transfer-encoding") else 0
    try:
        return max(0, int(value))
    except ValueError:
        return None


class OpsMiddleware:
    def __init__(self, app, config: OpsConfig, admission: Admission | None = None):
        self.app = app
        self.config = config
        self.keys = tuple(k.encode() for k in config.api_keys)
        self.admission = admission

    def _authorised(self, scope, path: str) -> bool:
        if path in PUBLIC_PATHS or private(path) or path.startswith("/page/"):
            return True
        if self.config.cors_origins and _preflight(scope):
            return True  # CORS preflight requests carry no credentials (and answer no data)
        key = _header(scope, b"x-api-key")
        if key is None:
            auth = _header(scope, b"authorization") or ""
            if auth[:7].lower() == "bearer ":
                key = auth[7:].strip()
        if not key:
            return False
        given = key.encode()
        return any(hmac.compare_digest(given, k) for k in self.keys)

    def _host_allowed(self, scope, path: str) -> bool:
        allowed = self.config.allowed_hosts
        if not allowed or "*" in allowed or path in PROBES:
            return True
        host = (_header(scope, b"host") or "").strip().lower()
        # the port aside: `name:8000`, `[::1]:8000`
        name = host.split("]", 1)[0] + "]" if host.startswith("[") else host.split(":", 1)[0]
        return name in allowed

    def _hidden(self, scope, path: str) -> bool:
        """The admin port serves only the private paths (and the probes); the main port serves
        a private path only where private.shown says."""
        if path in PROBES:
            return False
        admin = self.config.admin_port
        if admin is not None and (scope.get("server") or (None, None))[1] == admin:
            return not private(path)
        c = self.config
        return private(path) and not shown(path, scope, admin, c.public_metrics, c.public_schema)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = request_id_from(_header(scope, b"x-request-id"))
        token = REQUEST_ID.set(request_id)
        faults = Faults()
        faults_token = REQUEST_FAULTS.set(faults)
        # SPEC 3.10: one language per request, for every text of the answer and its headers
        lang = negotiate(_header(scope, b"accept-language"))
        lang_token = LANGUAGE.set(lang)
        path = normalised(scope.get("path", ""))  # once: every check below and the policy read it
        exchange = _Exchange(
            send, request_id.encode(), lang, security_headers(path), vary_origin=bool(self.config.cors_origins)
        )
        started = time.perf_counter()
        metrics.IN_FLIGHT.inc()
        try:
            await self._answer(scope, receive, exchange, lang, path)
        finally:
            metrics.IN_FLIGHT.dec()
            self._record(scope, exchange, time.perf_counter() - started)
            faults_ended(faults)
            REQUEST_FAULTS.reset(faults_token)
            REQUEST_ID.reset(token)
            LANGUAGE.reset(lang_token)

    async def _answer(self, scope, receive, exchange: _Exchange, lang: str, path: str) -> None:
        """The checks in their order (host, API key, admin port, content encoding, admission), then the app."""
        encoding = (_header(scope, b"content-encoding") or "").strip().lower()
        if not self._host_allowed(scope, path):
            await self._refuse(scope, exchange, 400, _refusal("host", lang))
        elif self.keys and not self._authorised(scope, path):
            await self._refuse(
                scope,
                exchange,
                401,
                _refusal("401", lang),
                [(b"www-authenticate", b'ApiKey header="X-API-Key", Bearer')],
            )
        elif self._hidden(scope, path):
            await self._refuse(scope, exchange, 404, _refusal("404", lang))
        elif encoding and any(e.strip() not in ("identity", "") for e in encoding.split(",")):
            await self._refuse(scope, exchange, 415, _refusal("415", lang), [(b"accept-encoding", b"identity")])
        else:
            await self._admitted(scope, receive, exchange, lang, path)

    async def _admitted(self, scope, receive, exchange: _Exchange, lang: str, path: str) -> None:
        """The app, for a request admitted (its place and body bytes held until it is answered); else 503."""
        if self.admission is None or path in PROBES or path == "/metrics":
            await self.app(scope, receive, exchange.send)
            return
        reason, reserved = self.admission.enter(_declared_length(scope))
        if reason is not None:
            metrics.SHED.labels(reason).inc()
            retry = [(b"retry-after", str(SHED_RETRY_AFTER_S).encode())]
            await self._refuse(scope, exchange, 503, _refusal(reason, lang), retry)
            return
        try:
            await self.app(scope, receive, exchange.send)
        finally:
            self.admission.leave(reserved)

    async def _refuse(self, scope, exchange: _Exchange, status: int, body: bytes, headers: list | None = None) -> None:
        headers = [
            (b"content-type", b"application/problem+json"),
            (b"content-length", str(len(body)).encode()),
            *(headers or []),
        ]
        origin = _header(scope, b"origin")
        if origin and ("*" in self.config.cors_origins or origin in self.config.cors_origins):
            # so that a browser script can read why it was refused
            headers += [(b"access-control-allow-origin", origin.encode("latin-1"))]
        await exchange.send({"type": "http.response.start", "status": status, "headers": headers})
        await exchange.send({"type": "http.response.body", "body": body})

    def _record(self, scope, exchange: _Exchange, elapsed: float) -> None:
        """The request's metrics and its access log line."""
        route = scope.get("path_template") or "unmatched"
        method = scope.get("method", "")
        if method not in _METHODS:
            method = "OTHER"  # any token is a valid method: keep the label set bounded
        status = str(exchange.status)
        metrics.REQUESTS.labels(route, method, status).inc()
        metrics.LATENCY.labels(route, method, status).observe(elapsed)
        if self.config.access_log:
            access_log.info(
                "request",
                extra={
                    "method": method,
                    "path": scope.get("path", ""),
                    "route": route,
                    "status": exchange.status,
                    "duration_ms": round(elapsed * 1000, 3),
                    "response_bytes": exchange.bytes,
                },
            )


class _Exchange:
    """One request's response on its way out: the request id, language, security and version headers
    added, its status (0: the client left before a response) and size kept for the log."""

    __slots__ = ("_send", "bytes", "language_headers", "raw_id", "security", "status", "vary_origin")

    def __init__(self, send, raw_id: bytes, lang: str, security: tuple, vary_origin: bool = False):
        self._send, self.raw_id, self.security = send, raw_id, security
        self.language_headers = [(b"content-language", lang.encode()), (b"vary", b"Accept-Language")]
        # With CORS on, every answer depends on Origin (allowed or not): a cache must not give one
        # origin's answer to another.
        self.vary_origin = vary_origin
        self.status = self.bytes = 0

    async def send(self, message) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
            headers = message.get("headers", [])
            # the page says its own language (its `?lang=` picker may differ from Accept-Language)
            own = any(name.lower() == b"content-language" for name, _ in headers)
            varies_by_origin = any(n.lower() == b"vary" and b"origin" in v.lower() for n, v in headers)
            origin = [(b"vary", b"Origin")] if self.vary_origin and not varies_by_origin else []
            message["headers"] = [
                *(h for h in headers if h[0].lower() not in REPLACED),
                (b"x-request-id", self.raw_id),
                *([] if own else self.language_headers),
                *origin,
                *self.security,
                _VERSION,
            ]
        elif message["type"] == "http.response.body":
            self.bytes += len(message.get("body", b""))
        await self._send(message)


# ---- /metrics ----


@get(
    "/metrics",
    operation_id="metrics",
    summary="Prometheus metrics (text exposition format 0.0.4)",
    description="Requests, latency, in-flight requests, engine time, limit rejections and batch items, "
    "for a Prometheus scraper (no API key). Private: served to loopback clients only, or on the "
    "admin port when TIEBREAK_ADMIN_PORT is set, unless TIEBREAK_PUBLIC_METRICS=1; "
    "docs/operations.md lists them.",
    media_type=metrics.MEDIA_TYPE,
    include_in_schema=True,
    sync_to_thread=False,
)
def metrics_endpoint() -> Response[bytes]:
    return Response(metrics.render(), media_type=metrics.MEDIA_TYPE)


OPS_ROUTES = [metrics_endpoint]
