"""Compute standings for one tournament and one ordered rule list: the engine's entry point."""

from __future__ import annotations

import gc
from collections.abc import Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import overload

import numpy as np

from ..texts.message import msg
from .checks import Warning, group_checks, missing_round_checks, round_checks, rule_list_checks
from .context import Context
from .contributions import Contribution, Explanation, RuleOutcome
from .arbiter import decision_warnings, expelled_rows, playoff_key
from .decisions import NO_DECISIONS, Decisions, RatingPolicy
from .model import FIDE_2024_START, FIDE_2026_START, Regulations, Tournament
from .ratings import ASSIGNED, RatingColumns, plain, resolve
from .ranking import rank
from .registry import TIEBREAKS, check_rule_set
from .rules import RuleSpec
from .table import Table, build_table

__all__ = [
    "Standings",
    "StandingRow",
    "Warning",
    "compute_standings",
    "cyclic_gc_paused",
    "edition_warnings",
    "resolve_regulations",
]


@dataclass(slots=True)
class StandingRow:
    rank: int | None  # None: an expelled player (ranked nowhere)
    player: int  # crosstable index
    decided_by: str | None


class StandingRows(Sequence[StandingRow]):
    """The rows of the standings, made on demand from the standing order (table indices), the
    shared rank of each position and `decided_by`: a caller that reads a few rows (top, player)
    does not pay for a row object per player."""

    __slots__ = ("order", "ranks", "decided", "_made")

    def __init__(self, order: list[int], ranks: list[int | None], decided: list[str | None]) -> None:
        self.order, self.ranks, self.decided = order, ranks, decided
        self._made: list[StandingRow] | None = None

    def __len__(self) -> int:
        return len(self.order)

    @overload
    def __getitem__(self, i: int) -> StandingRow: ...

    @overload
    def __getitem__(self, i: slice) -> list[StandingRow]: ...

    def __getitem__(self, i: int | slice) -> StandingRow | list[StandingRow]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if self._made is not None:
            return self._made[i]
        return StandingRow(self.ranks[i], self.order[i], self.decided[i])

    def __iter__(self) -> Iterator[StandingRow]:
        if self._made is None:
            self._made = [StandingRow(*row) for row in zip(self.ranks, self.order, self.decided, strict=True)]
        return iter(self._made)


@dataclass(slots=True)
class Standings:
    table: Table
    regulations: Regulations
    specs: list[RuleSpec]
    outcomes: list[RuleOutcome]
    rows: Sequence[StandingRow]
    warnings: list[Warning] = field(default_factory=list)
    lots_seed: int | None = None  # the seed of the drawing of lots, when the rules include RND
    decisions: Decisions = NO_DECISIONS  # what the arbiter decided, the rating policy as applied
    explained: set[int] = field(default_factory=set, init=False)  # the players whose breakdowns are kept

    def explain(self, players: list[int]) -> list[Explanation]:
        """Per rule, the breakdowns of these players (table indices) in this order: the kept
        ones when every player's was kept (`keep`), else built now from the columns the values
        came from, and not kept (a caller that writes them out a chunk at a time holds one)."""
        if not self.explained.issuperset(players):
            return self._built(players)
        out = []
        for outcome in self.outcomes:
            kept = list(map(outcome.kept.__getitem__, players))
            out.append(Explanation([k[0] for k in kept], [k[1] for k in kept], [k[2] for k in kept]))
        return out

    def keep(self, players: Iterable[int]) -> None:
        """Build the breakdowns of these players and keep them (each rule's `RuleOutcome.kept`).
        Players already kept are left as they are."""
        rows = [p for p in dict.fromkeys(players) if p not in self.explained]
        self.explained.update(rows)
        for outcome, built in zip(self.outcomes, self._built(rows), strict=True):
            per_row = zip(built.contributions, built.notes, built.before_cut, strict=True)
            outcome.kept.update(zip(rows, per_row, strict=True))

    def _built(self, rows: list[int]) -> list[Explanation]:
        return [outcome.explain(rows) for outcome in self.outcomes]


def resolve_regulations(requested: Regulations | None, tournament: Tournament, historic: bool = False) -> Regulations:
    """`None` is `auto`: fide-2026 unless the start date is known and before 1 March 2026,
    then fide-2024. With `historic` (`auto-historic`, for archives) a start before
    1 April 2024 gives fide-2009, the rule of the time."""
    if requested is not None:
        return requested
    start = tournament.start_date
    if start is not None and historic and start < FIDE_2024_START:
        return Regulations.FIDE_2009
    if start is not None and start < FIDE_2026_START:
        return Regulations.FIDE_2024
    return Regulations.FIDE_2026


