"""One prize request from wire struct to wire struct: shared by POST /v1/prizes and the
command line. No HTTP here.

A `standings_request` is computed first by the standings pipeline (run_standings), so
the order is exactly what POST /v1/standings answers; the prize package then gets plain
final-order rows.
"""

from __future__ import annotations

from decimal import Decimal
from typing import cast

import msgspec

from .. import prizes as pz
from ..prizes.errors import Path
from ..prizes.payment import quantized
from ..engine.errors import InconsistentCrosstable, InvalidRequest, Issue
from ..formats.trf import parse_trf
from ..wire import schemas as s
from ..wire import prizes as w
from ..wire.limits import Deadline, LimitExceeded, Limits, check_standings
from .standings import run_standings
from ..texts.message import made, msg_n

_UNRATED = {"include": True, "exclude": False, None: None}
MAX_POINT_DECIMALS = 2


def check_prizes(body: w.PrizeRequest, limits: Limits) -> None:
    """The request against the running app's limits (the schema's bounds may be higher)."""
    if body.standings is not None and len(body.standings) > limits.max_players:
        raise LimitExceeded(
            "max_players", "standings", msg_n("{n} row", "{n} rows", len(body.standings)), limits=limits
        )
    if len(body.categories) > limits.max_prize_categories:
        raise LimitExceeded(
            "max_prize_categories",
            "categories",
            msg_n("{n} category", "{n} categories", len(body.categories)),
            limits=limits,
        )
    if body.prizes is not None:
        count = len(body.prizes)
    else:
        assert body.prize_groups is not None  # exactly one of `prizes` and `prize_groups` (PrizeRequest)
        count = sum(len(g.prizes) for g in body.prize_groups)
    if count > limits.max_prizes:
        if body.prizes is not None:
            raise LimitExceeded("max_prizes", "prizes", msg_n("{n} prize", "{n} prizes", count), limits=limits)
        # The document bounds each group, not their total: a body it accepts is content the service
        # cannot compute (422), not a shape error (docs/decisions/0037-400-or-422.md).
        raise LimitExceeded(
            "max_prizes",
            "prize_groups",
            msg_n("{n} prize in all groups", "{n} prizes in all groups", count),
            422,
            limits,
        )
    if body.standings_request is not None:
        check_standings(body.standings_request, limits, "standings_request")


def run_prizes(
    body: w.PrizeRequest, limits: Limits | None = None, deadline: Deadline | None = None
) -> w.PrizesResponse:
    """Compute one prize request (synchronously). Raises pz.PrizeInputError for input the
    distribution cannot use, with paths into the request."""
    computed = None
    if body.standings_request is not None:
        entrants, computed = _computed_standings(body, limits, deadline)
    else:
        assert body.standings is not None  # exactly one of `standings` and `standings_request` (PrizeRequest)
        entrants = [_entrant(row, ("standings", i)) for i, row in enumerate(body.standings)]
    request = pz.PrizeRequest(
        standings=tuple(entrants),
        categories={name: _category(name, c) for name, c in body.categories.items()},
        groups=_groups(body),
        rules=_rules(body.rules),
        standings_path=("standings",) if body.standings is not None else ("standings_request", "standings"),
    )
    result = pz.distribute(request)
    return _response(result, computed)


# ---- wire -> prize package ----


def _points(value: float, path: Path) -> Decimal:
    exact = Decimal(repr(value))
    exponent = exact.as_tuple().exponent
    assert isinstance(exponent, int)  # a finite number: the schema bounds every one (no NaN, no infinity)
    if exponent < -MAX_POINT_DECIMALS:
        raise pz.PrizeInputError([pz.Problem(path, f"{value} has more than {MAX_POINT_DECIMALS} decimals")])
    return exact


def _entrant(row: w.StandingRow, path: Path) -> pz.Entrant:
    return pz.Entrant(
        id=row.id,
        points=_points(row.points, (*path, "points")),
        name=row.name,
        rating=row.rating or None,
        birth_date=row.birth_date,
        sex=row.sex,
        federation=row.federation,
        tags=frozenset(row.tags),
    )


