"""Between the wire (msgspec structs) and the engine's plain model."""

from __future__ import annotations

import datetime
import functools
from collections.abc import Sequence
from decimal import Decimal
from itertools import repeat
from fractions import Fraction
from typing import Any, TypedDict, cast

import msgspec
import numpy as np

from ..engine import model as m
from ..engine.contributions import Explanation, RuleOutcome
from ..engine.decisions import Decisions, RatingPolicy, TiebreakChange
from ..engine.errors import InvalidRequest, Issue, Path
from ..texts.catalogue import json_encoder
from ..texts.message import RENDER, Msg, made
from ..engine.registry import TIEBREAKS, display_name, parse_spec, valid_codes
from ..engine.table import NO_OPPONENT
from ..engine.rules import RuleSpec, build_rule
from ..engine.standings import StandingRow, StandingRows, Standings
from ..formats.trf import TrfHeader, scoring_with_defaults
from ..wire import schemas as s

MAX_DECIMALS = 2
# Enum lookups by value go through Python code; a dict is cheaper per result.
_KINDS = {k.value: k for k in m.ResultKind}
_COLORS = {c.value: c for c in m.Color}


def exact(value: float, path: Path) -> Fraction:
    """A JSON number as an exact fraction; at most two decimals, so sums stay exact decimals."""
    d = Decimal(repr(value))
    exponent = d.as_tuple().exponent
    assert isinstance(exponent, int)  # a finite number: the schema bounds every one (no NaN, no infinity)
    if exponent < -MAX_DECIMALS:
        raise InvalidRequest([Issue(path, f"{value} has more than {MAX_DECIMALS} decimals")])
    return Fraction(d)


def scoring_from_wire(scoring: s.Scoring | None) -> m.Scoring:
    """The whole scoring: what is not given follows win, draw and loss, as TRF record 162 does."""
    if scoring is None:
        return m.Scoring()
    return scoring_with_defaults(
        {
            name: exact(value, ("tournament", "scoring", name))
            for name in s.Scoring.__struct_fields__
            if (value := getattr(scoring, name)) is not None
        }
    )


def _check_keys(players: list[s.Player]) -> None:
    """Keys unique, birth dates real days: content the schema cannot check (a 422)."""
    seen: dict[str, int] = {}
    for i, p in enumerate(players):
        if p.birth_date is not None and len(p.birth_date) == 10:
            try:
                datetime.date.fromisoformat(p.birth_date)
            except ValueError:
                raise InvalidRequest(
                    [Issue(("tournament", "players", i, "birth_date"), f"birth_date {p.birth_date!r} is not a date")]
                ) from None
        if p.key is None:
            continue
        if p.key in seen:
            raise InvalidRequest(
                [
                    Issue(
                        ("tournament", "players", i, "key"),
                        f"key {p.key!r} is already the key of players[{seen[p.key]}]",
                    )
                ]
            )
        seen[p.key] = i


def _player(p: s.Player, results: tuple[m.RoundResult, ...] = ()) -> m.Player:
    return m.Player(
        p.id, p.name, p.rating or None, results, p.fide_id, p.federation, p.title, p.sex, p.birth_date, p.key
    )


def tournament_from_wire(t: s.Tournament, columns: bool = False) -> m.Tournament:
    """The engine's tournament. With `columns` the results go straight into the engine's
    columns (no RoundResult per result: the fast path of the standings endpoints); without,
    every player carries its RoundResult objects (for the TRF writer)."""
    scoring = scoring_from_wire(t.scoring)
    _check_keys(t.players)
    roster = None
    players: Sequence[m.Player]
    if columns:
        wire = t.players
        players = WirePlayers(wire)
        result_columns = columns_from_wire(t)
        roster = m.Roster([p.id for p in wire], [p.name for p in wire], [p.rating or None for p in wire])
    else:
        players = tuple(_player(p, _results_from_wire(p, i)) for i, p in enumerate(t.players))
        result_columns = None
    ratings, expelled = ratings_from_wire(t)
    return m.Tournament(
        players=players,
        rounds=t.rounds,
        system=m.System(t.system) if t.system else None,
        scoring=scoring,
        name=t.name,
        start_date=t.start_date,
        columns=result_columns,
        roster=roster,
        end_date=t.end_date,
        ratings=ratings,
        expelled=expelled,
    )


