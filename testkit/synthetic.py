"""Synthetic Swiss tournaments for benchmarks and load tests: realistic, consistent, seeded.

Standard library only. The same seed and parameters always give the same
tournament, so timings and load tests are reproducible:

    from testkit.synthetic import swiss_tournament, swiss_wire

    t = swiss_tournament(500, 11, seed=1)        # an engine `Tournament`
    body = {"tournament": swiss_wire(100, 9), "tiebreaks": ["BH/C1", "SB"]}

How a tournament is made (good enough for realistic data, not a FIDE pairing
engine):

- ratings are drawn from a normal distribution (mean 1800, sd 300, clamped to
  1000..2800) and start numbers follow the rating order, strongest first;
- each round the players still in the event are sorted by score, then rating,
  and neighbours are paired, preferring (within a small look-ahead window) an
  opponent not met before; colours go to the player who is "owed" white (more
  blacks than whites, else black last round);
- the odd player out is the lowest-placed one without a bye yet and receives
  the pairing-allocated bye;
- results follow the Elo expectancy with a small white advantage, with draws
  most likely between players of similar strength;
- a small fraction of players take a half-point bye in a round (never in the
  last two), a small fraction of pairings are forfeited (forfeit_win /
  forfeit_loss; the no-show sometimes withdraws afterwards), and a small
  fraction of players withdraw: from their withdrawal round on they have no
  entries at all, which the API reads as absent.

Every game appears on both sides with complementary results and opposite
colours, so the crosstable passes the engine's validation.
"""

from __future__ import annotations

import random
from fractions import Fraction

from tiebreak.engine.model import Color, Player, ResultKind, RoundResult, Scoring, System, Tournament

__all__ = ["swiss_tournament", "swiss_wire", "tournament_to_wire"]

WHITE_ADVANTAGE = 35  # Elo points
LOOKAHEAD = 6  # how far down the list a player looks for an opponent not yet met

_W, _B = Color.WHITE, Color.BLACK


def _wants(balance: int, streak: int) -> int:
    """Colour wish: +2 must have white, +1 would like white, 0 none, -1 / -2 the same for black."""
    if balance <= -2 or streak <= -2:
        return 2
    if balance >= 2 or streak >= 2:
        return -2
    if balance < 0 or (balance == 0 and streak < 0):
        return 1
    if balance > 0 or (balance == 0 and streak > 0):
        return -1
    return 0


def _rating(rng: random.Random) -> int:
    return max(1000, min(2800, int(rng.gauss(1800, 300))))


