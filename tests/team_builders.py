"""Build small team events inline, so that a test reads like a match sheet.

    event(teams=4, size=4, rounds=2, matches=[
        match(1, 1, 2, "1 = 0 1"),      # team 1 (home) against 2: board by board, home's result
        match(1, 3, 4, "+ - = --"),     # forfeits: + won, - lost, -- both absent
        match(2, 1, 3, forfeit="+-"),   # a whole match forfeited
    ], byes=[bye(2, 2, "pairing_bye")])

Team t has the players t*100 + 1, t*100 + 2, ... in board order; home has white on
odd boards (352 WBWB...). "+_" is a board won by forfeit whose opponent seat is empty.
"""

from __future__ import annotations

from testkit.teams import seats, team, team_event
from tiebreak.engine.model import ResultKind, System
from tiebreak.engine.teams.model import Board, BoardResult, Match, MatchForfeit, TeamBye, TeamScoring, TeamTournament

_HOME = {
    "1": (BoardResult.WHITE_WINS, BoardResult.BLACK_WINS),
    "0": (BoardResult.BLACK_WINS, BoardResult.WHITE_WINS),
    "=": (BoardResult.DRAW, BoardResult.DRAW),
    "+": (BoardResult.WHITE_FORFEIT_WIN, BoardResult.BLACK_FORFEIT_WIN),
    "-": (BoardResult.BLACK_FORFEIT_WIN, BoardResult.WHITE_FORFEIT_WIN),
    "--": (BoardResult.DOUBLE_FORFEIT, BoardResult.DOUBLE_FORFEIT),
    "+_": (BoardResult.WHITE_FORFEIT_WIN, BoardResult.BLACK_FORFEIT_WIN),
}


def player(team: int, board: int) -> int:
    return team * 100 + board


def match(rnd: int, home: int, away: int, results: str = "", forfeit: str | None = None) -> Match:
    if forfeit is not None:
        return Match(rnd, home, away, forfeit=MatchForfeit(forfeit))
    boards = []
    for b, token in enumerate(results.split(), start=1):
        home_white = b % 2 == 1
        white, black = seats(home_white, player(home, b), None if token == "+_" else player(away, b))
        boards.append(Board(b, white, black, _HOME[token][0 if home_white else 1]))
    return Match(rnd, home, away, tuple(boards))


def bye(rnd: int, team: int, kind: str) -> TeamBye:
    return TeamBye(rnd, team, ResultKind(kind))


def event(
    teams: int,
    size: int,
    rounds: int,
    matches=(),
    byes=(),
    system=System.SWISS,
    reserves: int = 0,
    scoring: TeamScoring | None = None,
    **kw,
) -> TeamTournament:
    members = [team(t, [player(t, b) for b in range(1, size + reserves + 1)]) for t in range(1, teams + 1)]
    return team_event(members, size, rounds, matches, byes, system=system, scoring=scoring or TeamScoring(), **kw)