def edition_warnings(
    requested: Regulations | None, applied: Regulations, tournament: Tournament, historic: bool = False
) -> list[Warning]:
    """What an arbiter should know about the edition `auto` or `auto-historic` chose."""
    start = tournament.start_date
    if requested is not None or start is None or start >= FIDE_2024_START:
        return []
    if historic:
        return [
            Warning(
                "fide-2009-applied",
                msg(
                    "the event started on {date}, before C.07 applied to all FIDE-rated events (1 April 2024): "
                    "ranked with the rule of the time, the virtual opponent (fide-2009); C.07 applied to FIDE "
                    "championships from 1 September 2023",
                    date=start.isoformat(),
                ),
                "C.02 13.15",
            )
        ]
    return [
        Warning(
            "pre-2024-event",
            msg(
                "the event started on {date}, before C.07 applied to all FIDE-rated events (1 April 2024): "
                'it was ranked then with the virtual opponent; regulations "auto-historic" (or "fide-2009") '
                "reproduces that; {applied} was applied",
                date=start.isoformat(),
                applied=applied.value,
            ),
            "C.07 1",
        )
    ]


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while one standings request is computed (and, in
    the API, while its breakdowns are built and converted).

    The engine makes many small lists and no reference cycles;
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
    contribution: type = Contribution,
    lots_seed: int | None = None,
    decisions: Decisions = NO_DECISIONS,
) -> Standings:
    """Rank the tournament by points and then the rules in order.

    `explain`: True builds and keeps every player's breakdown, False none, and a
    collection of player ids only theirs (values are computed for all);
    `Standings.explain` builds any player's afterwards, from the same pass. `contribution`: the type
    the breakdowns' contributions are built in (the fields of contributions.Contribution).
    `lots_seed`: the seed of the drawing of lots, required when the rules include RND. `decisions`:
    the rating policy, play-offs, MAN's values and a changed list (engine/decisions.py); a given
    `unrated_rating` is the policy's `unrated` when that says nothing else.
    """
    with cyclic_gc_paused():
        return _compute(
            tournament, specs, regulations, after_round, unrated_rating, explain, contribution, lots_seed, decisions
        )


def _compute(
    tournament: Tournament,
    specs: list[RuleSpec],
    regulations: Regulations | None,
    after_round: int | None,
    unrated_rating: int | None,
    explain: bool | Collection[int],
    contribution: type,
    lots_seed: int | None = None,
    decisions: Decisions = NO_DECISIONS,
) -> Standings:
    applied = resolve_regulations(regulations, tournament)
    check_rule_set(specs, applied)
    table = build_table(tournament, after_round)
    warnings: list[Warning] = rule_list_checks(specs, table, applied)
    warnings += round_checks(table, after_round, applied)
    warnings += missing_round_checks(tournament, after_round, applied)
    warnings += decision_warnings(tournament, specs, decisions)
    policy = with_unrated_rating(decisions.ratings, unrated_rating)
    columns, dropped, rating_warnings = rating_columns(table, specs, applied, policy, tournament)
    warnings += rating_warnings
    ctx = Context(
        table,
        applied,
        columns.start,
        contribution=contribution,
        lots_seed=lots_seed,
        round_ratings=columns.by_round,
        rating_sources=None if policy.is_default else columns.source,
        manual_values=decisions.manual_values,
    )
    expelled = expelled_rows(table, tournament)
    playoffs = playoff_key(table, decisions, expelled)
    order, starts, keys, outcomes = rank(ctx, specs, dropped, within=expelled, after_points=playoffs)
    warnings += group_checks(outcomes, table)
    rows = _rows(table, order, starts, keys, outcomes, playoffs is not None, expelled)
    warnings += drawn_order_warnings(rows, table, lots_seed)
    standings = Standings(
        table,
        applied,
        specs,
        outcomes,
        rows,
        warnings,
        lots_seed if uses_lots(specs) else None,
        replace(decisions, ratings=policy),
    )
    if explain is True:
        standings.keep(range(table.size))
    elif explain is not False:
        wanted = set(explain)
        standings.keep(p for p, pid in enumerate(table.ids) if pid in wanted)
    return standings


def with_unrated_rating(policy: RatingPolicy, unrated_rating: int | None) -> RatingPolicy:
    """The policy with `unrated_rating: R`, the older spelling of `unrated: R` (SPEC 3.12)."""
    if unrated_rating is None or policy.unrated != "drop":
        return policy
    return replace(policy, unrated=unrated_rating)


