"""A use case's bound (usecases/bounds.py) is never below the price of its plan: the gate computes
on the event loop what the bound finds cheap, and the plan must not find it dearer. Checked for
the standings, progression and compare of every corpus file, individual and team, and of the
real-world exports (read in place, ../shared/conformance/realworld-trf), under the options that
move the price: breakdowns or not, one player's row, the file's own rules or a list given."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from tiebreak.formats.trf import decode_trf, parse_trf
from tiebreak.usecases.convert import tournament_to_wire
from tiebreak.usecases.cost import estimate
from tiebreak.usecases.requests import KINDS
from tiebreak.wire.decode import decode
from tiebreak.wire.limits import LIMITS
from testkit.conformance import FIXTURES, REALWORLD, all_cases
from testkit.conformance_teams import load_team_cases

FILES = sorted(
    [*FIXTURES.glob("conformance_fide*/*.trf"), *REALWORLD.glob("*.trf"), *REALWORLD.glob("*.trfx")],
    key=lambda p: (p.parent.name, p.name),
)
OPTIONS = [
    {"explain": True},
    {"explain": False},
    {"explain": True, "player": 1},
    {"explain": True, "tiebreaks": ["BH/C1", "BH", "SB", "DE", "ARO"]},
    {"explain": False, "preset": "fide-swiss-traditional"},
    {"explain": True, "participants": "players"},
]


def prices(kind: str, body: dict) -> tuple[float, float] | None:
    """(the bound's seconds, the plan's), or None when the plan refuses the request."""
    raw = msgspec.json.encode(body)
    case = KINDS[kind]
    request = decode(raw, case.decoder, LIMITS)
    bound = case.bound(request, LIMITS, len(raw))
    try:
        case.check(request, LIMITS)
        plan = case.plan(request, LIMITS, len(raw))
    except Exception:  # noqa: BLE001 - a file the service refuses is never computed: nothing to bound
        return None
    assert bound is not None, (kind, body.keys())
    return estimate(bound).seconds, estimate(plan.counts).seconds


def test_the_corpora_are_here():
    assert len(FILES) > 190 and any(p.parent == REALWORLD for p in FILES)


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.name}" for p in FILES])
def test_no_plan_is_priced_over_its_bound(path: Path):
    text = decode_trf(path.read_bytes())[0]
    planned = 0
    for options in OPTIONS:
        body = {"trf": text, **options}
        for kind, request in (("standings", body), ("progression", _progression(body))):
            both = prices(kind, request)
            if both is not None:
                planned += 1
                assert both[0] >= both[1], (kind, options, both)
    compared = prices(
        "compare",
        {"trf": text, "lists": [{"name": "a", "tiebreaks": ["BH"]}, {"name": "b", "preset": "fide-swiss-traditional"}]},
    )
    if compared is not None:
        planned += 1
        assert compared[0] >= compared[1], compared
    assert planned or path.parent == REALWORLD, path  # every corpus file is computed; some exports are refused


def _progression(body: dict) -> dict:
    return {k: v for k, v in body.items() if k not in ("explain", "player")}


JSON_BODIES = [
    *(case.body for case in load_team_cases()),
    *(
        {"tournament": msgspec.to_builtins(tournament_to_wire(parse_trf(case.trf_text).tournament))}
        for case in all_cases()
    ),
]


@pytest.mark.parametrize("body", JSON_BODIES)
def test_no_plan_of_a_json_event_is_priced_over_its_bound(body: dict):
    for options in OPTIONS[:4]:  # a preset: the team events have theirs
        request = {**body, **options}
        for kind, one in (("standings", request), ("progression", _progression(request))):
            both = prices(kind, one)
            assert both is not None and both[0] >= both[1], (kind, options, both)