def ratings_from_wire(t: s.Tournament) -> tuple[m.PlayerRatings | None, dict[int, int]]:
    """The players' national and estimated ratings and rating histories (None when no player has
    any), and the expelled players with their last round (SPEC 3.12)."""
    national: dict[int, int] = {}
    estimated: dict[int, int] = {}
    history: dict[int, tuple[m.RatingChange, ...]] = {}
    expelled: dict[int, int] = {}
    for i, p in enumerate(t.players):
        if p.national_rating:
            national[p.id] = p.national_rating
        if p.estimated_rating:
            estimated[p.id] = p.estimated_rating
        if p.rating_history:
            history[p.id] = tuple(m.RatingChange(c.from_round, c.rating, c.national_rating) for c in p.rating_history)
        if p.expelled_after_round is not None:
            if p.expelled_after_round > t.rounds:
                raise InvalidRequest(
                    [
                        Issue(
                            ("tournament", "players", i, "expelled_after_round"),
                            f"round {p.expelled_after_round} is after the last round, {t.rounds}",
                        )
                    ]
                )
            expelled[p.id] = p.expelled_after_round
    ratings = m.PlayerRatings(national, estimated, history) if national or estimated or history else None
    return ratings, expelled


def decisions_from_wire(body: Any, regulations: m.Regulations | None = None) -> Decisions:
    """The arbiter's decisions a standings-like body gives (`ratings`, `playoffs`, `manual_values`,
    `tiebreak_changes`; SPEC 3.12), for the engine."""
    policy = getattr(body, "ratings", None)
    playoffs = getattr(body, "playoffs", None) or []
    manual = getattr(body, "manual_values", None)
    changes = getattr(body, "tiebreak_changes", None) or []
    unrated_rating = getattr(body, "unrated_rating", None)
    rating_policy = RatingPolicy()
    if policy is not None:
        if unrated_rating is not None and policy.unrated not in ("drop", unrated_rating):
            raise InvalidRequest(
                [Issue(("unrated_rating",), "unrated_rating and ratings.unrated disagree: give one of them")]
            )
        rating_policy = RatingPolicy(policy.source, policy.per_round, policy.unrated)
    return Decisions(
        ratings=rating_policy,
        playoffs=tuple(tuple(p.order) for p in playoffs),
        manual_values=None
        if manual is None
        else {int(pid): exact(value, ("manual_values", pid)) for pid, value in manual.items()},
        tiebreak_changes=tuple(
            TiebreakChange(c.from_round, tuple(spec.canonical for spec in rules_from_wire(c.previous, regulations)))
            for c in changes
        ),
    )


def decisions_to_wire(decisions: Decisions, unrated_rating: int | None) -> dict[str, Any]:
    """The echo of the policy and the changes in the response's fields."""
    policy = decisions.ratings
    unrated = unrated_rating if policy.unrated == "drop" and unrated_rating is not None else policy.unrated
    return {
        "ratings": s.RatingsOut(source=policy.source, per_round=policy.per_round, unrated=unrated),
        "tiebreak_changes": [
            s.TiebreakChangeOut(from_round=c.from_round, previous=list(c.previous)) for c in decisions.tiebreak_changes
        ]
        or None,
    }


class WirePlayers(Sequence):
    """The engine's players of a wire tournament whose results are columns, each Player made
    when first read: ranking reads the roster, and an answer often shows only some rows.
    `wire`: the wire players, which carry the same identity fields."""

    __slots__ = ("wire", "_made")

    def __init__(self, wire: list[s.Player]) -> None:
        self.wire = wire
        self._made: dict[int, m.Player] = {}

    def __len__(self) -> int:
        return len(self.wire)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self.wire)
        made = self._made.get(i)
        if made is None:
            made = self._made[i] = _player(self.wire[i])
        return made


