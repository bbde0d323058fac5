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
from functools import partial

import numpy as np

from ..errors import InconsistentCrosstable, Issue, InvalidRequest, Path, format_path
from ..model import ResultKind
from ..table import NO_OPPONENT, Table, check_after_round, infer_system
from .model import TEAM_BYES, Board, BoardResult, MatchForfeit, Score, TeamBye, Match, TeamScoring, TeamTournament
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
    values += [v for a in event.awards for v in (a.match_points, a.game_points)]
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
    check = _PairingCheck(event, team_of_player, index)
    for k, match in enumerate(event.matches):
        check.match(k, match)
    for k, bye in enumerate(event.byes):
        check.bye(k, bye)
    if check.issues:
        raise InconsistentTeamEvent(check.issues[:MAX_ISSUES])


@dataclass(slots=True, eq=False)
class _PairingCheck:
    """The contradictions found so far, and where each team is paired in each round."""

    event: TeamTournament
    team_of_player: dict[int, int]
    index: dict[int, int]
    issues: list[Issue] = field(default_factory=list)
    seen: dict[tuple[int, int], str] = field(default_factory=dict)  # (round, team) -> where it is paired

    def place(self, rnd: int, team: int, where: str, path: Path) -> None:
        """A team paired in a round (by a match or a bye): once only."""
        key = (rnd, team)
        if key not in self.seen:
            self.seen[key] = where
            return
        self.issues.append(
            Issue(
                path,
                msg(
                    "team {team} is paired twice in round {rnd}: {first} and {where}",
                    team=team,
                    rnd=rnd,
                    first=self.seen[key],
                    where=where,
                ),
            )
        )

    def match(self, k: int, match: Match) -> None:
        """A match's round and teams, then its boards (a match is whole-forfeited or has boards)."""
        at, issues = ("matches", k), self.issues
        if not 1 <= match.round <= self.event.rounds:
            issues.append(
                Issue(
                    (*at, "round"),
                    msg("round {round} outside 1..{rounds}", round=match.round, rounds=self.event.rounds),
                )
            )
            return
        strangers = [side for side in ("home", "away") if getattr(match, side) not in self.index]
        for side in strangers:
            team = getattr(match, side)
            issues.append(Issue((*at, side), msg("team {team} is not a team of this event", team=team)))
        if strangers:
            return
        if match.home == match.away:
            issues.append(Issue((*at, "away"), msg("team {home} is paired against itself", home=match.home)))
            return
        self.place(match.round, match.home, f"matches[{k}]", (*at, "home"))
        self.place(match.round, match.away, f"matches[{k}]", (*at, "away"))
        if match.forfeit is not None and match.boards:
            issues.append(
                Issue((*at, "boards"), msg("a forfeited match has no boards: give either `forfeit` or `boards`"))
            )
        elif match.forfeit is None and not match.boards:
            issues.append(
                Issue((*at, "boards"), msg("give the match's boards, or `forfeit` for a whole match forfeited"))
            )
        else:
            self.boards(match, at)

    def boards(self, match: Match, at: Path) -> None:
        """Each board's number (once per match), its players (of the two teams, one seat each), its result."""
        issues, team_of_player, n_boards = self.issues, self.team_of_player, self.event.team_size
        numbers: set[int] = set()
        players: set[int] = set()
        for j, board in enumerate(match.boards):  # locals and the common case first: once per board of the event
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
            for colour, pid in (("white", board.white), ("black", board.black)):
                if pid is None:
                    sides.append(None)
                    continue
                team = team_of_player.get(pid)
                if team is None or team not in (match.home, match.away) or pid in players:
                    issues.append(_seat_issue(match, pid, team, (*bat, colour)))
                players.add(pid)
                sides.append(team)
            if sides[0] is not None and sides[0] == sides[1]:
                issues.append(
                    Issue(
                        (*bat, "black"),
                        msg("both players of board {board} play for team {team}", board=board.board, team=sides[0]),
                    )
                )
            issue = _board_result_issue(board, bat)
            if issue is not None:
                issues.append(issue)

    def bye(self, k: int, bye: TeamBye) -> None:
        at = ("byes", k)
        if not 1 <= bye.round <= self.event.rounds:
            self.issues.append(
                Issue(
                    (*at, "round"), msg("round {round} outside 1..{rounds}", round=bye.round, rounds=self.event.rounds)
                )
            )
        elif bye.team not in self.index:
            self.issues.append(Issue((*at, "team"), msg("team {team} is not a team of this event", team=bye.team)))
        elif bye.kind not in TEAM_BYES:
            self.issues.append(Issue((*at, "type"), msg("{kind} is not a team bye", kind=bye.kind.value)))
        else:
            self.place(bye.round, bye.team, f"byes[{k}]", (*at, "team"))


