"""Contributions: the single values a tie-break sums, each knowing where it came from.

Every family computes its values as passes over the table's columns, into one int64
column (a RuleOutcome). Its one `explain(rows)` builds the breakdowns of those rows
(contributions, note, sum before a cut: an Explanation) from the same columns and the
same cut marks, only for the rows a response returns. The API's breakdown is this.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from itertools import repeat
from typing import Any

import numpy as np

from ..texts.message import RENDER, Msg, made
from .modifiers import REASON_CODES
from .rules import RuleSpec


@dataclass(slots=True)
class Contribution:
    """One value a rule summed, in the form a breakdown shows it.

    The values were computed from the integer columns; a contribution is built afterwards,
    only for an explained player, and carries numbers in points: `value` is units / scale of
    its rule and the scores units / scale of the table, an int / int division, correctly
    rounded, so the float is the exact decimal for every scale made of 2s and 5s (halves,
    quarters, tenths). One object per contribution, shared by the rules that count it (BH,
    BH/C1, BH/M1 ...); only a cut one is copied.

    This is the engine's default record type. A caller may have the engine build its
    records in another type with the same fields in the same order and the same defaults
    (`compute_standings(..., contribution=...)`): the API passes its wire struct, which the
    encoder writes out as it is, so a breakdown is never copied into wire objects.
    """

    round: int | None
    kind: str  # game, forfeit, dummy, running_score, rating, encounter, opponent_value, or a result kind
    opponent: int | None  # the opponent's id; for a forfeit or its dummy the scheduled opponent
    value: float  # what it adds to the rule's value (before any cut)
    opponent_key: str | None = None  # the opponent's client key (set by a caller that has them)
    unplayed: str | None = None  # for an unplayed round: what it was (a ResultKind value)
    note: str | None = None
    cut: bool = False
    cut_reason: str | None = None
    cut_code: str | None = None  # why it was cut: vur-cut-first, least-significant, most-significant, ...
    opponent_score: float | None = None  # the opponent's face score
    counted_score: float | None = None  # what is counted for the opponent when it differs (16.3, 34E1)
    result: float | None = None  # Sonneborn-Berger: the points scored in the round
    own_score: float | None = None  # a dummy: the player's own score (16.4)
    capped_at: float | None = None  # a dummy: the cap it was held to (16.4.1 / 16.4.2)
    article: str | None = None  # the article that set the value
    reason_code: str | None = None  # how a dummy's value was found: dummy-own-score, dummy-capped-at-half, ...
    rating_source: str | None = None  # a rating rule's game: where the rating counted came from


def mark_cut(c: Any, reason: str, code: str) -> None:
    """Mark a contribution as cut, in place (one no other rule shares)."""
    c.cut, c.cut_reason, c.cut_code = True, made(reason), code


def copier(kind: type) -> Callable[[Any], Any]:
    """How to copy a contribution of this type: its own `__copy__` when it has one (a msgspec
    struct copies itself in C), else copy.copy."""
    own: Callable[[Any], Any] | None = getattr(kind, "__copy__", None)
    return own or copy.copy


FIELDS = [f.name for f in fields(Contribution)]
DEFAULTS = {f.name: f.default for f in fields(Contribution) if f.default is not MISSING}


def contribution_rows(
    make: type,
    selected: np.ndarray,
    columns: Mapping[str, object],
    reasons: np.ndarray | None = None,
    reason_texts: Mapping[int, str] | None = None,
    details: Mapping[str, list[Any]] | None = None,
    details_at: np.ndarray | None = None,
) -> list[list[Any]]:
    """Per row of `selected` (a boolean matrix, rows × rounds), the contributions of the
    selected rounds in round order, made in one pass: `columns` gives each field either as a
    matrix of that shape (read at the selected cells; an object matrix for strings and None),
    as the list of its values at the selected cells in row-major order (made once for several
    rules), or as one value for all. `round` is the column index + 1 unless given. With `reasons`
    (cut codes per cell) the cut ones are marked, with `reason_texts[code]`. `details` are
    the values of the few cells `details_at` marks (a dummy opponent, a 16.3 note), one list
    per field in the cells' row-major order; at those cells they replace the columns' values
    (None included), and those contributions are made again with every field.

    One call of the type per contribution, positionally, through `map`: no Python frame per
    contribution (the callers pass a msgspec struct or the default dataclass)."""
    rows, rounds = np.nonzero(selected)
    columns = {"round": (rounds + 1).tolist(), **columns}
    last = max(FIELDS.index(name) for name in columns)
    args: list[Iterable[Any]] = []
    given: dict[str, list[Any] | _Same] = {}  # each column as made: its cells' values, or one value
    for name in FIELDS[: last + 1]:
        if name not in columns:
            args.append(repeat(DEFAULTS.get(name)))
            continue
        column = columns[name]
        if isinstance(column, list):  # its values at the selected cells, in row-major order
            cells_of: list[Any] | _Same = column
        elif isinstance(column, np.ndarray):
            cells = column[selected]
            render = RENDER.get()
            if name == "note" and render is not None:  # the notes are the texts among the fields
                written = np.flatnonzero(cells != None)  # noqa: E711 (numpy compares each cell)
                cells[written] = [render(n) if isinstance(n, Msg) else n for n in cells[written].tolist()]
            cells_of = cells.tolist()
        else:
            cells_of = _Same(made(column))
        given[name] = cells_of
        args.append(repeat(cells_of.value) if isinstance(cells_of, _Same) else cells_of)
    flat = list(map(make, *args))
    at = None
    if details and details_at is not None:
        cells = np.flatnonzero((selected & details_at).ravel())
        if cells.size:
            at = np.cumsum(selected.ravel()) - 1  # each cell's place in `flat`
            places = at[cells].tolist()
            for k, c in zip(places, map(make, *_detail_args(given, details, places)), strict=True):
                flat[k] = c
    if reasons is not None and reason_texts is not None:
        cut = selected & (reasons != 0)
        if cut.any():
            if at is None:
                at = np.cumsum(selected.ravel()) - 1  # each cell's place in `flat`
            for k, code in zip(at[cut.ravel()].tolist(), reasons[cut].tolist(), strict=True):
                mark_cut(flat[k], reason_texts[code], REASON_CODES[code])
    out = []
    start = 0
    # Each row's end in `flat`, from the cells' rows (sorted): cheaper than summing the booleans.
    for end in np.searchsorted(rows, np.arange(1, selected.shape[0] + 1)).tolist():
        out.append(flat[start:end])
        start = end
    return out


@dataclass(slots=True, frozen=True)
class _Same:
    """A field with one value for every contribution."""

    value: Any


def _detail_args(
    given: Mapping[str, list[Any] | _Same], details: Mapping[str, list[Any]], places: list[int]
) -> list[Any]:
    """Every field's values at the detail cells (at `places` in the columns' cells): the details
    where given (notes rendered), else the column's, else the default."""
    render = RENDER.get()
    args: list[Any] = []
    for name in FIELDS:
        if name in details:
            values = details[name]
            if name == "note" and render is not None:
                values = [render(n) if isinstance(n, Msg) else n for n in values]
            args.append(values)
        elif name in given:
            column = given[name]
            args.append(repeat(column.value) if isinstance(column, _Same) else [column[k] for k in places])
        else:
            args.append(repeat(DEFAULTS.get(name)))
    return args


