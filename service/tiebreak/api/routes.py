"""Thin handlers: decode strictly, call the engine, encode. No tie-break logic lives here."""

from __future__ import annotations

import typing
from dataclasses import dataclass

import msgspec
from litestar import Request, Response, get, post
from litestar.exceptions import HTTPException
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import OpenAPIMediaType, Operation, RequestBody

from ..version import __version__
from . import schemas as s
from .catalogue_routes import CATALOGUE_ROUTES
from .errors import PROBLEM_JSON
from .gate import NO_COMPRESSION, answer_request, gate_of
from .limits import prescan


def _problem_spec(description: str) -> ResponseSpec:
    return ResponseSpec(data_container=s.Problem, description=description, media_type=PROBLEM_JSON,
                        generate_examples=False)


PROBLEMS = {
    400: _problem_spec("The body is not JSON or does not match this document's schema; `errors` names each "
                       "field"),
    401: _problem_spec("API-key authentication is on (TIEBREAK_API_KEYS) and no accepted key was sent"),
    413: _problem_spec("Request body too large"),
    415: _problem_spec("The body is not application/json, or its Content-Encoding is not identity"),
    422: _problem_spec("The body matches the schema but cannot be computed: a crosstable that contradicts "
                       "itself, a rule or preset unknown under the rule set, TRF text that cannot be read, "
                       "a `player` not in the event"),
    503: _problem_spec("Busy (every compute worker and its queue are taken) or the compute deadline passed; "
                       "retry after the `Retry-After` seconds"),
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
    """The body decoded on the event loop, for endpoints without computation (nesting bounded first)."""
    from .limits import check_json_depth

    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json" and not media.endswith("+json"):
        if media.startswith("text/") or not media:
            raise HTTPException(status_code=415, detail=TRF_AS_TEXT)
        raise HTTPException(status_code=415, detail=f"send the body as application/json, not {media}")
    data = await request.body()
    check_json_depth(data, request.app.state.limits)
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
    description="The tournament (JSON, or TRF text) ranked by points and then by each rule of `tiebreaks` "
                "(or of a `preset`) in order, under the rule set of `regulations`. Each row gives the "
                "player's values, the rule that separated them from the next row (`decided_by`) and, with "
                "`explain` (the default), every contribution each rule summed, cut or not and why. "
                "`offset`, `top` and `player` return only some rows; everyone is still ranked.",
    status_code=200,
    operation_class=request_body_operation("StandingsRequest"),
    responses=PROBLEMS,
    opt=NO_COMPRESSION,
)
async def standings(request: Request) -> Response[s.StandingsResponse]:
    # decoded, priced and computed by the compute gate (service/tiebreak/api/work.py `standings`)
    return await answer_request(request, "standings")


_VERSION = s.VersionInfo(service=__version__, api="v1", regulations=list(typing.get_args(s.AppliedRegulations)))


@get("/v1/version", operation_id="version", summary="The service version and the rule sets it computes",
     description="The same version is in the `Tiebreak-Version` header of every response and in every batch "
                 "line, so a stored result can be traced to the release that computed it.")
async def version() -> s.VersionInfo:
    return _VERSION


@get("/healthz", operation_id="health", summary="Liveness: the process answers (never waits for computations)",
     description="200 while the process answers; for load balancers and Kubernetes probes (no API key).",
     sync_to_thread=False)
def healthz() -> s.Health:
    return s.Health(status="ok")


@get("/readyz", operation_id="ready", summary="Readiness: not ready (503) while the compute gate is saturated",
     description="200 when the service takes requests, 503 while it would shed them; for Kubernetes readiness "
                 "probes (no API key).",
     sync_to_thread=False, responses={503: ResponseSpec(
         data_container=s.Health, description="Saturated: every compute worker and its queue are taken, or the "
                                               "server is at its in-flight limit; send traffic elsewhere")})
def readyz(request: Request) -> Response[s.Health]:
    gate = gate_of(request.app, create=False)
    if (gate is not None and gate.saturated()) or request.app.state.admission.full():
        return Response(s.Health(status="saturated"), status_code=503, headers={"Retry-After": "1"})
    return Response(s.Health(status="ok"))


ROUTES = [standings, *CATALOGUE_ROUTES, version, healthz, readyz]
