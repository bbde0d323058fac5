"""Thin handlers: decode strictly, call the engine, encode. No tie-break logic lives here."""

from __future__ import annotations

from dataclasses import dataclass

import msgspec
from litestar import Request, get, post
from litestar.exceptions import HTTPException
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import OpenAPIMediaType, Operation, RequestBody

from . import schemas as s
from .catalogue_routes import CATALOGUE_ROUTES
from .errors import PROBLEM_JSON
from .pipeline import request_size, run_standings
from .ops import compute_bounded
from .limits import prescan

# Requests bigger than this (players × rounds) run in a worker thread, so that
# one large tournament does not stall health checks and small requests.
THREAD_THRESHOLD = 20_000

_standings_decoder = msgspec.json.Decoder(s.StandingsRequest)


def _problem_spec(description: str) -> ResponseSpec:
    return ResponseSpec(data_container=s.Problem, description=description, media_type=PROBLEM_JSON,
                        generate_examples=False)


PROBLEMS = {
    400: _problem_spec("Malformed or invalid input; `errors` names each field"),
    401: _problem_spec("API-key authentication is on (TIEBREAK_API_KEYS) and no accepted key was sent"),
    413: _problem_spec("Request body too large"),
    415: _problem_spec("The body is not application/json"),
    422: _problem_spec("The crosstable contradicts itself, or the compute deadline passed"),
}


def request_body_operation(component: str) -> type[Operation]:
    """An Operation whose request body is the msgspec-generated schema `component`.

    The handlers decode their bodies themselves with msgspec in strict mode (no
    "5" for 5), so the documented schema is exactly the one that validates.
    """

    @dataclass
    class WithBody(Operation):
        def __post_init__(self) -> None:
            self.request_body = RequestBody(
                required=True,
                content={"application/json": OpenAPIMediaType(schema={"$ref": f"#/components/schemas/{component}"})},
            )

    return WithBody


# Raw TRF text is refused rather than guessed at: one strict JSON schema validates every
# request, and the rules, regulations and options travel beside the text (docs/decisions.md).
TRF_AS_TEXT = ("send the body as application/json; to send a TRF file, wrap its text in JSON: "
               "{\"trf\": \"<the file's text>\", \"tiebreaks\": [\"BH/C1\", \"BH\"]} "
               "(for example: jq -Rs '{trf: .}' event.trf | curl --json @- URL)")


async def decode_json(request: Request, decoder: msgspec.json.Decoder):
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json" and not media.endswith("+json"):
        if media.startswith("text/") or not media:
            raise HTTPException(status_code=415, detail=TRF_AS_TEXT)
        raise HTTPException(status_code=415, detail=f"send the body as application/json, not {media}")
    data = await request.body()
    prescan(data, request.app.state.limits)  # large bodies: count players and rules before building them
    try:
        return decoder.decode(data)
    except msgspec.MsgspecError as exc:
        exc.root_type = decoder.type  # errors.py lists the fields or values the schema allows there
        exc.empty_body = not data.strip()
        raise


@post(
    "/v1/standings",
    operation_id="computeStandings",
    summary="Ranked standings with a per-player breakdown of every tie-break",
    status_code=200,
    operation_class=request_body_operation("StandingsRequest"),
    responses=PROBLEMS,
)
async def standings(request: Request) -> s.StandingsResponse:
    body: s.StandingsRequest = await decode_json(request, _standings_decoder)
    return await compute_bounded(request, run_standings, body, request_size(body), THREAD_THRESHOLD)


@get("/healthz", operation_id="health", summary="Liveness")
async def healthz() -> s.Health:
    return s.Health(status="ok")


@get("/readyz", operation_id="ready", summary="Readiness")
async def readyz() -> s.Health:
    return s.Health(status="ok")


ROUTES = [standings, *CATALOGUE_ROUTES, healthz, readyz]