def _results_from_wire(p: s.Player, i: int) -> tuple[m.RoundResult, ...]:
    round_result, kinds, colors = m.RoundResult, _KINDS, _COLORS
    results = []
    for j, r in enumerate(p.results):
        points = r.points
        fraction = None if points is None else exact(points, ("tournament", "players", i, "results", j, "points"))
        # positional: this loop runs once per result of the tournament
        results.append(
            round_result(r.round, kinds[r.result], r.opponent, colors[r.color] if r.color else None, fraction, r.rated)
        )
    return tuple(results)


_KIND_CODES = {k.value: k.code for k in m.ResultKind}
_COLOR_CODES = {None: 0, "w": 1, "b": 2}


def _small_ints(values: list[int], dtype) -> np.ndarray:
    """A column of small non-negative integers: bytes() reads a list of them faster than
    np.fromiter; larger values (a TIEBREAK_MAX_ROUNDS over 255) take np.fromiter."""
    try:
        return np.frombuffer(bytes(values), np.uint8).astype(dtype)
    except ValueError:
        return np.fromiter(values, dtype, len(values))


def columns_from_wire(t: s.Tournament) -> m.ResultColumns:
    """Every result of the wire tournament as the engine's flat columns: one pass per column."""
    players = t.players
    results = [r for p in players for r in p.results]
    n = len(results)
    kinds, colors = _KIND_CODES, _COLOR_CODES
    points: dict[int, Fraction] = {}
    if [r for r in results if r.points is not None]:  # an arbiter's points: rare
        offsets = np.cumsum([0] + [len(p.results) for p in players])
        for flat in [flat for flat, r in enumerate(results) if r.points is not None]:
            i = int(np.searchsorted(offsets, flat, side="right")) - 1
            value = results[flat].points
            assert value is not None  # `flat` runs over the results with points
            points[flat] = exact(value, ("tournament", "players", i, "results", flat - int(offsets[i]), "points"))
    return m.ResultColumns(
        counts=np.fromiter(map(len, [p.results for p in players]), np.int64, len(players)),
        round=_small_ints([r.round for r in results], np.int64),
        kind=np.frombuffer(bytearray([kinds[r.result] for r in results]), np.int8),
        opponent=np.fromiter([r.opponent or 0 for r in results], np.int64, n),
        color=np.frombuffer(bytearray([colors[r.color] for r in results]), np.int8),
        points=points,
    )


# Rule strings already parsed, per rule set (RuleSpec is immutable; failures are not kept, so
# each is reported with its own path). Bounded: the strings come from clients.
_PARSED: dict[tuple[str, m.Regulations | None], RuleSpec] = {}
_PARSED_MAX = 4096


def _parsed(item: str, regulations: m.Regulations | None, path: Path) -> RuleSpec:
    spec = _PARSED.get((item, regulations))
    if spec is None:
        spec = parse_spec(item, regulations, path)
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.clear()
        _PARSED[item, regulations] = spec
    return spec


def rules_from_wire(items: list[str | s.RuleObject], regulations: m.Regulations | None = None) -> list[RuleSpec]:
    """The rule list, parsed under one rule set (its codes and aliases), or any when None."""
    specs: list[RuleSpec] = []
    refused: list[InvalidRequest] = []
    for i, item in enumerate(items):
        try:
            specs.append(_rule_from_wire(item, regulations, ("tiebreaks", i)))
        except InvalidRequest as error:  # every bad rule of the list in one answer (issue 37, 13)
            refused.append(error)
    if len(refused) == 1:
        raise refused[0]
    if refused:
        raise type(refused[0])([issue for error in refused for issue in error.issues])
    return specs


