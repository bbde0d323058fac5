"""POST /v1/scenarios (SPEC 3.11): every outcome of the games still to be played, ranked as the
standings rank the finished event, and what each player needs for each place that matters.

`plan_scenarios` reads the crosstable, adds the pairings, ranks the event once (which checks it
and gives the rules' names and the warnings), and works out from points alone which outcomes
need the rules; its counts price the rest (usecases/cost.py). `compute_scenarios` ranks those
outcomes in full and turns each player's winning outcomes into a minimal `needs`
(engine/scenarios.py; docs/scenarios.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec
import numpy as np

from ..engine import Regulations, compute_standings
from ..engine.errors import InconsistentCrosstable, InvalidRequest, Issue
from ..engine.model import ResultColumns, ResultKind, Tournament
from ..engine.rules import RuleSpec
from ..engine.scenarios import (
    OpenGame,
    Term,
    RESULTS,
    Ranker,
    bounds_by_points,
    loss_points,
    minimal_cover,
    open_outcomes,
    outcome_codes,
    open_places,
    reached,
    results_named,
)
from ..engine.scenario_parts import (
    READS,
    Comparison,
    Key,
    Parts,
    TooWide,
    compared,
    parts_of,
    player_keys,
    ranks_by_parts,
    reach_of,
    score_ranges,
)
from ..engine.scenario_formulas import FormulaKey, formula_keys, modelled, taken_at, unmodelled
from ..engine.scenario_solver import MOST_READ, Extreme, PlayerRanks, Shared, key_bounds, ranks_at, solve_ranks
from ..engine.scenario_solver import Stats as SolveStats
from ..engine.standings import Standings, Warning, cyclic_gc_paused, rating_inputs, uses_lots
from ..texts.message import msg, msg_n
from ..engine.table import Table
from ..wire import scenarios as w
from ..wire import schemas as s
from ..wire.limits import LIMITS, Deadline, Limits
from .convert import tiebreak_to_wire, tournament_to_wire
from .cost import Counts, check_cost, check_solver_cost, too_many_open_games
from ..wire.limits import TooManyOpenGames
from .standings import capped, located, prepare_input, read_trf_checked

# Without limits (`plan_scenarios` called directly, as the engine tests do), enumeration answers up to this many open
# games; past it, or past the cost model's bound, the solver does (SPEC 3.11.1).
ENUMERATE_AT_MOST = 12
KIND_OF = {"white": (ResultKind.WIN, ResultKind.LOSS), "draw": (ResultKind.DRAW,) * 2}
KIND_OF["black"] = (ResultKind.LOSS, ResultKind.WIN)


@dataclass(frozen=True, slots=True)
class Entry:
    """A result added to the crosstable: the player's index, the round, the kind, the opponent's id, the colour."""

    player: int
    round: int
    kind: ResultKind
    opponent: int = 0
    color: int = 0


@dataclass
class ScenariosPlan:
    body: w.ScenariosRequest
    counts: Counts
    table: Table
    standings: Standings  # the event ranked once, its open games drawn: the rules and warnings
    specs: list[RuleSpec]
    regulations: Regulations
    games: list[OpenGame]
    reported: list[int]  # table indices, in start-number order
    low: np.ndarray
    high: np.ndarray
    wanted: np.ndarray
    parts: Parts | None  # the rules' values by parts (engine/scenario_parts.py), or None: whole outcomes
    solver: bool = False  # the ranks by the CP-SAT model (engine/scenario_solver.py), from `parts`
    warnings: list[Warning] = field(default_factory=list)
    limits: Limits | None = None
    engine_seconds: float = 0.0
    tournament: Tournament | None = None  # the event with its open games drawn (its ratings, for `ratings`)
    out_of_reach: list[int] = field(default_factory=list)  # `contenders_only`: the start numbers left out


def _pairing_entries(
    body: w.ScenariosRequest, index: dict[int, int], tournament: Tournament
) -> tuple[list[Entry], list[tuple[int, int, int]]]:
    """The byes and assumed results as entries, and the open games as (round, white id, black id)."""
    assumed = assumed_results(body)
    filed = _filed_rounds(tournament)
    seen: set[tuple[int, int]] = set()
    entries: list[Entry] = []
    games: list[tuple[int, int, int]] = []
    for i, p in enumerate(body.pairings):
        if p.round > tournament.rounds:
            raise InvalidRequest(
                [
                    Issue(
                        ("pairings", i, "round"),
                        msg_n(
                            "round {round} is past the event's {n} round",
                            "round {round} is past the event's {n} rounds",
                            tournament.rounds,
                            round=p.round,
                        ),
                    )
                ]
            )
        if p.player is None and p.white == p.black:
            raise InvalidRequest(
                [Issue(("pairings", i, "black"), msg("player {player} cannot play themselves", player=p.white))]
            )
        people = [("white", p.white), ("black", p.black)] if p.player is None else [("player", p.player)]
        for name, pid in people:
            assert pid is not None  # a pairing has both players of a game, or the player of a bye
            if pid not in index:
                raise InvalidRequest([Issue(("pairings", i, name), msg("no player has start number {id}", id=pid))])
            if (pid, p.round) in seen:
                raise InvalidRequest(
                    [
                        Issue(
                            ("pairings", i, name),
                            msg("player {player} is paired twice in round {round}", player=pid, round=p.round),
                        )
                    ]
                )
            if (index[pid], p.round) in filed:
                raise InvalidRequest(
                    [
                        Issue(
                            ("pairings", i, name),
                            msg("player {player} already has a result for round {round}", player=pid, round=p.round),
                        )
                    ]
                )
            seen.add((pid, p.round))
        if p.player is not None:
            assert p.bye is not None
            entries.append(Entry(index[p.player], p.round, ResultKind(p.bye)))
            continue
        assert p.white is not None and p.black is not None
        fixed = assumed.pop((p.round, p.white, p.black), None)
        white_kind, black_kind = KIND_OF[
            fixed[1] if fixed is not None else "draw"
        ]  # an open game: drawn until an outcome fills it
        entries.append(Entry(index[p.white], p.round, white_kind, p.black, 1))
        entries.append(Entry(index[p.black], p.round, black_kind, p.white, 2))
        if fixed is None:
            games.append((p.round, p.white, p.black))
    refuse_unpaired(assumed)
    return entries, games


def assumed_results(body: w.ScenariosRequest) -> dict[tuple[int, int, int], tuple[int, str]]:
    """`assume` by (round, white, black): each game's index in the list and its result; a game
    given twice is a 422 at the second."""
    assumed: dict[tuple[int, int, int], tuple[int, str]] = {}
    for i, a in enumerate(body.assume or []):
        key = (a.round, a.white, a.black)
        if key in assumed:
            text = msg(
                "the game {white}-{black} of round {round} is given twice", white=a.white, black=a.black, round=a.round
            )
            raise InvalidRequest([Issue(("assume", i), text)])
        assumed[key] = (i, a.result)
    return assumed


def refuse_unpaired(assumed: dict[tuple[int, int, int], tuple[int, str]]) -> None:
    """What is left of `assumed` once the pairings took theirs: games `pairings` does not have."""
    if assumed:
        (rnd, white, black), (i, _) = next(iter(assumed.items()))
        text = msg(
            "round {round} has no game {white}-{black} (white-black) in `pairings`", round=rnd, white=white, black=black
        )
        raise InvalidRequest([Issue(("assume", i), text)])


def places_reached(
    low: np.ndarray, column: int, places: int, open_games: list[w.OpenGameOut]
) -> tuple[list[w.PlaceNeeds], int | None]:
    """Each place a reported entrant (`column` of the ranks `low`, an outcome a row) reaches in some
    outcome, with what it takes, and the best place it is sure of (None: none)."""
    needs_of, clinched = [], None
    for place in range(1, places + 1):
        winning = reached(low, column, place, len(open_games))
        if not winning.any():
            continue
        if clinched is None and winning.all():
            clinched = place
        needs_of.append(
            w.PlaceNeeds(place=place, needs=[_conditions(term, open_games) for term in minimal_cover(winning)])
        )
    return needs_of, clinched


def _filed_rounds(tournament: Tournament) -> set[tuple[int, int]]:
    """(player index, round) of every result the crosstable files, absences included."""
    cols = tournament.result_columns()
    counts = np.asarray(cols.counts, dtype=np.int64)
    owner = np.repeat(np.arange(len(counts)), counts)
    return set(zip(owner.tolist(), np.asarray(cols.round, dtype=np.int64).tolist(), strict=True))


def with_entries(tournament: Tournament, entries: Sequence[Entry]) -> Tournament:
    """The tournament with these results added after each player's own (their indices unchanged)."""
    cols = tournament.result_columns()
    counts = np.asarray(cols.counts, dtype=np.int64)
    n = len(counts)
    owner = np.concatenate([np.repeat(np.arange(n), counts), [e.player for e in entries]]).astype(np.int64)
    order = np.argsort(owner, kind="stable")
    new_place = np.empty(len(order), dtype=np.int64)
    new_place[order] = np.arange(len(order))

    def joined(old, new: list[int]) -> np.ndarray:
        return np.concatenate([np.asarray(old, dtype=np.int64), np.asarray(new, dtype=np.int64)])[order]

    columns = ResultColumns(
        counts=np.bincount(owner, minlength=n),
        round=joined(cols.round, [e.round for e in entries]),
        kind=joined(cols.kind, [e.kind.code for e in entries]),
        opponent=joined(cols.opponent, [e.opponent for e in entries]),
        color=joined(cols.color, [e.color for e in entries]),
        points={int(new_place[flat]): value for flat, value in cols.points.items()},
    )
    roster = tournament.roster
    if roster is None:
        from ..engine.model import Roster

        players = tournament.players
        roster = Roster([p.id for p in players], [p.name for p in players], [p.rating or None for p in players])
    return Tournament(
        tournament.players,
        tournament.rounds,
        tournament.system,
        tournament.scoring,
        tournament.name,
        tournament.start_date,
        columns,
        roster,
    )