def rating_inputs(
    table: Table,
    specs: list[RuleSpec],
    applied: Regulations,
    unrated_rating: int | None,
    policy: RatingPolicy | None = None,
    tournament: Tournament | None = None,
) -> tuple[np.ndarray, dict[RuleSpec, str | None], list[Warning]]:
    """Each player's rating at the start as the rules read it (see `rating_columns`), the rating
    rules dropped for want of one, and the warnings saying which."""
    chosen = with_unrated_rating(policy or RatingPolicy(), unrated_rating)
    columns, dropped, warnings = rating_columns(table, specs, applied, chosen, tournament)
    return columns.start, dropped, warnings


def rating_columns(
    table: Table, specs: list[RuleSpec], applied: Regulations, policy: RatingPolicy, tournament: Tournament | None
) -> tuple[RatingColumns, dict[RuleSpec, str | None], list[Warning]]:
    """The ratings the rules read, by `policy` (engine/ratings.py), the rating rules dropped for
    want of them (C.07 10: unrated players and no way to count them), and the warnings saying which."""
    warnings: list[Warning] = []
    rating_article = "US Chess 34E10" if applied is Regulations.USCF else "C.07 10"
    rating_specs = [s for s in specs if TIEBREAKS[s.code].rating_based]
    if policy.is_default and (tournament is None or tournament.ratings is None):  # the plain FIDE ratings
        start, source = plain(table)
        columns = RatingColumns(
            start, None, source[:, None], [table.ids[p] for p in np.flatnonzero(start == 0).tolist()]
        )
    else:
        columns = resolve(table, tournament, policy, bool(rating_specs))
    unrated = columns.unrated
    dropped: dict[RuleSpec, str | None] = {}
    assigned = [] if isinstance(policy.unrated, str) else [policy.unrated]
    if not unrated and assigned and rating_specs and (columns.source == ASSIGNED).any():
        count = int((columns.source == ASSIGNED).any(axis=1).sum())
        warnings.append(
            Warning(
                "unrated-rating-used",
                msg("{count} unrated player(s) count as rated {rating}", count=count, rating=assigned[0]),
                rating_article,
            )
        )
    if unrated and rating_specs:
        reason = msg(
            "{count} unrated player(s) take part (e.g. id {id}) and no unrated_rating was given",
            count=len(unrated),
            id=unrated[0],
        )
        for spec in rating_specs:
            dropped[spec] = reason
        warnings.append(
            Warning(
                "rating-tiebreak-dropped",
                msg("{rules} dropped: {reason}", rules=", ".join(map(str, rating_specs)), reason=reason),
                rating_article,
            )
        )
    return columns, dropped, warnings


def _rows(
    table: Table,
    order: np.ndarray,
    starts: np.ndarray,
    keys: list[np.ndarray],
    outcomes: list[RuleOutcome],
    playoffs: bool = False,
    expelled: np.ndarray | None = None,
) -> StandingRows:
    """The rows in standing order: the shared rank of each group and `decided_by`, the first
    rule (PTS first, then `playoff`) on which the player differs from the next one. Expelled
    players (last in `order`) have no rank and nothing decided."""
    n = len(order)
    rank_at = np.maximum.accumulate(np.where(starts, np.arange(n), 0)) + 1
    labels = ["PTS"] + (["playoff"] if playoffs else []) + [o.spec.canonical for o in outcomes]
    decided: list[str | None] = [None] * n
    if n > 1:
        ordered = np.stack([k[order] for k in keys])  # (rules + 1, players)
        first = (ordered[:, 1:] != ordered[:, :-1]).argmax(axis=0).tolist()
        for i in np.flatnonzero(starts[1:]).tolist():
            decided[i] = labels[first[i]]
    ranks: list[int | None] = rank_at.tolist()
    if expelled is not None:
        ranked = n - int(expelled.sum())
        for i in range(max(ranked - 1, 0), n):
            decided[i] = None
        ranks[ranked:] = [None] * (n - ranked)
    return StandingRows(order.tolist(), ranks, decided)


def uses_lots(specs: list[RuleSpec]) -> bool:
    """Whether the rule list ends in a drawing of lots (RND) anywhere."""
    return any(spec.code == "RND" for spec in specs)


def drawn_order_warnings(rows: StandingRows, table: Table, seed: int | None) -> list[Warning]:
    """Where a drawing of lots placed players that every other rule left tied: the groups, by id."""
    groups: list[list[int]] = []
    order, decided = rows.order, rows.decided
    for i, label in enumerate(decided):
        if label != "RND":
            continue
        pair = [table.ids[order[i]], table.ids[order[i + 1]]]
        if groups and groups[-1][-1] == pair[0]:
            groups[-1].append(pair[1])
        else:
            groups.append(pair)
    if not groups:
        return []
    shown = "; ".join(", ".join(map(str, group)) for group in groups)
    return [
        Warning(
            "order-drawn",
            msg("the order of players {players} was drawn by lot (seed {seed})", players=shown, seed=seed),
            None,
        )
    ]
