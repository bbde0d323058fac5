"""POST /v1/prizes: prize money for tied players (SPEC 3.8). Thin: decode strictly, bound
the work, distribute (tiebreak.prizes), encode."""

from __future__ import annotations

from dataclasses import dataclass

import msgspec
from litestar import Request, Response, post
from litestar.openapi.spec import Example, OpenAPIMediaType, Operation, RequestBody

from .. import prizes as pz
from . import schemas as s
from .errors import msgspec_problem, problem
from .gate import NO_COMPRESSION, answer_request
from .limits import PRESCAN_BYTES, LimitExceeded, Limits
from .routes import PROBLEMS, _problem_spec
from .schemas_prizes import PrizeRequest, PrizesResponse
from .wire import WireDecoder

_decoder = WireDecoder(PrizeRequest)


class _Players(msgspec.Struct):
    players: list[msgspec.Raw] = []


class _Inner(msgspec.Struct):
    tournament: _Players | None = None


class _Shape(msgspec.Struct):
    standings: list[msgspec.Raw] | None = None
    prizes: list[msgspec.Raw] | None = None
    standings_request: _Inner | None = None


_shape_decoder = msgspec.json.Decoder(_Shape)


def _prescan(data: bytes, limits: Limits) -> None:
    """Count the rows, prizes and crosstable players of a large body before building them
    (as limits.prescan does for standings requests): msgspec checks a list's length only
    once the list is built."""
    if len(data) <= PRESCAN_BYTES:
        return
    try:
        shape = _shape_decoder.decode(data)
    except msgspec.MsgspecError:
        return  # malformed or of another shape: the strict decoder names the field
    counts = [("max_players", "standings", shape.standings, limits.max_players),
              ("max_prizes", "prizes", shape.prizes, limits.max_prizes)]
    if shape.standings_request is not None and shape.standings_request.tournament is not None:
        counts.append(("max_players", "standings_request.tournament.players",
                       shape.standings_request.tournament.players, limits.max_players))
    for limit, path, items, bound in counts:
        if items is not None and len(items) > bound:
            raise LimitExceeded(limit, path, f"{len(items)} {path.rsplit('.', 1)[-1]}", limits=limits)

RESPONSES = {**PROBLEMS, 422: _problem_spec(
    "The body matches the schema but cannot be used: an unknown category, an amount finer than the unit, "
    "standings out of order or naming a player twice, a `standings_request` that cannot be computed")}

# Two tied for 2nd: the U1600 prize one of them brings in is pooled with 2nd place (US Chess 32B3).
EXAMPLE = {
    "standings": [
        {"id": 1, "name": "Ana", "points": 4, "rating": 2000},
        {"id": 2, "name": "Bo", "points": 3.5, "rating": 1550},
        {"id": 3, "name": "Cai", "points": 3.5, "rating": 1800},
        {"id": 4, "name": "Dee", "points": 3, "rating": 1500},
    ],
    "categories": {"overall": {}, "u1600": {"rating_below": 1600}},
    "prizes": [
        {"id": "1", "name": "First", "amount": "300", "items": ["Trophy"]},
        {"id": "2", "name": "Second", "amount": "150"},
        {"id": "u1600", "name": "Best under 1600", "amount": "100", "category": "u1600"},
    ],
    "rules": {"sharing": "pool", "one_cash_prize": True, "currency": "USD", "rounding": {"unit": "0.01"}},
}


@dataclass
class PrizesOperation(Operation):
    """The request body is msgspec's schema of PrizeRequest (decoded strictly), with a worked example."""

    def __post_init__(self) -> None:
        self.request_body = RequestBody(required=True, content={"application/json": OpenAPIMediaType(
            schema={"$ref": "#/components/schemas/PrizeRequest"},
            examples={"class-prize-in-the-pool": Example(summary="A class prize pooled with 2nd place",
                                                         value=EXAMPLE)})})


_DECIMAL_TEXT = {
    "hort_keep": "not a part between 0 and 1: write a decimal string such as \"0.5\"",
    "amount": "not an amount: write a non-negative decimal string such as \"150\" or \"99.50\" (at most 6 decimals)",
    "unit": "not a currency unit: write a positive decimal string such as \"0.01\" or \"1\"",
}


def _schema_problem(exc: msgspec.ValidationError) -> Response[s.Problem]:
    """The 400 of a body that does not match the schema; a decimal string that does not match
    its pattern is said in words rather than as the regular expression."""
    response = msgspec_problem(exc)
    item = response.content.errors[0]
    field = item.path.rsplit(".", 1)[-1]
    if "matching regex" in item.message and field in _DECIMAL_TEXT:
        return problem(400, response.content.detail, [s.ProblemItem(path=item.path, message=_DECIMAL_TEXT[field])])
    return response


def _problem_of(exc: pz.PrizeInputError) -> Response[s.Problem]:
    # The body matched the schema; what tiebreak.prizes refuses is content the schema cannot
    # express (an unknown category, an amount finer than the unit, standings out of order):
    # a 422, like every content error of the API (docs/contract.md).
    detail = ("the standings contradict themselves" if exc.status == 422
              else "the prizes cannot be distributed as given")
    return problem(422, f"{detail} ({len(exc.problems)} problem(s))",
                   [s.ProblemItem(path=pz.format_path(p.path), message=p.message) for p in exc.problems])


@post(
    "/v1/prizes",
    operation_id="distributePrizes",
    summary="Prize money for tied players: pooled, Hort system or by the standings, paid exactly to the unit",
    description="Final standings (or a standings request computed first), categories and prizes in; who "
                "receives what out, by score group: each group brings in the prizes it would win untied and "
                "shares them as `rules.sharing` says, every pool paid exactly to `rules.rounding.unit`, "
                "each share explained. A prize nobody can win is listed in `unawarded`.",
    status_code=200,
    operation_class=PrizesOperation,
    responses=RESPONSES,
    opt=NO_COMPRESSION,
)
async def prizes(request: Request) -> Response[PrizesResponse]:
    # decoded, priced and computed by the compute gate (service/tiebreak/api/work.py `prizes`)
    return await answer_request(request, "prizes")


PRIZE_ROUTES = [prizes]