def _rule_from_wire(item: str | s.RuleObject, regulations: m.Regulations | None, path: Path) -> RuleSpec:
    if isinstance(item, str):
        return _parsed(item, regulations, path)
    if item.code is None:  # a Swiss-Manager number: read as its string form
        return parse_spec(item.rule_text, regulations, path)
    codes = valid_codes(regulations)
    code = item.code.strip().upper()
    if code not in codes:
        named = parse_spec(item.code, regulations, path)  # an alias, or a 400 with the valid codes
        if item.modifiers is None or named != RuleSpec(named.code):
            return named
        code = named.code  # {"code": "Solkoff", "modifiers": {...}}
    mods = item.modifiers or s.Modifiers()
    letters = [f"C{mods.cut}"] * bool(mods.cut) + [f"M{mods.median}"] * bool(mods.median)
    letters += [f"L{mods.limit}%"] * (mods.limit is not None) + ["P"] * mods.forfeits_played
    return build_rule(code, letters, codes[code], path, item.code)


def _number(units: int | None, scale: int) -> float | None:
    # Exact: scales are products of 2s and 5s, and int / int is correctly rounded, so the
    # shortest repr of the float is the decimal itself.
    return None if units is None else units / scale


def tiebreak_to_wire(outcome: RuleOutcome, registry: Any = TIEBREAKS, named: Any = display_name) -> s.TiebreakOut:
    """A rule of the answer; team events name theirs from their own registry."""
    spec = outcome.spec
    entry = registry[spec.code]
    return s.TiebreakOut(
        spec=spec.canonical,
        code=spec.code,
        name=made(named(spec)),
        article=entry.citation,
        modifiers=s.ModifiersOut(
            cut=spec.cut, median=spec.median, limit=spec.limit, forfeits_played=spec.forfeits_played
        ),
        lower_is_better=outcome.lower_is_better,
        dropped=made(outcome.dropped_reason),
    )


def _breakdowns(
    outcomes: list[RuleOutcome],
    explained: list[Explanation],
    keys: list[str],
    displays: list[_Shown],
    players: list[int],
    player_keys: dict[int, str],
) -> list[dict[str, s.RuleBreakdown]]:
    """Each player's breakdown: per rule its value, note, contributions (the engine's objects
    as they are: they are the wire's type) and the total before a cut, from the engine's
    explanation of these rows; the opponents' client keys added when the request gave some.
    Made a rule at a time, a column of players at once."""
    per_rule = []
    for i, (outcome, explanation) in enumerate(zip(outcomes, explained, strict=True)):
        column = explanation.contributions
        if player_keys:
            for row in column:
                for c in row:
                    if c.opponent is not None:
                        c.opponent_key = player_keys.get(c.opponent)
        per_rule.append(
            list(
                map(
                    s.RuleBreakdown,
                    map(displays[i].__getitem__, players),
                    _rendered_notes(explanation.notes),
                    column,
                    repeat(i),
                    repeat(outcome.spec.canonical),
                    explanation.before_cut,
                )
            )
        )
    return (
        [dict(zip(keys, row, strict=True)) for row in zip(*per_rule, strict=True)]
        if per_rule
        else [{} for _ in players]
    )


def _rendered_notes(notes: list[str | None]) -> list[str | None]:
    """A rule's notes as the answer keeps them (message.made), without a call per note."""
    render = RENDER.get()
    if render is None or notes.count(None) == len(notes):  # most rules have no note: none to look at
        return notes
    return [render(note) if isinstance(note, Msg) else note for note in notes]


def _breakdown_keys(outcomes: list[RuleOutcome]) -> list[str]:
    """The breakdown's key of each rule: its spec, or "<spec>#<position>" when listed again."""
    seen: set[str] = set()
    keys = []
    for i, o in enumerate(outcomes):
        spec = o.spec.canonical
        keys.append(spec if spec not in seen else f"{spec}#{i + 1}")
        seen.add(spec)
    return keys


class _OpponentNames(dict):
    """One OpponentName per player (table index), made when first mentioned, shared by every row."""

    def __init__(self, table, player_keys: dict[int, str]) -> None:
        super().__init__()
        self.ids, self.names, self.player_keys = table.ids, table.names, player_keys
        self.id_array = np.asarray(table.ids, dtype=np.int64)

    def __missing__(self, p: int) -> s.OpponentName:
        pid = self.ids[p]
        name = self[p] = s.OpponentName(id=pid, name=self.names[p], key=self.player_keys.get(pid))
        return name


