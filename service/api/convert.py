"""Between the wire (msgspec structs) and the engine's plain model."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from ..engine import model as m
from ..engine.contributions import Contribution, RuleOutcome
from ..engine.errors import InvalidRequest, Issue, Path
from ..engine.registry import TIEBREAKS, display_name, parse_spec, valid_codes
from ..engine.rules import RuleSpec, build_rule
from ..engine.standings import Standings
from . import schemas as s

MAX_DECIMALS = 2
# Enum lookups by value go through Python code; a dict is several times faster per result.
_KINDS = {k.value: k for k in m.ResultKind}
_COLORS = {c.value: c for c in m.Color}


def exact(value: float, path: Path) -> Fraction:
    """A JSON number as an exact fraction; at most two decimals, so sums stay exact decimals."""
    d = Decimal(repr(value))
    if d.as_tuple().exponent < -MAX_DECIMALS:
        raise InvalidRequest([Issue(path, f"{value} has more than {MAX_DECIMALS} decimals")])
    return Fraction(d)


def tournament_from_wire(t: s.Tournament) -> m.Tournament:
    scoring = m.Scoring()
    if t.scoring is not None:
        scoring = m.Scoring(**{
            name: exact(getattr(t.scoring, name), ("tournament", "scoring", name)) for name in s.Scoring.__struct_fields__
        })
    round_result, kinds, colors = m.RoundResult, _KINDS, _COLORS
    players = []
    for i, p in enumerate(t.players):
        results = []
        for j, r in enumerate(p.results):
            points = r.points
            if points is not None:
                points = exact(points, ("tournament", "players", i, "results", j, "points"))
            # positional: this loop runs once per result of the tournament
            results.append(round_result(r.round, kinds[r.result], r.opponent,
                                        colors[r.color] if r.color else None, points, r.rated))
        players.append(m.Player(p.id, p.name, p.rating or None, tuple(results)))
    return m.Tournament(
        players=tuple(players),
        rounds=t.rounds,
        system=m.System(t.system) if t.system else None,
        scoring=scoring,
        name=t.name,
        start_date=t.start_date,
    )


def rules_from_wire(items: list[str | s.RuleObject], regulations: m.Regulations | None = None) -> list[RuleSpec]:
    """The rule list, parsed under one rule set (its codes and aliases), or any when None."""
    codes = valid_codes(regulations)
    specs = []
    for i, item in enumerate(items):
        path = ("tiebreaks", i)
        if isinstance(item, str):
            specs.append(parse_spec(item, regulations, path))
            continue
        code = item.code.strip().upper()
        if code not in codes:
            named = parse_spec(item.code, regulations, path)  # an alias, or a 400 with the valid codes
            if item.modifiers is None or named != RuleSpec(named.code):
                specs.append(named)
                continue
            code = named.code  # {"code": "Solkoff", "modifiers": {...}}
        mods = item.modifiers or s.Modifiers()
        letters = [f"C{mods.cut}"] * bool(mods.cut) + [f"M{mods.median}"] * bool(mods.median)
        letters += [f"L{mods.limit}"] * (mods.limit is not None) + ["P"] * mods.forfeits_played
        specs.append(build_rule(code, letters, codes[code], path, item.code))
    return specs


def _number(units: int | None, scale: int) -> float | None:
    # Exact: scales are products of 2s and 5s, and int / int is correctly rounded, so the
    # shortest repr of the float is the decimal itself.
    return None if units is None else units / scale


def tiebreak_to_wire(outcome: RuleOutcome) -> s.TiebreakOut:
    spec = outcome.spec
    entry = TIEBREAKS[spec.code]
    return s.TiebreakOut(
        spec=spec.canonical,
        code=spec.code,
        name=display_name(spec),
        article=entry.citation,
        modifiers=s.ModifiersOut(cut=spec.cut, median=spec.median, limit=spec.limit,
                                 forfeits_played=spec.forfeits_played),
        lower_is_better=outcome.lower_is_better,
        dropped=outcome.dropped_reason,
    )


def _contribution(c: Contribution, scale: int, seen: dict[int, s.ContributionOut]) -> s.ContributionOut:
    # Rules of one family share their uncut contributions; convert each object once.
    out = seen.get(id(c))
    if out is None:
        out = seen[id(c)] = s.ContributionOut(
            round=c.round,
            kind=c.kind,
            opponent=c.opponent,
            value=c.value / scale,  # int / int is correctly rounded: exact for these decimals
            unplayed=c.unplayed.value if c.unplayed else None,
            note=c.note,
            cut=c.cut_reason is not None,
            cut_reason=c.cut_reason,
        )
    return out


def _breakdown(outcome: RuleOutcome, p: int, seen: dict[int, s.ContributionOut]) -> s.RuleBreakdown:
    scale = outcome.contribution_scale or outcome.scale
    contributions = outcome.contributions[p] if outcome.contributions is not None else []
    return s.RuleBreakdown(
        value=_number(outcome.values[p], outcome.scale),
        note=outcome.notes[p] if outcome.notes else None,
        contributions=[_contribution(c, scale, seen) for c in contributions],
    )


def player_ids(player: int | list[int] | None) -> list[int]:
    """The ids `player` names (one id or a list of them)."""
    if player is None:
        return []
    return [player] if isinstance(player, int) else list(player)


def select_rows(result: Standings, top: int | None = None, player: int | list[int] | None = None,
                offset: int = 0) -> list:
    """The standings rows a client asked for: a page (`offset`, then `top` rows, or to the end)
    and/or the rows of the players named, in standings order, each row once."""
    if top is None and player is None and not offset:
        return result.rows
    paged = top is not None or offset > 0
    rows = result.rows[offset:offset + top if top is not None else None] if paged else []
    wanted = player_ids(player)
    if wanted:
        ids = result.table.ids
        known = set(ids)
        for i, pid in enumerate(wanted):
            if pid not in known:
                path = ("player",) if isinstance(player, int) else ("player", i)
                raise InvalidRequest([Issue(path, f"no player with id {pid} in the tournament")])
        shown = {row.player for row in rows}
        wanted_set = set(wanted)
        # after the page, in standings order (a player ranked above the page too)
        rows = [*rows, *(row for row in result.rows if ids[row.player] in wanted_set and row.player not in shown)]
    return rows


def standings_to_wire(result: Standings, explain: bool, top: int | None = None,
                      player: int | list[int] | None = None, offset: int = 0) -> s.StandingsResponse:
    table = result.table
    outcomes = result.outcomes
    rows = []
    seen: dict[int, s.ContributionOut] = {}
    for row in select_rows(result, top, player, offset):
        p = row.player
        rows.append(s.Standing(
            rank=row.rank,
            id=table.ids[p],
            name=table.names[p],
            points=table.scores[p] / table.scale,
            values=[_number(o.values[p], o.scale) for o in outcomes],
            decided_by=row.decided_by,
            breakdown={o.spec.canonical: _breakdown(o, p, seen) for o in outcomes} if explain else None,
        ))
    return s.StandingsResponse(
        regulations=result.regulations.value,
        system=table.system.value,
        system_inferred=table.system_inferred,
        rounds=table.rounds,
        after_round=table.played_rounds if table.played_rounds != table.rounds else None,
        tiebreaks=[tiebreak_to_wire(o) for o in outcomes],
        standings=rows,
        warnings=[s.WarningOut(code=w.code, message=w.message, rule=w.rule) for w in result.warnings],
        total_players=len(result.rows),
    )


def tournament_to_wire(t: m.Tournament) -> s.Tournament:
    """The engine's tournament as the JSON API's (used for TRF input and tests)."""
    return s.Tournament(
        name=t.name,
        start_date=t.start_date,
        system=t.system.value if t.system else None,
        rounds=t.rounds,
        scoring=s.Scoring(**{name: float(t.scoring.points_for(m.ResultKind(name)))
                             for name in s.Scoring.__struct_fields__}),
        players=[
            s.Player(
                id=p.id,
                name=p.name,
                rating=p.rating,
                results=[
                    s.RoundResult(
                        round=r.round,
                        result=r.result.value,
                        opponent=r.opponent,
                        color=r.color.value if r.color else None,
                        points=None if r.points is None else float(r.points),
                        rated=r.rated,
                    )
                    for r in p.results
                ],
            )
            for p in t.players
        ],
    )
