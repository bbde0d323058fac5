"""Buchholz (C.07 8.1), Fore Buchholz (8.3), Average of Opponents' Buchholz (8.4), and the
opponent-score sum they share with Sonneborn-Berger (9.1)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...texts.message import Joined, made, msg, msg_n
from ..context import Context
from ..contributions import Contribution, Explanation, RuleOutcome, contribution_rows, copier, explanation, mark_cut
from ..modifiers import REASON_CODES, cut_label, cut_reasons, cut_totals, kept_total, reason_text
from ..rounding import mean_notes, round_half_up_div
from ..rules import RuleSpec
from ..table import IS_PLAYED, KINDS, LOSS, NO_OPPONENT, Table
from ..unplayed import (
    DUMMY_ARTICLES,
    DUMMY_REASONS,
    OWN_SCORE,
    VIRTUAL,
    OpponentColumns,
    dummy_note,
    policy_of,
    virtual_note,
)


# Up to this many rows explained (and a quarter of the players at most), a cut rule marks
# those rows alone instead of every player's (16.5 cuts each row on its own).
FEW_ROWS = 64


def opponent_score_sum(ctx: Context, spec: RuleSpec, weight_by_result: bool) -> RuleOutcome:
    """Sum of opponents' scores (Buchholz), or of score × result (Sonneborn-Berger, 9.1)."""
    table = ctx.table
    low = spec.cut or spec.median
    high = spec.median
    columns = ctx.opponent_columns(spec.forfeits_played)
    key = columns.key
    value = ctx.cached(("sb-values", spec.forfeits_played), lambda: key * table.pts) if weight_by_result else key
    vur = columns.vur if columns.any_vur else None
    memo: dict[object, object] = ctx.cached("cut-orders", dict)
    uncut = ctx.cached(
        ("uncut", spec.forfeits_played, weight_by_result), lambda: kept_total(value, columns.counted, None)
    )
    totals = cut_totals(key, value, vur, columns.counted, low, high, memo, uncut)
    scale = table.scale * table.scale if weight_by_result else table.scale
    marks: list[np.ndarray] = []  # every player's cut marks, made when a breakdown first asks (the values need none)

    def cut_marks(players: list[int]) -> np.ndarray:
        if not marks and len(players) <= FEW_ROWS < len(key) // 4:
            # a few rows (`player=`, a short page): their own marks; each row is cut on its own (16.5)
            rows = np.asarray(players, dtype=np.int64)
            own = cut_reasons(
                key[rows], value[rows], None if vur is None else vur[rows], columns.counted[rows], low, high
            )
            assert own is not None  # the rule cuts
            return own
        if not marks:
            every = cut_reasons(key, value, vur, columns.counted, low, high, memo)
            assert every is not None
            marks.append(every)
        return marks[0][players]

    # Every rule of the family shares the uncut contributions of the rows last asked (the
    # rules of one breakdown are explained for the same rows); a cut one is a marked copy.
    shared: dict[str, Any] = ctx.cached(("opponent-contributions", spec.forfeits_played, weight_by_result), dict)
    label = cut_label(low, high)

    def explain(rows: list[int]) -> Explanation:
        if shared.get("rows") != rows:
            shared["rows"] = list(rows)
            shared["made"] = opponent_contributions(ctx, columns, value, rows, weight_by_result)
        made: list[list[Any]] = shared["made"]
        if not (low or high):
            return explanation(rows, made)
        return explanation(
            rows,
            with_cuts(made, cut_marks(rows), columns.counted[rows], label),
            before_cut=(uncut[rows] / scale).tolist(),
        )

    return RuleOutcome.of(spec, totals, scale, explain=explain)


GAME_KINDS = np.array(["game", "forfeit"], dtype=object)  # a round with an opponent: played or not
KIND_VALUES = np.array([kind.value for kind in KINDS], dtype=object)  # an unplayed round's kind, by code
FORE_NOTE = msg("the last round counted as a draw (8.3)")


