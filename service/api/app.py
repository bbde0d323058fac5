"""The ASGI application: `create_app()` builds it, `app` is what uvicorn serves."""

from __future__ import annotations

import msgspec
from litestar import Litestar
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components

from .errors import EXCEPTION_HANDLERS
from .limits import LIMITS
from .routes import ROUTES
from .schemas import StandingsRequest

REQUEST_MODELS = [StandingsRequest]


def _request_components() -> dict:
    _, components = msgspec.json.schema_components(REQUEST_MODELS, ref_template="#/components/schemas/{name}")
    return components


def create_app() -> Litestar:
    return Litestar(
        route_handlers=ROUTES,
        exception_handlers=EXCEPTION_HANDLERS,
        request_max_body_size=LIMITS.max_body_bytes,
        openapi_config=OpenAPIConfig(
            title="Chess tie-break service",
            version="1.0.0",
            description="Ranked standings under FIDE C.07 with every contribution explained.",
            components=Components(schemas=_request_components()),
            use_handler_docstrings=False,
        ),
        debug=False,
    )


app = create_app()
