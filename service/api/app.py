"""The ASGI application: `create_app()` builds it, `app` is what uvicorn serves."""

from __future__ import annotations

import msgspec
from litestar import Litestar
from litestar.openapi import OpenAPIConfig

from .errors import EXCEPTION_HANDLERS
from .limits import LIMITS, Limits
from .routes import ROUTES
from .schemas import StandingsRequest

REQUEST_MODELS = [StandingsRequest]


def _request_components() -> dict:
    _, components = msgspec.json.schema_components(REQUEST_MODELS, ref_template="#/components/schemas/{name}")
    return components


def create_app(limits: Limits = LIMITS) -> Litestar:
    app = Litestar(
        route_handlers=ROUTES,
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
    return app


app = create_app()
