"""Can these prizes go to distinct players of a score group, one prize each?

Prizes of one category are interchangeable for that question, and so are players
eligible for the same categories, so the question is a small transportation
problem: player *signatures* (the set of categories a player is eligible for, with
how many players have it) supply one prize each; categories demand as many as were
chosen. `CategoryMatching` keeps a full assignment (a flow) of the demand and changes
it along augmenting paths, one breadth-first search per change:

- `add(category)`: one more prize of the category (False if nobody could take it);
- `commit(signature, category)`: a player of the signature holds one of the prizes of
  the category for good (False, and nothing changes, if the others could then not
  hold the rest);
- `release(signature)`: a player of the signature holds nothing.
"""

from __future__ import annotations

from collections import Counter, defaultdict, deque
from collections.abc import Hashable

Signature = frozenset


class CategoryMatching:
    def __init__(self, supply: dict[Signature, int]):
        self.spare = dict(supply)  # players of each signature not holding a prize in the flow
        self.flow: dict[Signature, Counter] = defaultdict(Counter)  # signature -> category -> prizes held
        self.signatures_for: dict[Hashable, list[Signature]] = defaultdict(list)
        for signature in supply:
            for category in signature:
                self.signatures_for[category].append(signature)

    def add(self, category: Hashable) -> bool:
        return self._augment_from(category)

    def commit(self, signature: Signature, category: Hashable) -> bool:
        if self.flow[signature][category]:
            self.flow[signature][category] -= 1
            return True
        server = next((s for s in self.signatures_for.get(category, ()) if self.flow[s][category]), None)
        if server is None:
            return False  # no prize of that category is left
        # the prize leaves: whoever held it in the flow is free
        self.flow[server][category] -= 1
        self.spare[server] += 1
        if self.spare.get(signature):
            self.spare[signature] -= 1
            return True
        # the player leaves too: the prize they held in the flow needs another holder
        other = next((c for c, units in self.flow[signature].items() if units), None)
        if other is not None:
            self.flow[signature][other] -= 1
            if self._augment_from(other):
                return True
            self.flow[signature][other] += 1
        self.spare[server] -= 1
        self.flow[server][category] += 1
        return False

    def release(self, signature: Signature) -> bool:
        if self.spare.get(signature):
            self.spare[signature] -= 1
            return True
        other = next((c for c, units in self.flow[signature].items() if units), None)
        if other is None:
            return False
        self.flow[signature][other] -= 1
        if self._augment_from(other):
            return True
        self.flow[signature][other] += 1
        return False

    def _augment_from(self, category: Hashable) -> bool:
        """Give `category` one more holder, moving others along a path if needed."""
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
                    step: Signature | None = signature
                    while step is not None:
                        held = serves[step]
                        self.flow[step][held] += 1
                        giver = released_by[held]
                        if giver is not None:
                            self.flow[giver][held] -= 1
                        step = giver
                    return True
                # no free player here: one of them may switch if their prize finds another holder
                for held, units in self.flow[signature].items():
                    if units and held not in released_by:
                        released_by[held] = signature
                        queue.append(held)
        return False
