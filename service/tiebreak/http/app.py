"""The ASGI application: `create_app()` builds it, `app` is what uvicorn serves."""

from __future__ import annotations

from litestar import Litestar
from litestar.datastructures import ResponseHeader, State
from litestar.openapi import OpenAPIConfig

from ..compute.gate import Admission
from ..compute.logs import configure_logging
from ..version import __version__
from ..wire import schemas as s
from ..wire.compare import CompareRequest, CompareResponse
from ..wire.scenarios import ScenariosRequest, ScenariosResponse
from ..wire.io import BatchItem, BatchResult, CheckItem, CheckLine, TrfConvertRequest, TrfConvertResponse
from ..wire.limits import LIMITS, Limits
from ..wire.prizes import PrizeRequest, PrizesResponse
from ..wire.progression import ProgressionRequest, ProgressionResponse
from .batch import BATCH_ROUTES
from .handling import start_gate, stop_gate
from .openapi import SCHEMA_PATH, render_plugins, static_routes
from .page import PAGE_ROUTES
from .ops import OPS_ROUTES, VERSION_HEADER, OpsConfig, OpsMiddleware
from .prizes import PRIZE_ROUTES
from .scenarios import SCENARIO_ROUTES
from .problems import EXCEPTION_HANDLERS
from .routes import ROUTES
from .security import HeadAsGet

# Every struct a handler decodes or encodes: the document's component schemas are msgspec's
# own for these (and what they contain). BatchResult, CheckLine: one NDJSON line of the batch
# and check responses.
DOCUMENTED_MODELS = [
    s.StandingsRequest,
    ProgressionRequest,
    TrfConvertRequest,
    BatchItem,
    CompareRequest,
    PrizeRequest,
    CheckItem,
    ScenariosRequest,
    s.StandingsResponse,
    ProgressionResponse,
    BatchResult,
    CompareResponse,
    TrfConvertResponse,
    PrizesResponse,
    CheckLine,
    ScenariosResponse,
    s.CatalogueEntry,
    s.PresetOut,
    s.VersionInfo,
    s.Health,
    s.Problem,
]


def create_app(limits: Limits = LIMITS, ops: OpsConfig | None = None) -> Litestar:
    ops = ops or OpsConfig()
    configure_logging(ops.log_level)
    admission = Admission(limits)
    app = Litestar(
        route_handlers=[
            *ROUTES,
            *PRIZE_ROUTES,
            *SCENARIO_ROUTES,
            *BATCH_ROUTES,
            *OPS_ROUTES,
            *static_routes(),
            *PAGE_ROUTES,
        ],
        compression_config=ops.compression(),
        cors_config=ops.cors(),
        state=State({"limits": limits, "ops": ops, "admission": admission, "documented_models": DOCUMENTED_MODELS}),
        # The compute gate's worker processes live as long as the app (compute/gate.py).
        on_startup=[start_gate],
        on_shutdown=[stop_gate],
        response_headers=[
            ResponseHeader(
                name="X-Request-ID",
                documentation_only=True,
                required=True,
                description="The request's X-Request-ID when it was a token of 1-128 characters [A-Za-z0-9._:-], "
                "else a new id; also in the access log line of the request",
            ),
            ResponseHeader(
                name=VERSION_HEADER,
                documentation_only=True,
                required=True,
                description="The service version that answered (as `GET /v1/version`)",
            ),
            ResponseHeader(
                name="Content-Language",
                documentation_only=True,
                required=True,
                description="The language of the answer's texts, negotiated from Accept-Language "
                "(en, ru, pl, zh, ja; en when none of them is acceptable); answers carry "
                "`Vary: Accept-Language`",
            ),
        ],
        exception_handlers=EXCEPTION_HANDLERS,
        request_max_body_size=limits.max_body_bytes,
        openapi_config=OpenAPIConfig(
            title="Chess tie-break service",
            version=__version__,
            description="Ranked standings under FIDE C.07 with every contribution explained.\n\n"
            "Languages: every human-readable text (rule names and descriptions, notes, cut reasons, "
            "warnings, problem `title`, `detail` and `errors[].message`) is written in the language "
            "`Accept-Language` asks for (RFC 9110 q-values; English, Russian, Polish, Simplified Chinese, "
            "Japanese; English otherwise), said by `Content-Language`. What a program reads never changes "
            "with the language: codes (`code`, `cut_code`, `reason_code`, rule `code` and `spec`), field "
            "paths, and numbers (JSON numbers, never a decimal comma).",
            use_handler_docstrings=False,
            path=SCHEMA_PATH,
            render_plugins=render_plugins(),
        ),
        debug=False,
    )
    # Outside routing and exception handling, one wrapper: request ids, access log, metrics, API keys,
    # and the language, security and version headers of every response. Inside it HEAD is answered as
    # GET without the body.
    app.asgi_handler = OpsMiddleware(HeadAsGet(app.asgi_handler), ops, admission)
    return app


app = create_app()