def opponent_contributions(
    ctx: Context, columns: OpponentColumns, value: np.ndarray, players: list[int], weight_by_result: bool
) -> list[list[Any]]:
    """The players' counted rounds as contributions, before any cut, in one pass over slices
    of the columns.

    A game counted at face value is a round, a kind, an opponent and a value; the cells that
    carry details get them in extra columns first: a dummy opponent (16.4: own score, cap,
    article, reason), a virtual opponent (C.02 13.15.2), an opponent counted other than at
    face value (16.3: the face and counted scores, the note), Fore Buchholz's last round
    (8.3). Sonneborn-Berger's contributions carry their factors: the opponent's score and
    the points scored.
    """
    table = ctx.table
    scale = table.scale
    value_scale = scale * scale if weight_by_result else scale
    cells = _opponent_cells(ctx, columns, players)
    at, counted = cells.at, cells.counted
    fields: dict[str, Any] = {"kind": cells.kind, "opponent": cells.opponent, "value": value[at] / value_scale}
    if weight_by_result:
        fields["opponent_score"] = table.score[cells.opp_index] / scale
        fields["result"] = table.pts[at] / scale
    if cells.marked is None:
        return contribution_rows(ctx.contribution, counted, fields)
    details = _add_details(ctx, columns, players, cells, weight_by_result)
    return contribution_rows(ctx.contribution, counted, fields, details=details, details_at=cells.marked)


@dataclass(slots=True, eq=False)
class _Cells:
    """The rows' counted rounds as Buchholz and Sonneborn-Berger both show them: the masks, and
    the kind and opponent of each counted round (lists, in row-major order)."""

    rows: list[int]
    at: np.ndarray  # the rows as an index array (one conversion for every take)
    opp_index: np.ndarray  # each round's opponent, 0 where there is none
    counted: np.ndarray
    dummy: np.ndarray
    off_face: np.ndarray
    fore: np.ndarray
    marked: np.ndarray | None  # the cells with details (None: none)
    kind: list[str]
    opponent: list[int | None]


def _opponent_cells(ctx: Context, columns: OpponentColumns, players: list[int]) -> _Cells:
    """The `_Cells` of these rows, made once for the rules that explain the same rows (BH, BH/C1,
    SB: the breakdowns of one answer)."""
    shared: dict[str, Any] = ctx.cached("opponent-cells", dict)
    made: _Cells | None = shared.get("made")
    if shared.get("columns") is columns and made is not None and made.rows == players:
        return made
    table = ctx.table
    at = np.asarray(players, dtype=np.intp)
    opps = table.opp[at]
    has_opp = opps != NO_OPPONENT
    opp_index = np.where(has_opp, opps, 0)
    counted = columns.counted[at]
    dummy = columns.dummy[at] & counted
    # an opponent counted other than at face value (C.07 16.3, C.02 13.15) gets a note
    off_face = has_opp & ~dummy & counted & (ctx.adjusted() != table.score)[opp_index]
    fore = np.zeros(counted.shape, dtype=bool)
    if ctx.fore_buchholz and table.played_rounds:
        fore[:, -1] = counted[:, -1] & ~dummy[:, -1]
    marked = dummy | off_face | fore
    made = _Cells(
        list(players),
        at,
        opp_index,
        counted,
        dummy,
        off_face,
        fore,
        marked if marked.any() else None,
        GAME_KINDS[(table.kind[at] > LOSS).view(np.int8)][counted].tolist(),
        ctx.opponent_ids()[at][counted].tolist(),
    )
    shared.update(columns=columns, made=made)
    return made


DETAIL_FIELDS = ("unplayed", "note", "counted_score", "own_score", "capped_at", "article", "reason_code")