def _opponents(table, members: list[int], names: _OpponentNames) -> list[list[s.OpponentName]]:
    """Per row, the players its breakdown can mention, by start number: the opponents,
    scheduled ones included, each once."""
    opp = table.opp[members]
    if not opp.size:
        return [[] for _ in members]
    none = np.iinfo(np.int64).max
    paired = opp != NO_OPPONENT
    met_ids = np.where(paired, names.id_array[np.where(paired, opp, 0)], none)
    by_id = np.argsort(met_ids, axis=1, kind="stable")
    # take_along_axis by hand: its index building costs more than the take on a chunk's matrix
    each_row = np.arange(len(members))[:, None]
    met = met_ids[each_row, by_id]
    kept = met != none
    kept[:, 1:] &= met[:, 1:] != met[:, :-1]  # each opponent once
    flat = list(map(names.__getitem__, opp[each_row, by_id][kept].tolist()))
    out, start = [], 0
    for end in np.cumsum(kept.sum(axis=1)).tolist():
        out.append(flat[start:end])
        start = end
    return out


def scoring_to_wire(scoring: m.Scoring) -> s.ScoringOut:
    return s.ScoringOut(**_scoring_numbers(scoring))


@functools.lru_cache(maxsize=64)
def _scoring_numbers(scoring: m.Scoring) -> dict[str, float]:
    """The scoring's values as JSON numbers (remembered: a batch answers with the same few
    scorings over and over); not to be changed by the caller."""
    return {name: float(scoring.points_for(m.ResultKind(name))) for name in s.ScoringOut.__struct_fields__}


def player_ids(player: int | list[int] | None) -> list[int]:
    """The ids `player` names (one id or a list of them)."""
    if player is None:
        return []
    return [player] if isinstance(player, int) else list(player)


def select_rows(
    result: Standings, top: int | None = None, player: int | list[int] | None = None, offset: int = 0
) -> Sequence[StandingRow]:
    """The standings rows a client asked for: a page (`offset`, then `top` rows, or to the end)
    and/or the rows of the players named, in standings order, each row once."""
    if top is None and player is None and not offset:
        return result.rows
    paged = top is not None or offset > 0
    rows = result.rows[offset : offset + top if top is not None else None] if paged else []
    wanted = player_ids(player)
    if wanted:
        ids = np.asarray(result.table.ids, dtype=np.int64)
        asked = np.asarray(wanted, dtype=np.int64)
        for i in np.flatnonzero(~np.isin(asked, ids)).tolist()[:1]:
            path = ("player",) if isinstance(player, int) else ("player", i)
            raise InvalidRequest([Issue(path, f"no player with id {wanted[i]} in the tournament")])
        shown = {row.player for row in rows}
        order = getattr(result.rows, "order", None)  # StandingRows: the standing order, no row objects
        if order is None:
            order = [row.player for row in result.rows]
        # after the page, in standings order (a player ranked above the page too)
        positions = np.flatnonzero(np.isin(ids[np.asarray(order, dtype=np.int64)], asked)).tolist()
        rows = [*rows, *(result.rows[i] for i in positions if order[i] not in shown)]
    return rows


# Breakdowns of large standings are built, converted and encoded this many rows at a time, so
# that the objects of one chunk are alive at once, never those of every row.
CHUNK_ROWS = 500


class _PlainRow(msgspec.Struct, gc=False):
    """A row without breakdown and identity fields, encoded to the same bytes as `s.Standing`
    (the same keys in the same order; Standing leaves out its empty optional fields and
    always writes `breakdown` and `opponents`). Positional and without defaults to compare, it is
    built and encoded in a fraction of Standing's time (bench/parts.py)."""

    rank: int | None
    id: int
    name: str
    points: float
    values: tuple[float | None, ...]  # a JSON array as a list is
    decided_by: str | None
    breakdown: None = None
    opponents: None = None


class _Identity(TypedDict, total=False):
    """A player's identity fields, as `s.Standing` takes them."""

    key: str | None
    fide_id: int | None
    federation: str | None
    title: str | None
    sex: s.SexName | None
    birth_date: str | None


