"""The computing endpoints (standings, compare, TRF conversion) and the service's own (version,
liveness, readiness). Thin handlers: the body goes to the compute gate (http/handling.py), which
decodes it strictly, prices it once and computes it; no tie-break logic lives here."""

from __future__ import annotations

import typing
from dataclasses import dataclass

from litestar import Request, Response, get, post
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Example, OpenAPIMediaType, Operation, Reference, RequestBody

from ..version import __version__
from ..wire import schemas as s
from ..wire.compare import CompareResponse
from ..wire.io import TrfConvertResponse
from ..wire.progression import ProgressionResponse
from .catalogue import CATALOGUE_ROUTES
from .handling import NO_COMPRESSION, answer_request, gate_of
from .problems import PROBLEM_JSON


def problem_spec(description: str) -> ResponseSpec:
    return ResponseSpec(
        data_container=s.Problem, description=description, media_type=PROBLEM_JSON, generate_examples=False
    )


PROBLEMS = {
    400: problem_spec("The body is not JSON or does not match this document's schema; `errors` names each field"),
    401: problem_spec("API-key authentication is on (TIEBREAK_API_KEYS) and no accepted key was sent"),
    413: problem_spec("Request body too large"),
    415: problem_spec("The body is not application/json, or its Content-Encoding is not identity"),
    422: problem_spec(
        "The body matches the schema but cannot be computed: a crosstable that contradicts "
        "itself, a rule or preset unknown under the rule set, TRF text that cannot be read, "
        "a `player` not in the event"
    ),
    503: problem_spec(
        "Busy (every compute worker and its queue are taken) or the compute deadline passed; "
        "retry after the `Retry-After` seconds"
    ),
}


def request_body_operation(component: str, examples: dict[str, Example | Reference] | None = None) -> type[Operation]:
    """An Operation whose request body is the msgspec-generated schema `component` (with `examples`).

    The handlers decode their bodies themselves with msgspec in strict mode (no
    "5" for 5), so the documented schema is exactly the one that validates.
    """

    @dataclass
    class WithBody(Operation):
        def __post_init__(self) -> None:
            self.request_body = RequestBody(
                required=True,
                content={
                    "application/json": OpenAPIMediaType(
                        schema=Reference(ref=f"#/components/schemas/{component}"), examples=examples
                    )
                },
            )

    return WithBody


def computing_post(
    path: str,
    *,
    operation_id: str,
    summary: str,
    description: str,
    operation: type[Operation],
    responses: dict[int, ResponseSpec] = PROBLEMS,
) -> post:
    """The route of an endpoint the compute gate answers: POST, 200, the problems it can answer, its
    body's schema (`operation`), and no compression by litestar (the gate gzips its answers itself)."""
    return post(
        path,
        operation_id=operation_id,
        summary=summary,
        description=description,
        status_code=200,
        operation_class=operation,
        responses=responses,
        opt=NO_COMPRESSION,
    )


@computing_post(
    "/v1/standings",
    operation_id="computeStandings",
    summary="Ranked standings with a per-player breakdown of every tie-break",
    description="The tournament (JSON, or TRF text) ranked by points and then by each rule of `tiebreaks` "
    "(or of a `preset`) in order, under the rule set of `regulations`. Each row gives the "
    "player's values, the rule that separated them from the next row (`decided_by`) and, with "
    "`explain` (the default), every contribution each rule summed, cut or not and why. "
    "`offset`, `top` and `player` return only some rows; everyone is still ranked.",
    operation=request_body_operation("StandingsRequest"),
)
async def standings(request: Request) -> Response[s.StandingsResponse]:
    return await answer_request(request, "standings")


@computing_post(
    "/v1/standings/progression",
    operation_id="standingsProgression",
    summary="The ranks and points of every player after each round, for charts",
    description="The body of /v1/standings without `explain`, `offset`, `top` and `player`. Each round k from 1 "
    "to `after_round` (default: the last played) is ranked exactly as /v1/standings with `after_round: k`, "
    "under the same rule list; a team event gives match and game points per round too.",
    operation=request_body_operation("ProgressionRequest"),
)
async def progression(request: Request) -> Response[ProgressionResponse]:
    return await answer_request(request, "progression")


@computing_post(
    "/v1/compare",
    operation_id="compareRuleLists",
    summary="One crosstable under several named rule lists: who wins under each, who moves",
    description="The same event ranked under up to 10 named lists (rule lists or presets, each under its own "
    "rule set if wished), side by side: each list's full standings, who is first under each, "
    "and every player whose rank is not the same under all of them, biggest moves first.",
    operation=request_body_operation("CompareRequest"),
)
async def compare(request: Request) -> Response[CompareResponse]:
    return await answer_request(request, "compare")


@computing_post(
    "/v1/trf",
    operation_id="convertTrf",
    summary="Read TRF text into the JSON tournament (`trf`), or write a JSON tournament as TRF (`tournament`)",
    description="The field given decides the direction; both answers are JSON. Reading reports every line it "
    "could not use as a warning (line and column); writing ranks the tournament by `tiebreaks` "
    "for the points and rank columns and warns about what TRF cannot carry.",
    operation=request_body_operation("TrfConvertRequest"),
)
async def convert_trf(request: Request) -> Response[TrfConvertResponse]:
    return await answer_request(request, "trf")


_VERSION = s.VersionInfo(service=__version__, api="v1", regulations=list(typing.get_args(s.AppliedRegulations)))


@get(
    "/v1/version",
    operation_id="version",
    summary="The service version and the rule sets it computes",
    description="The same version is in the `Tiebreak-Version` header of every response and in every batch "
    "line, so a stored result can be traced to the release that computed it.",
)
async def version() -> s.VersionInfo:
    return _VERSION


@get(
    "/healthz",
    operation_id="health",
    summary="Liveness: the process answers (never waits for computations)",
    description="200 while the process answers; for load balancers and Kubernetes probes (no API key).",
    sync_to_thread=False,
)
def healthz() -> s.Health:
    return s.Health(status="ok")


@get(
    "/readyz",
    operation_id="ready",
    summary="Readiness: not ready (503) while the compute gate is saturated",
    description="200 when the service takes requests, 503 while it would shed them; for Kubernetes readiness "
    "probes (no API key).",
    sync_to_thread=False,
    responses={
        503: ResponseSpec(
            data_container=s.Health,
            description="Saturated: every compute worker and its queue are taken, or the "
            "server is at its in-flight limit; send traffic elsewhere",
        )
    },
)
def readyz(request: Request) -> Response[s.Health]:
    gate = gate_of(request.app, create=False)
    if (gate is not None and gate.saturated()) or request.app.state.admission.full():
        return Response(s.Health(status="saturated"), status_code=503, headers={"Retry-After": "1"})
    return Response(s.Health(status="ok"))


ROUTES = [standings, progression, compare, convert_trf, *CATALOGUE_ROUTES, version, healthz, readyz]