def _add_details(
    ctx: Context, columns: OpponentColumns, players: list[int], cells: _Cells, weight_by_result: bool
) -> dict[str, list[Any]]:
    """The details of the cells that carry them (`cells.marked`, in row-major order: the lists
    contribution_rows takes), with the kind and the opponent's score shown there. Buchholz and
    Sonneborn-Berger explain the same rows with the same details: they are made once for both
    (the lists are only read), and only the opponent's score shown differs."""
    shared: dict[str, Any] = ctx.cached("opponent-details", dict)
    if shared.get("cells") is not cells:
        shared.update(cells=cells, made=_details(ctx, columns, players, cells))
    detail: dict[str, list[Any]]
    detail, kind, (off_at, off_opponents, articles) = shared["made"]
    table = ctx.table
    # The opponent's score is shown apart when it is not counted at face value, and always as
    # a factor of Sonneborn-Berger (its column there); a dummy's score is its value (16.4).
    shown: list[float | None] = [None] * len(kind)
    for k, q_, a in zip(off_at, off_opponents, articles, strict=True):
        if a or weight_by_result:
            shown[k] = table.scores[q_] / table.scale
    return {**detail, "kind": kind, "opponent_score": shown}


def _details(
    ctx: Context, columns: OpponentColumns, players: list[int], cells: _Cells
) -> tuple[dict[str, list[Any]], list[str], tuple[list[int], list[int], list[str | None]]]:
    """The details of the marked cells (one list per field, in row-major order), their kinds, and
    the places, opponents and articles of those that are no dummy (which decide the score shown)."""
    table = ctx.table
    scale = table.scale
    assert cells.marked is not None  # asked only where some cell has details
    cell_rows, cell_rounds = np.nonzero(cells.marked)
    every = np.asarray(players)[cell_rows]
    is_dummy = cells.dummy[cell_rows, cell_rounds]
    detail = {name: np.full(len(cell_rows), None, dtype=object) for name in DETAIL_FIELDS}
    kind = GAME_KINDS[(table.kind[every, cell_rounds] > LOSS).view(np.int8)]
    dummy_at = np.flatnonzero(is_dummy)
    rows, rounds = cell_rows[dummy_at], cell_rounds[dummy_at]
    if len(rows):
        p = every[dummy_at]
        key = columns.key[p, rounds].tolist()
        how = columns.how[p, rounds].tolist()
        own = table.score[p].tolist()
        scheduled = ctx.opponent_ids()[p, rounds].tolist()
        kind[dummy_at] = ["virtual" if h == VIRTUAL else "dummy" for h in how]
        detail["unplayed"][dummy_at] = KIND_VALUES[table.kind[p, rounds]]
        detail["note"][dummy_at] = [
            virtual_note(table, pp, r, k) if h == VIRTUAL else dummy_note(h, o, k, scale, q)
            for pp, r, k, h, o, q in zip(p.tolist(), rounds.tolist(), key, how, own, scheduled, strict=True)
        ]
        detail["own_score"][dummy_at] = [None if h == VIRTUAL else o / scale for h, o in zip(how, own, strict=True)]
        detail["capped_at"][dummy_at] = [
            None if h in (VIRTUAL, OWN_SCORE) else k / scale for h, k in zip(how, key, strict=True)
        ]
        detail["article"][dummy_at] = [DUMMY_ARTICLES[h] for h in how]
        detail["reason_code"][dummy_at] = [DUMMY_REASONS[h] for h in how]

    off_at = np.flatnonzero(~is_dummy)  # off face (16.3) or Fore Buchholz's last round (8.3)
    rows, rounds = cell_rows[off_at], cell_rounds[off_at]
    q: list[int] = []
    article: list[str | None] = []
    if len(rows):
        policy = policy_of(ctx.regulations)
        notes: dict[int, str | None] = ctx.cached("adjustment-notes", dict)
        adjusted = ctx.adjusted()
        p = every[off_at]
        q = table.opp[p, rounds].tolist()
        for q_ in set(q) - notes.keys():
            notes[q_] = adjustment_note(
                table, ctx.counted_as_draw(), q_, table.scores[q_], int(adjusted[q_]), policy.article
            )
        adjusted_note = [notes[q_] for q_ in q]
        last = cells.fore[rows, rounds].tolist()
        detail["note"][off_at] = [
            Joined(FORE_NOTE, "; ", n) if f and n else FORE_NOTE if f else n
            for n, f in zip(adjusted_note, last, strict=True)
        ]
        article = [None if n is None else policy.article for n in adjusted_note]
        detail["article"][off_at] = article
        key = columns.key[p, rounds].tolist()
        detail["counted_score"][off_at] = [k / scale if a else None for k, a in zip(key, article, strict=True)]
    lists = {name: values.tolist() for name, values in detail.items()}
    return lists, kind.tolist(), (off_at.tolist(), q, article)