def _plain_rows(result: Standings, rows: Sequence[StandingRow], identities: dict[int, _Identity]) -> msgspec.Raw:
    """The JSON of standings rows without breakdowns (`explain: false`).

    Every number is made in the order the rows are written: the values of one row lie
    together in memory, so the encoder reads them in order (reading 280,000 floats made rule
    by rule in player order, but written in standings order, took it three times as long)."""
    table = result.table
    if isinstance(rows, StandingRows):  # every row: the engine's columns, no row objects
        order, ranks, decided = rows.order, rows.ranks, rows.decided
    else:
        order = [row.player for row in rows]
        ranks = [row.rank for row in rows]
        decided = [row.decided_by for row in rows]
    chosen = np.asarray(order, dtype=np.int64)
    points = (table.score[chosen] / table.scale).tolist()
    columns = [_display(o, chosen) for o in result.outcomes]
    values = list(zip(*columns, strict=False)) if columns else [()] * len(order)
    ids, names = table.ids, table.names
    made: list[_PlainRow | s.Standing] = list(
        map(_PlainRow, ranks, [ids[p] for p in order], [names[p] for p in order], points, values, decided)
    )
    expelled = any(rank is None for rank in ranks)
    for i, row in enumerate(made) if identities or expelled else ():
        identity = identities.get(row.id)
        if identity is not None or row.rank is None:
            made[i] = s.Standing(
                rank=row.rank,
                id=row.id,
                name=row.name,
                points=row.points,
                values=list(row.values),
                decided_by=row.decided_by,
                breakdown=None,
                opponents=None,
                status="expelled" if row.rank is None else None,
                **(identity or {}),
            )
    return msgspec.Raw(json_encoder().encode(made))


# A column readable by table index: a list of every player's, or a dict of some players'.
_Shown = list[float | None] | dict[int, float | None]


def _shown_values(
    result: Standings, chosen: list[StandingRow] | None
) -> tuple[
    list[_Shown], list[list[float | None]] | dict[int, list[float | None]] | None, list[float] | dict[int, float]
]:
    """Each rule's values as JSON numbers, each player's list of them, and the points, readable by
    table index: for every player, or (`chosen`: a page, or the players named) for those rows'
    players only, in dicts (one row of 20,000 players need not convert 240,000 values)."""
    table = result.table
    if chosen is None:
        displays: list[_Shown] = [_display(o) for o in result.outcomes]
        values_by_player: list[list[float | None]] | dict[int, list[float | None]] | None = (
            list(map(list, zip(*displays, strict=False))) if displays else None
        )
        return displays, values_by_player, (table.score / table.scale).tolist()
    players = sorted({row.player for row in chosen})
    at = np.asarray(players, dtype=np.int64)
    displays = [dict(zip(players, _display(o, at), strict=False)) for o in result.outcomes]
    values_by_player = {p: [d[p] for d in displays] for p in players} if displays else None
    return displays, values_by_player, dict(zip(players, (table.score[at] / table.scale).tolist(), strict=False))


def _display(outcome: RuleOutcome, players: np.ndarray | None = None) -> list[float | None]:
    """Every player's value as the JSON number (units / scale: exact for these decimals);
    with `players` (table indices), theirs in that order."""
    column, missing = outcome.column, outcome.missing
    if players is not None:
        column = column[players]
        missing = None if missing is None else missing[players]
    shown: list[float | None] = (column / outcome.scale).tolist()
    if missing is not None:
        shown = [None if m else v for v, m in zip(shown, missing.tolist(), strict=True)]
    return shown


