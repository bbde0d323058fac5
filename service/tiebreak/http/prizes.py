"""POST /v1/prizes: prize money for tied players (SPEC 3.8), with a worked example in the document.
Thin: the compute gate decodes, prices and computes it (usecases/prizes.py)."""

from __future__ import annotations

from litestar import Request, Response
from litestar.openapi.spec import Example

from ..wire.prizes import PrizesResponse
from .handling import answer_request
from .routes import PROBLEMS, computing_post, problem_spec, request_body_operation

RESPONSES = {
    **PROBLEMS,
    422: problem_spec(
        "The body matches the schema but cannot be used: an unknown category, an amount finer than the unit, "
        "standings out of order or naming a player twice, a `standings_request` that cannot be computed"
    ),
}

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


PrizesOperation = request_body_operation(
    "PrizeRequest", {"class-prize-in-the-pool": Example(summary="A class prize pooled with 2nd place", value=EXAMPLE)}
)


@computing_post(
    "/v1/prizes",
    operation_id="distributePrizes",
    summary="Prize money for tied players: pooled, Hort system or by the standings, paid exactly to the unit",
    description="Final standings (or a standings request computed first), categories and prizes in; who "
    "receives what out, by score group: each group brings in the prizes it would win untied and "
    "shares them as `rules.sharing` says, every pool paid exactly to `rules.rounding.unit`, "
    "each share explained. A prize nobody can win is listed in `unawarded`.",
    operation=PrizesOperation,
    responses=RESPONSES,
)
async def prizes(request: Request) -> Response[PrizesResponse]:
    return await answer_request(request, "prizes")


PRIZE_ROUTES = [prizes]
