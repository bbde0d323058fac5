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
    """Validate the tournament and normalise it; raise on any contradiction.

    One pass files every result under its round, a second checks each pairing
    from both sides; both are written for speed, as they touch every result.
    """
    rounds = tournament.rounds
    if after_round is not None and not 1 <= after_round <= rounds:
        raise InvalidRequest([Issue(("after_round",), f"after_round must be between 1 and {rounds}")])
    played_rounds = after_round or rounds
    players = tournament.players
    n = len(players)

    issues: list[Issue] = []
    index: dict[int, int] = {}
    for i, player in enumerate(players):
        if player.id in index:
            issues.append(Issue(("players", i, "id"), f"duplicate player id {player.id}"))
        else:
            index[player.id] = i
    if issues:
        raise InconsistentCrosstable(issues)

    grid: list[list[RoundResult | None]] = [[None] * rounds for _ in range(n)]
    overrides: list[Fraction] = []
    for i, player in enumerate(players):
        row = grid[i]
        for j, res in enumerate(player.results):
            rnd = res.round
            if not 1 <= rnd <= rounds:
                issues.append(Issue(("players", i, "results", j, "round"), f"round {rnd} outside 1..{rounds}"))
                continue
            if row[rnd - 1] is not None:
                issues.append(Issue(("players", i, "results", j, "round"),
                                    f"player {player.id} has two results for round {rnd}"))
                continue
            row[rnd - 1] = res
            if res.result.has_opponent:
                opponent = res.opponent
                if opponent is None or opponent == player.id or opponent not in index:
                    _check_entry_shape(player, res, ("players", i, "results", j), index, issues)
            elif res.opponent is not None or res.color is not None:
                _check_entry_shape(player, res, ("players", i, "results", j), index, issues)
            if res.points is not None:
                overrides.append(res.points)
    if issues:
        raise InconsistentCrosstable(issues)

    for i, row in enumerate(grid):
        pid = players[i].id
        for r, res in enumerate(row):
            if res is None or res.opponent is None:
                continue
            k = index[res.opponent]
            other = grid[k][r]
            if other is None or other.opponent != pid or (
                    i < k and (other.result not in COMPLEMENT[res.result] or
                               (res.color is not None and res.color is other.color))):
                _check_pairing(tournament, index, i, res, other, issues)
    if issues:
        raise InconsistentCrosstable(issues)

    scoring = tournament.scoring
    scale = _fraction_scale([scoring.points_for(k) for k in ResultKind] + overrides)
    units = {k: int(scoring.points_for(k) * scale) for k in ResultKind}
    absent, absent_units = ResultKind.ABSENT, units[ResultKind.ABSENT]
    kinds, opponents, colors, points = [], [], [], []
    for row in grid:
        k_row = [absent] * played_rounds
        o_row = [NO_OPPONENT] * played_rounds
        c_row: list[Color | None] = [None] * played_rounds
        p_row = [absent_units] * played_rounds
        for r in range(played_rounds):
            res = row[r]
            if res is None:
                continue
            kind = k_row[r] = res.result
            if res.opponent is not None:
                o_row[r] = index[res.opponent]
            c_row[r] = res.color
            p_row[r] = units[kind] if res.points is None else int(res.points * scale)
        kinds.append(k_row)
        opponents.append(o_row)
        colors.append(c_row)
        points.append(p_row)

    system = tournament.system
    inferred = system is None
    if system is None:
        system = infer_system(tournament)
    return Crosstable(
        ids=[p.id for p in players],
        names=[p.name for p in players],
        ratings=[p.rating if p.rating else None for p in players],
        rounds=rounds,
        played_rounds=played_rounds,
        system=system,
        system_inferred=inferred,
        scale=scale,
        win=units[ResultKind.WIN],
        draw=units[ResultKind.DRAW],
        kinds=kinds,
        opponents=opponents,
        colors=colors,
        points=points,
        scores=[sum(row) for row in points],
    )


def _where(tournament: Tournament, i: int, res: RoundResult) -> tuple:
    """The path of a result entry, found again only when it is reported."""
    j = next(j for j, entry in enumerate(tournament.players[i].results) if entry is res)
    return ("players", i, "results", j)


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


def _check_pairing(tournament: Tournament, index, i: int, res: RoundResult, other: RoundResult | None,
                   issues: list[Issue]) -> None:
    """Report what is wrong with one pairing, seen from player `i`."""
    player = tournament.players[i]
    where = _where(tournament, i, res)
    if other is None or other.opponent != player.id:
        said = "nothing" if other is None else (
            f"opponent {other.opponent}" if other.opponent is not None else repr(other.result.value))
        issues.append(Issue(where + ("opponent",),
                            f"player {player.id} played {res.opponent} in round {res.round}, "
                            f"but player {res.opponent} has {said} in that round"))
        return
    k = index[res.opponent]
    owhere = _where(tournament, k, other)
    if res.color is not None and res.color is other.color:
        issues.append(Issue(owhere + ("color",),
                            f"players {player.id} and {res.opponent} both have colour {res.color.value!r} in round {res.round}"))
    if other.result not in COMPLEMENT[res.result] and (res.points is None or other.points is None):
        missing = where if res.points is None else owhere
        issues.append(Issue(missing + ("result",),
                            f"round {res.round}: {res.result.value!r} for {player.id} against "
                            f"{other.result.value!r} for {res.opponent} is not complementary; "
                            f"give 'points' on both entries for an unusual result"))