def _ids_and_index(tournament: Tournament) -> tuple[list[int], dict[int, int]]:
    ids = tournament.roster.ids if tournament.roster is not None else [p.id for p in tournament.players]
    return ids, {pid: i for i, pid in enumerate(ids)}


def _reported(body: w.ScenariosRequest, ids: list[int], index: dict[int, int]) -> list[int]:
    if body.players is None:
        return sorted(range(len(ids)), key=ids.__getitem__)
    for i, pid in enumerate(body.players):
        if pid not in index:
            raise InvalidRequest([Issue(("players", i), msg("no player has start number {id}", id=pid))])
    return sorted({index[pid] for pid in body.players}, key=ids.__getitem__)


def _contenders(table: Table, games: list[OpenGame], reported: list[int], places: int) -> tuple[list[int], list[int]]:
    """The reported players who can reach `places` on points alone, and the others: behind at least
    `places` players on points whatever the results (their rank is past every place asked)."""
    low, high = score_ranges(table, games)
    behind = [int((low > high[j]).sum()) >= places for j in reported]
    return [j for j, out in zip(reported, behind, strict=True) if not out], [
        j for j, out in zip(reported, behind, strict=True) if out
    ]


def plan_scenarios(body: w.ScenariosRequest, limits: Limits | None = None, body_bytes: int = 0) -> ScenariosPlan:
    """Read and check the request, rank the event once, and bound every outcome's ranks by points."""
    with cyclic_gc_paused():
        source, specs, regulations = prepare_input(body, limits)
        if uses_lots(specs):  # a drawn order is no result a player can play for (decision 0140)
            raise InvalidRequest(
                [Issue(("tiebreaks",), msg("RND, the drawing of lots, does not take part in scenarios: leave it out"))]
            )
        ids, index = _ids_and_index(source.tournament)
        entries, open_ids = _pairing_entries(body, index, source.tournament)
        tournament = with_entries(source.tournament, entries)
        after_round = max(p.round for p in body.pairings)
        if source.decisions.ratings.per_round:  # the outcomes are ranked with one rating per player
            raise InvalidRequest(
                [Issue(("ratings", "per_round"), msg("ratings.per_round does not apply to scenarios: leave it out"))]
            )
        if source.decisions.playoffs:  # C.07 3: a play-off is played by those tied at the end (decision 0240)
            text = msg(
                "playoffs do not apply to scenarios: a play-off is played by the players tied after"
                " the last round, and who is tied depends on the open games; leave it out"
            )
            raise InvalidRequest([Issue(("playoffs",), text)])
        try:
            standings = compute_standings(
                tournament,
                specs,
                regulations,
                after_round,
                body.unrated_rating,
                False,
                s.ContributionOut,
                decisions=source.decisions,
            )
        except InconsistentCrosstable as exc:
            if source.trf is None:
                raise
            raise located(exc, source.trf.source, source.warnings) from None
        table = standings.table
        games = [OpenGame(index[white], index[black], rnd - 1) for rnd, white, black in open_ids]
        reported = _reported(body, ids, index)
        out_of_reach: list[int] = []
        if body.contenders_only:
            reported, out_of_reach = _contenders(table, games, reported, body.places)
        counts = Counts(
            players=table.size,
            rounds=table.played_rounds,
            rule_passes=max(1, len(specs)),
            body_bytes=body_bytes,
            open_games=len(games),
            reported=len(reported),
            places=body.places,
        )
        reach = reach_of(specs)
        solver = reach is not None and not _enumeration_fits(counts, limits)
        if reach is None and limits is not None:  # the points of every outcome are worked out here: priced first
            check_cost(counts, limits)
        elif reach is None and len(games) > ENUMERATE_AT_MOST:
            # without limits, enumeration's own bound: the same 413 as with limits, not numpy's ValueError
            raise too_many_open_games(len(games), ENUMERATE_AT_MOST, LIMITS, "max_cost_s", "pairings")
        policy = standings.decisions.ratings
        _, dropped, _ = rating_inputs(table, specs, standings.regulations, None, policy, tournament)
        parts = None
        questions = rivals_best = units = 0
        sums = False
        if solver:
            assert reach is not None
            parts = _solver_parts(table, games, reported, specs, reach)
            low = high = np.zeros((0, len(reported)), dtype=np.int32)
            wanted, most = np.zeros(0, dtype=np.int64), len(parts.chosen)  # priced: the engine's covering outcomes
            questions, rivals_best, units, sums = solver_size(table, games, reported, parts, body.places)
        elif reach is not None and not all(spec in dropped for spec in specs):
            parts = parts_of(table, games, reported, reach)
            most = len(parts.chosen)  # priced: the outcomes the engine ranks for the values
            rank_type = np.int16 if table.size < 2**15 - 1 else np.int32  # a column per player: read one by one
            low = np.empty((3 ** len(games), len(reported)), dtype=rank_type, order="F")
            high, wanted = low, np.zeros(0, dtype=np.int64)  # the exact ranks, written by compute_scenarios
        else:
            low, high = bounds_by_points(table, games, reported)
            if all(spec in dropped for spec in specs):
                high[:] = low  # no rule orders players equal on points: they share the rank (C.07 4.1)
            wanted = open_places(low, high, body.places)
            most = open_outcomes(low, high, body.places)  # priced: the most that can be ranked in full
    counts = Counts(
        players=counts.players,
        rounds=counts.rounds,
        rule_passes=counts.rule_passes,
        body_bytes=body_bytes,
        open_games=0 if solver else len(games),  # the solver does not make the 3**games outcomes
        ranked_outcomes=most,
        assembled_outcomes=3 ** len(parts.kept) if parts is not None and not solver else 0,
        reported=counts.reported,
        places=counts.places,
        solver_questions=questions,
        solver_units=units,
        solver_sums=units if sums else 0,
        solver_rivals=rivals_best,
        solver_sum_rivals=rivals_best if sums else 0,
    )
    if solver and limits is not None:  # priced before the solver runs: a 413 naming what to narrow
        check_solver_cost(counts, limits, len(games))
    warnings = [*source.warnings, *capped(standings.warnings, limits)]
    return ScenariosPlan(
        body,
        counts,
        table,
        standings,
        specs,
        standings.regulations,
        games,
        reported,
        low,
        high,
        wanted,
        parts,
        solver,
        warnings,
        limits,
        tournament=tournament,
        out_of_reach=[table.ids[j] for j in out_of_reach],
    )


