"""Hypothesis strategies: random but consistent team events (SPEC 2.5, 3.7).

Every round pairs some of the teams; a match has per-board results (won, drawn, lost,
forfeited either way, double forfeits, the odd unoccupied board) or is forfeited whole;
the teams left over get the pairing-allocated bye, a requested bye, or are absent.
Players sit in roster order, reserves moving up when a team fields fewer regulars.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import strategies as st

from testkit.teams import board_colours, seats, team, team_event
from tiebreak.engine.model import ResultKind
from tiebreak.engine.teams.model import Board, BoardResult, Match, MatchForfeit, TeamBye, TeamTournament

_BOARD_RESULTS = [BoardResult.WHITE_WINS, BoardResult.BLACK_WINS, BoardResult.DRAW] * 4 + [
    BoardResult.WHITE_FORFEIT_WIN,
    BoardResult.BLACK_FORFEIT_WIN,
    BoardResult.DOUBLE_FORFEIT,
]
_LEFT_OVER = (ResultKind.PAIRING_BYE, ResultKind.FULL_BYE, ResultKind.HALF_BYE, ResultKind.ZERO_BYE, None)


@st.composite
def team_events(
    draw, min_teams: int = 2, max_teams: int = 8, max_rounds: int = 5, max_size: int = 4, forfeits: bool = True
) -> TeamTournament:
    n = draw(st.integers(min_teams, max_teams))
    size = draw(st.integers(1, max_size))
    rounds = draw(st.integers(1, max_rounds))
    team_ids = draw(st.lists(st.integers(1, 999), min_size=n, max_size=n, unique=True))
    roster = size + draw(st.integers(0, 1))  # a reserve, sometimes
    player_ids = draw(st.lists(st.integers(1, 9999), min_size=n * roster, max_size=n * roster, unique=True))
    teams = tuple(team(tid, player_ids[i * roster : (i + 1) * roster]) for i, tid in enumerate(team_ids))
    colours = board_colours(size)
    matches, byes = [], []
    for rnd in range(1, rounds + 1):
        order = draw(st.permutations(list(range(n))))
        pairs = draw(st.integers(0, len(order) // 2))
        for k in range(pairs):
            home, away = teams[order[2 * k]], teams[order[2 * k + 1]]
            if forfeits and draw(st.integers(0, 9)) == 0:
                matches.append(Match(rnd, home.id, away.id, forfeit=draw(st.sampled_from(list(MatchForfeit)))))
                continue
            boards = []
            for b in range(size):
                result = draw(st.sampled_from(_BOARD_RESULTS if forfeits else _BOARD_RESULTS[:12]))
                white, black = seats(colours[b] == "W", home.players[b].id, away.players[b].id)
                if forfeits and result is BoardResult.WHITE_FORFEIT_WIN and draw(st.integers(0, 4)) == 0:
                    black = None  # an unoccupied board
                boards.append(Board(b + 1, white, black, result))
            matches.append(Match(rnd, home.id, away.id, tuple(boards)))
        for i in order[2 * pairs :]:
            kind = draw(st.sampled_from(_LEFT_OVER))
            if kind is not None:
                byes.append(TeamBye(rnd, teams[i].id, kind))
    return team_event(teams, size, rounds, matches, byes)


def swapped_home_and_away(event: TeamTournament) -> TeamTournament:
    """The same event with every match's teams named the other way round (colours follow the boards)."""
    flipped = "".join("B" if c == "W" else "W" for c in event.board_colours) if event.board_colours else None
    matches = tuple(
        replace(
            m,
            home=m.away,
            away=m.home,
            forfeit={
                MatchForfeit.HOME_WINS: MatchForfeit.AWAY_WINS,
                MatchForfeit.AWAY_WINS: MatchForfeit.HOME_WINS,
            }.get(m.forfeit, m.forfeit),
            game_points=None if m.game_points is None else m.game_points[::-1],
        )
        for m in event.matches
    )
    return replace(event, matches=matches, board_colours=flipped)


@st.composite
def renumbered_teams(draw, event: TeamTournament) -> tuple[TeamTournament, dict[int, int]]:
    """The event with new team numbers (and the teams listed in another order)."""
    ids = [t.id for t in event.teams]
    new_ids = draw(st.lists(st.integers(1, 999), min_size=len(ids), max_size=len(ids), unique=True))
    mapping = dict(zip(ids, new_ids, strict=True))
    teams = [replace(t, id=mapping[t.id]) for t in event.teams]
    order = draw(st.permutations(teams))
    matches = tuple(replace(m, home=mapping[m.home], away=mapping[m.away]) for m in event.matches)
    byes = tuple(replace(b, team=mapping[b.team]) for b in event.byes)
    return replace(event, teams=tuple(order), matches=matches, byes=byes), mapping
