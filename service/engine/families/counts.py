"""Points and counts of rounds (C.07 7.1-7.4, 7.6): PTS, WIN, WON, BPG, BWG, GE."""

from __future__ import annotations

from collections.abc import Callable

from ..context import Context
from ..contributions import Contribution, RuleOutcome
from ..model import Color, ResultKind
from ..rules import RuleSpec

RoundTest = Callable[[ResultKind, Color | None], bool]

# C.07 7.6: games elected to play: games played, and rounds won without play
# that the player did not decline (pairing-allocated bye, forfeit win, full-point bye).
_ELECTED_UNPLAYED = frozenset({ResultKind.PAIRING_BYE, ResultKind.FORFEIT_WIN, ResultKind.FULL_BYE})

ROUND_TESTS: dict[str, RoundTest] = {
    "WIN": lambda kind, color: kind.counts_as_win,  # 7.2: wins, unplayed ones included
    "WON": lambda kind, color: kind is ResultKind.WIN,  # 7.3: games won over the board
    "BPG": lambda kind, color: kind.is_played and color is Color.BLACK,  # 7.4
    "BWG": lambda kind, color: kind is ResultKind.WIN and color is Color.BLACK,  # 7.4
    "GE": lambda kind, color: kind.is_played or kind in _ELECTED_UNPLAYED,  # 7.6
    # US Chess 34E5: most blacks; only games played over the board count.
    "BLK": lambda kind, color: kind.is_played and color is Color.BLACK,
}


def count_rounds(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    table = ctx.table
    test = ROUND_TESTS[spec.code]
    win = table.win
    values: list[int | None] = []
    all_contributions: list[list[Contribution]] | None = [] if ctx.explain else None
    for p in range(table.size):
        kinds, colors, opps = table.kinds[p], table.colors[p], table.opponents[p]
        if spec.code == "WIN":
            # C.07 7.2: rounds where the player scored as many points as a win, played or not,
            # so a pairing-allocated bye worth less than a win (e.g. 0 points) is no win.
            counted = [kind.counts_as_win and points == win for kind, points in zip(kinds, table.points[p])]
        else:
            counted = list(map(test, kinds, colors))
        values.append(sum(counted))
        if all_contributions is None:
            continue
        if not ctx.explains(p):
            all_contributions.append([])
            continue
        all_contributions.append([
            Contribution(r + 1, kinds[r].value, 1, r, opponent=table.ids[opps[r]] if opps[r] >= 0 else None)
            for r in range(table.played_rounds) if counted[r]
        ])
    return RuleOutcome(spec, values, 1, all_contributions)


def points(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """The score itself (C.07 7.1)."""
    table = ctx.table
    all_contributions = None
    if ctx.explain:
        all_contributions = [
            [Contribution(r + 1, table.kinds[p][r].value, table.points[p][r], r,
                          opponent=table.ids[q] if (q := table.opponents[p][r]) >= 0 else None)
             for r in range(table.played_rounds)] if ctx.explains(p) else []
            for p in range(table.size)
        ]
    return RuleOutcome(spec, list(table.scores), table.scale, all_contributions)


def standard_points(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """Standard points (C.07 7.7, 2026): per round 1 when the round scored more than a draw,
    ½ for a draw, 0 otherwise — a 1-½-0 score for events with other scoring (3-1-0).

    Every round counts as it was scored, byes and forfeits included. Values in half points.
    """
    table = ctx.table
    draw = table.draw
    values: list[int | None] = []
    all_contributions: list[list[Contribution]] | None = [] if ctx.explain else None
    for p in range(table.size):
        halves = [2 if pts > draw else 1 if pts == draw else 0 for pts in table.points[p]]
        values.append(sum(halves))
        if all_contributions is not None:
            kinds, opps = table.kinds[p], table.opponents[p]
            all_contributions.append([
                Contribution(r + 1, kinds[r].value, h, r, opponent=table.ids[opps[r]] if opps[r] >= 0 else None)
                for r, h in enumerate(halves)
            ] if ctx.explains(p) else [])
    return RuleOutcome(spec, values, 2, all_contributions)


def pairing_number(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """The tournament pairing number (C.07 2026), lower is better: a last resort that always separates."""
    table = ctx.table
    notes = [f"pairing number {pid}" if ctx.explains(p) else None for p, pid in enumerate(table.ids)]
    return RuleOutcome(spec, list(table.ids), 1, [[] for _ in table.ids] if ctx.explain else None,
                       lower_is_better=True, notes=notes if ctx.explain else None)
