"""Direct encounter (C.07 6): the results between the players tied on all earlier rules.

The value is the player's place inside the tied group (1 best, equal places for
players it leaves tied), or 0 for every member of a group it does not separate.
Lower is better.
"""

from __future__ import annotations

from ..context import Context
from ..contributions import Contribution, RuleOutcome
from ..model import System
from ..rules import RuleSpec

NOT_SEPARATED = 0


def direct_encounter(ctx: Context, spec: RuleSpec, groups: list[list[int]]) -> RuleOutcome:
    table = ctx.table
    counts_forfeits = spec.forfeits_played or table.system is System.ROUND_ROBIN
    values: list[int | None] = [NOT_SEPARATED] * table.size
    all_contributions: list[list[Contribution]] | None = (
        [[] for _ in range(table.size)] if ctx.explain else None
    )
    notes: list[str | None] = [None] * table.size
    unresolved: list[list[int]] = []
    for group in groups:
        if len(group) < 2:
            continue
        members = set(group)
        against: dict[int, dict[int, int]] = {p: {} for p in group}  # points scored by p against q
        for p in group:
            for r, q in enumerate(table.opponents[p]):
                kind = table.kinds[p][r]
                if q in members and (kind.is_played or (counts_forfeits and kind.has_opponent)):
                    against[p][q] = against[p].get(q, 0) + table.points[p][r]
                    if all_contributions is not None and ctx.explains(p):
                        all_contributions[p].append(
                            Contribution(r + 1, "encounter", table.points[p][r], r, opponent=table.ids[q]))
        places = _places(group, against, table.win)
        separated = len(set(places.values())) > 1
        everyone_met = all(len(against[p]) == len(group) - 1 for p in group)
        for p in group:
            values[p] = places[p] if separated else NOT_SEPARATED
            notes[p] = _note(everyone_met, separated)
        if not everyone_met and not separated:
            unresolved.append(group)
    outcome = RuleOutcome(spec, values, 1, all_contributions, lower_is_better=True,
                          contribution_scale=table.scale)
    outcome.notes = notes
    outcome.unresolved = unresolved
    return outcome


def _places(group: list[int], against: dict[int, dict[int, int]], win: int) -> dict[int, int]:
    """Places inside the group.

    C.07 6.1: if all tied players have met, they are ordered by the points scored
    in those games. 6.2: if not, a player who met all the others and scored more
    than any other could reach, even winning every game not played, is placed
    first, and so on down; the players left over share the next place.
    """
    places: dict[int, int] = {}
    remaining = list(group)
    place = 1
    while remaining:
        rest = set(remaining)
        inside = {p: sum(v for q, v in against[p].items() if q in rest) for p in remaining}
        if all(len(against[p].keys() & rest) == len(rest) - 1 for p in remaining):
            for p in remaining:
                places[p] = place + sum(1 for q in remaining if inside[q] > inside[p])
            return places
        leader = _undisputed_leader(remaining, inside, against, win)
        if leader is None:
            for p in remaining:
                places[p] = place
            return places
        places[leader] = place
        place += 1
        remaining.remove(leader)
    return places


def _undisputed_leader(remaining, inside, against, win):
    rest = set(remaining)
    for p in remaining:
        if len(against[p].keys() & rest) != len(rest) - 1:
            continue
        # the most any other could have, winning every game against the group they did not play
        best_other = max(
            inside[q] + win * len(rest - against[q].keys() - {q}) for q in remaining if q != p
        )
        if inside[p] > best_other:
            return p
    return None


def _note(everyone_met: bool, separated: bool) -> str:
    if separated:
        return "separated by the games between the tied players" + ("" if everyone_met else " (not all of them met; C.07 6.2)")
    if not everyone_met:
        return "the tied players did not all meet, and no one is ahead whatever the missing games (C.07 6.2)"
    return "the games between the tied players leave them equal"
