"""Direct encounter (C.07 6): the results between the players tied on all earlier rules.

The value is the player's place inside the tied group (1 best, equal places for
players it leaves tied), or 0 for every member of a group it does not separate.
Lower is better.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

import numpy as np

from ...texts.message import msg
from ..context import Context
from ..contributions import Contribution, Explanation, RuleOutcome, explanation
from ..model import System
from ..rules import RuleSpec
from ..table import HAS_OPPONENT, IS_PLAYED

NOT_SEPARATED = 0

# points scored by p against q (in the table's units), the average of their meetings when they
# met more than once (C.07 6.1.2); a pair absent from it never met
Mutual = dict[int, dict[int, Fraction]]


def direct_encounter(ctx: Context, spec: RuleSpec, groups: list[list[int]]) -> RuleOutcome:
    table = ctx.table
    counts_forfeits = spec.forfeits_played or table.system is System.ROUND_ROBIN
    counts = HAS_OPPONENT if counts_forfeits else IS_PLAYED
    values: list[int] = [NOT_SEPARATED] * table.size
    encounters: dict[int, list[Contribution]] = {}
    notes: dict[int, str | None] = {}
    unresolved: list[list[int]] = []
    for group in groups:
        if len(group) < 2:
            continue
        members = set(group)
        meetings: dict[int, dict[int, list[int]]] = {p: {} for p in group}
        for p in group:
            counted = counts[table.kind[p]].tolist()
            points = table.pts[p].tolist()
            for r, q in enumerate(table.opp[p].tolist()):
                if q in members and counted[r]:
                    meetings[p].setdefault(q, []).append(points[r])
                    encounters.setdefault(p, []).append(
                        ctx.contribution(r + 1, "encounter", table.ids[q], points[r] / table.scale)
                    )
        # C.07 6.1.2: players who met more than once score the average of their games
        against: Mutual = {
            p: {q: Fraction(sum(games), len(games)) for q, games in met.items()} for p, met in meetings.items()
        }
        steps: dict[int, str] = {}
        whole = frozenset(group) if spec.whole_group else None
        places = _Placer(against, table.win, steps, _Namer(table.ids, table.scale)).place(group, 1, whole)
        separated = len(set(places.values())) > 1
        if separated:
            for p in group:
                values[p], notes[p] = places[p], steps[p]
        else:
            all_met = _all_met(group, against)
            note = _not_separated_note(all_met)  # one text for the whole group
            for p in group:
                notes[p] = note
            if not all_met:
                unresolved.append(group)

    def explain(rows: list[int]) -> Explanation:
        return explanation(rows, [encounters.get(p, []) for p in rows], list(map(notes.get, rows)))

    return RuleOutcome.of(
        spec,
        np.asarray(values, dtype=np.int64),
        1,
        lower_is_better=True,
        contribution_scale=table.scale,
        explain=explain,
        unresolved=unresolved,
    )


class _Namer:
    """Start numbers and point values as an arbiter reads them in a note."""

    def __init__(self, ids: list[int], scale: int) -> None:
        self.ids, self.scale = ids, scale

    def players(self, group: Iterable[int]) -> str:
        return ", ".join(str(self.ids[p]) for p in sorted(group, key=self.ids.__getitem__))

    def points(self, units: Fraction | int) -> float | str:
        value = Fraction(units) / self.scale
        if value.denominator & (value.denominator - 1) == 0:
            return float(value)  # halves, quarters, eighths print exactly (a decimal sign per language)
        return f"{value.numerator}/{value.denominator}"  # an average of three meetings: thirds


def _all_met(group: list[int], against: Mutual) -> bool:
    members = set(group)
    return all(len(against[p].keys() & members) == len(group) - 1 for p in group)


def _mutual_scores(group: list[int], against: Mutual) -> dict[int, Fraction]:
    members = set(group)
    return {p: sum((v for q, v in against[p].items() if q in members), Fraction(0)) for p in group}


class _Placer:
    """Places inside the tie groups of one rule (C.07 6): the scores between the players who met,
    the points of a win, and the note of each placed player (`steps`, filled in)."""

    def __init__(self, against: Mutual, win: int, steps: dict[int, str], namer: _Namer) -> None:
        self.against, self.win, self.steps, self.namer = against, win, steps, namer

    def place(self, group: list[int], first_place: int, whole: frozenset[int] | None = None) -> dict[int, int]:
        """Places of the members of one tied (sub-)group, starting at `first_place`.

        C.07 6.1/6.2: when all of them met, the points scored in the games between them
        order them, and the article is applied again to every sub-group they leave tied
        (with only the games inside that sub-group). 6.3: when they did not all meet, a
        player who stays alone on top of the mutual standings whatever the missing games
        would give is placed first — having met everyone is not needed — and the article
        is applied again to the rest; if there is none, they all share the place.
        `whole` (DE/W, decision 0061): the group whose games still count for the rest after a
        6.3 placement, instead of their own.
        """
        if len(group) == 1:
            return {group[0]: first_place}
        table = sorted(whole) if whole is not None else group  # whose games count
        listed = self.namer.players(table)  # once per group: each member's note names them all
        scores = _mutual_scores(table, self.against)
        if whole is not None:  # the members' scores only, by a set: a group can be every player
            members = set(group)
            scores = {p: s for p, s in scores.items() if p in members}
        if _all_met(group, self.against):
            return self._by_mutual_scores(group, scores, first_place, listed)
        return self._sure_leader(group, scores, first_place, whole, table, listed)

    def _by_mutual_scores(
        self, group: list[int], scores: dict[int, Fraction], first_place: int, listed: str
    ) -> dict[int, int]:
        """C.07 6.1: all of them met, so the points scored between them order them; 6.2: the article
        again on each sub-group left tied, on its own games."""
        steps, namer = self.steps, self.namer
        by_score: dict[Fraction, list[int]] = {}
        for p in group:
            by_score.setdefault(scores[p], []).append(p)
        if len(by_score) == 1:
            # 6.2: nothing separates them any more; they share the place (one text for all of them)
            shared = msg(
                "shares place {place}: {points} each in the games between {players} (C.07 6.1)",
                place=first_place,
                points=namer.points(scores[group[0]]),
                players=listed,
            )
            return self._shared(group, first_place, shared)
        places: dict[int, int] = {}
        place = first_place
        for score in sorted(by_score, reverse=True):
            subgroup = by_score[score]
            if len(subgroup) == 1:
                p = subgroup[0]
                places[p] = place
                steps[p] = msg(
                    "place {place}: {points} in the games between {players} (C.07 6.1)",
                    place=place,
                    points=namer.points(score),
                    players=listed,
                )
            else:
                # 6.2: re-applied to the sub-group still tied, on its own games
                places.update(self.place(subgroup, place))
                for p in subgroup:
                    steps[p] = msg(
                        "{points} in the games between {players}, tied with {tied}; re-applied (C.07 6.2): {step}",
                        points=namer.points(score),
                        players=listed,
                        tied=namer.players([q for q in subgroup if q != p]),
                        step=steps[p],
                    )
            place += len(subgroup)
        return places

    def _sure_leader(
        self,
        group: list[int],
        scores: dict[int, Fraction],
        first_place: int,
        whole: frozenset[int] | None,
        table: list[int],
        listed: str,
    ) -> dict[int, int]:
        """C.07 6.3: they did not all meet; a player alone on top whatever the missing games would
        give is placed first and the article applied again to the rest; without one they share."""
        leader = _alone_on_top(group, self.against, scores, self.win, table)
        if leader is None:
            shared = msg(
                "shares place {place}: {players} did not all meet and no one stays alone on top "
                "whatever the missing games would give (C.07 6.3)",
                place=first_place,
                players=listed,
            )
            return self._shared(group, first_place, shared)
        p, at_least, best_other = leader
        places = {p: first_place}
        self.steps[p] = msg(
            "place {place}: at least {points} in the games between {players} whatever the missing games, "
            "the others at most {others} (C.07 6.3)",
            place=first_place,
            points=self.namer.points(at_least),
            players=listed,
            others=self.namer.points(best_other),
        )
        places.update(self.place([q for q in group if q != p], first_place + 1, whole))
        return places

    def _shared(self, group: list[int], place: int, note: str) -> dict[int, int]:
        """Everyone of the group on one place, with one note for all of them."""
        for p in group:
            self.steps[p] = note
        return dict.fromkeys(group, place)


def _alone_on_top(
    group: list[int], against: Mutual, scores: dict[int, Fraction], win: int, table: list[int]
) -> tuple[int, Fraction, Fraction] | None:
    """The player first whatever the games the group's members did not play would give.

    For each other member, the worst case for the candidate is the candidate losing
    every missing game and that member winning all of theirs; the two can happen
    together, so the candidate is alone on top when their lowest possible mutual
    score beats every other member's highest. Returns (player, lowest, best other).
    """
    members = set(table)  # the players whose games count: the group, or the whole one (DE/W)
    others = len(table) - 1
    highest = {q: scores[q] + win * (others - sum(1 for o in against[q] if o in members)) for q in group}
    # the best other of each candidate: the highest of the group, or the second when it is theirs
    ranked = sorted(group, key=highest.__getitem__, reverse=True)
    top, second = ranked[0], highest[ranked[1]]
    for p in group:
        best_other = second if p == top else highest[top]
        if scores[p] > best_other:  # the candidate's lowest possible score is its score now
            return p, scores[p], best_other
    return None


def _not_separated_note(all_met: bool) -> str:
    if not all_met:
        return msg("the tied players did not all meet, and no one is ahead whatever the missing games (C.07 6.3)")
    return msg("the games between the tied players leave them equal (C.07 6.1)")
