"""Every use case the service computes, and the one way through each of them.

The HTTP API, the command line and the Python API all go through `KINDS`, in the same steps,
each made once:

1. **read**: the body's bytes into the request struct with the use case's `decoder`
   (wire.decode.decode, a 400 when it breaks the schema); the Python API converts its
   arguments with msgspec.convert, the command line builds the struct from its files;
2. **check**: the limits the request shows without its input being read (rules, players,
   rounds, the size of TRF text);
3. **bound**: what the request costs at most, from the struct alone (usecases/bounds.py): where
   the compute gate places it (HTTP only);
4. **plan**: the input read into the engine's columns, the limits that need it read, and the
   counts the cost model prices;
5. **price**: cost.check_cost over the plan's counts (HTTP only: compute/work.py, the gate's
   admission);
6. **compute** and **encode**: `Plan.run`, the answer's wire struct; HTTP encodes it
   (compute/work.py, `encoded`), the command line renders or encodes it, the Python API returns it.

`answer` is the way through for callers without the gate. "item" is one standings request of a
batch; "check" one archived file of `POST /v1/check`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..wire import schemas as s
from ..wire.compare import CompareRequest
from ..wire.decode import WireDecoder
from ..wire.io import BatchItem, CheckItem, TrfConvertRequest
from ..wire.limits import LIMITS, Limits, check_rule_count, check_standings, check_tournament, check_trf_size
from ..wire.prizes import PrizeRequest
from ..wire.progression import ProgressionRequest
from ..wire.scenarios import ScenariosRequest
from .bounds import compare_bound, progression_bound, scenarios_bound, standings_bound
from .cost import Counts, check_cost, prize_counts, text_counts
from .prizes import check_prizes, run_prizes
from .progression import compute_progression, plan_progression
from .standings import compute_plan, plan_standings, team_counts

# Imported when first planned, so that a command's start-up loads only the use case it runs;
# `ready` imports them in a server and its workers.
LATER = ("check", "compare", "scenarios", "trf")


@dataclass
class Plan:
    """A request read and checked, not yet computed: what it costs (`counts`) and how to compute it.

    `run(encoded)` returns the answer's wire struct; `encoded`: it is about to be encoded as JSON
    (a standings answer's rows then come as their JSON, msgspec.Raw). `engine_seconds`: what the
    engine took, once run."""

    counts: Counts
    run: Callable[[bool], Any]
    engine_seconds: Callable[[], float] = lambda: 0.0


@dataclass(frozen=True)
class UseCase:
    decoder: WireDecoder
    check: Callable[[Any, Limits], None]
    bound: Callable[[Any, Limits, int], Counts | None]  # (request, limits, body bytes): never below the plan's counts
    plan: Callable[[Any, Limits | None, int], Plan]  # (request, limits or None: unchecked, body bytes)


def answer(kind: str, request: Any, limits: Limits | None = None, encoded: bool = False, priced: bool = False) -> Any:
    """A request struct's answer, for the callers without the gate (the command line, the Python
    API): checked against `limits` (None: no limits), planned and computed; with `priced`, refused
    as the API refuses what is over the cost ceilings (scenarios on the command line: 3^n outcomes)."""
    case = KINDS[kind]
    if limits is not None:
        case.check(request, limits)
    plan = case.plan(request, limits, 0)
    if priced and limits is not None:
        check_cost(plan.counts, limits)
    return plan.run(encoded)


def _standings(body: s.StandingsRequest, limits: Limits | None, body_bytes: int) -> Plan:
    plan = plan_standings(body, limits, body_bytes)
    return Plan(plan.counts, lambda encoded: compute_plan(plan, encode_rows=encoded), lambda: plan.engine_seconds)


def _progression(body: ProgressionRequest, limits: Limits | None, body_bytes: int) -> Plan:
    plan = plan_progression(body, limits, body_bytes)
    return Plan(plan.counts, lambda _: compute_progression(plan), lambda: plan.engine_seconds)


def _check_compare(body: CompareRequest, limits: Limits) -> None:
    if body.tournament is not None:
        check_tournament(len(body.tournament.players), body.tournament.rounds, limits)


def _compare(body: CompareRequest, limits: Limits | None, body_bytes: int) -> Plan:
    from .compare import compute_compare, plan_compare

    plan = plan_compare(body, limits, body_bytes)
    return Plan(plan.counts, lambda _: compute_compare(plan), lambda: plan.engine_seconds)


def _check_trf(body: TrfConvertRequest, limits: Limits) -> None:
    if body.trf is not None:
        check_trf_size(body.trf, limits)
        return
    check_rule_count(body.tiebreaks, limits)
    if body.tournament is not None:
        check_tournament(len(body.tournament.players), body.tournament.rounds, limits)


def _trf_counts(body: TrfConvertRequest, limits: Limits | None, body_bytes: int) -> Counts:
    if body.trf is not None:
        return text_counts(body.trf, 0, body_bytes)
    rules = len(body.tiebreaks or [])
    tournament = body.tournament
    if tournament is None:  # a team event (docs/teams.md)
        return team_counts(body, rules, False, body_bytes)
    return Counts(
        players=len(tournament.players), rounds=tournament.rounds, rule_passes=max(1, rules), body_bytes=body_bytes
    )


def _trf(body: TrfConvertRequest, limits: Limits | None, body_bytes: int) -> Plan:
    from .trf import read_to_wire, write_from_wire

    if body.trf is not None:
        text = body.trf
        return Plan(_trf_counts(body, limits, body_bytes), lambda _: read_to_wire(text, limits))
    return Plan(_trf_counts(body, limits, body_bytes), lambda _: write_from_wire(body, limits))


def _prize_counts(body: PrizeRequest, limits: Limits | None, body_bytes: int) -> Counts:
    inner = body.standings_request
    if inner is None:
        counts = Counts(players=len(body.standings or []), rounds=1, body_bytes=body_bytes)
    elif inner.tournament is not None:
        counts = Counts(
            players=len(inner.tournament.players),
            rounds=inner.tournament.rounds,
            rule_passes=max(1, len(inner.tiebreaks or [])),
            body_bytes=body_bytes,
        )
    elif inner.team_tournament is not None:  # teams are the rows
        event = inner.team_tournament
        counts = Counts(
            players=len(event.teams),
            rounds=event.rounds,
            rule_passes=max(1, len(inner.tiebreaks or [])),
            body_bytes=body_bytes,
        )
    else:
        counts = text_counts(inner.trf or "", len(inner.tiebreaks or []), body_bytes)
    # The distribution's price: the standings' ties when they are given, else everyone tied.
    points = [row.points for row in body.standings] if body.standings is not None else [None] * counts.players
    groups = [body.prizes] if body.prizes is not None else [g.prizes for g in body.prize_groups or []]
    return replace(
        counts,
        **prize_counts(points, len(body.categories), sum(map(len, groups)), len(groups), body.rules.one_cash_prize),
    )


def _prizes(body: PrizeRequest, limits: Limits | None, body_bytes: int) -> Plan:
    return Plan(_prize_counts(body, limits, body_bytes), lambda _: run_prizes(body, limits))


def _check_check(item: CheckItem, limits: Limits) -> None:
    check_trf_size(item.trf, limits)
    check_rule_count(item.tiebreaks, limits)


def _check_counts(item: CheckItem, limits: Limits, body_bytes: int) -> Counts:
    # Reading and ranking the file by its own rule list: at most max_rules rules.
    return text_counts(item.trf, limits.max_rules, body_bytes)


def _check(item: CheckItem, limits: Limits | None, body_bytes: int) -> Plan:
    from .check import check_item

    return Plan(_check_counts(item, limits or LIMITS, body_bytes), lambda _: check_item(item))


def _check_scenarios(body: ScenariosRequest, limits: Limits) -> None:
    if body.tournament is not None:
        check_tournament(len(body.tournament.players), body.tournament.rounds, limits)
    elif body.trf is not None:
        check_trf_size(body.trf, limits)
    check_rule_count(body.tiebreaks, limits)


def _scenarios(body: ScenariosRequest, limits: Limits | None, body_bytes: int) -> Plan:
    from .scenarios import compute_scenarios, plan_scenarios
    from .team_scenarios import compute_team_scenarios, is_team_scenarios, plan_team_scenarios

    if is_team_scenarios(body):  # board results as the unknowns, the team rules (decision 0231)
        team = plan_team_scenarios(body, limits, body_bytes)
        if team is not None:
            return Plan(team.counts, lambda _: compute_team_scenarios(team), lambda: team.engine_seconds)
    plan = plan_scenarios(body, limits, body_bytes)
    return Plan(plan.counts, lambda _: compute_scenarios(plan), lambda: plan.engine_seconds)


_STANDINGS = UseCase(WireDecoder(s.StandingsRequest), check_standings, standings_bound, _standings)
KINDS: dict[str, UseCase] = {
    "standings": _STANDINGS,
    "item": replace(_STANDINGS, decoder=WireDecoder(BatchItem)),
    "progression": UseCase(WireDecoder(ProgressionRequest), check_standings, progression_bound, _progression),
    "compare": UseCase(WireDecoder(CompareRequest), _check_compare, compare_bound, _compare),
    "trf": UseCase(WireDecoder(TrfConvertRequest), _check_trf, _trf_counts, _trf),
    "prizes": UseCase(WireDecoder(PrizeRequest), check_prizes, _prize_counts, _prizes),
    "check": UseCase(WireDecoder(CheckItem), _check_check, _check_counts, _check),
    "scenarios": UseCase(WireDecoder(ScenariosRequest), _check_scenarios, scenarios_bound, _scenarios),
}


def ready() -> None:
    """Every use case loaded and its decoder made now, not by the first body of its kind: a server
    and each of its compute workers call it as they start."""
    for name in LATER:
        importlib.import_module(f"{__package__}.{name}")
    for case in KINDS.values():
        case.decoder.ready()
