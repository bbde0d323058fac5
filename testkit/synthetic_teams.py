"""Seeded, consistent team Swiss events for benchmarks and load tests (standard library only).

An Olympiad-like field: teams of `boards` regulars and one reserve, rated in descending
strength; each round pairs teams inside match-point groups (top half against bottom
half, repeat matches avoided when cheap), gives the odd team out the pairing-allocated
bye, and draws every board from the Elo expectancy with draws; about 1 % of boards are
forfeited and 0.5 % of matches forfeited whole.
"""

from __future__ import annotations

import random
from fractions import Fraction

from tiebreak.engine.model import ResultKind
from tiebreak.engine.teams.model import Board, BoardResult, Match, MatchForfeit, Team, TeamBye, TeamTournament

from .teams import board_colours, seats, team, team_event

# White's game points minus black's: the sign of a board in its match.
_WHITE_MINUS_BLACK = {
    BoardResult.WHITE_WINS: Fraction(1),
    BoardResult.BLACK_WINS: Fraction(-1),
    BoardResult.WHITE_FORFEIT_WIN: Fraction(1),
    BoardResult.BLACK_FORFEIT_WIN: Fraction(-1),
}


def team_swiss(teams: int, rounds: int, boards: int = 4, seed: int = 1) -> TeamTournament:
    """A seeded team Swiss of `teams` teams of `boards` regulars and a reserve, `rounds` rounds."""
    rng = random.Random(seed)
    members = _teams(rng, teams, boards)
    rating = {p.id: p.rating for t in members for p in t.players if p.rating is not None}  # all rated
    colours = board_colours(boards)
    mp = [0] * teams
    met: set[tuple[int, int]] = set()
    had_bye: set[int] = set()
    matches: list[Match] = []
    byes: list[TeamBye] = []
    for rnd in range(1, rounds + 1):
        order = sorted(range(teams), key=lambda t: (-mp[t], t))
        if len(order) % 2:
            out = next(t for t in reversed(order) if t not in had_bye)
            order.remove(out)
            had_bye.add(out)
            byes.append(TeamBye(rnd, out + 1, ResultKind.PAIRING_BYE))
            mp[out] += 1
        for home, away in _pair(order, met):
            met.add((min(home, away), max(home, away)))
            match = _match(rng, rnd, (home, members[home]), (away, members[away]), colours, rating)
            matches.append(match)
            for side, points in zip((home, away), _match_points(match, colours), strict=True):
                mp[side] += points
    return team_event(members, boards, rounds, matches, byes, name="Synthetic Olympiad")


def _teams(rng: random.Random, teams: int, boards: int) -> list[Team]:
    """Teams in descending strength, each of `boards` regulars and one reserve, a little weaker board by board."""
    strength = sorted((rng.gauss(2200, 250) for _ in range(teams)), reverse=True)
    roster = boards + 1
    return [
        team(
            i + 1,
            [i * roster + b + 1 for b in range(roster)],
            [max(1000, int(strength[i]) + 60 - 30 * b) for b in range(roster)],
            short_name=f"T{i + 1:04d}"[-5:],
            player_name="Player {}",
        )
        for i in range(teams)
    ]


def _match(
    rng: random.Random,
    rnd: int,
    home: tuple[int, Team],
    away: tuple[int, Team],
    colours: str,
    rating: dict[int, int],
) -> Match:
    """The match of two teams (index, team): forfeited whole about once in 200, else board by board."""
    if rng.random() < 0.005:
        forfeit = MatchForfeit.HOME_WINS if rng.random() < 0.5 else MatchForfeit.AWAY_WINS
        return Match(rnd, home[0] + 1, away[0] + 1, forfeit=forfeit)
    lineup_h = _lineup(rng, home[1], len(colours))
    lineup_a = _lineup(rng, away[1], len(colours))
    board_list = []
    for b, colour in enumerate(colours):
        white, black = seats(colour == "W", lineup_h[b], lineup_a[b])
        assert white is not None and black is not None  # every board is occupied
        board_list.append(Board(b + 1, white, black, _result(rng, rating[white], rating[black])))
    return Match(rnd, home[0] + 1, away[0] + 1, tuple(board_list))


def _match_points(match: Match, colours: str) -> tuple[int, int]:
    """Home's and away's match points (2 a win, 1 a draw) from the boards or the forfeit."""
    if match.forfeit is not None:
        return (2, 0) if match.forfeit is MatchForfeit.HOME_WINS else (0, 2)
    score = sum(
        _WHITE_MINUS_BLACK.get(board.result, Fraction(0)) * (1 if colour == "W" else -1)
        for board, colour in zip(match.boards, colours, strict=True)
        if board.result is not None
    )
    return (2, 0) if score > 0 else (0, 2) if score < 0 else (1, 1)


def _pair(order: list[int], met: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """Top half against bottom half of the sorted field, swapping to avoid repeat matches when cheap."""
    pairs: list[tuple[int, int]] = []
    rest = order[:]
    while rest:
        first = rest.pop(0)
        partner = next((t for t in rest[:8] if (min(first, t), max(first, t)) not in met), rest[0])
        rest.remove(partner)
        pairs.append((first, partner) if len(pairs) % 2 == 0 else (partner, first))
    return pairs


def _lineup(rng: random.Random, side: Team, boards: int) -> list[int]:
    """The regulars, or the reserve in for one of them (roster order kept)."""
    players = [p.id for p in side.players]
    if rng.random() < 0.3:
        players.pop(rng.randrange(boards))
    return players[:boards]


def _result(rng: random.Random, white: int, black: int) -> BoardResult:
    if rng.random() < 0.01:
        return BoardResult.WHITE_FORFEIT_WIN if rng.random() < 0.5 else BoardResult.BLACK_FORFEIT_WIN
    expected = 1 / (1 + 10 ** ((black - white - 35) / 400))
    draw = 0.35
    u = rng.random()
    if u < expected - draw / 2:
        return BoardResult.WHITE_WINS
    if u < expected + draw / 2:
        return BoardResult.DRAW
    return BoardResult.BLACK_WINS
