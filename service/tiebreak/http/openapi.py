"""The OpenAPI document as the contract, and the pages that show it, without any CDN.

litestar builds the paths from the route handlers; this module completes what it cannot
know, once per app:

- every component schema is msgspec's own for the struct the handlers decode or encode
  (descriptions from the structs' docstrings and `Meta`), plus the cross-field rules the
  request structs declare (`schema_rules.py`) as `oneOf`/`not` with `required`;
- every request body carries worked `examples` (examples.py) that reach the 200 path, and the
  200 response what the service answers to them (response_examples.py);
- the API-key security schemes; the service version as `info.version`.

The documentation pages (ReDoc at /schema, Swagger UI at /schema/swagger) load their
scripts from the `openapi-ui-bundles` package installed with the service, served under
/schema/static/ (ReDoc's without its CDN logo), so they work in a hall without internet and
make no request elsewhere.
"""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any

import msgspec
import msgspec.inspect as mi
from litestar import Litestar, Request, Response, get
from litestar.openapi.plugins import (
    JsonRenderPlugin,
    OpenAPIRenderPlugin,
    RedocRenderPlugin,
    SwaggerRenderPlugin,
    YamlRenderPlugin,
)

from .assets import static_files
from openapi_ui_bundles import redoc as redoc_bundle
from openapi_ui_bundles import swagger_ui as swagger_bundle

from ..version import __version__
from .examples import REQUEST_EXAMPLES
from .response_examples import add_to as add_response_examples
from .response_examples import stored as stored_response_examples
from ..wire.rules import rules_schema

SCHEMA_PATH = "/schema"
STATIC_PATH = f"{SCHEMA_PATH}/static"
REF_TEMPLATE = "#/components/schemas/{name}"

API_KEY_SCHEMES = {
    "ApiKeyHeader": {
        "type": "apiKey",
        "in": "header",
        "name": "X-API-Key",
        "description": "One of the keys in TIEBREAK_API_KEYS (only when the operator set it)",
    },
    "BearerKey": {"type": "http", "scheme": "bearer", "description": "The same key as `Authorization: Bearer <key>`"},
}
# Probes, the scraper and the documentation stay open when keys are on (ops.PUBLIC_PATHS).
OPEN_PATHS = ("/healthz", "/readyz", "/metrics")


# ---- component schemas ----


def _struct_types(types) -> dict[str, mi.StructType]:
    """Every struct reachable from `types`, by the component name msgspec gives it."""
    found: dict[str, mi.StructType] = {}

    def visit(info) -> None:
        if isinstance(info, mi.StructType):
            if info.cls.__name__ not in found:
                found[info.cls.__name__] = info
                for f in info.fields:
                    visit(f.type)
        elif isinstance(info, mi.Metadata):
            visit(info.type)
        elif isinstance(info, mi.UnionType):
            for member in info.types:
                visit(member)
        elif isinstance(info, (mi.ListType, mi.SetType, mi.FrozenSetType, mi.VarTupleType)):
            visit(info.item_type)
        elif isinstance(info, mi.DictType):
            visit(info.value_type)

    for info in mi.multi_type_info(types):
        visit(info)
    return found


def _lift_description(schema: dict) -> dict:
    """`Annotated[X, Meta(description=...)] | None` puts the description on the non-null
    member of an `anyOf`; documentation tools show the property's own, so it moves up."""
    members = schema.get("anyOf")
    if members and "description" not in schema:
        described = [m for m in members if isinstance(m, dict) and "description" in m]
        if len(described) == 1:
            return {"description": described[0]["description"], **schema}
    return schema


def _default_in_words(schema: dict) -> dict:
    """A property's `default` said in its description instead: openapi-typescript makes every
    property with a `default` required (decision 0135), and a client may leave any of them out."""
    if "default" not in schema:
        return schema
    schema = dict(schema)
    default = schema.pop("default")
    if default is None:  # an optional field that may be null: nothing more to say
        return schema
    said = f"Default: `{msgspec.json.encode(default).decode()}`."
    description = schema.get("description", "").rstrip()
    if description and not description.endswith("."):
        description += "."
    return {**schema, "description": f"{description} {said}".lstrip()}


def component_schemas(models) -> dict[str, dict]:
    """msgspec's JSON Schema of `models` and what they contain, with each struct's
    cross-field rules merged in."""
    _, components = msgspec.json.schema_components(models, ref_template=REF_TEMPLATE)
    for component in components.values():
        if "properties" in component:
            component["properties"] = {
                name: _default_in_words(_lift_description(prop)) for name, prop in component["properties"].items()
            }
    for name, info in _struct_types(models).items():
        rules = getattr(info.cls, "schema_rules", ())
        if rules:
            defaults = {f.name: f.default for f in info.fields if f.default is not msgspec.NODEFAULT}
            components[name].update(rules_schema(rules, components[name]["properties"], defaults))
    return components


# ---- the finished document ----

# Every operation answers in the language asked for (SPEC 3.10; texts only: codes and numbers never change).
ACCEPT_LANGUAGE = {
    "name": "Accept-Language",
    "in": "header",
    "required": False,
    "description": "The language of the texts (RFC 9110 12.5.4, q-values honoured): en, ru, pl, zh (Simplified), "
    "ja; anything else falls back to English. Codes, specs, field paths and numbers are the same in every language.",
    "schema": {"type": "string"},  # any value is accepted: what is not understood means English
    "example": "ru, en;q=0.5",
}


