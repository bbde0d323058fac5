"""Validated, normalised crosstable: one row of rounds per player, integer points.

Points are held as integers in units of 1/`scale`, where `scale` is the least
common denominator of every point value in play (2 for the usual 1-½-0), so
half and quarter points never drift.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from .errors import InconsistentCrosstable, Issue, InvalidRequest
from .model import COMPLEMENT, Color, Player, ResultKind, RoundResult, System, Tournament

NO_OPPONENT = -1


@dataclass(slots=True)
class Crosstable:
    """Rounds 1..`played_rounds` of every player, indexed by position in `ids`."""

    ids: list[int]
    names: list[str]
    ratings: list[int | None]
    rounds: int  # scheduled rounds of the tournament
    played_rounds: int  # rounds the standings cover (all, or `after_round`)
    system: System
    system_inferred: bool
    scale: int  # points are integers in units of 1/scale
    win: int
    draw: int
    kinds: list[list[ResultKind]]
    opponents: list[list[int]]  # player index, or NO_OPPONENT
    colors: list[list[Color | None]]
    points: list[list[int]]
    scores: list[int]  # total after played_rounds

    @property
    def size(self) -> int:
        return len(self.ids)

    def with_last_round_drawn(self) -> "Crosstable":
        """The table with every game of the last round scored as a draw (C.07 8.3, Fore Buchholz)."""
        last = self.played_rounds - 1
        points = [row[:] for row in self.points]
        kinds = [row[:] for row in self.kinds]
        for p in range(self.size):
            if self.kinds[p][last].has_opponent:
                kinds[p][last] = ResultKind.DRAW
                points[p][last] = self.draw
        scores = [sum(row) for row in points]
        return Crosstable(
            self.ids, self.names, self.ratings, self.rounds, self.played_rounds, self.system,
            self.system_inferred, self.scale, self.win, self.draw, kinds, self.opponents,
            self.colors, points, scores,
        )


def _fraction_scale(values: list[Fraction]) -> int:
    scale = 1
    for v in values:
        scale = math.lcm(scale, v.denominator)
    return scale


def infer_system(tournament: Tournament) -> System:
    """A round robin when every player meets every other exactly as often as the rounds allow.

    Used only when the request does not say; the response echoes that it was inferred.
    """
    n = len(tournament.players)
    if n < 2:
        return System.SWISS
    met: dict[int, set[int]] = {p.id: set() for p in tournament.players}
    for p in tournament.players:
        for r in p.results:
            if r.opponent is not None:
                met[p.id].add(r.opponent)
    rounds_single = n - 1 if n % 2 == 0 else n
    complete = all(len(m) == n - 1 for m in met.values())
    if complete and tournament.rounds % rounds_single == 0:
        return System.ROUND_ROBIN
    return System.SWISS


def build_crosstable(tournament: Tournament, after_round: int | None = None) -> Crosstable:
    """Validate the tournament and normalise it; raise on any contradiction."""
    issues: list[Issue] = []
    rounds = tournament.rounds
    if after_round is not None and not 1 <= after_round <= rounds:
        raise InvalidRequest([Issue(("after_round",), f"after_round must be between 1 and {rounds}")])
    played_rounds = after_round or rounds

    index: dict[int, int] = {}
    for i, player in enumerate(tournament.players):
        if player.id in index:
            issues.append(Issue(("players", i, "id"), f"duplicate player id {player.id}"))
        else:
            index[player.id] = i
    if issues:
        raise InconsistentCrosstable(issues)

    entries: list[dict[int, tuple[int, RoundResult]]] = []
    for i, player in enumerate(tournament.players):
        by_round: dict[int, tuple[int, RoundResult]] = {}
        for j, res in enumerate(player.results):
            where = ("players", i, "results", j)
            if not 1 <= res.round <= rounds:
                issues.append(Issue(where + ("round",), f"round {res.round} outside 1..{rounds}"))
                continue
            if res.round in by_round:
                issues.append(Issue(where + ("round",), f"player {player.id} has two results for round {res.round}"))
                continue
            by_round[res.round] = (j, res)
            _check_entry_shape(player, res, where, index, issues)
        entries.append(by_round)
    if issues:
        raise InconsistentCrosstable(issues)

    for i, player in enumerate(tournament.players):
        for rnd, (j, res) in entries[i].items():
            if res.opponent is None:
                continue
            _check_pairing(tournament, entries, index, i, j, res, issues)
    if issues:
        raise InconsistentCrosstable(issues)

    scoring = tournament.scoring
    values = [scoring.points_for(k) for k in ResultKind]
    values += [r.points for p in tournament.players for r in p.results if r.points is not None]
    scale = _fraction_scale(values)

    n = len(tournament.players)
    kinds = [[ResultKind.ABSENT] * played_rounds for _ in range(n)]
    opponents = [[NO_OPPONENT] * played_rounds for _ in range(n)]
    colors: list[list[Color | None]] = [[None] * played_rounds for _ in range(n)]
    absent_units = int(scoring.absent * scale)
    points = [[absent_units] * played_rounds for _ in range(n)]
    unit_cache = {k: int(scoring.points_for(k) * scale) for k in ResultKind}
    for i in range(n):
        for rnd, (_, res) in entries[i].items():
            if rnd > played_rounds:
                continue
            r = rnd - 1
            kinds[i][r] = res.result
            opponents[i][r] = index[res.opponent] if res.opponent is not None else NO_OPPONENT
            colors[i][r] = res.color
            points[i][r] = int(res.points * scale) if res.points is not None else unit_cache[res.result]

    system = tournament.system
    inferred = system is None
    if system is None:
        system = infer_system(tournament)
    return Crosstable(
        ids=[p.id for p in tournament.players],
        names=[p.name for p in tournament.players],
        ratings=[p.rating if p.rating else None for p in tournament.players],
        rounds=rounds,
        played_rounds=played_rounds,
        system=system,
        system_inferred=inferred,
        scale=scale,
        win=int(scoring.win * scale),
        draw=int(scoring.draw * scale),
        kinds=kinds,
        opponents=opponents,
        colors=colors,
        points=points,
        scores=[sum(row) for row in points],
    )


def _check_entry_shape(player: Player, res: RoundResult, where, index, issues: list[Issue]) -> None:
    if res.result.has_opponent:
        if res.opponent is None:
            issues.append(Issue(where + ("opponent",), f"result {res.result.value!r} needs an opponent"))
        elif res.opponent == player.id:
            issues.append(Issue(where + ("opponent",), f"player {player.id} is paired against themself"))
        elif res.opponent not in index:
            issues.append(Issue(where + ("opponent",), f"opponent {res.opponent} is not a player of this tournament"))
    else:
        if res.opponent is not None:
            issues.append(Issue(where + ("opponent",), f"result {res.result.value!r} has no opponent, but {res.opponent} is given"))
        if res.color is not None:
            issues.append(Issue(where + ("color",), f"result {res.result.value!r} has no game, so no colour"))


def _check_pairing(tournament, entries, index, i, j, res: RoundResult, issues: list[Issue]) -> None:
    player = tournament.players[i]
    where = ("players", i, "results", j)
    k = index[res.opponent]
    other = entries[k].get(res.round)
    if other is None or other[1].opponent != player.id:
        said = "nothing" if other is None else (
            f"opponent {other[1].opponent}" if other[1].opponent is not None else repr(other[1].result.value))
        issues.append(Issue(where + ("opponent",),
                            f"player {player.id} played {res.opponent} in round {res.round}, "
                            f"but player {res.opponent} has {said} in that round"))
        return
    if i > k:
        return  # each pairing is checked once, from its first player
    oj, ores = other
    owhere = ("players", k, "results", oj)
    if res.color is not None and ores.color is not None and res.color == ores.color:
        issues.append(Issue(owhere + ("color",),
                            f"players {player.id} and {res.opponent} both have colour {res.color.value!r} in round {res.round}"))
    if ores.result not in COMPLEMENT[res.result]:
        if res.points is None or ores.points is None:
            missing = where if res.points is None else owhere
            issues.append(Issue(missing + ("result",),
                                f"round {res.round}: {res.result.value!r} for {player.id} against "
                                f"{ores.result.value!r} for {res.opponent} is not complementary; "
                                f"give 'points' on both entries for an unusual result"))