def solver_size(
    table: Table, games: list[OpenGame], reported: list[int], parts: Parts, places: int
) -> tuple[int, int, int, bool]:
    """What the solver's time grows with, known before it runs (usecases/cost.py prices it): the
    questions at most, the rivals of the best-rank questions, the units of the worst-rank ones
    (rivals × the values of the keys compared × the open games those keys read) and whether they
    are sums over rounds (priced at their own rates: decision 0262).

    Decision 0300: a question is asked with the player's points fixed at a level (the most for the
    best rank, the least for the worst, each result of their own game for by_own_result) and
    compares them only with the rivals who can be on that level (the others are ahead or behind
    whatever the results: constants); a question without such a rival is settled by pruning and
    costs nothing. by_own_result is asked of contenders only (players who can reach `places` on
    points alone) with an open game (their next one: `_own_games`). Decision 0302: a best-rank
    question takes about the same time per rival whatever the model's size; a worst-rank one grows
    with its model and with the games it reads too (Karl-Mala's take ten times San Viator's per
    value)."""
    low, high = score_ranges(table, games)  # each player's least and greatest points over every outcome
    # sums over rounds: a term a round over at most three games, priced as 6 values a round
    # (measured: a term costs the solver about what 6 table values do, docs/benchmarks.md)
    per_round = table.played_rounds * 6
    values = np.zeros(table.size, dtype=np.int64)
    read = np.zeros((table.size, len(parts.kept)), dtype=bool)  # the kept open games each player's values read
    for player, games_read in parts.read.items():
        values[player] = 3 ** len(games_read) if parts.covered else min(3 ** len(games_read), per_round)
        read[player, games_read] = True
    results = sorted({int(table.win), int(table.draw), loss_points(table)})
    own = _own_games(games, reported)
    questions = rivals_best = units = 0
    for j in reported:
        levels = [(int(high[j]), True), (int(low[j]), False)]  # the best rank's question, the worst rank's
        if j in own and int((low > high[j]).sum()) < places:  # by_own_result: each result fixed
            for r in results:
                levels += [(int(high[j]) - results[-1] + r, True), (int(low[j]) - results[0] + r, False)]
        for level, best in levels:
            rivals = (low <= level) & (high >= level)  # can be level with j on points: compared by values
            rivals[j] = False
            if rivals.any():
                questions += 1
                if best:
                    rivals_best += int(rivals.sum())
                    continue
                # measured: a worst-rank question's time grows with its rivals × the values it
                # reads (a boolean per rival, compared over the whole model) × the games they span
                spanned = int((read[j] | read[rivals].any(axis=0)).sum())
                units += int(rivals.sum()) * (int(values[j]) + int(values[rivals].sum())) * max(1, spanned)
    return questions, rivals_best, units, not parts.covered