def with_cuts(
    rows: list[list[Contribution]], reasons: np.ndarray, counted: np.ndarray, label: str
) -> list[list[Contribution]]:
    """Per row, the contributions with the cut ones (from the reason codes) replaced by marked
    copies; a row without a cut is the shared list itself."""
    position = np.cumsum(counted, axis=1) - 1  # where each round's contribution sits in its row
    marked = list(rows)
    cut_rows, cut_rounds = np.nonzero(reasons)
    texts = {code: made(reason_text(code, label)) for code in REASON_CODES}  # rendered once, not per cut
    copy_of = None
    for i, j, code in zip(
        cut_rows.tolist(), position[cut_rows, cut_rounds].tolist(), reasons[cut_rows, cut_rounds].tolist(), strict=True
    ):
        if marked[i] is rows[i]:
            marked[i] = rows[i][:]
        if copy_of is None:
            copy_of = copier(type(marked[i][j]))
        c = marked[i][j] = copy_of(marked[i][j])
        mark_cut(c, texts[code], REASON_CODES[code])
    return marked


def adjustment_note(
    table: Table, run: np.ndarray, q: int, face: int, counted: int, article: str = "16.3"
) -> str | None:
    """Why an opponent counts other than at face value; None when they do not."""
    if counted == face:
        return None
    rounds = int(run[q].sum())
    args = {"face": face / table.scale, "article": article, "counted": counted / table.scale}
    if article == "16.3":
        return msg_n(
            "{face} + {n} closing bye or absence counted as a draw ({article}) = {counted}",
            "{face} + {n} closing byes or absences counted as draws ({article}) = {counted}",
            rounds,
            **args,
        )
    return msg_n(
        "{face} + {n} round without a game counted as a draw ({article}) = {counted}",
        "{face} + {n} rounds without a game counted as draws ({article}) = {counted}",
        rounds,
        **args,
    )


def buchholz(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    return opponent_score_sum(ctx, spec, weight_by_result=False)


def fore_buchholz(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """Buchholz with every pairing of the tournament's last round counted as a draw (8.3).

    When the standings stop before the last round, that round has not been played yet
    and Fore Buchholz equals Buchholz.
    """
    table = ctx.table
    if table.played_rounds < table.rounds:
        return buchholz(ctx, spec)
    drawn = ctx.cached("fore-context", lambda: ctx.for_table(table.with_last_round_drawn(), fore_buchholz=True))
    return buchholz(drawn, spec)


def average_of_opponents_buchholz(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """Mean of the Buchholz of the opponents met over the board, to 2 decimals (8.4)."""
    table = ctx.table
    bh = ctx.cached("plain-bh", lambda: buchholz(ctx, RuleSpec("BH")).column)
    played = IS_PLAYED[table.kind] & (table.opp != NO_OPPONENT)
    games = played.sum(axis=1)
    total = np.where(played, bh[np.where(played, table.opp, 0)], 0).sum(axis=1)
    # hundredths, halves up: round(100 × total / (games × scale))
    hundredths = round_half_up_div(100 * total, np.maximum(games, 1) * table.scale)
    outcome_scale = table.scale

    def explain(rows: list[int]) -> Explanation:
        chosen = played[rows]
        fields = {
            "kind": "opponent_value",
            "opponent": ctx.opponent_ids()[rows],
            "value": bh[np.where(chosen, table.opp[rows], 0)] / outcome_scale,
        }
        return explanation(
            rows,
            contribution_rows(ctx.contribution, chosen, fields),
            mean_notes(total[rows], outcome_scale, games[rows], "mean Buchholz of the opponents, to 2 decimals"),
        )

    return RuleOutcome.of(spec, hundredths, 100, missing=games == 0, contribution_scale=table.scale, explain=explain)
