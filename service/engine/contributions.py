"""Contributions: the single values a tie-break sums, each knowing where it came from.

Every family computes its values as passes over the table's columns; the breakdown
of a player is built from the same columns (and the same cut marks), only for the
players whose rows are returned. The API's breakdown is this list.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .model import ResultKind
from .rules import RuleSpec


@dataclass(slots=True)
class Contribution:
    round: int | None
    kind: str  # game, forfeit, dummy, running_score, rating, encounter, opponent_value, or a result kind
    value: int  # in the rule's units (see RuleOutcome.scale / contribution_scale)
    key: int  # significance for cuts: lower is less significant (opponent's score, rating, round)
    vur: bool = False  # a voluntary unplayed round (C.07 16.2), cut first (16.5)
    opponent: int | None = None  # the opponent's id; for a forfeit or its dummy the scheduled opponent
    unplayed: ResultKind | None = None  # for a dummy: what the round was
    note: str | None = None
    cut_reason: str | None = None
    # Structured details beside the note, in the table's point units (None: not applicable).
    opponent_score: int | None = None  # the opponent's face score
    counted_score: int | None = None  # what is counted for the opponent when it differs (16.3, 34E1)
    result: int | None = None  # Sonneborn-Berger: the points scored in the round
    own_score: int | None = None  # a dummy: the player's own score (16.4)
    capped_at: int | None = None  # a dummy: the cap it was held to (16.4.1 / 16.4.2)
    article: str | None = None  # the article that set the value
    reason_code: str | None = None  # why the value is what it is: dummy-own-score, dummy-capped-at-half, ...
    cut_code: str | None = None  # why it was cut: vur-cut-first, least-significant, most-significant, ...
    # What a caller made of this contribution (the API's wire object), kept with it so that
    # rules sharing it convert it once.
    memo: object = None

    @property
    def cut(self) -> bool:
        return self.cut_reason is not None

    def marked_cut(self, reason: str, code: str) -> "Contribution":
        """A copy marked as cut (positional: dataclasses.replace is several times slower)."""
        return Contribution(self.round, self.kind, self.value, self.key, self.vur, self.opponent, self.unplayed,
                            self.note, reason, self.opponent_score, self.counted_score, self.result, self.own_score,
                            self.capped_at, self.article, self.reason_code, code)


@dataclass(slots=True)
class RuleOutcome:
    """One rule's values for every player (by table index), with the explained players' contributions."""

    spec: RuleSpec
    values: list[int | None]
    scale: int = 1  # a value v stands for v / scale
    # Per explained player (table index): the contributions, cut ones marked; None without explain.
    contributions: dict[int, list[Contribution]] | None = None
    lower_is_better: bool = False
    dropped_reason: str | None = None
    contribution_scale: int | None = None  # when contributions use other units than the value
    notes: dict[int, str | None] | None = None  # per explained player: how the value was formed
    # Rules computed inside tie groups (DE, RBT): the groups the rule could not separate
    # because their members did not all meet (reported as an informational warning).
    unresolved: list[list[int]] | None = None
    # Per explained player: the sum before any cut, when the rule cuts (in contribution units).
    totals_before_cut: dict[int, int] | None = None
    # The values as an int64 column (where `missing` is set there is no value), when the
    # family computed them as one: the ranking sorts on it without a Python loop.
    column: np.ndarray | None = None
    missing: np.ndarray | None = None
    # Builds one player's contributions and note from the same columns the values came
    # from, on demand: only for the rows a response returns (Standings.explain).
    explain_row: Callable[[int], list[Contribution]] | None = None
    note_row: Callable[[int], str | None] | None = None
    # The same for many rows at once (one slice of each column), where a family has it.
    explain_rows: Callable[[list[int]], list[list[Contribution]]] | None = None
    # Drops what the family keeps per row to build the breakdowns (contributions shared by rules).
    forget_rows: Callable[[list[int]], None] | None = None

    @classmethod
    def of(cls, spec: RuleSpec, column: np.ndarray, scale: int = 1, missing: np.ndarray | None = None,
           **fields) -> "RuleOutcome":
        """An outcome from a column of values (and a mask of players without one)."""
        values = column.tolist()
        if missing is not None and missing.any():
            values = [None if m else v for v, m in zip(values, missing.tolist())]
        else:
            missing = None
        return cls(spec, values, scale, column=column, missing=missing, **fields)
