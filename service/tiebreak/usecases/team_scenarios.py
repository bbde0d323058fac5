"""POST /v1/scenarios for a team event (SPEC 3.11.1, team events): the open boards' results are the
unknowns, match points follow from them, and every outcome is ranked by the team engine exactly
as POST /v1/standings ranks the finished event; the answer's rows are teams (their ids).

The pairings name board games by the players' start numbers, as the file's boards do; each must be
a board of one of the file's matches, whose result is set aside (the round reopened, as
`--pairings last` does). A player's bye changes no team's score and is passed over; team byes are
the file's. Exact by enumeration where it fits: 3 results per open board, priced per team ranking
before any is made (decision 0231); past it, by the team solver (engine/teams/solver.py, decision
0295): an open match's game points as its unknown, the team rules as constraints, each example's
game points spread over its boards so that a client can post it to /v1/standings.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import numpy as np

from ..engine.errors import InvalidRequest, Issue
from ..engine.model import Regulations
from ..engine.rules import RuleSpec
from ..engine.scenario_solver import PlayerRanks
from ..engine.scenario_solver import Stats as SolveStats
from ..engine.scenarios import RESULTS, outcome_codes
from ..engine.standings import Warning
from ..engine.teams.model import Board, BoardResult, TeamTournament
from ..engine.teams.solver import NotModelled, TeamModel, solve_team_ranks, team_model, unmodelled
from ..engine.teams.standings import TeamStandings, compute_team_standings
from ..formats.trf_teams import NotATeamEvent, is_team_trf
from ..texts.message import msg
from ..wire import scenarios as w
from ..wire import schemas as s
from ..wire.limits import Deadline, Limits
from .convert_teams import team_tiebreak_to_wire
from .cost import SOLVER_SECONDS_PER_UNIT, Counts, check_solver_cost, too_many_open_games
from .scenarios import CERTAIN_WHATEVER, assumed_results, open_own_places, own_results, places_reached, refuse_unpaired
from .teams import check_team_event, prepare_team

# the result code of an open game (engine/scenarios.py RESULTS: white, draw, black) as a board's result
BOARD_RESULT = (BoardResult.WHITE_WINS, BoardResult.DRAW, BoardResult.BLACK_WINS)
ASSUMED = dict(zip(RESULTS, BOARD_RESULT, strict=True))
# Seconds per team ranking: measured 2.4-5 ms for the Crete cup (15 teams × 7 rounds × 4 rules, 2-core
# machine; docs/benchmarks.md, "Team scenarios"), priced at 10 ms to stay on the safe side.
RANKING_BASE_S = 0.002
RANKING_CELL_S = 0.00002  # per team × round × rule
# Without limits (the engine's tests, the Python API), enumeration answers up to this many open
# boards (3^6 team rankings); past it the solver does.
ENUMERATE_AT_MOST = 6
# The team solver's seconds per question × size (solver_size): the worst ratio of the shapes of
# docs/benchmarks.md ("Scenarios of team events by the solver"), CPU seconds on a busy 2-core
# machine, times a margin (decision 0295).
TEAM_SECONDS_PER_UNIT = 1.2e-4  # 7.48e-05 at worst (a first run) × 1.6


@dataclass
class TeamScenariosPlan:
    body: w.ScenariosRequest
    counts: Counts
    event: TeamTournament  # the event with the assumed results in, the open boards still to fill
    specs: list[RuleSpec]
    regulations: Regulations
    after_round: int
    games: list[tuple[int, int, int]]  # (round, white, black) of each open board
    seats: list[tuple[int, int]]  # (match index, board index) of each open board
    reported: list[int]  # team ids, in order
    names: dict[int, str]
    warnings: list[Warning]
    engine_seconds: float = 0.0
    model: TeamModel | None = None  # the solver's model; None: every outcome enumerated


def is_team_scenarios(body: w.ScenariosRequest) -> bool:
    return body.trf is not None and is_team_trf(body.trf)


def ranking_seconds(teams: int, rounds: int, rules: int) -> float:
    return RANKING_BASE_S + RANKING_CELL_S * teams * rounds * max(1, rules)


def plan_team_scenarios(
    body: w.ScenariosRequest, limits: Limits | None = None, body_bytes: int = 0, method: str = "auto"
) -> TeamScenariosPlan | None:
    """Read the team event and the pairings, and price the outcomes; None: the file's team records
    describe no matches (an individual event after all). `method`: `auto` enumerates where it fits
    and solves past it; `enumeration` or `solver` (the tests that compare them, the bench) forces one."""
    try:
        event, specs, regulations, warnings = prepare_team(body)
    except NotATeamEvent:
        return None
    if body.contenders_only:  # a team event reports every team it is asked about (decision 0300)
        text = msg("`contenders_only` applies to individual events; a team event reports every team: leave it out")
        raise InvalidRequest([Issue(("contenders_only",), text)])
    if limits is not None:
        check_team_event(event, limits, "trf")
    seat_of: dict[tuple[int, int, int], tuple[int, int]] = {}
    for m, match in enumerate(event.matches):
        for b, board in enumerate(match.boards):
            if board.white is not None and board.black is not None:
                seat_of[(match.round, board.white, board.black)] = (m, b)
    assumed = assumed_results(body)
    matches = list(event.matches)
    games: list[tuple[int, int, int]] = []
    seats: list[tuple[int, int]] = []
    seen: set[tuple[int, int, int]] = set()
    for i, p in enumerate(body.pairings):
        if p.white is None or p.black is None:
            continue  # a player's bye: no team's score changes
        key = (p.round, p.white, p.black)
        if key not in seat_of:
            raise InvalidRequest(
                [
                    Issue(
                        ("pairings", i),
                        msg(
                            "round {round} has no board with white {white} and black {black} in the file's matches",
                            round=p.round,
                            white=p.white,
                            black=p.black,
                        ),
                    )
                ]
            )
        if key in seen:
            text = msg("the game {white}-{black} is given twice", white=p.white, black=p.black)
            raise InvalidRequest([Issue(("pairings", i), text)])
        seen.add(key)
        m, b = seat_of[key]
        fixed = assumed.pop(key, None)
        result = ASSUMED[fixed[1]] if fixed is not None else BoardResult.DRAW  # open: filled per outcome
        match = matches[m]
        boards = list(match.boards)
        boards[b] = replace(boards[b], result=result, points=None)
        # the declared match score was the old boards'; the outcome's boards decide it now
        matches[m] = replace(match, boards=tuple(boards), game_points=None)
        if fixed is None:
            games.append(key)
            seats.append((m, b))
    refuse_unpaired(assumed)
    event = replace(event, matches=tuple(matches))
    ids = [t.id for t in event.teams]
    if body.players is None:
        reported = sorted(ids)
    else:
        for i, tid in enumerate(body.players):
            if tid not in ids:
                raise InvalidRequest([Issue(("players", i), msg("no team has the id {id}", id=tid))])
        reported = sorted(set(body.players))
    after_round = max(p.round for p in body.pairings)
    rounds = max(event.rounds, after_round)
    counts = Counts(
        players=len(ids),
        rounds=rounds,
        rule_passes=max(1, len(specs)),
        body_bytes=body_bytes,
        open_games=len(games),
        ranked_outcomes=3 ** len(games),
        reported=len(reported),
        places=body.places,
    )
    names = {t.id: t.name or str(t.id) for t in event.teams}
    plan = TeamScenariosPlan(
        body, counts, event, specs, regulations, after_round, games, seats, reported, names, warnings
    )
    per_ranking = ranking_seconds(len(ids), rounds, len(specs))
    fits = len(games) <= ENUMERATE_AT_MOST if limits is None else 3 ** len(games) * per_ranking <= limits.max_cost_s
    if method == "enumeration" or (fits and method == "auto"):
        if limits is not None:
            _check_outcomes(len(games), per_ranking, limits)
        return plan
    refused = unmodelled(specs)
    if refused:  # past enumeration, only the rules the solver writes (never a guess)
        raise _not_modelled(body, specs, refused, len(games))
    open_boards: dict[int, int] = {}
    for m, _ in seats:
        open_boards[m] = open_boards.get(m, 0) + 1
    try:
        plan.model = team_model(event, specs, regulations, after_round, open_boards)
    except NotModelled as exc:  # a rule, or what of it the model leaves unwritten (a negative value under a cut)
        reason = str(exc)
        refused = [i for i, spec in enumerate(specs) if spec.canonical == reason] or list(range(len(specs)))
        raise _not_modelled(body, specs, refused, len(games), reason) from None
    plan.counts = _solver_counts(plan, body_bytes)
    if limits is not None:  # priced before the solver runs: a 413 naming what to narrow
        check_solver_cost(plan.counts, limits, len(games))
    return plan


def _not_modelled(
    body: w.ScenariosRequest, specs: list[RuleSpec], refused: list[int], boards: int, named: str = ""
) -> InvalidRequest:
    named = named or ", ".join(dict.fromkeys(specs[i].canonical for i in refused))
    text = msg(
        '{rules}: not written as constraints for the team solver (docs/scenarios.md, "Team events"), and'
        " {open} open boards are too many outcomes to count; fix some results with `assume` or leave these"
        " rules out",
        rules=named,
        open=boards,
    )
    # the preset when one names the list; else the rule (of `tiebreaks` or the file's own list)
    path: tuple = ("preset",) if body.preset is not None else ("tiebreaks", *refused[:1])
    return InvalidRequest([Issue(path, text)])


def solver_size(plan: TeamScenariosPlan) -> tuple[int, int]:
    """What the team solver's time grows with, known before it runs: the questions at most (a best
    and a worst rank per reported team, and four more for a team with one open match that can
    reach `places` on its primary score: by_own_result, whose other two are the first two), and the
    model's size: the values of the open matches times the columns compared (the primary score and
    each rule)."""
    model = plan.model
    assert model is not None
    # on the primary score (match or game points, as the list ranks them): who can be ahead on it alone
    primary_low = [e.low() for e in model.columns[0]]
    primary_high = [e.high() for e in model.columns[0]]
    own = [sum(t in (o.home, o.away) for o in model.opened) for t in range(len(primary_low))]
    row = {t.id: i for i, t in enumerate(plan.event.teams)}
    questions = 0
    for tid in plan.reported:
        j = row[tid]
        questions += 2
        if (
            own[j] == 1
            and sum(1 for k in range(len(primary_low)) if primary_low[k] > primary_high[j]) < plan.body.places
        ):
            questions += 4
    return questions, sum(model.sizes) * len(model.columns)


def _solver_counts(plan: TeamScenariosPlan, body_bytes: int) -> Counts:
    """The counts the gate prices (usecases/cost.py): the team solver's seconds written as the
    individual solver's table units (its rate, SOLVER_SECONDS_PER_UNIT), so that one price holds
    for both."""
    questions, size = solver_size(plan)
    seconds = TEAM_SECONDS_PER_UNIT * questions * size
    c = plan.counts
    return Counts(
        players=c.players,
        rounds=c.rounds,
        rule_passes=c.rule_passes,
        body_bytes=body_bytes,
        reported=c.reported,
        places=c.places,
        solver_questions=max(1, questions),
        solver_units=max(1, round(seconds / SOLVER_SECONDS_PER_UNIT)),
        teams=True,
    )


def _check_outcomes(games: int, per_ranking: float, limits: Limits) -> None:
    """3^games team rankings priced: past `max_cost_s`, the 413 of the individual events, in the
    same words (how many boards are open, how many fit)."""
    if 3**games * per_ranking <= limits.max_cost_s:
        return
    fit = 0
    while 3 ** (fit + 1) * per_ranking <= limits.max_cost_s:
        fit += 1
    raise too_many_open_games(games, fit, limits, "max_cost_s", "pairings")


def _ranked(plan: TeamScenariosPlan, codes: np.ndarray) -> TeamStandings:
    matches = list(plan.event.matches)
    for (m, b), code in zip(plan.seats, codes, strict=True):
        match = matches[m]
        boards: list[Board] = list(match.boards)
        boards[b] = replace(boards[b], result=BOARD_RESULT[int(code)])
        matches[m] = replace(match, boards=tuple(boards))
    event = replace(plan.event, matches=tuple(matches))
    return compute_team_standings(event, plan.specs, plan.regulations, plan.after_round, False, s.ContributionOut)


def _match_scores(plan: TeamScenariosPlan, codes: np.ndarray) -> np.ndarray:
    """Per outcome (a row of result codes over the open boards), each open match's home and away
    game points from its open boards (the event's game scoring, scaled to integers)."""
    s = plan.event.scoring
    points = [
        int(2 * v * s.game_win.denominator * s.game_draw.denominator * s.game_loss.denominator)
        for v in (s.game_win, s.game_draw, s.game_loss)
    ]
    # white's and black's points per result code (white wins, draw, black wins)
    white = np.array([points[0], points[1], points[2]], dtype=np.int64)
    black = white[::-1].copy()
    team_of = {p.id: t.id for t in plan.event.teams for p in t.players}
    matches = sorted({m for m, _ in plan.seats})
    columns = np.zeros((len(codes), 2 * len(matches)), dtype=np.int64)
    for g, ((m, _), (_, wt, _)) in enumerate(zip(plan.seats, plan.games, strict=True)):
        k = matches.index(m)
        home_white = team_of[wt] == plan.event.matches[m].home
        mine, theirs = (white, black) if home_white else (black, white)
        columns[:, 2 * k] += mine[codes[:, g]]
        columns[:, 2 * k + 1] += theirs[codes[:, g]]
    return columns


def compute_team_scenarios(plan: TeamScenariosPlan, deadline: Deadline | None = None) -> w.ScenariosResponse:
    """Every outcome of the open boards ranked by the team engine; each reported team's ranks and needs."""
    if plan.model is not None:
        return _solved(plan, plan.model, deadline)
    started = time.perf_counter()
    n = len(plan.games)
    codes = outcome_codes(n)
    column = {tid: c for c, tid in enumerate(plan.reported)}
    # outcomes that give every open match the same game points rank alike when no rule reads which
    # board made them (decision 0295): one team ranking per distinct set of match scores
    group = _match_scores(plan, codes) if not unmodelled(plan.specs) else np.arange(len(codes))
    kinds, first_of, inverse = np.unique(group, axis=0, return_index=True, return_inverse=True)
    ranks = np.zeros((len(kinds), len(plan.reported)), dtype=np.int32)
    needed = np.zeros(len(kinds), dtype=bool)
    first: TeamStandings | None = None
    for k, o in enumerate(first_of.tolist()):
        standings = _ranked(plan, codes[o])
        if o == 0:
            first = standings
        for r in standings.rows:
            tid = standings.table.ids[r.player]
            if tid in column:
                # C.07 4.1: an expelled team is ranked nowhere, below every other
                ranks[k, column[tid]] = r.rank if r.rank is not None else len(standings.rows) + 1
                needed[k] = needed[k] or r.decided_by not in ("PTS", "PTS:GP")
        if deadline is not None and k % 64 == 63:
            deadline.check(msg("while ranking the outcomes"))
    assert first is not None  # 3^0 = 1 outcome at least
    inverse = np.asarray(inverse).reshape(-1)
    low = ranks[inverse]
    by_tiebreaks = int(needed[inverse].sum())
    open_games = [w.OpenGameOut(round=r, white=wt, black=bk) for r, wt, bk in plan.games]
    teams = []
    for c, tid in enumerate(plan.reported):
        places, clinched = places_reached(low, c, plan.body.places, open_games)
        teams.append(
            w.PlayerScenarios(
                id=tid,
                name=plan.names[tid],
                best_rank=int(low[:, c].min()),
                worst_rank=int(low[:, c].max()),
                clinched=clinched,
                places=places,
            )
        )
    plan.engine_seconds = time.perf_counter() - started
    warnings = [*plan.warnings, *first.warnings]
    return w.ScenariosResponse(
        regulations=first.regulations.value,
        tiebreaks=[team_tiebreak_to_wire(o) for o in first.outcomes],
        after_round=plan.after_round,
        outcomes=w.outcomes_count(n),
        ranked_by_tiebreaks=by_tiebreaks,
        open_games=open_games,
        players=teams,
        warnings=[s.WarningOut(code=x.code, message=x.message, rule=x.rule) for x in warnings],
        entrants="teams",
    )


# ---- by the team solver (engine/teams/solver.py; decision 0295) ----

# a team's match results from its side, in by_own_result's order; `_allowed` says which values of
# the match give each (its game points against the opponent's: more wins the match, C.07 11)
MATCH_RESULTS = ("win", "draw", "loss")


def _boards_of(plan: TeamScenariosPlan, model: TeamModel) -> list[list[int]]:
    """Per open match of the model, its open boards (indices into `plan.games`), in board order."""
    index = {o.match: m for m, o in enumerate(model.opened)}
    boards: list[list[int]] = [[] for _ in model.opened]
    for g, (m, _) in enumerate(plan.seats):
        boards[index[m]].append(g)
    return boards


def _example(plan: TeamScenariosPlan, model: TeamModel, x: np.ndarray | None) -> list[w.GameResultOut] | None:
    """An outcome of the open matches as a result per open board: each match's game points spread
    over its open boards, home's wins first, then its draws, then its losses (any spread with the
    same game points gives the same ranks: the team rules read a match's game points, not which
    board made them), each read from white's side."""
    if x is None:
        return None
    team_of = {p.id: t.id for t in plan.event.teams for p in t.players}
    result = [1] * len(plan.games)  # every open board belongs to an open match of the model
    for o, boards, v in zip(model.opened, _boards_of(plan, model), x.tolist(), strict=True):
        value = o.values[v]
        home_id = plan.event.matches[o.match].home
        scores = [0] * value.wins + [1] * value.draws + [2] * value.losses  # home's: won, drawn, lost
        for g, score in zip(boards, scores, strict=True):
            _, white, _ = plan.games[g]
            result[g] = score if team_of[white] == home_id else 2 - score  # as white's result code
    return [
        w.GameResultOut(round=r, white=wt, black=bk, result=RESULTS[code])  # type: ignore[arg-type]
        for (r, wt, bk), code in zip(plan.games, result, strict=True)
    ]


def _allowed(model: TeamModel, m: int, team: int, result: str) -> list[int]:
    """The values of open match `m` that give `team` a match won, drawn or lost."""
    o = model.opened[m]
    found = []
    for v, value in enumerate(o.values):
        mine, theirs = (value.home_gp, value.away_gp) if team == o.home else (value.away_gp, value.home_gp)
        if (result, mine > theirs, mine == theirs) in (("win", True, False), ("draw", False, True)) or (
            result == "loss" and mine < theirs
        ):
            found.append(v)
    return found


def _by_own_result(
    model: TeamModel,
    team: int,
    answer: PlayerRanks,
    reachable: list[int],
    stats: SolveStats,
    between,
) -> dict[int, w.OwnResults]:
    """Per place the team can reach, its status with its one open match won, drawn or lost: the best
    and worst rank asked again with the match's values narrowed to that result. An answer already
    proved whose outcome has that result is that result's answer too (the same optimum over fewer
    outcomes); a result no value gives is none of the team's outcomes: `impossible`."""
    mine = [m for m, o in enumerate(model.opened) if team in (o.home, o.away)]
    if len(mine) != 1 or not reachable:
        return {}
    open_places = open_own_places(answer, reachable)
    if not open_places:
        return dict.fromkeys(reachable, CERTAIN_WHATEVER)
    (m,) = mine
    per_result: list[PlayerRanks | None] = []
    for result in MATCH_RESULTS:
        allowed = _allowed(model, m, team, result)
        if not allowed:
            per_result.append(None)
            continue
        known = [
            e if e.proved and e.example is not None and int(e.example[m]) in allowed else None
            for e in (answer.best, answer.worst)
        ]
        if all(known):
            stats.asked += 2
            stats.by_solver += 2
            per_result.append(PlayerRanks(*known))  # type: ignore[arg-type]
            continue
        [ranks], _ = solve_team_ranks(model, [team], {m: allowed}, between=between, stats=stats, known=known)
        per_result.append(ranks)
    # a result no value of the match gives is none of the team's outcomes
    return own_results(reachable, open_places, per_result, "impossible")


def _solved(plan: TeamScenariosPlan, model: TeamModel, deadline: Deadline | None) -> w.ScenariosResponse:
    """Each reported team's best and worst rank by the solver; a place p is possible when the best
    rank is at most p (its example is the best rank's), certain when the worst is (proved only when
    the worst was). `needs` is not listed: `example` shows each place."""
    started = time.perf_counter()
    between = (lambda: deadline.check(msg("while ranking the outcomes"))) if deadline is not None else (lambda: None)
    row = {t.id: i for i, t in enumerate(plan.event.teams)}
    rows = [row[tid] for tid in plan.reported]
    answers, stats = solve_team_ranks(model, rows, between=between)
    teams = []
    for tid, j, answer in zip(plan.reported, rows, answers, strict=True):
        best, worst = answer.best, answer.worst
        best_example = _example(plan, model, best.example)
        reachable = [p for p in range(1, plan.body.places + 1) if best.example is not None and best.rank <= p]
        by_result = _by_own_result(model, j, answer, reachable, stats, between)
        omitted = msg("not listed by the team solver: `example` is one outcome that reaches it")
        places = [
            w.PlaceNeeds(
                place=place,
                needs=None,
                possible=True,
                certain=worst.rank <= place if worst.proved else None,
                example=best_example,
                needs_omitted=omitted,
                by_own_result=by_result.get(place),
            )
            for place in reachable
        ]
        teams.append(
            w.PlayerScenarios(
                id=tid,
                name=plan.names[tid],
                best_rank=best.rank,
                worst_rank=worst.rank,
                clinched=worst.rank if worst.proved and worst.rank <= plan.body.places else None,
                places=places,
                best_example=best_example,
                worst_example=_example(plan, model, worst.example),
                undecided=[name for name, e in (("best_rank", best), ("worst_rank", worst)) if not e.proved],  # type: ignore[misc]
            )
        )
    # the event ranked once with its open boards drawn: the rules applied and the warnings
    first = compute_team_standings(plan.event, plan.specs, plan.regulations, plan.after_round, False, s.ContributionOut)
    plan.engine_seconds = time.perf_counter() - started
    return w.ScenariosResponse(
        regulations=first.regulations.value,
        tiebreaks=[team_tiebreak_to_wire(o) for o in first.outcomes],
        after_round=plan.after_round,
        outcomes=w.outcomes_count(len(plan.games)),
        ranked_by_tiebreaks=0,
        open_games=[w.OpenGameOut(round=r, white=wt, black=bk) for r, wt, bk in plan.games],
        players=teams,
        warnings=[s.WarningOut(code=x.code, message=x.message, rule=x.rule) for x in [*plan.warnings, *first.warnings]],
        entrants="teams",
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
