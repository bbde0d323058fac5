"""Compute standings for one tournament and one ordered rule list: the engine's entry point."""

from __future__ import annotations

import gc
from collections.abc import Collection
from contextlib import contextmanager
from dataclasses import dataclass, field

from .checks import Warning, group_checks, round_checks, rule_list_checks
from .context import Context
from .contributions import RuleOutcome
from .crosstable import Crosstable, build_crosstable
from .model import FIDE_2026_START, Regulations, Tournament
from .ranking import rank, sort_key
from .registry import TIEBREAKS, check_rule_set
from .rules import RuleSpec

__all__ = ["Standings", "StandingRow", "Warning", "compute_standings", "resolve_regulations"]


@dataclass(slots=True)
class StandingRow:
    rank: int
    player: int  # crosstable index
    decided_by: str | None


@dataclass(slots=True)
class Standings:
    table: Crosstable
    regulations: Regulations
    specs: list[RuleSpec]
    outcomes: list[RuleOutcome]
    rows: list[StandingRow]
    warnings: list[Warning] = field(default_factory=list)


def resolve_regulations(requested: Regulations | None, tournament: Tournament) -> Regulations:
    """`None` is `auto`: fide-2026 unless the start date is known and before 1 March 2026."""
    if requested is not None:
        return requested
    if tournament.start_date is not None and tournament.start_date < FIDE_2026_START:
        return Regulations.FIDE_2024
    return Regulations.FIDE_2026


@contextmanager
def _cyclic_gc_paused():
    """Pause the cyclic garbage collector while one standings request is computed.

    The engine makes hundreds of thousands of small lists and no reference cycles;
    left on, the collector rescans the whole input (every result object) again and
    again during a large request. Memory is still freed by reference counting.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def compute_standings(
    tournament: Tournament,
    specs: list[RuleSpec],
    regulations: Regulations | None = None,
    after_round: int | None = None,
    unrated_rating: int | None = None,
    explain: bool | Collection[int] = True,
) -> Standings:
    """Rank the tournament by points and then the rules in order.

    `explain`: True builds every player's contributions, False none, and a
    collection of player ids builds only theirs (values are computed for all).
    """
    with _cyclic_gc_paused():
        return _compute(tournament, specs, regulations, after_round, unrated_rating, explain)


def _compute(tournament, specs, regulations, after_round, unrated_rating, explain) -> Standings:
    applied = resolve_regulations(regulations, tournament)
    check_rule_set(specs, applied)
    table = build_crosstable(tournament, after_round)
    warnings: list[Warning] = rule_list_checks(specs, table, applied)
    warnings += round_checks(table, after_round, applied)
    rating_article = "US Chess 34E10" if applied is Regulations.USCF else "C.07 10"

    ratings = list(table.ratings)
    unrated = [table.ids[p] for p, r in enumerate(ratings) if r is None]
    dropped: dict[RuleSpec, str] = {}
    rating_specs = [s for s in specs if TIEBREAKS[s.code].rating_based]
    if unrated and rating_specs:
        if unrated_rating is None:
            reason = (f"{len(unrated)} unrated player(s) take part (e.g. id {unrated[0]}) and no "
                      f"unrated_rating was given")
            for spec in rating_specs:
                dropped[spec] = reason
            warnings.append(Warning(
                "rating-tiebreak-dropped",
                f"{', '.join(map(str, rating_specs))} dropped: {reason}", rating_article))
        else:
            ratings = [unrated_rating if r is None else r for r in ratings]
            warnings.append(Warning(
                "unrated-rating-used",
                f"{len(unrated)} unrated player(s) count as rated {unrated_rating}", rating_article))

    explained = None
    if not isinstance(explain, bool):
        wanted = set(explain)
        explained = frozenset(p for p, pid in enumerate(table.ids) if pid in wanted)
        explain = True
    ctx = Context(table, applied, explain, ratings, explained=explained)
    groups, outcomes = rank(ctx, specs, dropped)
    warnings += group_checks(outcomes, table)
    rows = _rows(table, groups, outcomes, specs)
    return Standings(table, applied, specs, outcomes, rows, warnings)


def _rows(table: Crosstable, groups: list[list[int]], outcomes: list[RuleOutcome], specs) -> list[StandingRow]:
    order = [(p, gi) for gi, g in enumerate(groups) for p in g]
    rows: list[StandingRow] = []
    position = 0
    for gi, group in enumerate(groups):
        for p in group:
            rows.append(StandingRow(position + 1, p, None))
        position += len(group)
    for i in range(len(order) - 1):
        p, gp = order[i]
        q, gq = order[i + 1]
        if gp != gq:
            rows[i].decided_by = _first_difference(table, outcomes, p, q)
    return rows


def _first_difference(table: Crosstable, outcomes: list[RuleOutcome], p: int, q: int) -> str:
    if table.scores[p] != table.scores[q]:
        return "PTS"
    for outcome in outcomes:
        if sort_key(outcome, p) != sort_key(outcome, q):
            return outcome.spec.canonical
    raise AssertionError("players in different groups differ on some rule")
