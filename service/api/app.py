"""The ASGI application: `create_app()` builds it, `app` is what uvicorn serves."""

from __future__ import annotations

import msgspec
from litestar import Litestar
from litestar.datastructures import ResponseHeader, State
from litestar.openapi import OpenAPIConfig

from .errors import EXCEPTION_HANDLERS
from .gate import Admission, start_gate, stop_gate
from .limits import LIMITS, Limits
from .ops import OPS_ROUTES, OpsConfig, OpsMiddleware, configure_logging
from .batch import BATCH_ROUTES
from .compare import COMPARE_ROUTES, CompareRequest
from .prizes_routes import PRIZE_ROUTES, PrizeRequest
from .routes import ROUTES
from .schemas import StandingsRequest
from .schemas_io import BatchItem, BatchResult, TrfConvertRequest
from .check import CheckItem, CheckLine
from .trf_routes import TRF_ROUTES

# BatchResult, CheckLine: the schemas of each NDJSON line of the batch and check responses,
# documented by hand in batch.py.
REQUEST_MODELS = [StandingsRequest, TrfConvertRequest, BatchItem, BatchResult, CompareRequest, PrizeRequest,
                  CheckItem, CheckLine]


def _request_components() -> dict:
    _, components = msgspec.json.schema_components(REQUEST_MODELS, ref_template="#/components/schemas/{name}")
    return components


def create_app(limits: Limits = LIMITS, ops: OpsConfig | None = None) -> Litestar:
    ops = ops or OpsConfig()
    configure_logging(ops.log_level)
    admission = Admission(limits)
    app = Litestar(
        route_handlers=[*ROUTES, *COMPARE_ROUTES, *PRIZE_ROUTES, *TRF_ROUTES, *BATCH_ROUTES, *OPS_ROUTES],
        compression_config=ops.compression(),
        cors_config=ops.cors(),
        state=State({"limits": limits, "ops": ops, "admission": admission}),
        # The compute gate's worker processes live as long as the app (service/api/gate.py).
        on_startup=[start_gate],
        on_shutdown=[stop_gate],
        response_headers=[ResponseHeader(
            name="X-Request-ID", documentation_only=True, required=True,
            description="The request's X-Request-ID when it was a token of 1-128 characters [A-Za-z0-9._:-], "
                        "else a new id; also in the access log line of the request")],
        exception_handlers=EXCEPTION_HANDLERS,
        request_max_body_size=limits.max_body_bytes,
        openapi_config=OpenAPIConfig(
            title="Chess tie-break service",
            version="1.0.0",
            description="Ranked standings under FIDE C.07 with every contribution explained.",
            use_handler_docstrings=False,
        ),
        debug=False,
    )
    # Request bodies are decoded by msgspec itself (strict), so their documented
    # schemas are msgspec's own; litestar builds the rest of the document.
    app.openapi_schema.components.schemas.update(_request_components())
    # Outside routing and exception handling: request ids, access log, metrics and API keys for every response.
    app.asgi_handler = OpsMiddleware(app.asgi_handler, ops, admission)
    return app


app = create_app()
