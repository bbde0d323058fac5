"""Can these prizes go to distinct players of a score group, one prize each?

Prizes of one category are interchangeable for that question, and so are players
eligible for the same categories, so the question is a small transportation
problem: player *signatures* (the set of categories a player is eligible for, with
how many players have it) supply one prize each; categories demand as many as
were chosen. `CategoryMatching.add` raises a category's demand by one along an
augmenting path, or reports that no assignment could take one more prize of it.
"""

from __future__ import annotations

from collections import Counter, defaultdict, deque
from collections.abc import Hashable, Iterable

Signature = frozenset


class CategoryMatching:
    def __init__(self, supply: dict[Signature, int]):
        self.spare = dict(supply)  # players of each signature not holding a prize yet
        self.flow: dict[Signature, Counter] = defaultdict(Counter)  # signature -> category -> prizes held
        self.signatures_for: dict[Hashable, list[Signature]] = defaultdict(list)
        for signature in supply:
            for category in signature:
                self.signatures_for[category].append(signature)
        self.demand: Counter = Counter()

    def add(self, category: Hashable) -> bool:
        """One more prize of `category`: True if all chosen prizes still find distinct players."""
        serves: dict[Signature, Hashable] = {}  # signature -> the category it would take a prize of
        released_by: dict[Hashable, Signature | None] = {category: None}  # category -> who gives it up
        queue = deque([category])
        while queue:
            wanted = queue.popleft()
            for signature in self.signatures_for.get(wanted, ()):
                if signature in serves:
                    continue
                serves[signature] = wanted
                if self.spare[signature]:
                    self.spare[signature] -= 1
                    self._augment(signature, serves, released_by)
                    self.demand[category] += 1
                    return True
                # no free player here: one of them may switch if their prize finds another taker
                for held, units in self.flow[signature].items():
                    if units and held not in released_by:
                        released_by[held] = signature
                        queue.append(held)
        return False

    def _augment(self, signature: Signature | None, serves, released_by) -> None:
        while signature is not None:
            category = serves[signature]
            self.flow[signature][category] += 1
            giver = released_by[category]
            if giver is not None:
                self.flow[giver][category] -= 1
            signature = giver


def feasible(supply: dict[Signature, int], demand: Iterable[tuple[Hashable, int]]) -> bool:
    """Whether `demand` (category, count) can all go to distinct players of `supply`."""
    matching = CategoryMatching(supply)
    return all(matching.add(category) for category, count in demand for _ in range(count))