def standings_to_wire(
    result: Standings,
    explain: bool,
    top: int | None = None,
    player: int | list[int] | None = None,
    tournament: m.Tournament | None = None,
    tiebreak_out=None,
    encode_rows: bool = False,
    offset: int = 0,
) -> s.StandingsResponse:
    """The response; `tournament` (the one ranked) brings the scoring and the players' identities;
    `tiebreak_out` describes each rule (default `tiebreak_to_wire`; team events have their own).

    With `explain`, the breakdowns of the rows returned are built here (Standings.explain), a
    chunk of rows at a time; with `encode_rows` each chunk is encoded at once and `standings`
    holds the JSON of the rows (msgspec.Raw), so that a large answer never holds every row's
    objects at the same time.
    """
    tiebreak_out = tiebreak_out or tiebreak_to_wire
    table = result.table
    players: Sequence[m.Player] | list[s.Player] = tournament.players if tournament is not None else ()
    if isinstance(players, WirePlayers):  # the wire players carry the same fields: no Player made
        players = players.wire
    selected = select_rows(result, top, player, offset)
    player_keys = {p.id: p.key for p in players if p.key is not None}
    # Only the rows shown carry identity fields: a few rows of 20,000 players read only theirs.
    shown = players if selected is result.rows else [players[row.player] for row in selected] if players else ()
    identities = _identities(shown)
    standings: msgspec.Raw | list[s.Standing]
    if encode_rows and not explain:  # rows without breakdowns
        standings = _plain_rows(result, selected, identities)
    else:
        standings = _standing_rows(result, list(selected), explain, encode_rows, player_keys, identities)
    return s.StandingsResponse(
        regulations=result.regulations.value,
        system=table.system.value,
        system_inferred=table.system_inferred,
        rounds=table.rounds,
        after_round=table.played_rounds if table.played_rounds != table.rounds else None,
        scoring=scoring_to_wire(tournament.scoring if tournament is not None else m.Scoring()),
        tiebreaks=[tiebreak_out(o) for o in result.outcomes],
        # A Raw is encoded as the rows' JSON it holds: the field's type is what the schema shows
        standings=cast(list[s.Standing], standings),
        warnings=[s.WarningOut(code=w.code, message=made(w.message), rule=w.rule) for w in result.warnings],
        total_players=len(result.rows),
        seed=result.lots_seed,
        **decisions_to_wire(result.decisions, None),
    )


def _identities(players: Sequence[m.Player | s.Player]) -> dict[int, _Identity]:
    """The identity fields of the players that have any, by start number."""
    return {
        p.id: {
            "key": p.key,
            "fide_id": p.fide_id,
            "federation": p.federation,
            "title": p.title,
            "sex": p.sex,
            "birth_date": p.birth_date,
        }
        for p in players
        if p.key or p.fide_id or p.federation or p.title or p.sex or p.birth_date
    }


def _standing_rows(
    result: Standings,
    chosen: list[StandingRow],
    explain: bool,
    encode_rows: bool,
    player_keys: dict[int, str],
    identities: dict[int, _Identity],
) -> msgspec.Raw | list[s.Standing]:
    """The rows chosen, with their breakdowns when `explain` (made CHUNK_ROWS rows at a time); with
    `encode_rows`, each chunk encoded at once into the JSON of every row."""
    keys = _breakdown_keys(result.outcomes)
    displays, values_by_player, points = _shown_values(result, None if len(chosen) == len(result.rows) else chosen)
    encoder = json_encoder()
    rows: list[s.Standing] = []
    encoded_rows = bytearray(b"[")  # the rows' JSON, a chunk at a time, in one buffer
    opponent_names = _OpponentNames(result.table, player_keys) if explain else None
    for start in range(0, len(chosen), CHUNK_ROWS if explain else max(len(chosen), 1)):
        chunk = chosen[start : start + CHUNK_ROWS] if explain else chosen
        members = [row.player for row in chunk]
        breakdowns: list[dict[str, s.RuleBreakdown]] | None = None
        opponents: list[list[s.OpponentName]] | None = None
        if opponent_names is not None:  # made when `explain`
            breakdowns = _breakdowns(result.outcomes, result.explain(members), keys, displays, members, player_keys)
            opponents = _opponents(result.table, members, opponent_names)
        made = _rows_of(result.table, chunk, points, values_by_player, breakdowns, opponents, identities)
        if not encode_rows:
            rows.extend(made)
            continue
        at = len(encoded_rows) - 1  # each chunk's list is written over the previous one's closing bracket
        encoder.encode_into(made, encoded_rows, at)
        encoded_rows[at] = ord("[" if at == 0 else ",")
    if not encode_rows:
        return rows
    if len(encoded_rows) == 1:
        encoded_rows += b"]"
    return msgspec.Raw(encoded_rows)