@dataclass(slots=True, eq=False)
class Explanation:
    """One rule's breakdown of some table rows, in the order they were asked: per row the
    contributions (cut ones marked), the note on how the value was formed (None: none) and,
    for a rule that cuts, the sum before the cut in points (None otherwise)."""

    contributions: list[list[Any]]
    notes: list[str | None]
    before_cut: list[float | None]


# The one explanation protocol: a family's `explain(rows)` builds the breakdowns of those
# table rows from the same columns (and the same cut marks) its values came from, slices
# of the columns for many rows at once; only the rows a response returns are explained.
Explain = Callable[[list[int]], Explanation]


def explanation(
    rows: list[int],
    contributions: list[list[Any]] | None = None,
    notes: list[str | None] | None = None,
    before_cut: list[float | None] | None = None,
) -> Explanation:
    """An Explanation of `rows`, what is not given empty: no contribution, no note, no cut."""
    return Explanation(
        [[] for _ in rows] if contributions is None else contributions,
        [None] * len(rows) if notes is None else notes,
        [None] * len(rows) if before_cut is None else before_cut,
    )


def nothing_to_explain(rows: list[int]) -> Explanation:
    """The explanation of a rule without a breakdown (dropped)."""
    return explanation(rows)


# What Standings.keep keeps per row: the contributions, the note, the sum before the cut.
Kept = tuple[list[Any], str | None, float | None]


@dataclass(slots=True, eq=False)
class RuleOutcome:
    """One rule's values for every player (by table index), and how to explain them.

    The values are one int64 column, a value v standing for v / scale, with a mask of the
    players without one (None: everyone has one): the ranking sorts on it as it is.
    """

    spec: RuleSpec
    column: np.ndarray
    scale: int = 1
    missing: np.ndarray | None = None
    explain: Explain = nothing_to_explain
    lower_is_better: bool = False
    dropped_reason: str | None = None
    contribution_scale: int | None = None  # when contributions use other units than the value
    # Rules computed inside tie groups (DE, RBT): the groups the rule could not separate
    # because their members did not all meet (reported as an informational warning).
    unresolved: list[list[int]] | None = None
    # The breakdowns Standings.keep kept, by table index.
    kept: dict[int, Kept] = field(default_factory=dict)

    @classmethod
    def of(
        cls, spec: RuleSpec, column: np.ndarray, scale: int = 1, missing: np.ndarray | None = None, **fields: Any
    ) -> RuleOutcome:
        """An outcome from a column of values (and a mask of players without one)."""
        if missing is not None and not missing.any():
            missing = None
        return cls(spec, column, scale, missing, **fields)

    @classmethod
    def dropped(cls, spec: RuleSpec, size: int, reason: str | None) -> RuleOutcome:
        """A rule that gives no one a value."""
        return cls(spec, np.zeros(size, dtype=np.int64), 1, np.ones(size, dtype=bool), dropped_reason=reason)

    @property
    def values(self) -> list[int | None]:
        """Every player's value as a list (None: no value)."""
        values: list[int | None] = self.column.tolist()
        if self.missing is not None:
            values = [None if m else v for v, m in zip(values, self.missing.tolist(), strict=True)]
        return values

    @property
    def contributions(self) -> dict[int, list[Any]]:
        """The kept breakdowns' contributions, by table index."""
        return {p: kept[0] for p, kept in self.kept.items()}

    @property
    def notes(self) -> dict[int, str | None]:
        """The kept breakdowns' notes, by table index."""
        return {p: kept[1] for p, kept in self.kept.items()}