def _enumeration_fits(counts: Counts, limits: Limits | None) -> bool:
    """Whether every outcome can be enumerated (the cost model's bound, as before the solver); a
    rule list the solver cannot take is enumerated or refused (413) as before."""
    if limits is None:
        return counts.open_games <= ENUMERATE_AT_MOST
    try:
        check_cost(counts, limits)  # the points of every outcome: priced first
    except TooManyOpenGames:  # too many outcomes; any other limit is the request's own
        return False
    return True


def _solver_parts(table: Table, games: list[OpenGame], reported: list[int], specs: list[RuleSpec], reach: int) -> Parts:
    """The players' values by parts, for the solver; past `MOST_READ` games per player, the rules
    engine/scenario_formulas.py writes as sums over rounds are taken so, any other list is a 422
    naming the rules it does not write (decision 0270)."""
    try:
        return parts_of(table, games, reported, reach, MOST_READ)
    except TooWide as exc:
        if modelled(specs):
            return parts_of(table, games, reported, reach, cover=False)
        raise _too_wide(games, specs, exc.games, unmodelled(specs)) from None


def _too_wide(games: list[OpenGame], specs: list[RuleSpec], widest: int, refused: list[int]) -> InvalidRequest:
    if refused:  # the rules the sums over rounds do not write (engine/scenario_formulas.py)
        named = ", ".join(dict.fromkeys(specs[i].canonical for i in refused))
        text = msg(
            '{rules}: not written as constraints for the solver on this event (docs/scenarios.md, "Rules as'
            ' sums over rounds"), and {open} open games are too many outcomes to count; fix some results'
            " with `assume` or leave these rules out",
            rules=named,
            open=len(games),
        )
        return InvalidRequest([Issue(("tiebreaks", refused[0]), text)])
    far = [(i, spec) for i, spec in enumerate(specs) if (READS.get(spec.code) or 0) > 0]
    named = ", ".join(dict.fromkeys(spec.code for _, spec in far))
    return InvalidRequest(
        [
            Issue(
                ("tiebreaks", far[0][0] if far else 0),
                msg(
                    "{rules}: with {open} games open, a player's value depends on {games} of them; the solver"
                    ' takes rules that depend on at most {most} (docs/scenarios.md, "The solver"); fix some'
                    " results with `assume` or leave these rules out",
                    rules=named,
                    open=len(games),
                    games=widest,
                    most=MOST_READ,
                ),
            )
        ]
    )