def _rows_of(
    table,
    chunk: Sequence[StandingRow],
    points: list[float] | dict[int, float],
    values_by_player: list[list[float | None]] | dict[int, list[float | None]] | None,
    breakdowns: list[dict[str, s.RuleBreakdown]] | None,
    opponents: list[list[s.OpponentName]] | None,
    identities: dict[int, _Identity],
) -> list[s.Standing]:
    """The Standing of each row of a chunk (its breakdown and opponents at the same position).
    The identity fields are passed by name, None where absent: a `**` of each row's dict made
    the struct take the slow way for every keyword (twice the row's cost)."""
    made = []
    for i, row in enumerate(chunk):
        p = row.player
        pid = table.ids[p]
        identity = identities.get(pid, _NO_IDENTITY)
        made.append(
            s.Standing(
                rank=row.rank,
                id=pid,
                name=table.names[p],
                points=points[p],
                values=values_by_player[p] if values_by_player else [],
                decided_by=row.decided_by,
                breakdown=breakdowns[i] if breakdowns is not None else None,
                opponents=opponents[i] if opponents is not None else None,
                status="expelled" if row.rank is None else None,
                key=identity.get("key"),
                fide_id=identity.get("fide_id"),
                federation=identity.get("federation"),
                title=identity.get("title"),
                sex=identity.get("sex"),
                birth_date=identity.get("birth_date"),
            )
        )
    return made


_NO_IDENTITY: _Identity = {}


def tournament_to_wire(t: m.Tournament, header: TrfHeader | None = None) -> s.Tournament:
    """The engine's tournament as the JSON API's (TRF input, tests); `header` adds what a TRF header carried."""
    header = header or TrfHeader()
    return s.Tournament(
        name=t.name,
        start_date=t.start_date,
        system=t.system.value if t.system else None,
        rounds=t.rounds,
        scoring=s.Scoring(
            **{name: float(t.scoring.points_for(m.ResultKind(name))) for name in s.Scoring.__struct_fields__}
        ),
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
                fide_id=p.fide_id,
                federation=p.federation,
                title=p.title,
                sex=p.sex,
                birth_date=p.birth_date,
                key=p.key,
                **_ratings_of(t, p.id),
            )
            for p in t.players
        ],
        city=header.city,
        federation=header.federation,
        end_date=header.end_date,
        tournament_type=header.tournament_type,
        chief_arbiter=header.chief_arbiter,
        deputy_arbiters=list(header.deputy_arbiters),
        time_control=header.time_control,
        round_dates=[d for d in header.round_dates if d is not None],
        initial_colour=header.initial_colour,
        trf_records=list(header.other_records),
    )


def _ratings_of(t: m.Tournament, pid: int) -> dict[str, Any]:
    """A player's national rating, estimate, rating history and expulsion, as the wire's fields."""
    out: dict[str, Any] = {}
    if t.ratings is not None:
        if pid in t.ratings.national:
            out["national_rating"] = t.ratings.national[pid]
        if pid in t.ratings.estimated:
            out["estimated_rating"] = t.ratings.estimated[pid]
        if pid in t.ratings.history:
            out["rating_history"] = [
                s.RatingChange(from_round=c.from_round, rating=c.rating, national_rating=c.national_rating)
                for c in t.ratings.history[pid]
            ]
    if pid in t.expelled:
        out["expelled_after_round"] = t.expelled[pid]
    return out


def header_from_wire(t: s.Tournament) -> TrfHeader:
    """What the JSON tournament carries for a TRF header (the writer's input)."""
    return TrfHeader(
        city=t.city,
        federation=t.federation,
        end_date=t.end_date,
        tournament_type=t.tournament_type,
        chief_arbiter=t.chief_arbiter,
        deputy_arbiters=list(t.deputy_arbiters),
        time_control=t.time_control,
        round_dates=list(t.round_dates),
        initial_colour=t.initial_colour,
        other_records=list(t.trf_records),
    )