def _computed_standings(
    body: w.PrizeRequest, limits: Limits | None, deadline: Deadline | None
) -> tuple[list[pz.Entrant], w.ComputedStandingsOut]:
    assert body.standings_request is not None  # what run_prizes calls this for
    if body.standings_request.team_tournament is not None:  # a 500 before (found by tests/contract)
        raise pz.PrizeInputError(
            [
                pz.Problem(
                    ("standings_request", "team_tournament"),
                    "prizes go to players: give an individual tournament or its TRF",
                )
            ],
            422,
        )
    # Every row, in order, without breakdowns: only the order and the points are needed.
    inner = msgspec.structs.replace(body.standings_request, explain=False, top=None, player=None, offset=0)
    try:
        ranked = run_standings(inner, limits, deadline)
    except InconsistentCrosstable as exc:
        raise pz.PrizeInputError(
            [pz.Problem(("standings_request", "tournament", *i.path), i.message) for i in exc.issues], 422
        ) from None
    except InvalidRequest as exc:
        raise type(exc)([Issue(("standings_request", *i.path), i.message) for i in exc.issues]) from None
    if inner.tournament is not None:
        ratings = {p.id: p.rating for p in inner.tournament.players}
    else:
        assert inner.trf is not None  # a standings request gives one of the three, and not team_tournament here
        ratings = {p.id: p.rating for p in parse_trf(inner.trf).tournament.players}
    rows = {row.id: i for i, row in enumerate(ranked.standings)}
    info: dict[int, w.PlayerInfo] = {}
    problems = []
    for i, player in enumerate(body.players or []):
        if player.id not in rows:
            problems.append(pz.Problem(("players", i, "id"), f"no player {player.id} in the computed standings"))
        elif player.id in info:
            problems.append(pz.Problem(("players", i, "id"), f"player {player.id} is given twice"))
        info[player.id] = player
    if problems:
        raise pz.PrizeInputError(problems)
    entrants = []
    # An expelled player is ranked nowhere (SPEC 3.12, checklist Q197): no place, so no prize.
    standings = [(i, row) for i, row in enumerate(ranked.standings) if row.status != "expelled"]
    for i, row in standings:
        extra = info.get(row.id)
        rating = extra.rating if extra is not None and extra.rating is not None else ratings.get(row.id)
        entrants.append(
            pz.Entrant(
                id=row.id,
                points=_points(row.points, ("standings_request", "standings", i, "points")),
                name=row.name,
                rating=rating or None,
                birth_date=extra.birth_date if extra else None,
                sex=extra.sex if extra else None,
                federation=extra.federation if extra else None,
                tags=frozenset(extra.tags) if extra else frozenset(),
            )
        )
    computed = w.ComputedStandingsOut(
        regulations=ranked.regulations,
        tiebreaks=[t.spec for t in ranked.tiebreaks],
        order=[row.id for _, row in standings],
    )
    return entrants, computed


def _category(name: str, c: w.CategoryIn) -> pz.Category:
    return pz.Category(
        name=name,
        rating_below=c.rating_below,
        rating_at_least=c.rating_at_least,
        unrated=_UNRATED[c.unrated],
        sex=c.sex,
        born_on_or_after=c.born_on_or_after,
        born_before=c.born_before,
        federation=c.federation,
        tags=frozenset(c.tags),
        tie_rule=pz.TieRule(c.tie_rule),
    )


def _prizes(prizes: list[w.PrizeIn], root: Path) -> tuple[pz.Prize, ...]:
    return tuple(
        pz.Prize(
            id=p.id,
            amount=pz.parse_amount(p.amount, (*root, i, "amount")),
            category=p.category,
            name=p.name,
            items=tuple(p.items),
            path=(*root, i),
        )
        for i, p in enumerate(prizes)
    )


def _groups(body: w.PrizeRequest) -> tuple[pz.PrizeGroup, ...]:
    if body.prizes is not None:
        return (pz.PrizeGroup(None, _prizes(body.prizes, ("prizes",))),)
    assert body.prize_groups is not None  # exactly one of `prizes` and `prize_groups` (PrizeRequest)
    return tuple(
        pz.PrizeGroup(g.id, _prizes(g.prizes, ("prize_groups", i, "prizes")), ("prize_groups", i))
        for i, g in enumerate(body.prize_groups)
    )


def _rules(r: w.PrizeRules) -> pz.Rules:
    return pz.Rules(
        sharing=pz.Sharing(r.sharing),
        hort_keep=pz.parse_amount(r.hort_keep, ("rules", "hort_keep")),
        one_cash_prize=r.one_cash_prize,
        identical_priority=tuple(r.identical_priority)
        if r.identical_priority is not None
        else pz.Rules().identical_priority,
        cap_at_untied_prize=r.cap_at_untied_prize,
        currency=r.currency,
        unit=pz.parse_amount(r.rounding.unit, ("rules", "rounding", "unit")),
    )


# ---- prize package -> wire ----


def _response(result: pz.Distribution, computed: w.ComputedStandingsOut | None) -> w.PrizesResponse:
    unit = result.rules.unit
    players = [
        w.PlayerPrizesOut(
            id=a.entrant.id,
            name=a.entrant.name,
            points=float(a.entrant.points),
            total=str(a.total),
            items=list(a.items),
            prizes=[
                w.PrizeShareOut(
                    prize=sh.prize,
                    pool=sh.pool,
                    share=str(sh.amount),
                    shared_with=list(sh.shared_with),
                    items=list(sh.items),
                    why=made(sh.why),
                )
                for sh in a.shares
            ],
        )
        for a in result.awards
    ]
    pools = [
        w.PoolOut(
            id=p.id,
            prize_group=p.prize_group,
            points=float(p.points),
            players=list(p.players),
            prizes=list(p.prizes),
            sum=str(p.total),
            method=cast(w.PoolMethod, p.method),
            note=made(p.note),
        )
        for p in result.pools
    ]
    unawarded = [
        w.UnawardedOut(
            prize=u.prize.id,
            prize_group=u.prize_group,
            name=u.prize.name,
            category=u.prize.category,
            amount=str(quantized(u.prize.amount, unit)),
            items=list(u.prize.items),
            reason=made(u.reason),
        )
        for u in result.unawarded
    ]
    warnings = [s.WarningOut(code=n.code, message=made(n.message), rule=None) for n in result.warnings]
    return w.PrizesResponse(
        currency=result.rules.currency,
        unit=str(unit),
        total_announced=str(result.total_announced),
        total_paid=str(result.total_paid),
        players=players,
        pools=pools,
        unawarded=unawarded,
        warnings=warnings,
        computed_standings=computed,
    )
