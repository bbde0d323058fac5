"""A team event laid out as the engine's columns: one participant table per score, one board table.

Teams are participants too (DESIGN.md): the event fills the same `Table` the individual
rules read, once on match points and once on game points. Per team and round: the
opponent (the scheduled one for a forfeited match), the kind (match won, drawn or lost
over the board; a forfeited match as a forfeit; a team bye as the bye), the home/away
side as the colour, and the points of that score. The draw value is a drawn match
(1 MP) or a drawn match on every board (team size × ½ GP), so C.07 16 (closing runs,
dummy caps) works unchanged. The board table — game points per team, round and board,
by the board rules' conventions (C.07 12) — is read only by BC, TBR, BBE and the EDE chains.

The event is validated while it is built; every contradiction is reported with its path.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from ..errors import InconsistentCrosstable, Issue, InvalidRequest, Path, format_path
from ..model import ResultKind
from ..table import NO_OPPONENT, Table, infer_system
from .model import TEAM_BYES, BoardResult, MatchForfeit, Score, TeamScoring, TeamTournament
from ...texts.message import msg

MAX_ISSUES = 100
HOME, AWAY = 1, 2  # the side as the table's colour column: home is the first-named team

# What a board of the board table holds, per team, round and board.
BOARD_NONE, BOARD_GAME, BOARD_FORFEIT, BOARD_MATCH_FORFEIT, BOARD_BYE = 0, 1, 2, 3, 4
BOARD_HOW = ("no game", "game", "forfeited board", "forfeited match", "bye")


class InvalidTeamEvent(InvalidRequest):
    """A team event that cannot be computed as given (a team size the colours do not fit)."""

    root = "team_tournament"


class InconsistentTeamEvent(InconsistentCrosstable):
    """The team event contradicts itself (a team paired twice in a round, a player on two teams)."""

    root = "team_tournament"

    def __init__(self, issues: list[Issue]):
        self.issues = issues
        Exception.__init__(self, "; ".join(f"{format_path(i.path, self.root)}: {i.message}" for i in issues[:5]))


@dataclass(slots=True, eq=False)
class BoardTable:
    """Game points per team, round counted and board (C.07 12 conventions), in the tables' units.

    A forfeited board counts as won or lost; a forfeited match one game win on every board
    for the team present; the pairing-allocated bye a win on every board whatever its game
    points; a full-, half-, zero-point bye a win, draw, loss on every board.
    """

    team_size: int
    pts: np.ndarray  # int64 (teams, rounds counted, team_size)
    how: np.ndarray  # int8: BOARD_NONE, BOARD_GAME, ...
    player: np.ndarray  # int64: the team's player on the board, 0 for none

    def totals(self) -> np.ndarray:
        """Per team and board, the game points over the rounds counted: (teams, team_size)."""
        totals: np.ndarray = self.pts.sum(axis=1)
        return totals


@dataclass(slots=True, eq=False)
class TeamTables:
    """Everything the team rules read, built once per request."""

    event: TeamTournament
    mp: Table
    gp: Table
    boards: BoardTable
    warnings: list[tuple[str, str]] = field(default_factory=list)  # (code, message)

    def table(self, score: Score) -> Table:
        return self.mp if score is Score.MP else self.gp


def _scale(event: TeamTournament) -> int:
    s = event.scoring
    values = [
        s.match_win,
        s.match_draw,
        s.match_loss,
        s.game_win,
        s.game_draw,
        s.game_loss,
        s.pab_match,
        s.pab_game_points(event.team_size),
    ]
    values += [v for m in event.matches for b in m.boards if b.points for v in b.points]
    scale = 1
    for v in values:
        scale = math.lcm(scale, Fraction(v).denominator)
    return scale


def _check_structure(event: TeamTournament) -> None:
    """Ids, line-ups and board numbers: the 400s (input that cannot describe an event)."""
    issues: list[Issue] = []
    if event.team_size < 1:
        issues.append(Issue(("team_size",), msg("team_size must be at least 1")))
    if event.board_colours is not None and (
        len(event.board_colours) != event.team_size or set(event.board_colours.upper()) - set("WB")
    ):
        issues.append(
            Issue(
                ("board_colours",),
                msg(
                    "board_colours must be {team_size} letters W or B (one per board), found {board_colours}",
                    team_size=event.team_size,
                    board_colours=repr(event.board_colours),
                ),
            )
        )
    if issues:
        raise InvalidTeamEvent(issues)


def _check_pairings(event: TeamTournament, team_of_player: dict[int, int], index: dict[int, int]) -> None:
    """Who plays whom: the 422s (a well-formed event that contradicts itself)."""
    issues: list[Issue] = []
    seen: dict[tuple[int, int], str] = {}  # (round, team) -> where it is paired
    n_boards = event.team_size

    def place(rnd: int, team: int, where: str, path: Path) -> None:
        key = (rnd, team)
        if key in seen:
            issues.append(
                Issue(
                    path,
                    msg(
                        "team {team} is paired twice in round {rnd}: {first} and {where}",
                        team=team,
                        rnd=rnd,
                        first=seen[key],
                        where=where,
                    ),
                )
            )
        else:
            seen[key] = where

    for k, match in enumerate(event.matches):
        at = ("matches", k)
        if not 1 <= match.round <= event.rounds:
            issues.append(
                Issue((*at, "round"), msg("round {round} outside 1..{rounds}", round=match.round, rounds=event.rounds))
            )
            continue
        bad_team = False
        for side in ("home", "away"):
            team = getattr(match, side)
            if team not in index:
                issues.append(Issue((*at, side), msg("team {team} is not a team of this event", team=team)))
                bad_team = True
        if bad_team:
            continue
        if match.home == match.away:
            issues.append(Issue((*at, "away"), msg("team {home} is paired against itself", home=match.home)))
            continue
        place(match.round, match.home, f"matches[{k}]", (*at, "home"))
        place(match.round, match.away, f"matches[{k}]", (*at, "away"))
        if match.forfeit is not None and match.boards:
            issues.append(
                Issue((*at, "boards"), msg("a forfeited match has no boards: give either `forfeit` or `boards`"))
            )
            continue
        if match.forfeit is None and not match.boards:
            issues.append(
                Issue((*at, "boards"), msg("give the match's boards, or `forfeit` for a whole match forfeited"))
            )
            continue
        numbers: set[int] = set()
        players: set[int] = set()
        for j, board in enumerate(match.boards):
            bat = (*at, "boards", j)
            if not 1 <= board.board <= n_boards:
                issues.append(
                    Issue(
                        (*bat, "board"),
                        msg("board {board} outside 1..{n_boards} (team_size)", board=board.board, n_boards=n_boards),
                    )
                )
            elif board.board in numbers:
                issues.append(Issue((*bat, "board"), msg("board {board} is given twice", board=board.board)))
            numbers.add(board.board)
            sides: list[int | None] = []
            for colour in ("white", "black"):
                pid = getattr(board, colour)
                if pid is None:
                    sides.append(None)
                    continue
                team = team_of_player.get(pid)
                if team is None:
                    issues.append(Issue((*bat, colour), msg("player {pid} is on no team of this event", pid=pid)))
                elif team not in (match.home, match.away):
                    issues.append(
                        Issue(
                            (*bat, colour),
                            msg(
                                "player {pid} plays for team {team}, not for {home} or {away}",
                                pid=pid,
                                team=team,
                                home=match.home,
                                away=match.away,
                            ),
                        )
                    )
                elif pid in players:
                    issues.append(Issue((*bat, colour), msg("player {pid} sits at two boards of this match", pid=pid)))
                players.add(pid)
                sides.append(team)
            if sides[0] is not None and sides[0] == sides[1]:
                issues.append(
                    Issue(
                        (*bat, "black"),
                        msg("both players of board {board} play for team {team}", board=board.board, team=sides[0]),
                    )
                )
            result = board.result
            if result is None and board.points is None:
                issues.append(Issue((*bat, "result"), msg("give the board's result or its points")))
            elif result is not None and result.played and (board.white is None or board.black is None):
                issues.append(Issue((*bat, "result"), msg("result {result} needs both players", result=result.value)))
            elif result is BoardResult.WHITE_FORFEIT_WIN and board.white is None:
                issues.append(Issue((*bat, "result"), msg("+- is a forfeit won by white, but white's seat is empty")))
            elif result is BoardResult.BLACK_FORFEIT_WIN and board.black is None:
                issues.append(Issue((*bat, "result"), msg("-+ is a forfeit won by black, but black's seat is empty")))
    for k, bye in enumerate(event.byes):
        at = ("byes", k)
        if not 1 <= bye.round <= event.rounds:
            issues.append(
                Issue((*at, "round"), msg("round {round} outside 1..{rounds}", round=bye.round, rounds=event.rounds))
            )
        elif bye.team not in index:
            issues.append(Issue((*at, "team"), msg("team {team} is not a team of this event", team=bye.team)))
        elif bye.kind not in TEAM_BYES:
            issues.append(Issue((*at, "type"), msg("{kind} is not a team bye", kind=bye.kind.value)))
        else:
            place(bye.round, bye.team, f"byes[{k}]", (*at, "team"))
    if issues:
        raise InconsistentTeamEvent(issues[:MAX_ISSUES])


def _check_teams(event: TeamTournament) -> tuple[dict[int, int], dict[int, int]]:
    """Team index by id and team id by player id; a duplicate id or a player on two teams is refused."""
    issues: list[Issue] = []
    index: dict[int, int] = {}
    team_of_player: dict[int, int] = {}
    for i, team in enumerate(event.teams):
        if team.id in index:
            issues.append(Issue(("teams", i, "id"), msg("duplicate team id {id}", id=team.id)))
            continue
        index[team.id] = i
        for j, member in enumerate(team.players):
            other = team_of_player.get(member.id)
            if other is not None:
                where = msg("twice on this team") if other == team.id else msg("also on team {team}", team=other)
                issues.append(
                    Issue(("teams", i, "players", j, "id"), msg("player {id} is {where}", id=member.id, where=where))
                )
            else:
                team_of_player[member.id] = team.id
    if issues:
        raise InconsistentTeamEvent(issues[:MAX_ISSUES])
    return index, team_of_player


def _board_units(scoring: TeamScoring, units: Callable[[Fraction], int]) -> dict[BoardResult, tuple[int, int, bool]]:
    """Per board result: white's and black's game points in units, and whether it was played."""
    win, draw, loss = units(scoring.game_win), units(scoring.game_draw), units(scoring.game_loss)
    return {
        BoardResult.WHITE_WINS: (win, loss, True),
        BoardResult.BLACK_WINS: (loss, win, True),
        BoardResult.DRAW: (draw, draw, True),
        BoardResult.WHITE_FORFEIT_WIN: (win, loss, False),
        BoardResult.BLACK_FORFEIT_WIN: (loss, win, False),
        BoardResult.DOUBLE_FORFEIT: (loss, loss, False),
    }


def build_team_tables(event: TeamTournament, after_round: int | None = None) -> TeamTables:
    """Validate the event and lay it out as columns; raise on any contradiction."""
    rounds = event.rounds
    if after_round is not None and not 1 <= after_round <= rounds:
        raise InvalidRequest(
            [Issue(("after_round",), msg("after_round must be between 1 and {rounds}", rounds=rounds))]
        )
    _check_structure(event)
    index, team_of_player = _check_teams(event)
    _check_pairings(event, team_of_player, index)

    n, size, s = len(event.teams), event.team_size, event.scoring
    scale = _scale(event)

    def units(value: Fraction | int) -> int:
        return int(Fraction(value) * scale)  # exact: scale clears every denominator

    by_result = _board_units(s, units)
    match_win, match_draw, match_loss = units(s.match_win), units(s.match_draw), units(s.match_loss)
    warnings: list[tuple[str, str]] = []

    kind = np.full((n, rounds), ResultKind.ABSENT.code, dtype=np.int8)
    opp = np.full((n, rounds), NO_OPPONENT, dtype=np.int64)
    side = np.zeros((n, rounds), dtype=np.int8)
    mp = np.full((n, rounds), units(s.match_loss), dtype=np.int64)
    gp = np.full((n, rounds), units(size * s.game_loss), dtype=np.int64)
    board_pts = np.full((n, rounds, size), units(s.game_loss), dtype=np.int64)
    board_how = np.zeros((n, rounds, size), dtype=np.int8)
    board_player = np.zeros((n, rounds, size), dtype=np.int64)
    mismatched: list[Issue] = []

    for k, match in enumerate(event.matches):
        r = match.round - 1
        h, a = index[match.home], index[match.away]
        opp[h, r], opp[a, r] = a, h
        side[h, r], side[a, r] = HOME, AWAY
        if match.forfeit is not None:
            present = {MatchForfeit.HOME_WINS: (h,), MatchForfeit.AWAY_WINS: (a,), MatchForfeit.DOUBLE: ()}[
                match.forfeit
            ]
            for t in (h, a):
                won = t in present
                kind[t, r] = (ResultKind.FORFEIT_WIN if won else ResultKind.FORFEIT_LOSS).code
                mp[t, r] = units(s.match_win if won else s.match_loss)
                gp[t, r] = units(size * (s.game_win if won else s.game_loss))
                board_pts[t, r, :] = units(s.game_win if won else s.game_loss)
                board_how[t, r, :] = BOARD_MATCH_FORFEIT
            continue
        home_points = away_points = 0
        any_played = False
        listed = set()
        for board in match.boards:
            white, black = board.white, board.black
            if white is not None:
                home_is_white = team_of_player[white] == match.home
            elif black is not None:
                home_is_white = team_of_player[black] == match.away
            else:
                home_is_white = _home_colour(event, board.board) == "W"
            if board.points is None:
                assert board.result is not None  # _check_structure refuses a board without either
                white_units, black_units, played = by_result[board.result]
            else:  # an arbiter's decision
                white_units, black_units = units(board.points[0]), units(board.points[1])
                played = board.result.played if board.result is not None else (white is not None and black is not None)
            mine, theirs = (white_units, black_units) if home_is_white else (black_units, white_units)
            home_points += mine
            away_points += theirs
            any_played = any_played or played
            b = board.board - 1
            listed.add(b)
            board_pts[h, r, b], board_pts[a, r, b] = mine, theirs
            board_how[h, r, b] = board_how[a, r, b] = BOARD_GAME if played else BOARD_FORFEIT
            home_player, away_player = (board.white, board.black) if home_is_white else (board.black, board.white)
            board_player[h, r, b], board_player[a, r, b] = home_player or 0, away_player or 0
        if len(listed) < size:
            missing = ", ".join(str(b + 1) for b in range(size) if b not in listed)
            warnings.append(
                (
                    "team-board-missing",
                    msg(
                        "round {round}, teams {home}-{away}: board(s) {missing} not given; they count 0-0",
                        round=match.round,
                        home=match.home,
                        away=match.away,
                        missing=missing,
                    ),
                )
            )
        gp[h, r], gp[a, r] = home_points, away_points
        if home_points > away_points:
            outcome = (match_win, match_loss)
        elif home_points < away_points:
            outcome = (match_loss, match_win)
        else:
            outcome = (match_draw, match_draw)
        if match.game_points is not None and (home_points, away_points) != tuple(map(units, match.game_points)):
            declared = match.game_points
            mismatched.append(
                Issue(
                    ("matches", k, "game_points"),
                    (
                        msg(
                            "the match result {home}-{away} disagrees with its boards, which add up to {home_sum}-{away_sum}",
                            home=float(declared[0]),
                            away=float(declared[1]),
                            home_sum=float(home_points / scale),
                            away_sum=float(away_points / scale),
                        )
                    ),
                )
            )
        if any_played:
            kind[h, r], kind[a, r] = _played_kind(home_points, away_points), _played_kind(away_points, home_points)
        elif all(b.result is BoardResult.DOUBLE_FORFEIT and b.points is None for b in match.boards):
            # no game over the board and nothing scored: a double forfeit (C.07 16.2: VUR for both)
            outcome = (match_loss, match_loss)
            kind[h, r] = kind[a, r] = ResultKind.FORFEIT_LOSS.code
        else:
            # no game over the board: the match was won (or shared) by forfeits; the side with
            # fewer game points forfeited it
            kind[h, r] = (ResultKind.FORFEIT_LOSS if home_points < away_points else ResultKind.FORFEIT_WIN).code
            kind[a, r] = (ResultKind.FORFEIT_LOSS if away_points < home_points else ResultKind.FORFEIT_WIN).code
        mp[h, r], mp[a, r] = outcome
    for bye in event.byes:
        t, r = index[bye.team], bye.round - 1
        kind[t, r] = bye.kind.code
        if bye.kind is ResultKind.PAIRING_BYE:
            mp[t, r], gp[t, r] = units(s.pab_match), units(s.pab_game_points(size))
            per_board = s.game_win  # C.07 12: the PAB counts a win on every board, whatever its game points
        elif bye.kind is ResultKind.FULL_BYE:
            mp[t, r], gp[t, r], per_board = units(s.match_win), units(size * s.game_win), s.game_win
        elif bye.kind is ResultKind.HALF_BYE:
            mp[t, r], gp[t, r], per_board = units(s.match_draw), units(size * s.game_draw), s.game_draw
        else:
            mp[t, r], gp[t, r], per_board = units(s.match_loss), units(size * s.game_loss), s.game_loss
        board_pts[t, r, :] = units(per_board)
        board_how[t, r, :] = BOARD_BYE
    if mismatched:
        raise InconsistentTeamEvent(mismatched[:MAX_ISSUES])

    played_rounds = after_round or rounds
    system = event.system
    if system is None:
        paired = np.flatnonzero(opp.ravel() != NO_OPPONENT)
        system = infer_system(n, rounds, paired // rounds, opp.ravel()[paired])
    ids = [t.id for t in event.teams]
    names = [t.name for t in event.teams]

    def table(points: np.ndarray, win: int, draw: int) -> Table:
        pts = np.ascontiguousarray(points[:, :played_rounds])
        score = pts.sum(axis=1)
        return Table(
            ids=ids,
            names=names,
            ratings=[None] * n,
            rounds=rounds,
            played_rounds=played_rounds,
            system=system,
            system_inferred=event.system is None,
            scale=scale,
            win=win,
            draw=draw,
            opp=np.ascontiguousarray(opp[:, :played_rounds]),
            kind=np.ascontiguousarray(kind[:, :played_rounds]),
            color=np.ascontiguousarray(side[:, :played_rounds]),
            pts=pts,
            score=score,
            scores=score.tolist(),
        )

    mp_table = table(mp, units(s.match_win), units(s.match_draw))
    gp_table = table(gp, units(size * s.game_win), units(size * s.game_draw))
    boards = BoardTable(
        size,
        np.ascontiguousarray(board_pts[:, :played_rounds]),
        np.ascontiguousarray(board_how[:, :played_rounds]),
        np.ascontiguousarray(board_player[:, :played_rounds]),
    )
    return TeamTables(event, mp_table, gp_table, boards, warnings)


def _played_kind(mine: int, theirs: int) -> int:
    if mine > theirs:
        return ResultKind.WIN.code
    return ResultKind.DRAW.code if mine == theirs else ResultKind.LOSS.code


def _home_colour(event: TeamTournament, board: int) -> str:
    colours = (event.board_colours or "WB" * event.team_size).upper()
    return colours[board - 1] if board <= len(colours) else "W"