def compute_scenarios(plan: ScenariosPlan, deadline: Deadline | None = None) -> w.ScenariosResponse:
    """Rank the outcomes points leave open, then each reported player's ranks, certainties and needs."""
    started = time.perf_counter()
    table = plan.table
    policy = plan.standings.decisions.ratings  # with `unrated_rating` folded in
    ratings, dropped, _ = rating_inputs(table, plan.specs, plan.regulations, None, policy, plan.tournament)
    manual = plan.standings.decisions.manual_values  # MAN's values hold in every outcome
    between = (lambda: deadline.check(msg("while ranking the outcomes"))) if deadline is not None else (lambda: None)
    if plan.solver:
        # by_own_result's questions stop while a quarter of the request's time is left: `undecided`
        time_left = (
            (lambda: deadline.remaining() > deadline.limits.compute_deadline_s / 4)
            if deadline is not None
            else (lambda: True)
        )
        return _solved(plan, ratings, dropped, manual, between, started, time_left)
    with cyclic_gc_paused():
        if plan.parts is not None:
            ranked = ranks_by_parts(
                table,
                plan.games,
                plan.parts,
                plan.specs,
                plan.regulations,
                ratings,
                dropped,
                plan.reported,
                plan.low,  # low and high are one array here: the ranks are exact
                between,
                manual,
            )
        else:
            ranked = int((plan.low < plan.high).any(axis=1).sum())  # before the ranker makes them equal
            ranker = Ranker(
                table,
                plan.games,
                plan.specs,
                plan.regulations,
                ratings,
                dropped,
                plan.reported,
                plan.low,
                plan.high,
                between,
                manual,
            )
            ranker.rank(plan.wanted)
            ranker.extremes()
    open_games = _open_games(plan)
    players = []
    for column, p in enumerate(plan.reported):
        places, clinched = places_reached(plan.low, column, plan.body.places, open_games)
        players.append(
            w.PlayerScenarios(
                id=table.ids[p],
                name=table.names[p],
                best_rank=int(plan.low[:, column].min()),
                worst_rank=int(plan.high[:, column].max()),
                clinched=clinched,
                places=places,
            )
        )
        if deadline is not None and column % 64 == 63:
            deadline.check(msg("while writing the needs"))
    plan.engine_seconds = time.perf_counter() - started
    return _answer(plan, open_games, players, ranked)


def _open_games(plan: ScenariosPlan) -> list[w.OpenGameOut]:
    table = plan.table
    return [w.OpenGameOut(round=g.round + 1, white=table.ids[g.white], black=table.ids[g.black]) for g in plan.games]


def _answer(
    plan: ScenariosPlan,
    open_games: list[w.OpenGameOut],
    players: list[w.PlayerScenarios],
    ranked_by_tiebreaks: int,
    **solver: Any,
) -> w.ScenariosResponse:
    """The answer's fields every individual event has, by enumeration or (with `solver`'s fields) by the solver."""
    return w.ScenariosResponse(
        regulations=plan.regulations.value,
        tiebreaks=[tiebreak_to_wire(o) for o in plan.standings.outcomes],
        after_round=plan.table.played_rounds,
        outcomes=w.outcomes_count(len(plan.games)),
        ranked_by_tiebreaks=ranked_by_tiebreaks,
        open_games=open_games,
        players=players,
        warnings=[s.WarningOut(code=x.code, message=x.message, rule=x.rule) for x in plan.warnings],
        out_of_reach=plan.out_of_reach,
        **solver,
    )