def _seat_issue(match: Match, pid: int, team: int | None, at: Path) -> Issue:
    """A player on no team, on neither team of the match, or at a second board of it."""
    if team is None:
        return Issue(at, msg("player {pid} is on no team of this event", pid=pid))
    if team not in (match.home, match.away):
        return Issue(
            at,
            msg(
                "player {pid} plays for team {team}, not for {home} or {away}",
                pid=pid,
                team=team,
                home=match.home,
                away=match.away,
            ),
        )
    return Issue(at, msg("player {pid} sits at two boards of this match", pid=pid))


def _board_result_issue(board: Board, at: Path) -> Issue | None:
    """A result or points, and the seats its result needs: both for a game, the winner's for a forfeit."""
    result = board.result
    if result is None and board.points is None:
        return Issue((*at, "result"), msg("give the board's result or its points"))
    if result is not None and result.played and (board.white is None or board.black is None):
        return Issue((*at, "result"), msg("result {result} needs both players", result=result.value))
    if result is BoardResult.WHITE_FORFEIT_WIN and board.white is None:
        return Issue((*at, "result"), msg("+- is a forfeit won by white, but white's seat is empty"))
    if result is BoardResult.BLACK_FORFEIT_WIN and board.black is None:
        return Issue((*at, "result"), msg("-+ is a forfeit won by black, but black's seat is empty"))
    return None


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
    check_after_round(after_round, event.rounds)
    _check_structure(event)
    index, team_of_player = _check_teams(event)
    _check_pairings(event, team_of_player, index)
    layout = _Layout.of(event, index, team_of_player)
    mismatched: list[Issue] = []
    for k, match in enumerate(event.matches):
        if match.forfeit is not None:
            layout.forfeited_match(match, match.forfeit)
        elif (issue := layout.played_match(k, match)) is not None:
            mismatched.append(issue)
    for bye in event.byes:
        layout.bye(bye)
    for award in event.awards:  # TRF-26 299: added to the round's match and game points
        r, t = award.round - 1, layout.index[award.team]
        layout.mp[t, r] += layout.units(award.match_points)
        layout.gp[t, r] += layout.units(award.game_points)
    if mismatched:
        raise InconsistentTeamEvent(mismatched[:MAX_ISSUES])
    return layout.tables(after_round or event.rounds)


