"""The ordered rule list as a fold: rank by points, then refine the tie groups rule by rule."""

from __future__ import annotations

from .context import Context
from .contributions import RuleOutcome
from .registry import TIEBREAKS
from .rules import RuleSpec

WORST = float("inf")


def sort_key(outcome: RuleOutcome, p: int) -> float | int:
    """Smaller sorts first: higher values first, except where lower is better; no value is worst."""
    v = outcome.values[p]
    if v is None:
        return WORST
    return v if outcome.lower_is_better else -v


def refine(groups: list[list[int]], key) -> list[list[int]]:
    """Split every tie group by `key`, keeping the order of the groups."""
    refined: list[list[int]] = []
    for group in groups:
        if len(group) == 1:
            refined.append(group)
            continue
        ordered = sorted(group, key=key)
        current = [ordered[0]]
        current_key = key(ordered[0])
        for p in ordered[1:]:
            k = key(p)
            if k != current_key:
                refined.append(current)
                current, current_key = [p], k
            else:
                current.append(p)
        refined.append(current)
    return refined


def rank(ctx: Context, specs: list[RuleSpec], dropped: dict[RuleSpec, str]) -> tuple[list[list[int]], list[RuleOutcome]]:
    """Return the final tie groups in standing order and one outcome per rule."""
    table = ctx.table
    scores = table.scores
    groups = refine([list(range(table.size))], [-s for s in scores].__getitem__)
    outcomes: list[RuleOutcome] = []
    for spec in specs:
        entry = TIEBREAKS[spec.code]
        if spec in dropped:
            outcome = RuleOutcome(spec, [None] * table.size, dropped_reason=dropped[spec])
        elif entry.needs_groups:
            outcome = entry.compute(ctx, spec, groups)
        else:
            outcome = entry.compute(ctx, spec)
        outcomes.append(outcome)
        keys = [sort_key(outcome, p) for p in range(table.size)]
        groups = refine(groups, keys.__getitem__)
    # Players equal on everything share a rank; list them by start number.
    groups = [sorted(g, key=lambda p: table.ids[p]) for g in groups]
    return groups, outcomes
