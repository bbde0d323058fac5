"""A team event written as TRF-26: the player lines (001) and the team records that
`trf_teams` reads back (310, 352, 362, 192, 300, 320, 330, 240, 212).

What TRF cannot carry (an arbiter's points on a board, ids beyond its columns) is
refused or reported as a warning, never dropped silently.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from ..engine.errors import InvalidRequest, Issue
from ..engine.model import ResultKind, System
from ..engine.teams.build import build_team_tables
from ..engine.teams.model import BoardResult, Match, MatchForfeit, Score, Team, TeamMember, TeamScoring, TeamTournament
from ..engine.teams.standings import TeamStandings
from .trf_writer import TrfOutput, _clean

MAX_TEAM_NUMBER = 999  # three columns (310: 5-7)
MAX_START_NUMBER = 9999
_BYE_CODES = {ResultKind.FULL_BYE: "F", ResultKind.HALF_BYE: "H", ResultKind.ZERO_BYE: "Z"}
_WHITE_CODES = {
    BoardResult.WHITE_WINS: ("1", "0"),
    BoardResult.BLACK_WINS: ("0", "1"),
    BoardResult.DRAW: ("=", "="),
    BoardResult.WHITE_FORFEIT_WIN: ("+", "-"),
    BoardResult.BLACK_FORFEIT_WIN: ("-", "+"),
    BoardResult.DOUBLE_FORFEIT: ("-", "-"),
}


def _points(value: Fraction, width: int) -> str:
    text = f"{float(value):.1f}" if value * 2 == int(value * 2) else f"{float(value):.2f}"
    return f"{text:>{width}}"


def write_team_trf(
    event: TeamTournament, standings: TeamStandings | None = None, tiebreaks: list[str] | tuple[str, ...] = ()
) -> TrfOutput:
    """TRF-26 text for a team event; `standings` fill the team ranks and totals of 310.

    In the order the records are written: the header, a player's round blocks (001), the teams
    with their totals (310), the line-ups out of the default order (300), the pairing-allocated
    byes (320), the forfeited matches (330) and the other byes (240)."""
    warnings: list[str] = []
    _check_numbers(event)
    players = {p.id: (team, p) for team in event.teams for p in team.players}
    lines = _header(event, standings, tiebreaks, len(players), warnings)
    blocks = _RoundBlocks(event, players)
    for match in event.matches:
        if match.forfeit is not None:
            blocks.forfeited_match(match, match.forfeit)
        else:
            blocks.played_match(match, warnings)
    lines += _player_lines(event, players, blocks, warnings)
    lines += _team_lines(event, standings, warnings)
    lines += blocks.lineups
    lines += _byes_and_forfeits(event)
    # TRF-26 299: each award as read (match points 8-11, game points 14-17, round 20-22, team from 24)
    lines += [
        f"299    {_points(a.match_points, 4)}  {_points(a.game_points, 4)}  {a.round:>3} {a.team:>4}"
        for a in event.awards
    ]
    return TrfOutput("\n".join(lines) + "\n", warnings)


def _header(
    event: TeamTournament,
    standings: TeamStandings | None,
    tiebreaks: list[str] | tuple[str, ...],
    players: int,
    warnings: list[str],
) -> list[str]:
    """012 to 362: the event, its system and primary score (192), the scorings, the colours (352)."""
    s = event.scoring
    primary = standings.primary if standings is not None else (event.primary or Score.MP)
    system = standings.table.system if standings is not None else event.system
    lines = []
    if event.name:
        lines.append(f"012 {_clean(event.name, 'event name', warnings)}")
    if event.start_date:
        lines.append(f"042 {event.start_date:%Y/%m/%d}")
    lines += [
        f"062 {players}",
        f"082 {len(event.teams)}",
        f"092 {'Team Round Robin' if system is System.ROUND_ROBIN else 'Team Swiss System'}",
        f"142 {event.rounds}",
    ]
    if (s.game_win, s.game_draw, s.game_loss) != (Fraction(1), Fraction(1, 2), Fraction(0)):
        lines.append(f"162  W{_points(s.game_win, 4)}    D{_points(s.game_draw, 4)}    L{_points(s.game_loss, 4)}")
    if system is System.ROUND_ROBIN:
        lines.append("192 BERGER_TEAM_ROUNDROBIN")
    else:
        lines.append(f"192 FIDE_TEAM_{primary.value}_{primary.other.value}")
    if tiebreaks:
        lines.append(f"212 {', '.join(tiebreaks)}")
    colours = event.board_colours or "".join("WB"[b % 2] for b in range(event.team_size))
    lines.append(f"352 {colours}")
    if (s.match_win, s.match_draw, s.match_loss) != (
        TeamScoring().match_win,
        TeamScoring().match_draw,
        TeamScoring().match_loss,
    ):
        lines.append(f"362 TW{_points(s.match_win, 5)} TD{_points(s.match_draw, 5)} TL{_points(s.match_loss, 5)}")
    return lines


class _RoundBlocks:
    """Each player's round blocks and game points, and the 300 line-ups, written one match at a time."""

    def __init__(self, event: TeamTournament, players: dict[int, tuple[Team, TeamMember]]):
        self.event, self.players = event, players
        self.entries: dict[int, dict[int, str]] = defaultdict(dict)  # player -> round -> round block
        self.scored: dict[int, Fraction] = defaultdict(Fraction)
        self.lineups: list[str] = []
        self.roster = {team.id: [p.id for p in team.players] for team in event.teams}

    def forfeited_match(self, match: Match, forfeit: MatchForfeit) -> None:
        """A whole match forfeited: every board of the team present won by forfeit ("0000 - +")."""
        s = self.event.scoring
        present = {
            MatchForfeit.HOME_WINS: {match.home},
            MatchForfeit.AWAY_WINS: {match.away},
            MatchForfeit.DOUBLE: set(),
        }[forfeit]
        for side in (match.home, match.away):
            for pid in self.roster[side][: self.event.team_size]:
                self.entries[pid][match.round] = f"0000 - {'+' if side in present else '-'}"
                self.scored[pid] += s.game_win if side in present else s.game_loss

    def played_match(self, match: Match, warnings: list[str]) -> None:
        """Each board's two blocks; a line-up (300) where a seat is empty or the boards leave the roster's order."""
        s, r = self.event.scoring, match.round
        seats: dict[int, dict[int, int]] = {match.home: {}, match.away: {}}
        for board in match.boards:
            if board.points is not None:
                warnings.append(
                    f"round {r}, board {board.board} of {match.home}-{match.away}: the points "
                    f"{float(board.points[0]):g}-{float(board.points[1]):g} cannot be written in TRF; "
                    f"the result code stands"
                )
            if board.result is not None:
                codes = _WHITE_CODES[board.result]
            else:
                assert board.points is not None  # the model's rule: a board without a result has its points
                codes = _codes_of_points(board.points)
            for seated, other, colour, code, value in (
                (board.white, board.black, "w", codes[0], _value(codes[0], s)),
                (board.black, board.white, "b", codes[1], _value(codes[1], s)),
            ):
                if seated is None:
                    continue
                seats[self.players[seated][0].id][board.board] = seated
                self.entries[seated][r] = f"{other:>4} {colour} {code}" if other else f"0000 - {code}"
                self.scored[seated] += value
        last_board = max((b.board for b in match.boards), default=0)
        for side, other in ((match.home, match.away), (match.away, match.home)):
            sitting = seats[side]
            order = [sitting.get(b, 0) for b in range(1, last_board + 1)]
            in_roster = [pid for pid in self.roster[side] if pid in sitting.values()]
            if 0 in order or order != in_roster:  # an empty seat, or out of the default order: record 300
                self.lineups.append(f"300 {r:03} {side:03} {other:03} " + " ".join(f"{pid:04}" for pid in order))