@dataclass(slots=True, eq=False)
class _Layout:
    """The columns of every round scheduled, filled one match and one bye at a time."""

    event: TeamTournament
    index: dict[int, int]  # team id -> row
    team_of_player: dict[int, int]
    scale: int  # the units of every column: 1/scale points, which clears every denominator
    by_result: dict[BoardResult, tuple[int, int, bool]]
    match_units: tuple[int, int, int]  # a match won, drawn, lost: computed once, read for every match
    kind: np.ndarray
    opp: np.ndarray
    side: np.ndarray
    mp: np.ndarray
    gp: np.ndarray
    board_pts: np.ndarray
    board_how: np.ndarray
    board_player: np.ndarray
    warnings: list[tuple[str, str]] = field(default_factory=list)

    @classmethod
    def of(cls, event: TeamTournament, index: dict[int, int], team_of_player: dict[int, int]) -> _Layout:
        n, rounds, size, s = len(event.teams), event.rounds, event.team_size, event.scoring
        scale = _scale(event)
        units = partial(_in_units, scale=scale)
        # Until a match or a bye says otherwise, a round is an absence scoring a loss everywhere.
        return cls(
            event,
            index,
            team_of_player,
            scale,
            _board_units(s, units),
            (units(s.match_win), units(s.match_draw), units(s.match_loss)),
            kind=np.full((n, rounds), ResultKind.ABSENT.code, dtype=np.int8),
            opp=np.full((n, rounds), NO_OPPONENT, dtype=np.int64),
            side=np.zeros((n, rounds), dtype=np.int8),
            mp=np.full((n, rounds), units(s.match_loss), dtype=np.int64),
            gp=np.full((n, rounds), units(size * s.game_loss), dtype=np.int64),
            board_pts=np.full((n, rounds, size), units(s.game_loss), dtype=np.int64),
            board_how=np.zeros((n, rounds, size), dtype=np.int8),
            board_player=np.zeros((n, rounds, size), dtype=np.int64),
        )

    def units(self, value: Fraction | int) -> int:
        return _in_units(value, self.scale)

    def _pair(self, match: Match) -> tuple[int, int, int]:
        """The home and away rows and the round's column, with the pairing and the sides set."""
        r = match.round - 1
        h, a = self.index[match.home], self.index[match.away]
        self.opp[h, r], self.opp[a, r] = a, h
        self.side[h, r], self.side[a, r] = HOME, AWAY
        return h, a, r

    def forfeited_match(self, match: Match, forfeit: MatchForfeit) -> None:
        """A whole match forfeited: the team present wins the match and a game on every board."""
        s, size = self.event.scoring, self.event.team_size
        h, a, r = self._pair(match)
        present = {MatchForfeit.HOME_WINS: (h,), MatchForfeit.AWAY_WINS: (a,), MatchForfeit.DOUBLE: ()}[forfeit]
        for t in (h, a):
            won = t in present
            self.kind[t, r] = (ResultKind.FORFEIT_WIN if won else ResultKind.FORFEIT_LOSS).code
            self.mp[t, r] = self.units(s.match_win if won else s.match_loss)
            self.gp[t, r] = self.units(size * (s.game_win if won else s.game_loss))
            self.board_pts[t, r, :] = self.units(s.game_win if won else s.game_loss)
            self.board_how[t, r, :] = BOARD_MATCH_FORFEIT

    def played_match(self, k: int, match: Match) -> Issue | None:
        """A match of boards: its game points, the match points they give, the kind for each team;
        the contradiction when the match's declared result disagrees with its boards."""
        h, a, r = self._pair(match)
        home_points, away_points, any_played = self._boards(match, h, a, r)
        self.gp[h, r], self.gp[a, r] = home_points, away_points
        self._match_points(match, h, a, r, home_points, away_points, any_played)
        if match.game_points is not None and (home_points, away_points) != tuple(map(self.units, match.game_points)):
            declared = match.game_points
            return Issue(
                ("matches", k, "game_points"),
                msg(
                    "the match result {home}-{away} disagrees with its boards, which add up to {home_sum}-{away_sum}",
                    home=float(declared[0]),
                    away=float(declared[1]),
                    home_sum=float(home_points / self.scale),
                    away_sum=float(away_points / self.scale),
                ),
            )
        return None

    def _boards(self, match: Match, h: int, a: int, r: int) -> tuple[int, int, bool]:
        """Each board into the board table: the game points of home and away, and whether any board was played."""
        home_points = away_points = 0
        any_played = False
        listed = set()
        # locals: this runs once per board of the event
        team_of_player, by_result = self.team_of_player, self.by_result
        board_pts, board_how, board_player = self.board_pts, self.board_how, self.board_player
        for board in match.boards:
            white, black = board.white, board.black
            if white is not None:
                home_is_white = team_of_player[white] == match.home
            elif black is not None:
                home_is_white = team_of_player[black] == match.away
            else:
                home_is_white = _home_colour(self.event, board.board) == "W"
            if board.points is None:
                assert board.result is not None  # _check_pairings refuses a board without either
                white_units, black_units, played = by_result[board.result]
            else:  # an arbiter's decision
                white_units, black_units = self.units(board.points[0]), self.units(board.points[1])
                played = board.result.played if board.result is not None else (white is not None and black is not None)
            mine, theirs = (white_units, black_units) if home_is_white else (black_units, white_units)
            home_points += mine
            away_points += theirs
            any_played = any_played or played
            b = board.board - 1
            listed.add(b)
            board_pts[h, r, b], board_pts[a, r, b] = mine, theirs
            board_how[h, r, b] = board_how[a, r, b] = BOARD_GAME if played else BOARD_FORFEIT
            home_player, away_player = (white, black) if home_is_white else (black, white)
            board_player[h, r, b], board_player[a, r, b] = home_player or 0, away_player or 0
        if len(listed) < self.event.team_size:
            missing = ", ".join(str(b + 1) for b in range(self.event.team_size) if b not in listed)
            self.warnings.append(
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
        return home_points, away_points, any_played

    def _match_points(
        self, match: Match, h: int, a: int, r: int, home_points: int, away_points: int, any_played: bool
    ) -> None:
        """More game points win the match; a match without a game over the board was won by forfeits."""
        win, draw, loss = self.match_units
        if home_points > away_points:
            outcome = (win, loss)
        elif home_points < away_points:
            outcome = (loss, win)
        else:
            outcome = (draw, draw)
        if any_played:
            self.kind[h, r] = _played_kind(home_points, away_points)
            self.kind[a, r] = _played_kind(away_points, home_points)
        elif all(b.result is BoardResult.DOUBLE_FORFEIT and b.points is None for b in match.boards):
            # no game over the board and nothing scored: a double forfeit (C.07 16.2: VUR for both)
            outcome = (loss, loss)
            self.kind[h, r] = self.kind[a, r] = ResultKind.FORFEIT_LOSS.code
        else:
            # no game over the board: the match was won (or shared) by forfeits; the side with
            # fewer game points forfeited it
            self.kind[h, r] = (ResultKind.FORFEIT_LOSS if home_points < away_points else ResultKind.FORFEIT_WIN).code
            self.kind[a, r] = (ResultKind.FORFEIT_LOSS if away_points < home_points else ResultKind.FORFEIT_WIN).code
        self.mp[h, r], self.mp[a, r] = outcome

    def bye(self, bye: TeamBye) -> None:
        """A team bye: the match and game points of its kind, and the same result on every board."""
        s, size = self.event.scoring, self.event.team_size
        t, r = self.index[bye.team], bye.round - 1
        self.kind[t, r] = bye.kind.code
        if bye.kind is ResultKind.PAIRING_BYE:
            self.mp[t, r], self.gp[t, r] = self.units(s.pab_match), self.units(s.pab_game_points(size))
            per_board = s.game_win  # C.07 12: the PAB counts a win on every board, whatever its game points
        elif bye.kind is ResultKind.FULL_BYE:
            self.mp[t, r], self.gp[t, r], per_board = self.units(s.match_win), self.units(size * s.game_win), s.game_win
        elif bye.kind is ResultKind.HALF_BYE:
            self.mp[t, r], self.gp[t, r] = self.units(s.match_draw), self.units(size * s.game_draw)
            per_board = s.game_draw
        else:
            self.mp[t, r], self.gp[t, r] = self.units(s.match_loss), self.units(size * s.game_loss)
            per_board = s.game_loss
        self.board_pts[t, r, :] = self.units(per_board)
        self.board_how[t, r, :] = BOARD_BYE

    def tables(self, played_rounds: int) -> TeamTables:
        """The match-point and game-point tables and the board table, over the rounds counted."""
        event, n, rounds = self.event, len(self.event.teams), self.event.rounds
        s, size = event.scoring, event.team_size
        system = event.system
        if system is None:
            paired = np.flatnonzero(self.opp.ravel() != NO_OPPONENT)
            system = infer_system(n, rounds, paired // rounds, self.opp.ravel()[paired])
        ids = [t.id for t in event.teams]
        names = [t.name for t in event.teams]

        def counted(column: np.ndarray) -> np.ndarray:
            return np.ascontiguousarray(column[:, :played_rounds])

        def table(points: np.ndarray, win: int, draw: int) -> Table:
            pts = counted(points)
            score = pts.sum(axis=1)
            return Table(
                ids=ids,
                names=names,
                ratings=[None] * n,
                rounds=rounds,
                played_rounds=played_rounds,
                system=system,
                system_inferred=event.system is None,
                scale=self.scale,
                win=win,
                draw=draw,
                opp=counted(self.opp),
                kind=counted(self.kind),
                color=counted(self.side),
                pts=pts,
                score=score,
                scores=score.tolist(),
            )

        mp_table = table(self.mp, self.units(s.match_win), self.units(s.match_draw))
        gp_table = table(self.gp, self.units(size * s.game_win), self.units(size * s.game_draw))
        boards = BoardTable(size, counted(self.board_pts), counted(self.board_how), counted(self.board_player))
        return TeamTables(event, mp_table, gp_table, boards, self.warnings)


def _in_units(value: Fraction | int, scale: int) -> int:
    return int(Fraction(value) * scale)  # exact: scale clears every denominator


def _played_kind(mine: int, theirs: int) -> int:
    if mine > theirs:
        return ResultKind.WIN.code
    return ResultKind.DRAW.code if mine == theirs else ResultKind.LOSS.code


def _home_colour(event: TeamTournament, board: int) -> str:
    colours = (event.board_colours or "WB" * event.team_size).upper()
    return colours[board - 1] if board <= len(colours) else "W"
