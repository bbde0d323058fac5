"""What the team rules share while one team standings request is computed.

One individual `Context` per score (match points, game points) over that score's table,
so that every individual rule runs unchanged on `:MP` or `:GP` and caches what it
derives (adjusted scores, opponent columns) per table; the board table beside them.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..context import Context, RequestCache
from ..contributions import Contribution
from ..model import Regulations
from ..rules import RuleSpec
from ..table import Table
from .build import BoardTable, TeamTables
from .model import Score


@dataclass(slots=True)
class TeamContext(RequestCache):
    tables: TeamTables
    regulations: Regulations
    primary: Score
    mp: Context
    gp: Context
    table: Table  # the primary score's table: the ranking sorts on its score first
    _cache: dict[Hashable, Any] = field(default_factory=dict)
    contribution: type = Contribution  # the type a breakdown's contributions are built in

    @classmethod
    def of(
        cls, tables: TeamTables, regulations: Regulations, primary: Score, contribution: type = Contribution
    ) -> TeamContext:
        none = np.zeros(len(tables.mp.ids), dtype=np.int64)  # teams have no rating (C.07 10 has no team meaning)
        mp = Context(tables.mp, regulations, none, contribution=contribution)
        gp = Context(tables.gp, regulations, none, contribution=contribution)
        return cls(tables, regulations, primary, mp, gp, tables.table(primary), contribution=contribution)

    @property
    def boards(self) -> BoardTable:
        return self.tables.boards

    @property
    def secondary(self) -> Score:
        return self.primary.other

    def score_of(self, spec: RuleSpec) -> Score:
        """The reference score a rule is computed on: `:MP`/`:GP`, else the primary score."""
        return Score(spec.score) if spec.score else self.primary

    def on(self, score: Score) -> Context:
        return self.mp if score is Score.MP else self.gp