def _player_lines(
    event: TeamTournament, players: dict[int, tuple[Team, TeamMember]], blocks: _RoundBlocks, warnings: list[str]
) -> list[str]:
    """001: a player's game points and round blocks, by start number."""
    lines = []
    for pid in sorted(players):
        _, player = players[pid]
        name = _clean(player.name, f"player {pid} name", warnings)
        if len(name) > 33:
            warnings.append(f"player {pid}: name cut to 33 characters")
            name = name[:33]
        line = (
            f"001 {pid:>4}{'':5} {name:<33} {player.rating or '':>4}{'':28}{_points(blocks.scored[pid], 4)} {'':>4}  "
        )
        round_blocks = [blocks.entries[pid].get(r, "") for r in range(1, event.rounds + 1)]
        line += "  ".join(f"{b:<8}" for b in round_blocks)
        lines.append(line.rstrip())
    return lines


def _team_lines(event: TeamTournament, standings: TeamStandings | None, warnings: list[str]) -> list[str]:
    """310: a team's totals over every round written, its rank when the standings are given, its players."""
    ranks = {}
    if standings is not None:
        table = standings.table
        ranks = {table.ids[row.player]: row.rank for row in standings.rows}
    full = build_team_tables(event)
    mp, gp = full.mp, full.gp
    totals = {tid: (Fraction(mp.scores[i], mp.scale), Fraction(gp.scores[i], gp.scale)) for i, tid in enumerate(mp.ids)}
    lines = []
    for team in event.teams:
        team_mp, team_gp = totals[team.id]
        name = _clean(team.name, f"team {team.id} name", warnings)
        if len(name) > 32:
            warnings.append(f"team {team.id}: name cut to 32 characters")
        line = (
            f"310 {team.id:>3} {name[:32]:<32} {team.short_name[:5]:<5} {'':>6} "
            f"{_points(team_mp, 6)} {_points(team_gp, 6)} "
            f"{ranks.get(team.id, ''):>3}  "
        )
        line += " ".join(f"{p.id:>4}" for p in team.players)
        lines.append(line.rstrip())
    return lines