def swiss_tournament(
    players: int,
    rounds: int,
    seed: int = 1,
    *,
    draw_rate: float = 0.30,
    half_bye_rate: float = 0.01,
    forfeit_rate: float = 0.01,
    withdraw_rate: float = 0.03,
    unrated_rate: float = 0.0,
    system: System | None = System.SWISS,
    name: str | None = None,
) -> Tournament:
    """A consistent `rounds`-round Swiss for `players` players (ids 1..players).

    Rates are probabilities: `half_bye_rate` per player and round, `forfeit_rate`
    per pairing, `withdraw_rate` per player over the whole event; `draw_rate` is
    the draw probability between equally rated players. `unrated_rate` is the
    share of players without a rating (rating-based rules are then dropped
    unless the request supplies `unrated_rating`). `system=None` leaves the
    system out, for the engine to infer.
    """
    if players < 1 or rounds < 1:
        raise ValueError("need at least one player and one round")
    rng = random.Random(seed)
    n = players
    ratings = sorted((_rating(rng) for _ in range(n)), reverse=True)
    rated = [rng.random() >= unrated_rate for _ in range(n)]
    # Round from which a player is gone (None: plays to the end). Never before round 2.
    leaves: list[int | None] = [
        rng.randint(2, rounds) if rounds >= 2 and rng.random() < withdraw_rate else None for _ in range(n)
    ]

    half_units = [0] * n  # score in half points
    had_bye = [False] * n
    met: list[set[int]] = [set() for _ in range(n)]
    balance = [0] * n  # whites minus blacks
    streak = [0] * n  # +k: the last k games with white, -k: with black
    results: list[list[RoundResult]] = [[] for _ in range(n)]
    pow10 = 10.0 ** (1 / 400)

    for rnd in range(1, rounds + 1):
        active: list[int] = []
        for p in range(n):
            gone = leaves[p]
            if gone is not None and rnd >= gone:
                continue
            if rnd <= rounds - 2 and rng.random() < half_bye_rate:
                results[p].append(RoundResult(rnd, ResultKind.HALF_BYE))
                half_units[p] += 1
                continue
            active.append(p)
        # Score groups, strongest first; start number (= rating order) breaks ties.
        active.sort(key=lambda p: (-half_units[p], p))

        if len(active) % 2:
            bye = next((p for p in reversed(active) if not had_bye[p]), active[-1])
            active.remove(bye)
            had_bye[bye] = True
            half_units[bye] += 2
            results[bye].append(RoundResult(rnd, ResultKind.PAIRING_BYE))

        used = [False] * len(active)
        for i, a in enumerate(active):
            if used[i]:
                continue
            used[i] = True
            j = i + 1
            while used[j]:
                j += 1
            first_free = j
            seen_a = met[a]
            wa = _wants(balance[a], streak[a])
            limit = min(len(active), i + 1 + LOOKAHEAD)
            # Within the window: a new opponent with a compatible colour wish, else a new opponent.
            new_opponent = -1
            while j < limit:
                if not used[j] and active[j] not in seen_a:
                    if wa * _wants(balance[active[j]], streak[active[j]]) <= 0:
                        break
                    if new_opponent < 0:
                        new_opponent = j
                j += 1
            if j >= limit:
                j = new_opponent if new_opponent >= 0 else first_free
            used[j] = True
            b = active[j]
            seen_a.add(b)
            met[b].add(a)

            # Colours: each gets their wish if compatible; else the stronger wish, else the higher-placed.
            wb = _wants(balance[b], streak[b])
            if wa == wb:
                a_white = wa > 0 if wa else (rnd + i) % 2 == 0
            elif wa * wb > 0:
                a_white = wa > 0 if abs(wa) > abs(wb) else wb < 0
            else:
                a_white = wa > wb
            white, black = (a, b) if a_white else (b, a)

            if rng.random() < forfeit_rate:
                no_show = white if rng.random() < 0.5 else black
                shows = black if no_show == white else white
                results[shows].append(RoundResult(rnd, ResultKind.FORFEIT_WIN, no_show + 1))
                results[no_show].append(RoundResult(rnd, ResultKind.FORFEIT_LOSS, shows + 1))
                half_units[shows] += 2
                if rnd < rounds and leaves[no_show] is None and rng.random() < 0.5:
                    leaves[no_show] = rnd + 1
                continue

            diff = ratings[black] - ratings[white] - WHITE_ADVANTAGE
            expected = 1.0 / (1.0 + pow10**diff)
            p_draw = draw_rate * (1.0 - abs(2.0 * expected - 1.0))
            p_white = max(0.0, expected - p_draw / 2)
            x = rng.random()
            if x < p_white:
                wk, bk = ResultKind.WIN, ResultKind.LOSS
                half_units[white] += 2
            elif x < p_white + p_draw:
                wk = bk = ResultKind.DRAW
                half_units[white] += 1
                half_units[black] += 1
            else:
                wk, bk = ResultKind.LOSS, ResultKind.WIN
                half_units[black] += 2
            results[white].append(RoundResult(rnd, wk, black + 1, _W))
            results[black].append(RoundResult(rnd, bk, white + 1, _B))
            balance[white] += 1
            balance[black] -= 1
            streak[white] = streak[white] + 1 if streak[white] > 0 else 1
            streak[black] = streak[black] - 1 if streak[black] < 0 else -1

    return Tournament(
        players=tuple(
            Player(id=p + 1, name=f"Player {p + 1}", rating=ratings[p] if rated[p] else None, results=tuple(results[p]))
            for p in range(n)
        ),
        rounds=rounds,
        system=system,
        name=name if name is not None else f"Synthetic Swiss {players}x{rounds} seed {seed}",
    )


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def tournament_to_wire(t: Tournament) -> dict:
    """Any engine `Tournament` as the JSON body of `tournament` in POST /v1/standings."""
    players = []
    for p in t.players:
        entries = []
        for r in p.results:
            e: dict = {"round": r.round, "result": r.result.value}
            if r.opponent is not None:
                e["opponent"] = r.opponent
            if r.color is not None:
                e["color"] = r.color.value
            if r.points is not None:
                e["points"] = _number(r.points)
            if not r.rated:
                e["rated"] = False
            entries.append(e)
        player: dict = {"id": p.id, "name": p.name}
        if p.rating:
            player["rating"] = p.rating
        player["results"] = entries
        players.append(player)
    wire: dict = {"name": t.name, "rounds": t.rounds, "players": players}
    if t.start_date is not None:
        wire["start_date"] = t.start_date.isoformat()
    if t.system is not None:
        wire["system"] = t.system.value
    if t.scoring != Scoring():
        wire["scoring"] = {k: _number(getattr(t.scoring, k)) for k in Scoring.__slots__}
    return wire


def swiss_wire(players: int, rounds: int, seed: int = 1, **options) -> dict:
    """`swiss_tournament(...)` as the wire dict (see `tournament_to_wire`)."""
    return tournament_to_wire(swiss_tournament(players, rounds, seed, **options))
