"""What the families share while one standings request is computed.

Each derived table (adjusted scores, opponent rounds, Buchholz for AOB, TPR for
APRO) is computed at most once per request, whatever the rule list asks for.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .crosstable import Crosstable
from .model import Regulations
from .unplayed import OpponentRounds, adjusted_scores, opponent_rounds


@dataclass(slots=True)
class Context:
    table: Crosstable
    regulations: Regulations
    explain: bool
    ratings: list[int | None]  # unrated players already given `unrated_rating`, if any
    _cache: dict = field(default_factory=dict)
    # With `explain`: the players (indices) whose contributions are built; None for all.
    # Values are always computed for everyone: the ranking needs them.
    explained: frozenset[int] | None = None

    def explains(self, p: int) -> bool:
        return self.explain and (self.explained is None or p in self.explained)

    def cached(self, key, compute):
        try:
            return self._cache[key]
        except KeyError:
            value = self._cache[key] = compute()
            return value

    def adjusted(self) -> list[int]:
        return self.cached("adjusted", lambda: adjusted_scores(self.table))

    def opponent_rounds(self, forfeits_played: bool) -> OpponentRounds:
        return self.cached(
            ("rounds", forfeits_played),
            lambda: opponent_rounds(self.table, self.adjusted(), self.regulations, forfeits_played),
        )

    def quiet(self) -> "Context":
        """The same request without explanations, sharing the cache (for values other rules need)."""
        return Context(self.table, self.regulations, False, self.ratings, self._cache)

    def for_table(self, table: Crosstable) -> "Context":
        """A context over a modified table (Fore Buchholz), sharing nothing cached."""
        return Context(table, self.regulations, self.explain, self.ratings, explained=self.explained)
