"""Every kind of request the service computes: its wire type, how a decoded body becomes a
checked plan with the counts the cost model prices, and what computing the plan returns.

The compute layer (compute/work.py) decodes the body with the kind's decoder (validation
first), prices the plan's counts once (cost.check_cost), then runs it. "item" is one
standings request of a batch; "check" one archived file of `POST /v1/check`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..wire import schemas as s
from ..wire.compare import CompareRequest
from ..wire.decode import WireDecoder
from ..wire.io import BatchItem, CheckItem, TrfConvertRequest
from ..wire.limits import LimitExceeded, Limits, check_standings, check_tournament, check_trf_size
from ..wire.prizes import PrizeRequest
from ..wire.progression import ProgressionRequest
from ..wire.scenarios import ScenariosRequest
from .check import check_item
from .compare import compute_compare, plan_compare
from .cost import Counts, prize_counts, text_counts
from .prizes import check_prizes, run_prizes
from .progression import compute_progression, plan_progression
from .scenarios import compute_scenarios, plan_scenarios
from .standings import compute_plan, plan_standings, team_counts
from .trf import read_to_wire, write_from_wire
from ..texts.message import msg_n


@dataclass
class Plan:
    """A request read and checked, not yet computed: what it costs (`counts`) and how to compute it.
    `run` returns the answer's wire struct; `engine_seconds` what the engine took, once run."""

    counts: Counts
    run: Callable[[], Any]
    engine_seconds: Callable[[], float] = lambda: 0.0


@dataclass(frozen=True)
class Kind:
    decoder: WireDecoder
    plan: Callable[[Any, Limits, int], Plan]


def _standings(body: s.StandingsRequest, limits: Limits, body_bytes: int) -> Plan:
    check_standings(body, limits)
    plan = plan_standings(body, limits, body_bytes)
    return Plan(plan.counts, lambda: compute_plan(plan, encode_rows=True), lambda: plan.engine_seconds)


def _progression(body: ProgressionRequest, limits: Limits, body_bytes: int) -> Plan:
    check_standings(body, limits)
    plan = plan_progression(body, limits, body_bytes)
    return Plan(plan.counts, lambda: compute_progression(plan), lambda: plan.engine_seconds)


def _compare(body: CompareRequest, limits: Limits, body_bytes: int) -> Plan:
    if body.tournament is not None:
        check_tournament(len(body.tournament.players), body.tournament.rounds, limits)
    plan = plan_compare(body, limits, body_bytes)
    return Plan(plan.counts, lambda: compute_compare(plan), lambda: plan.engine_seconds)


def _trf(body: TrfConvertRequest, limits: Limits, body_bytes: int) -> Plan:
    if body.trf is not None:
        check_trf_size(body.trf, limits)
        text = body.trf
        return Plan(text_counts(text, 0, body_bytes), lambda: read_to_wire(text, limits))
    rules = len(body.tiebreaks or [])
    if rules > limits.max_rules:
        raise LimitExceeded("max_rules", "tiebreaks", msg_n("{n} rule", "{n} rules", rules), limits=limits)
    tournament = body.tournament
    if tournament is None:  # a team event (docs/teams.md)
        counts = team_counts(body, rules, False, body_bytes)
    else:
        check_tournament(len(tournament.players), tournament.rounds, limits)
        counts = Counts(
            players=len(tournament.players), rounds=tournament.rounds, rule_passes=max(1, rules), body_bytes=body_bytes
        )
    return Plan(counts, lambda: write_from_wire(body, limits))


def _prizes(body: PrizeRequest, limits: Limits, body_bytes: int) -> Plan:
    check_prizes(body, limits)
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
    counts = replace(
        counts,
        **prize_counts(points, len(body.categories), sum(map(len, groups)), len(groups), body.rules.one_cash_prize),
    )
    return Plan(counts, lambda: run_prizes(body, limits))


def _check(item: CheckItem, limits: Limits, body_bytes: int) -> Plan:
    check_trf_size(item.trf, limits)
    if item.tiebreaks is not None and len(item.tiebreaks) > limits.max_rules:
        raise LimitExceeded(
            "max_rules", "tiebreaks", msg_n("{n} rule", "{n} rules", len(item.tiebreaks)), limits=limits
        )
    # Reading and ranking the file by its own rule list: at most max_rules rules.
    return Plan(text_counts(item.trf, limits.max_rules, body_bytes), lambda: check_item(item))


def _scenarios(body: ScenariosRequest, limits: Limits, body_bytes: int) -> Plan:
    if body.tournament is not None:
        check_tournament(len(body.tournament.players), body.tournament.rounds, limits)
    elif body.trf is not None:
        check_trf_size(body.trf, limits)
    if len(body.tiebreaks or []) > limits.max_rules:
        raise LimitExceeded(
            "max_rules", "tiebreaks", msg_n("{n} rule", "{n} rules", len(body.tiebreaks or [])), limits=limits
        )
    plan = plan_scenarios(body, limits, body_bytes)
    return Plan(plan.counts, lambda: compute_scenarios(plan), lambda: plan.engine_seconds)


KINDS: dict[str, Kind] = {
    "standings": Kind(WireDecoder(s.StandingsRequest), _standings),
    "item": Kind(WireDecoder(BatchItem), _standings),
    "progression": Kind(WireDecoder(ProgressionRequest), _progression),
    "compare": Kind(WireDecoder(CompareRequest), _compare),
    "trf": Kind(WireDecoder(TrfConvertRequest), _trf),
    "prizes": Kind(WireDecoder(PrizeRequest), _prizes),
    "check": Kind(WireDecoder(CheckItem), _check),
    "scenarios": Kind(WireDecoder(ScenariosRequest), _scenarios),
}