def _solved(
    plan: ScenariosPlan, ratings, dropped, manual, between, started: float, time_left: Callable[[], bool]
) -> w.ScenariosResponse:
    """The best and worst rank of each reported player by the solver (engine/scenario_solver.py);
    a place p is possible when the best rank is at most p (its example is the best rank's), and
    certain when the worst rank is (proved only when the worst was)."""
    table, parts = plan.table, plan.parts
    assert parts is not None
    with cyclic_gc_paused():
        keys: list[Any]
        if not parts.covered:  # sums over rounds; a case they do not model exactly is refused
            refused: list[int] = []
            keys = list(
                formula_keys(
                    table,
                    plan.games,
                    parts,
                    plan.specs,
                    plan.regulations,
                    dropped,
                    ratings=ratings,
                    manual=manual,
                    refused=refused,
                )
                or []
            )
            if not keys:
                raise _too_wide(plan.games, plan.specs, max(map(len, parts.read.values()), default=0), refused)
        else:
            keys = [
                *player_keys(table, plan.games, parts, plan.specs, plan.regulations, ratings, dropped, between, manual)
            ]
    shared = Shared()  # the keys' sums, read once for the main questions and by_own_result's
    answers, stats = solve_ranks(keys, len(parts.kept), plan.reported, between=between, shared=shared)
    open_games = _open_games(plan)
    position = {g: k for k, g in enumerate(parts.kept)}

    def example(codes: np.ndarray | None) -> list[w.GameResultOut] | None:
        if codes is None:
            return None
        # a game set aside (docs/scenarios.md section 7) changes no reported rank: drawn
        return [
            w.GameResultOut(
                round=o.round,
                white=o.white,
                black=o.black,
                result=RESULTS[int(codes[position[g]]) if g in position else 1],  # type: ignore[arg-type]
            )
            for g, o in enumerate(open_games)
        ]

    own = _own_games(plan.games, plan.reported)
    bounds = key_bounds(keys)
    players = []
    for p, answer in zip(plan.reported, answers, strict=True):
        best, worst = answer.best, answer.worst
        undecided: list = [name for name, e in (("best_rank", best), ("worst_rank", worst)) if not e.proved]
        best_example = example(best.example)
        places = []
        reachable = [
            place for place in range(1, plan.body.places + 1) if best.example is not None and best.rank <= place
        ]  # no outcome found reaching the others (proved impossible when `best` is proved)
        by_result = _by_own_result(
            keys, bounds, parts, p, own.get(p), answer, reachable, stats, between, time_left, shared
        )
        listed = _solver_needs(keys, bounds, parts, p, reachable, open_games)
        for place in reachable:
            certain = worst.rank <= place if worst.proved else None
            needs, omitted = listed[place]  # every reachable place has its needs or why not
            places.append(
                w.PlaceNeeds(
                    place=place,
                    needs=needs,
                    possible=True,
                    certain=certain,
                    example=best_example,
                    needs_omitted=omitted,
                    by_own_result=by_result.get(place),
                )
            )
        clinched = worst.rank if worst.proved and worst.rank <= plan.body.places else None
        players.append(
            w.PlayerScenarios(
                id=table.ids[p],
                name=table.names[p],
                best_rank=best.rank,  # when undecided: the rank of its example, or a bound (`undecided` says)
                worst_rank=worst.rank,
                clinched=clinched,
                places=places,
                best_example=best_example,
                worst_example=example(worst.example),
                undecided=undecided,
            )
        )
    plan.engine_seconds = time.perf_counter() - started
    return _answer(
        plan,
        open_games,
        players,
        0,
        method="solver",
        undecided=stats.undecided,
        stats=w.SolverStats(
            questions=stats.asked,
            by_pruning=stats.by_pruning,
            by_solver=stats.by_solver,
            undecided=stats.undecided,
            seconds=round(stats.seconds, 3),
        ),
    )


# ---- needs from the solver's keys, where they stay small (SPEC 3.11.1; decision 0266) ----

NEEDS_GAMES = 8  # `needs` is listed when a place depends on at most this many open games (3^8 combinations)
NEEDS_TERMS = 12  # and its minimal list of alternatives has at most this many terms


def _solver_needs(
    keys: list[Any],
    bounds: tuple[np.ndarray, ...],
    parts: Parts,
    player: int,
    reachable: list[int],
    open_games: list[w.OpenGameOut],
) -> dict[int, tuple[list[list[w.Condition]] | None, Any]]:
    """Per reachable place, `needs` and None, or None and why not. The games the player's rank
    depends on are those the player's key and their rivals' read (rivals whose key can cross
    theirs; the others are ahead or behind in every outcome); when at most `NEEDS_GAMES`, every
    combination is ranked from the keys (the engine's values: exact) and `minimal_cover` gives the
    minimal needs, as enumeration does. Games outside never change the rank, so never a condition."""
    c = compared(player, *bounds)
    used = sorted({g for k in (player, *c.ahead_if) for g in keys[k].games})
    if len(used) > NEEDS_GAMES:
        why = msg(
            "not listed: reaching this place depends on {games} open games, past the {most} whose combinations"
            " are listed; `example` is one outcome that reaches it",
            games=len(used),
            most=NEEDS_GAMES,
        )
        return dict.fromkeys(reachable, (None, why))
    codes = outcome_codes(len(used))
    full = np.ones((len(codes), len(parts.kept)), dtype=np.int8)
    full[:, used] = codes

    rank = ranks_at(keys, player, c.ahead_if, c.ahead, full)
    listed: dict[int, tuple[list[list[w.Condition]] | None, Any]] = {}
    for place in reachable:
        terms = minimal_cover((rank <= place).reshape((3,) * len(used)))
        if len(terms) > NEEDS_TERMS:
            why = msg(
                "not listed: it takes {terms} alternatives, past the {most} listed; `example` is one outcome"
                " that reaches it",
                terms=len(terms),
                most=NEEDS_TERMS,
            )
            listed[place] = (None, why)
            continue
        mapped = [{parts.kept[used[a]]: values for a, values in term.items()} for term in terms]
        listed[place] = ([_conditions(term, open_games) for term in mapped], None)
    return listed


# ---- by_own_result (SPEC 3.11.1): each place asked again with the player's own game fixed ----

# a result code of the game (white wins, draw, black wins) by the player's side: win, draw, loss
OWN_CODES = {"white": (0, 1, 2), "black": (2, 1, 0)}


