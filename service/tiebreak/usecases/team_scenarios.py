"""POST /v1/scenarios for a team event (SPEC 3.11.1, team events): the open boards' results are the
unknowns, match points follow from them, and every outcome is ranked by the team engine exactly
as POST /v1/standings ranks the finished event; the answer's rows are teams (their ids).

The pairings name board games by the players' start numbers, as the file's boards do; each must be
a board of one of the file's matches, whose result is set aside (the round reopened, as
`--pairings last` does). A player's bye changes no team's score and is passed over; team byes are
the file's. Exact by enumeration: 3 results per open board, priced per team ranking before any is
made (decision 0231); the solver comes later.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import numpy as np

from ..engine.errors import InvalidRequest, Issue
from ..engine.model import Regulations
from ..engine.rules import RuleSpec
from ..engine.scenarios import RESULTS, outcome_codes
from ..engine.standings import Warning
from ..engine.teams.model import Board, BoardResult, TeamTournament
from ..engine.teams.standings import TeamStandings, compute_team_standings
from ..formats.trf_teams import NotATeamEvent, is_team_trf
from ..texts.message import msg
from ..wire import scenarios as w
from ..wire import schemas as s
from ..wire.limits import Deadline, Limits
from .convert_teams import team_tiebreak_to_wire
from .cost import Counts, too_many_open_games
from .scenarios import assumed_results, places_reached, refuse_unpaired
from .teams import check_team_event, prepare_team

# the result code of an open game (engine/scenarios.py RESULTS: white, draw, black) as a board's result
BOARD_RESULT = (BoardResult.WHITE_WINS, BoardResult.DRAW, BoardResult.BLACK_WINS)
ASSUMED = dict(zip(RESULTS, BOARD_RESULT, strict=True))
# Seconds per team ranking: measured 2.4-5 ms for the Crete cup (15 teams × 7 rounds × 4 rules, 2-core
# machine; docs/benchmarks.md, "Team scenarios"), priced at 10 ms to stay on the safe side.
RANKING_BASE_S = 0.002
RANKING_CELL_S = 0.00002  # per team × round × rule


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


def is_team_scenarios(body: w.ScenariosRequest) -> bool:
    return body.trf is not None and is_team_trf(body.trf)


def ranking_seconds(teams: int, rounds: int, rules: int) -> float:
    return RANKING_BASE_S + RANKING_CELL_S * teams * rounds * max(1, rules)


def plan_team_scenarios(
    body: w.ScenariosRequest, limits: Limits | None = None, body_bytes: int = 0
) -> TeamScenariosPlan | None:
    """Read the team event and the pairings, and price the outcomes; None: the file's team records
    describe no matches (an individual event after all)."""
    try:
        event, specs, regulations, warnings = prepare_team(body)
    except NotATeamEvent:
        return None
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
    if limits is not None:
        _check_outcomes(len(games), ranking_seconds(len(ids), rounds, len(specs)), limits)
    names = {t.id: t.name or str(t.id) for t in event.teams}
    return TeamScenariosPlan(
        body, counts, event, specs, regulations, after_round, games, seats, reported, names, warnings
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


def compute_team_scenarios(plan: TeamScenariosPlan, deadline: Deadline | None = None) -> w.ScenariosResponse:
    """Every outcome of the open boards ranked by the team engine; each reported team's ranks and needs."""
    started = time.perf_counter()
    n = len(plan.games)
    codes = outcome_codes(n)
    column = {tid: c for c, tid in enumerate(plan.reported)}
    low = np.zeros((len(codes), len(plan.reported)), dtype=np.int32)
    by_tiebreaks = 0
    first: TeamStandings | None = None
    for o, row in enumerate(codes):
        standings = _ranked(plan, row)
        first = first or standings
        needed = False
        for r in standings.rows:
            tid = standings.table.ids[r.player]
            if tid in column:
                # C.07 4.1: an expelled team is ranked nowhere, below every other
                low[o, column[tid]] = r.rank if r.rank is not None else len(standings.rows) + 1
                needed = needed or r.decided_by not in ("PTS", "PTS:GP")
        by_tiebreaks += needed
        if deadline is not None and o % 64 == 63:
            deadline.check(msg("while ranking the outcomes"))
    assert first is not None  # 3^0 = 1 outcome at least
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
