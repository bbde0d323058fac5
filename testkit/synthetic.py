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
from collections.abc import Iterator
from fractions import Fraction

from tiebreak.engine.model import Color, Player, ResultKind, RoundResult, Scoring, System, Tournament

__all__ = ["swiss_tournament", "swiss_wire", "tournament_to_wire"]

WHITE_ADVANTAGE = 35  # Elo points
LOOKAHEAD = 6  # how far down the list a player looks for an opponent not yet met

_W, _B = Color.WHITE, Color.BLACK
_POW10 = 10.0 ** (1 / 400)  # Elo: the expectancy is 1 / (1 + _POW10 ** rating difference)


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
    event = _Swiss(random.Random(seed), players, rounds, withdraw_rate, unrated_rate)
    for rnd in range(1, rounds + 1):
        active = event.entrants(rnd, half_bye_rate)
        event.give_bye(active, rnd)
        for white, black in event.pairings(active, rnd):
            event.play(rnd, white, black, forfeit_rate, draw_rate)
    return Tournament(
        players=tuple(
            Player(id=p + 1, name=f"Player {p + 1}", rating=rating if rated else None, results=tuple(results))
            for p, (rating, rated, results) in enumerate(zip(event.ratings, event.rated, event.results, strict=True))
        ),
        rounds=rounds,
        system=system,
        name=name if name is not None else f"Synthetic Swiss {players}x{rounds} seed {seed}",
    )


class _Swiss:
    """A synthetic Swiss while it is paired and played: players are indices 0..n-1 in start order.

    Every random draw is made in one fixed order (ratings, ratings kept, withdrawals, then round by
    round: half-point byes, and per pairing its forfeit and result), so a seed gives one event.
    """

    def __init__(self, rng: random.Random, n: int, rounds: int, withdraw_rate: float, unrated_rate: float):
        self.rng, self.rounds = rng, rounds
        self.ratings = sorted((_rating(rng) for _ in range(n)), reverse=True)
        self.rated = [rng.random() >= unrated_rate for _ in range(n)]
        # Round from which a player is gone (None: plays to the end). Never before round 2.
        self.leaves: list[int | None] = [
            rng.randint(2, rounds) if rounds >= 2 and rng.random() < withdraw_rate else None for _ in range(n)
        ]
        self.half_units = [0] * n  # score in half points
        self.had_bye = [False] * n
        self.met: list[set[int]] = [set() for _ in range(n)]
        self.balance = [0] * n  # whites minus blacks
        self.streak = [0] * n  # +k: the last k games with white, -k: with black
        self.results: list[list[RoundResult]] = [[] for _ in range(n)]

    def entrants(self, rnd: int, half_bye_rate: float) -> list[int]:
        """The players paired in round `rnd`, in score groups, strongest first; the rest withdrew
        or take a half-point bye (never in the last two rounds)."""
        active: list[int] = []
        for p, gone in enumerate(self.leaves):
            if gone is not None and rnd >= gone:
                continue
            if rnd <= self.rounds - 2 and self.rng.random() < half_bye_rate:
                self.results[p].append(RoundResult(rnd, ResultKind.HALF_BYE))
                self.half_units[p] += 1
                continue
            active.append(p)
        # Start number (= rating order) breaks ties of score.
        active.sort(key=lambda p: (-self.half_units[p], p))
        return active

    def give_bye(self, active: list[int], rnd: int) -> None:
        """With an odd number paired, the lowest-placed player without a bye yet gets the
        pairing-allocated bye (out of `active`)."""
        if len(active) % 2:
            bye = next((p for p in reversed(active) if not self.had_bye[p]), active[-1])
            active.remove(bye)
            self.had_bye[bye] = True
            self.half_units[bye] += 2
            self.results[bye].append(RoundResult(rnd, ResultKind.PAIRING_BYE))

    def pairings(self, active: list[int], rnd: int) -> Iterator[tuple[int, int]]:
        """(white, black) of each pairing of the round, top down: each player takes the first
        opponent within the look-ahead window not met before with a compatible colour wish, else the
        first not met before, else the next one free."""
        used = [False] * len(active)
        for i, a in enumerate(active):
            if used[i]:
                continue
            used[i] = True
            j = self._opponent(active, used, i)
            used[j] = True
            b = active[j]
            self.met[a].add(b)
            self.met[b].add(a)
            a_white = _a_has_white(self._wants(a), self._wants(b), rnd + i)
            yield (a, b) if a_white else (b, a)

    def _opponent(self, active: list[int], used: list[bool], i: int) -> int:
        j = i + 1
        while used[j]:
            j += 1
        first_free = j
        seen_a = self.met[active[i]]
        wa = self._wants(active[i])
        limit = min(len(active), i + 1 + LOOKAHEAD)
        new_opponent = -1
        while j < limit:
            if not used[j] and active[j] not in seen_a:
                if wa * self._wants(active[j]) <= 0:
                    return j
                if new_opponent < 0:
                    new_opponent = j
            j += 1
        return new_opponent if new_opponent >= 0 else first_free

    def _wants(self, p: int) -> int:
        return _wants(self.balance[p], self.streak[p])

    def play(self, rnd: int, white: int, black: int, forfeit_rate: float, draw_rate: float) -> None:
        """The game's result on both sides: a forfeit (the no-show sometimes withdraws after it), or a
        result drawn from the Elo expectancy with a small white advantage."""
        rng = self.rng
        if rng.random() < forfeit_rate:
            no_show = white if rng.random() < 0.5 else black
            shows = black if no_show == white else white
            self.results[shows].append(RoundResult(rnd, ResultKind.FORFEIT_WIN, no_show + 1))
            self.results[no_show].append(RoundResult(rnd, ResultKind.FORFEIT_LOSS, shows + 1))
            self.half_units[shows] += 2
            if rnd < self.rounds and self.leaves[no_show] is None and rng.random() < 0.5:
                self.leaves[no_show] = rnd + 1
            return
        diff = self.ratings[black] - self.ratings[white] - WHITE_ADVANTAGE
        expected = 1.0 / (1.0 + _POW10**diff)
        p_draw = draw_rate * (1.0 - abs(2.0 * expected - 1.0))
        p_white = max(0.0, expected - p_draw / 2)
        x = rng.random()
        if x < p_white:
            wk, bk, white_half_points = ResultKind.WIN, ResultKind.LOSS, 2
        elif x < p_white + p_draw:
            wk, bk, white_half_points = ResultKind.DRAW, ResultKind.DRAW, 1
        else:
            wk, bk, white_half_points = ResultKind.LOSS, ResultKind.WIN, 0
        self.half_units[white] += white_half_points
        self.half_units[black] += 2 - white_half_points
        self.results[white].append(RoundResult(rnd, wk, black + 1, _W))
        self.results[black].append(RoundResult(rnd, bk, white + 1, _B))
        self.balance[white] += 1
        self.balance[black] -= 1
        self.streak[white] = self.streak[white] + 1 if self.streak[white] > 0 else 1
        self.streak[black] = self.streak[black] - 1 if self.streak[black] < 0 else -1


def _a_has_white(wa: int, wb: int, parity: int) -> bool:
    """Colours: each gets their wish if compatible; else the stronger wish, else the higher-placed (a);
    with no wish on either side, alternately by `parity`."""
    if wa == wb:
        return wa > 0 if wa else parity % 2 == 0
    if wa * wb > 0:
        return wa > 0 if abs(wa) > abs(wb) else wb < 0
    return wa > wb


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