def _own_games(games: list[OpenGame], reported: list[int]) -> dict[int, tuple[int, str]]:
    """Each reported player with an open game: "their game" (SPEC 3.11.1), the one of their
    earliest open round, the next they play (decision 0301), as its index and the player's colour."""
    mine: dict[int, tuple[int, int, str]] = {}
    wanted = set(reported)
    for g, game in enumerate(games):
        for player, side in ((game.white, "white"), (game.black, "black")):
            if player in wanted and (player not in mine or game.round < mine[player][0]):
                mine[player] = (game.round, g, side)
    return {p: (g, side) for p, (_, g, side) in mine.items()}


def _by_own_result(
    keys: list[Any],
    bounds: tuple[np.ndarray, ...],
    parts: Parts,
    player: int,
    own: tuple[int, str] | None,
    answer: PlayerRanks,
    reachable: list[int],
    stats: SolveStats,
    between: Callable[[], None],
    time_left: Callable[[], bool],
    shared: Shared | None = None,
) -> dict[int, w.OwnResults]:
    """Per place the player can reach, its status with their own game won, drawn or lost: the best
    and worst rank solved again over the keys with that game's result fixed (the engine's values
    where it has that result, as `assume` would give them), for this player only. A place certain
    whatever the results needs no question; a bound the solver did not settle, or a question left
    unasked because the request's time bound is near (`time_left`), is `undecided`. A question
    already answered by an outcome at hand is not asked (`_found`)."""
    if own is None or not reachable:
        return {}
    open_places = open_own_places(answer, reachable)
    if not open_places:  # certain in every outcome: whatever the player's own result
        return dict.fromkeys(reachable, CERTAIN_WHATEVER)
    game, side = own
    kept = {g: k for k, g in enumerate(parts.kept)}
    c = compared(player, *bounds)
    examples = [e.example for e in (answer.best, answer.worst) if e.example is not None]
    # the outcomes at hand under each result, ranked in one pass over the rivals' keys
    at_hand = _found(keys, player, c, examples, kept[game], OWN_CODES[side], open_places) if game in kept else {}
    per_result: list[PlayerRanks | None] = []
    for code in OWN_CODES[side]:
        if game not in kept:  # set aside (docs/scenarios.md): no reported rank changes with it
            per_result.append(answer)
            continue
        if not time_left():  # the request's time bound is near: said, never guessed
            stats.asked += 2
            stats.undecided += 2
            per_result.append(None)
            continue
        # the best rank over every outcome is reached with the player's own game won, the worst
        # with it lost (the solver fixes it so, decision 0260): proved, they are the same
        # questions' answers under that result, not asked again
        found = at_hand[code]
        known = (
            answer.best if code == OWN_CODES[side][0] and answer.best.proved else found[0],
            answer.worst if code == OWN_CODES[side][2] and answer.worst.proved else found[1],
        )
        fixed = [fixed_key(key, kept[game], code) for key in keys]
        [ranks], more = solve_ranks(fixed, len(parts.kept), [player], between=between, known=known, shared=shared)
        for name in ("asked", "by_pruning", "by_solver", "undecided"):
            setattr(stats, name, getattr(stats, name) + getattr(more, name))
        stats.seconds += more.seconds
        per_result.append(ranks)
    return own_results(reachable, open_places, per_result, "undecided")


def _found(
    keys: list[Any],
    player: int,
    c: Comparison,
    examples: list[np.ndarray],
    game: int,
    codes: Sequence[int],
    open_places: list[int],
) -> dict[int, tuple[Extreme | None, Extreme | None]]:
    """Per result code of the player's own (kept) game: an outcome with that result reaching
    every open place, and one reaching none, where the main question's two examples, taken with
    the own game at that result and ranked again (exact: one outcome each), give them (decision
    0263). A place's status then needs no bound: an outcome reaching the first open place means
    none is `impossible`, one past the last means none is `certain`; that question is not asked."""
    if not examples:
        return dict.fromkeys(codes, (None, None))
    rows = np.repeat(np.array(examples, dtype=np.int8)[None], len(codes), axis=0)  # (codes, examples, games)
    rows[:, :, game] = np.array(codes, dtype=np.int8)[:, None]
    ranks = ranks_at(keys, player, c.ahead_if, c.ahead, rows.reshape(-1, rows.shape[2])).reshape(len(codes), -1)
    found: dict[int, tuple[Extreme | None, Extreme | None]] = {}
    for code, rank, outcomes in zip(codes, ranks, rows, strict=True):
        low, high = int(np.argmin(rank)), int(np.argmax(rank))
        found[code] = (
            Extreme(int(rank[low]), outcomes[low], False) if rank[low] <= open_places[0] else None,
            Extreme(int(rank[high]), outcomes[high], False) if rank[high] > open_places[-1] else None,
        )
    return found


CERTAIN_WHATEVER = w.OwnResults(win="certain", draw="certain", loss="certain")


def open_own_places(answer: PlayerRanks, reachable: list[int]) -> list[int]:
    """The places by_own_result must ask about: those the proved worst rank does not already make certain."""
    worst = answer.worst
    return [p for p in reachable if not (worst.proved and worst.rank <= p)]