def finish(
    document: dict[str, Any], models, examples: dict, api_keys_on: bool, response_examples: dict | None = None
) -> dict[str, Any]:
    """The document litestar generated, completed (a new dict; the input is not changed)."""
    doc = copy.deepcopy(document)
    doc["info"]["version"] = __version__
    doc["components"]["schemas"].update(component_schemas(models))
    doc["components"]["securitySchemes"] = API_KEY_SCHEMES
    # Without keys the schemes are documented but optional (`{}`); with keys they are required.
    optional: list[dict[str, list[str]]] = [] if api_keys_on else [{}]
    requirement = [{"ApiKeyHeader": []}, {"BearerKey": []}, *optional]
    for path, item in doc["paths"].items():
        for operation in item.values():
            operation.setdefault("parameters", []).append(ACCEPT_LANGUAGE)
            if path not in OPEN_PATHS:
                operation["security"] = requirement
            _ndjson_for_generators(operation)
            body = operation.get("requestBody")
            named = examples.get(operation.get("operationId"), {})
            for media, content in (body or {}).get("content", {}).items():
                if media in named:
                    content["examples"] = named[media]
    add_response_examples(doc, response_examples or {})
    return doc


NDJSON = "application/x-ndjson"


def _ndjson_for_generators(operation: dict[str, Any]) -> None:
    """An NDJSON stream as code generators can take it (decision 0135): its line's schema as
    `itemSchema` (OpenAPI 3.2's word for a sequential media type), since generators read `schema` as
    the whole body. A request body declares NDJSON beside the JSON array the same way, the whole
    body as bytes (decision 0213): generators send it as a file."""
    request = (operation.get("requestBody") or {}).get("content", {}).get(NDJSON)
    if request is not None and "schema" in request:
        request["itemSchema"] = request.pop("schema")
        request["schema"] = {"type": "string", "format": "binary"}
    for response in operation.get("responses", {}).values():
        media = response.get("content", {}).get(NDJSON)
        if media is not None and "schema" in media:
            media["itemSchema"] = media.pop("schema")


def finished_document(app: Litestar) -> dict[str, Any]:
    """The app's finished document, built once and kept in the app's state."""
    doc = app.state.get("openapi_document")
    if doc is None:
        doc = finish(
            app.openapi_schema.to_schema(),
            app.state["documented_models"],
            REQUEST_EXAMPLES,
            bool(app.state["ops"].api_keys),
            stored_response_examples(),
        )
        app.state["openapi_document"] = doc
    return doc


# ---- the pages ----

# Render plugins that render the finished document instead of litestar's own.


class FinishedJson(JsonRenderPlugin):
    def render(self, request: Request, openapi_schema: dict[str, Any]) -> bytes:
        return super().render(request, finished_document(request.app))


class FinishedYaml(YamlRenderPlugin):
    def render(self, request: Request, openapi_schema: dict[str, Any]) -> bytes:
        return super().render(request, finished_document(request.app))


class FinishedRedoc(RedocRenderPlugin):
    def render(self, request: Request, openapi_schema: dict[str, Any]) -> bytes:
        return super().render(request, finished_document(request.app))


class FinishedSwagger(SwaggerRenderPlugin):
    def render(self, request: Request, openapi_schema: dict[str, Any]) -> bytes:
        return super().render(request, finished_document(request.app))


# Nothing leaves the server: the pages carry a Content-Security-Policy that allows this origin
# only (inline scripts: litestar's pages start the UIs inline; blob: workers: ReDoc's search).
# litestar puts `favicon` first in <head>, before any script, so the policy covers everything.
DOCS_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'"
)
_HEAD = (
    f"<meta http-equiv='Content-Security-Policy' content=\"{DOCS_POLICY}\">"
    f"<link rel='icon' type='image/png' href='{STATIC_PATH}/swagger-ui/favicon-32x32.png'>"
)


# ReDoc's sidebar always draws Redocly's logo from their CDN (no option turns it off): a request the
# policy blocks but that is still made and logged as an error. Our copy of the script has an empty
# data: image there instead, which fails at once, so ReDoc drops it without asking anything of anyone.
REDOC_LOGO = b"https://cdn.redoc.ly/redoc/logo-mini.svg"
OFFLINE_REDOC_PATH = f"{STATIC_PATH}/redoc-offline.js"


@functools.cache
def offline_redoc_script() -> bytes:
    return (Path(redoc_bundle.static_path) / "redoc.standalone.js").read_bytes().replace(REDOC_LOGO, b"data:,")


@get(OFFLINE_REDOC_PATH, include_in_schema=False, sync_to_thread=False)
def offline_redoc() -> Response[bytes]:
    return Response(
        offline_redoc_script(),
        media_type="text/javascript; charset=utf-8",
        headers={"Cache-Control": "public, max-age=86400"},
    )


def render_plugins() -> list[OpenAPIRenderPlugin]:
    swagger = f"{STATIC_PATH}/swagger-ui"
    return [
        FinishedRedoc(path=["/", "/redoc"], js_url=OFFLINE_REDOC_PATH, google_fonts=False, favicon=_HEAD),
        FinishedSwagger(
            path="/swagger",
            js_url=f"{swagger}/swagger-ui-bundle.js",
            css_url=f"{swagger}/swagger-ui.css",
            standalone_preset_js_url=f"{swagger}/swagger-ui-standalone-preset.js",
            favicon=_HEAD,
        ),
        FinishedJson(),
        FinishedYaml(),
    ]


def static_routes() -> list:
    """The UI bundles' files, from the installed package; cached a day by browsers."""
    cache = "max-age=86400, public"
    return [
        offline_redoc,
        static_files(f"{STATIC_PATH}/swagger-ui", Path(swagger_bundle.static_path), cache, "swagger-ui-assets"),
        static_files(f"{STATIC_PATH}/redoc", Path(redoc_bundle.static_path), cache, "redoc-assets"),
    ]
