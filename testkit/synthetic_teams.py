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

from tiebreak.engine.model import ResultKind, System
from tiebreak.engine.teams.model import (
    Board,
    BoardResult,
    Match,
    MatchForfeit,
    Team,
    TeamBye,
    TeamMember,
    TeamTournament,
)


def team_swiss(teams: int, rounds: int, boards: int = 4, seed: int = 1) -> TeamTournament:
    rng = random.Random(seed)
    strength = sorted((rng.gauss(2200, 250) for _ in range(teams)), reverse=True)
    roster = boards + 1
    members = []
    for i in range(teams):
        base = int(strength[i])
        members.append(
            Team(
                i + 1,
                f"Team {i + 1}",
                f"T{i + 1:04d}"[-5:],
                tuple(
                    TeamMember(i * roster + b + 1, f"Player {i * roster + b + 1}", max(1000, base + 60 - 30 * b))
                    for b in range(roster)
                ),
            )
        )
    rating = {p.id: p.rating for t in members for p in t.players if p.rating is not None}  # all rated
    colours = "".join("WB"[b % 2] for b in range(boards))
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
        pairs = _pair(order, met)
        for home, away in pairs:
            met.add((min(home, away), max(home, away)))
            if rng.random() < 0.005:
                forfeit = MatchForfeit.HOME_WINS if rng.random() < 0.5 else MatchForfeit.AWAY_WINS
                matches.append(Match(rnd, home + 1, away + 1, forfeit=forfeit))
                mp[home if forfeit is MatchForfeit.HOME_WINS else away] += 2
                continue
            lineup_h = _lineup(rng, members[home], boards)
            lineup_a = _lineup(rng, members[away], boards)
            score = Fraction(0)
            board_list = []
            for b in range(boards):
                hp, ap = lineup_h[b], lineup_a[b]
                home_white = colours[b] == "W"
                white, black = (hp, ap) if home_white else (ap, hp)
                result = _result(rng, rating[white], rating[black])
                board_list.append(Board(b + 1, white, black, result))
                white_points = {
                    BoardResult.WHITE_WINS: Fraction(1),
                    BoardResult.DRAW: Fraction(1, 2),
                    BoardResult.WHITE_FORFEIT_WIN: Fraction(1),
                }.get(result, Fraction(0))
                black_points = {
                    BoardResult.BLACK_WINS: Fraction(1),
                    BoardResult.DRAW: Fraction(1, 2),
                    BoardResult.BLACK_FORFEIT_WIN: Fraction(1),
                }.get(result, Fraction(0))
                score += white_points - black_points if home_white else black_points - white_points
            matches.append(Match(rnd, home + 1, away + 1, tuple(board_list)))
            if score > 0:
                mp[home] += 2
            elif score < 0:
                mp[away] += 2
            else:
                mp[home] += 1
                mp[away] += 1
    return TeamTournament(
        teams=tuple(members),
        rounds=rounds,
        team_size=boards,
        matches=tuple(matches),
        byes=tuple(byes),
        system=System.SWISS,
        board_colours=colours,
        name="Synthetic Olympiad",
    )


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


def _lineup(rng: random.Random, team: Team, boards: int) -> list[int]:
    """The regulars, or the reserve in for one of them (roster order kept)."""
    players = [p.id for p in team.players]
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