def _byes_and_forfeits(event: TeamTournament) -> list[str]:
    """320 (pairing-allocated byes, a row of teams per round), 330 (forfeited matches), 240 (other byes)."""
    s, lines = event.scoring, []
    pab = [b for b in event.byes if b.kind is ResultKind.PAIRING_BYE]
    if pab:
        by_round: dict[int, list[int]] = defaultdict(list)
        for bye in pab:
            by_round[bye.round].append(bye.team)
        for k in range(max(len(teams) for teams in by_round.values())):
            cells = [by_round[r][k] if k < len(by_round.get(r, ())) else 0 for r in range(1, event.rounds + 1)]
            lines.append(
                f"320 {_points(s.pab_match, 4)} {_points(s.pab_game_points(event.team_size), 4)} "
                + " ".join(f"{t:>3}" for t in cells)
            )
    for match in event.matches:
        if match.forfeit is not None:
            lines.append(f"330 {match.forfeit.value} {match.round:03} {match.home:03} {match.away:03}")
    grouped: dict[tuple[str, int], list[int]] = defaultdict(list)
    for bye in event.byes:
        if bye.kind in _BYE_CODES:
            grouped[(_BYE_CODES[bye.kind], bye.round)].append(bye.team)
    for (code, rnd), teams in sorted(grouped.items(), key=lambda item: (item[0][1], item[0][0])):
        lines.append(f"240 {code} {rnd:03} " + " ".join(f"{t:>4}" for t in teams))
    return lines


def _codes_of_points(points: tuple[Fraction, Fraction]) -> tuple[str, str]:
    white, black = points

    def code(mine: Fraction, theirs: Fraction) -> str:
        return "1" if mine > theirs else "=" if mine == theirs else "0"

    return code(white, black), code(black, white)


def _value(code: str, s: TeamScoring) -> Fraction:
    return {"1": s.game_win, "+": s.game_win, "=": s.game_draw}.get(code, s.game_loss)


def _check_numbers(event: TeamTournament) -> None:
    issues = []
    for i, team in enumerate(event.teams):
        if team.id > MAX_TEAM_NUMBER:
            issues.append(
                Issue(
                    ("team_tournament", "teams", i, "id"),
                    f"team number {team.id} does not fit TRF's three columns (1-999)",
                )
            )
        for j, player in enumerate(team.players):
            if player.id > MAX_START_NUMBER:
                issues.append(
                    Issue(
                        ("team_tournament", "teams", i, "players", j, "id"),
                        f"start number {player.id} does not fit TRF's four columns (1-9999)",
                    )
                )
    if issues:
        raise InvalidRequest(issues)