def own_results(
    reachable: list[int], open_places: list[int], per_result: list[PlayerRanks | None], missing: w.OwnStatus
) -> dict[int, w.OwnResults]:
    """by_own_result per place from the ranks under each own result (win, draw, loss); `missing`:
    the status of a result with no ranks."""
    answers: dict[int, w.OwnResults] = {}
    for place in reachable:
        if place not in open_places:
            answers[place] = CERTAIN_WHATEVER
            continue
        status = [own_status(ranks, place) if ranks is not None else missing for ranks in per_result]
        answers[place] = w.OwnResults(win=status[0], draw=status[1], loss=status[2])
    return answers


def own_status(ranks: PlayerRanks, place: int) -> w.OwnStatus:
    """A place under one fixed result: proved either way from an outcome found or a proved bound."""
    best, worst = ranks.best, ranks.worst
    if best.proved and best.rank > place:
        return "impossible"  # the best rank over these outcomes is past the place
    if worst.proved and worst.rank <= place:
        return "certain"
    reached = best.example is not None and best.rank <= place  # an outcome found that reaches it
    missed = worst.example is not None and worst.rank > place  # and one that does not
    return "possible" if reached and missed else "undecided"


def fixed_key(key: Any, game: int, code: int) -> Any:
    """A player's sort key over the outcomes where kept game `game` has result `code`: each table
    reading that game taken at that result, the game dropped from what the key reads."""
    if game not in key.games:
        return key
    if isinstance(key, FormulaKey):
        return key.fixed(game, code)
    axis = key.games.index(game)
    return Key(
        [g for g in key.games if g != game],
        taken_at(key.value, axis, code, len(key.games)),
        taken_at(key.points, axis, code, len(key.games)),
    )


def _conditions(term: Term, games: list[w.OpenGameOut]) -> list[w.Condition]:
    return [
        w.Condition(round=games[g].round, white=games[g].white, black=games[g].black, results=results_named(values))  # type: ignore[arg-type]
        for g, values in sorted(term.items())
    ]


# ---- a played round opened again: its results dropped, its pairings kept ----

FORFEIT_AS = {"forfeit_win": "win", "forfeit_loss": "loss"}
WHITE_RESULT = {"win": "white", "draw": "draw", "loss": "black"}
BYES = {"pairing_bye", "full_bye", "half_bye", "zero_bye"}


def last_round(t: s.Tournament) -> int:
    """The last round in which some player has a game (played or forfeited)."""
    rounds = [r.round for p in t.players for r in p.results if r.opponent is not None]
    if not rounds:
        raise InvalidRequest([Issue(("tournament",), msg("no round has a game to open"))])
    return max(rounds)


def opened_round(t: s.Tournament, rnd: int | None = None) -> tuple[s.Tournament, list[w.Pairing], list[w.Assumed]]:
    """The tournament without round `rnd`'s results (default: its last round with a game), that
    round's pairings (games and byes), and the results it had (a forfeit as the win it gave; a
    double forfeit has none), e.g. to ask what each player needed before it."""
    rnd = last_round(t) if rnd is None else rnd
    pairings: list[w.Pairing] = []
    played: list[w.Assumed] = []
    for p in t.players:
        for r in p.results:
            if r.round != rnd:
                continue
            if r.opponent is None:
                if r.result in BYES:
                    pairings.append(w.Pairing(round=rnd, player=p.id, bye=r.result))  # type: ignore[arg-type]
                continue
            if (r.color or ("w" if p.id < r.opponent else "b")) != "w":
                continue  # the game is listed from white's side
            pairings.append(w.Pairing(round=rnd, white=p.id, black=r.opponent))
            result = WHITE_RESULT.get(FORFEIT_AS.get(r.result, r.result))
            if result is not None and not (r.result == "forfeit_loss" and _double_forfeit(t, r.opponent, rnd)):
                played.append(w.Assumed(round=rnd, white=p.id, black=r.opponent, result=result))  # type: ignore[arg-type]
    players = [msgspec.structs.replace(p, results=[r for r in p.results if r.round != rnd]) for p in t.players]
    return msgspec.structs.replace(t, players=players), pairings, played


def _double_forfeit(t: s.Tournament, pid: int, rnd: int) -> bool:
    player = next(p for p in t.players if p.id == pid)
    return any(r.round == rnd and r.result == "forfeit_loss" for r in player.results)


def file_request(
    tournament: s.Tournament | None,
    trf: str | None,
    pairings: list[w.Pairing] | None,
    tiebreaks: list[str] | None = None,
    **fields,
) -> tuple[w.ScenariosRequest, dict[int, str], list[w.Assumed]]:
    """A scenarios request for a file's crosstable (JSON `tournament` or `trf` text), every
    player's name, and the results the round opened had. `pairings` None: the file's last round
    with a game opened again (its results dropped, its pairings kept). `tiebreaks` None: a TRF's
    own list (record 202/212)."""
    if trf is not None:
        document = read_trf_checked(trf, None)
        tournament = tournament_to_wire(document.tournament)
        if tiebreaks is None and document.tiebreaks:
            tiebreaks = list(document.tiebreaks)
    assert tournament is not None  # one of them is given
    played: list[w.Assumed] = []
    if pairings is None:
        tournament, pairings, played = opened_round(tournament)
    names = {p.id: p.name or str(p.id) for p in tournament.players}
    rules: list[str | s.RuleObject] | None = None if tiebreaks is None else list(tiebreaks)
    request = w.ScenariosRequest(tournament=tournament, tiebreaks=rules, pairings=pairings, **fields)
    return request, names, played
