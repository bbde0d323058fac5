"""POST /v1/scenarios: what each player needs before the last round (SPEC 3.11), with a worked
example in the document. Thin: the compute gate decodes, prices and computes it
(usecases/scenarios.py)."""

from __future__ import annotations

from litestar import Request, Response
from litestar.openapi.spec import Example

from ..wire.scenarios import ScenariosResponse
from .handling import answer_request
from .routes import PROBLEMS, computing_post, problem_spec, request_body_operation


def _game(rnd: int, white: int, black: int, result: str) -> list[dict]:
    """Both sides of a played game (`result` is white's)."""
    other = {"win": "loss", "loss": "win", "draw": "draw"}[result]
    return [
        {"round": rnd, "opponent": black, "color": "w", "result": result, "owner": white},
        {"round": rnd, "opponent": white, "color": "b", "result": other, "owner": black},
    ]


def _tournament() -> dict:
    games = _game(1, 1, 2, "win") + _game(1, 3, 4, "win") + _game(2, 3, 1, "win") + _game(2, 2, 4, "win")
    names = {1: "Kira", 2: "Hugo", 3: "Ana", 4: "Bo"}
    players = []
    for pid, name in names.items():
        results = [{k: v for k, v in g.items() if k != "owner"} for g in games if g["owner"] == pid]
        players.append({"id": pid, "name": name, "results": sorted(results, key=lambda r: r["round"])})
    return {"name": "Club championship", "system": "swiss", "rounds": 3, "players": players}


# Kira beat Hugo, Ana beat Kira; before round 3 Ana leads on 2, Kira and Hugo have 1 each.
EXAMPLE = {
    "tournament": _tournament(),
    "tiebreaks": ["DE"],
    "pairings": [{"round": 3, "white": 1, "black": 4}, {"round": 3, "white": 2, "black": 3}],
    "places": 1,
}

RESPONSES = {
    **PROBLEMS,
    422: problem_spec(
        "The body matches the schema but cannot be used: a pairing naming an unknown player or one who already "
        "has a result in that round, a player paired twice, an `assume` that is not one of the `pairings`"
    ),
}


ScenariosOperation = request_body_operation(
    "ScenariosRequest", {"last-round": Example(summary="Who can still win before the last round", value=EXAMPLE)}
)


@computing_post(
    "/v1/scenarios",
    operation_id="computeScenarios",
    summary="Before the last round(s): the places each player can still reach, which are certain, what it takes",
    description="Every outcome of the games in `pairings` (white wins, draw, black wins; minus those fixed "
    "by `assume`) is ranked exactly as POST /v1/standings ranks the finished event. Per player: the best and "
    "worst rank, the place clinched, and per place up to `places` that can be reached a minimal `needs` "
    "(any one conjunction of game results suffices). Past the cost limit (3 outcomes per open game) a 413 "
    "names how many games are open and how many fit.",
    operation=ScenariosOperation,
    responses=RESPONSES,
)
async def scenarios(request: Request) -> Response[ScenariosResponse]:
    return await answer_request(request, "scenarios")


SCENARIO_ROUTES = [scenarios]
