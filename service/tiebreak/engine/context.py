"""What the families share while one standings request is computed.

Each derived column (adjusted scores, opponent columns, plain Buchholz for AOB, TPR
for APRO) is computed at most once per request, whatever the rule list asks for, and
never changed afterwards: no rule reads what another left behind (C.07 4.2).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from .contributions import Contribution
from .model import Regulations
from .table import NO_OPPONENT, Table
from .unplayed import OpponentColumns, adjusted_scores, counted_as_draw, opponent_columns, policy_of

T = TypeVar("T")


class RequestCache:
    """What the rules of one request derive, each at most once, kept by key; never changed after."""

    __slots__ = ()
    _cache: dict[Hashable, Any]

    def cached(self, key: Hashable, compute: Callable[[], T]) -> T:
        try:
            found: T = self._cache[key]
            return found
        except KeyError:
            value = self._cache[key] = compute()
            return value


@dataclass(slots=True)
class Context(RequestCache):
    table: Table
    regulations: Regulations
    ratings: np.ndarray  # int64; unrated players already given `unrated_rating`, else 0
    _cache: dict[Hashable, Any] = field(default_factory=dict)
    fore_buchholz: bool = False  # the table is Fore Buchholz's, with the last round drawn (8.3)
    # The type a breakdown's contributions are built in (see contributions.Contribution).
    contribution: type = Contribution
    lots_seed: int | None = None  # the seed of the drawing of lots (RND), when the rules ask for one
    # players × rounds counted: the rating in force in each round (ratings.per_round); None: `ratings`
    round_ratings: np.ndarray | None = None
    # where each rating came from (engine/ratings.py codes), one column or one per round; None: FIDE
    rating_sources: np.ndarray | None = None
    manual_values: Any = None  # the values of MAN by start number (Mapping[int, Fraction]), when given

    def counted_as_draw(self) -> np.ndarray:
        """The rounds the opponents count as a draw, by the edition's policy (C.07 16.3, C.02 13.15)."""
        return self.cached("counted-as-draw", lambda: counted_as_draw(self.table, policy_of(self.regulations)))

    def adjusted(self) -> np.ndarray:
        return self.cached("adjusted", lambda: adjusted_scores(self.table, self.counted_as_draw()))

    def opponent_columns(self, forfeits_played: bool) -> OpponentColumns:
        return self.cached(
            ("opponents", forfeits_played),
            lambda: opponent_columns(self.table, self.adjusted(), self.regulations, forfeits_played),
        )

    def opponent_ids(self) -> np.ndarray:
        """Per player and round, the opponent's id (None where there is none): an object matrix
        that breakdowns slice."""

        def compute() -> np.ndarray:
            table = self.table
            has_opp = table.opp != NO_OPPONENT
            ids = np.array(table.ids + [None], dtype=object)
            return ids[np.where(has_opp, table.opp, len(table.ids))]

        return self.cached("opponent-ids", compute)

    def for_table(self, table: Table, fore_buchholz: bool = False) -> Context:
        """A context over a modified table (Fore Buchholz), sharing nothing cached."""
        return Context(
            table,
            self.regulations,
            self.ratings,
            fore_buchholz=fore_buchholz,
            contribution=self.contribution,
            lots_seed=self.lots_seed,
            round_ratings=self.round_ratings,
            rating_sources=self.rating_sources,
            manual_values=self.manual_values,
        )
