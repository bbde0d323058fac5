"""Hypothesis strategies: random but consistent Swiss crosstables.

Every round pairs a random number of players; each pairing gets a random result
(won, drawn, lost, forfeited either way, double forfeit, or an arbiter's 0-0 / ½-0
with explicit points), and everybody left over gets a bye or is absent. The points
handed out are counted while drawing, independently of the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from hypothesis import strategies as st

from tiebreak.engine import Color, Player, ResultKind, RoundResult, System, Tournament

HALF = Fraction(1, 2)

# (result of the first player, points override, result of the second, points override)
_GAMES = (
    (ResultKind.WIN, None, ResultKind.LOSS, None),
    (ResultKind.DRAW, None, ResultKind.DRAW, None),
    (ResultKind.LOSS, None, ResultKind.WIN, None),
    (ResultKind.FORFEIT_WIN, None, ResultKind.FORFEIT_LOSS, None),
    (ResultKind.FORFEIT_LOSS, None, ResultKind.FORFEIT_WIN, None),
    (ResultKind.FORFEIT_LOSS, None, ResultKind.FORFEIT_LOSS, None),  # double forfeit
    (ResultKind.LOSS, Fraction(0), ResultKind.LOSS, Fraction(0)),  # 0-0 by decision
    (ResultKind.DRAW, HALF, ResultKind.LOSS, Fraction(0)),  # ½-0 by decision
)

# Games played over the board are the common case: weighted 3 to 1 against each unusual result.
_GAME_CHOICE = st.sampled_from(_GAMES[:3] * 3 + _GAMES[3:])

# Unpaired players; None: nothing submitted for the round (absent).
_UNPAIRED = (
    ResultKind.PAIRING_BYE,
    ResultKind.FULL_BYE,
    ResultKind.HALF_BYE,
    ResultKind.ZERO_BYE,
    ResultKind.ABSENT,
    None,
)

_DEFAULT_POINTS = {
    ResultKind.WIN: Fraction(1),
    ResultKind.DRAW: HALF,
    ResultKind.LOSS: Fraction(0),
    ResultKind.FORFEIT_WIN: Fraction(1),
    ResultKind.FORFEIT_LOSS: Fraction(0),
    ResultKind.PAIRING_BYE: Fraction(1),
    ResultKind.FULL_BYE: Fraction(1),
    ResultKind.HALF_BYE: HALF,
    ResultKind.ZERO_BYE: Fraction(0),
    ResultKind.ABSENT: Fraction(0),
}


@dataclass(frozen=True)
class DrawnTournament:
    tournament: Tournament
    distributed: Fraction  # all points handed out, counted round by round while drawing


@st.composite
def swiss_tournaments(
    draw, min_players: int = 2, max_players: int = 16, max_rounds: int = 9, unrated: bool = True
) -> DrawnTournament:
    n = draw(st.integers(min_players, max_players))
    rounds = draw(st.integers(1, max_rounds))
    ids = draw(st.lists(st.integers(1, 9999), min_size=n, max_size=n, unique=True))
    rating = st.integers(1000, 2800) | st.none() if unrated else st.integers(1000, 2800)
    ratings = draw(st.lists(rating, min_size=n, max_size=n))
    results: dict[int, list[RoundResult]] = {pid: [] for pid in ids}
    distributed = Fraction(0)
    for rnd in range(1, rounds + 1):
        order = draw(st.permutations(ids))
        pairs = n // 2 - draw(st.integers(0, n // 2))  # shrinks towards everybody paired
        for k in range(pairs):
            a, b = order[2 * k], order[2 * k + 1]
            kind_a, pts_a, kind_b, pts_b = draw(_GAME_CHOICE)
            a_white = draw(st.booleans())
            colour_a, colour_b = (Color.WHITE, Color.BLACK) if a_white else (Color.BLACK, Color.WHITE)
            results[a].append(RoundResult(rnd, kind_a, b, colour_a, pts_a))
            results[b].append(RoundResult(rnd, kind_b, a, colour_b, pts_b))
            distributed += pts_a if pts_a is not None else _DEFAULT_POINTS[kind_a]
            distributed += pts_b if pts_b is not None else _DEFAULT_POINTS[kind_b]
        for pid in order[2 * pairs :]:
            kind = draw(st.sampled_from(_UNPAIRED))
            if kind is not None:
                results[pid].append(RoundResult(rnd, kind))
                distributed += _DEFAULT_POINTS[kind]
    players = tuple(
        Player(id=pid, name=f"P{pid}", rating=r, results=tuple(results[pid]))
        for pid, r in zip(ids, ratings, strict=True)
    )
    tournament = Tournament(players=players, rounds=rounds, system=System.SWISS, name="drawn")
    return DrawnTournament(tournament, distributed)


def renumbered(tournament: Tournament, mapping: dict[int, int], order: list[int]) -> Tournament:
    """The same tournament with every id replaced by mapping[id], players listed in `order` (old ids)."""
    by_id = {p.id: p for p in tournament.players}
    players = tuple(
        Player(
            id=mapping[old],
            name=by_id[old].name,
            rating=by_id[old].rating,
            results=tuple(
                RoundResult(
                    r.round, r.result, None if r.opponent is None else mapping[r.opponent], r.color, r.points, r.rated
                )
                for r in by_id[old].results
            ),
        )
        for old in order
    )
    return Tournament(
        players=players,
        rounds=tournament.rounds,
        system=tournament.system,
        scoring=tournament.scoring,
        name=tournament.name,
        start_date=tournament.start_date,
    )


@st.composite
def renumberings(draw, tournament: Tournament) -> tuple[dict[int, int], list[int]]:
    """A permutation of the start numbers, and a new listing order of the players."""
    old = [p.id for p in tournament.players]
    new = draw(st.permutations(old))
    order = draw(st.permutations(old))
    return dict(zip(old, new, strict=True)), list(order)
