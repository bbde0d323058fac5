"""Buchholz (C.07 8.1), Fore Buchholz (8.3), Average of Opponents' Buchholz (8.4), and the
opponent-score sum they share with Sonneborn-Berger (9.1)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..context import Context
from ..contributions import Contribution, RuleOutcome
from ..modifiers import REASON_CODES, cut_label, cut_reasons, kept_total, reason_text
from ..rounding import mean_note, round_half_up_div
from ..rules import RuleSpec
from ..table import IS_PLAYED, KINDS, NO_OPPONENT
from ..unplayed import DUMMY_ARTICLES, DUMMY_REASONS, OWN_SCORE, VIRTUAL, dummy_note, policy_of, virtual_note


def opponent_score_sum(ctx: Context, spec: RuleSpec, weight_by_result: bool) -> RuleOutcome:
    """Sum of opponents' scores (Buchholz), or of score × result (Sonneborn-Berger, 9.1)."""
    table = ctx.table
    low = spec.cut or spec.median
    high = spec.median
    columns = ctx.opponent_columns(spec.forfeits_played)
    key = columns.key
    value = ctx.cached(("sb-values", spec.forfeits_played), lambda: key * table.pts) if weight_by_result else key
    vur = columns.vur if columns.any_vur else None
    reasons = cut_reasons(key, value, vur, columns.counted, low, high)
    totals = kept_total(value, columns.counted, reasons)
    scale = table.scale * table.scale if weight_by_result else table.scale
    outcome = RuleOutcome.of(spec, totals, scale)
    # Every rule of the family shares the uncut contributions; a cut one is a marked copy.
    base = ctx.cached(("opponent-contributions", spec.forfeits_played, weight_by_result), dict)
    label = cut_label(low, high)

    def explain_row(p: int) -> list[Contribution]:
        rows = base.get(p)
        if rows is None:
            rows = base[p] = _contributions(ctx, columns, value, p, weight_by_result)
        return rows if reasons is None else with_cuts(rows, reasons[p], label)

    outcome.explain_row = explain_row
    return outcome


def _contributions(ctx: Context, columns, value: np.ndarray, p: int, weight_by_result: bool) -> list[Contribution]:
    """One player's counted rounds as contributions, before any cut."""
    table = ctx.table
    adjusted = ctx.adjusted()
    policy = policy_of(ctx.regulations)
    notes = ctx.cached("adjustment-notes", dict)
    own = int(table.score[p])
    ids = table.ids
    last = table.played_rounds - 1
    kinds, opps, keys = table.kind[p].tolist(), table.opp[p].tolist(), columns.key[p].tolist()
    values, points = value[p].tolist(), table.pts[p].tolist()
    dummies, hows, vurs = columns.dummy[p].tolist(), columns.how[p].tolist(), columns.vur[p].tolist()
    rows = []
    for r in np.flatnonzero(columns.counted[p]).tolist():
        kind, q, key = KINDS[kinds[r]], opps[r], keys[r]
        result = points[r] if weight_by_result else None
        if dummies[r]:
            how = hows[r]
            scheduled = ids[q] if q != NO_OPPONENT else None
            if how == VIRTUAL:
                rows.append(Contribution(r + 1, "virtual", values[r], key, False, scheduled, kind,
                                         virtual_note(table, p, r, key), result=result,
                                         article=DUMMY_ARTICLES[how], reason_code=DUMMY_REASONS[how]))
                continue
            rows.append(Contribution(r + 1, "dummy", values[r], key, vurs[r], scheduled, kind,
                                     dummy_note(how, own, key, table.scale, scheduled), result=result, own_score=own,
                                     capped_at=key if how != OWN_SCORE else None, article=DUMMY_ARTICLES[how],
                                     reason_code=DUMMY_REASONS[how]))
            continue
        face = table.scores[q]
        if q not in notes:
            notes[q] = adjustment_note(table, ctx.counted_as_draw(), q, face, int(adjusted[q]), policy.article)
        note = notes[q]
        article = None if note is None else policy.article
        if ctx.fore_buchholz and r == last:
            note = "the last round counted as a draw (8.3)" + (f"; {note}" if note else "")
        rows.append(Contribution(r + 1, "game" if kind.is_played else "forfeit", values[r], key, opponent=ids[q],
                                 note=note, opponent_score=face, counted_score=key if article else None,
                                 result=result, article=article))
    return rows


def with_cuts(rows: list[Contribution], reasons: np.ndarray, label: str) -> list[Contribution]:
    """A copy of the list with the cut entries replaced by marked copies (the others shared)."""
    marked = rows[:]
    codes = reasons.tolist()
    for i, c in enumerate(rows):
        code = codes[c.round - 1]
        if code:
            marked[i] = c.marked_cut(reason_text(code, label), REASON_CODES[code])
    return marked


def adjustment_note(table, run: np.ndarray, q: int, face: int, counted: int, article: str = "16.3") -> str | None:
    """Why an opponent counts other than at face value; None when they do not."""
    if counted == face:
        return None
    rounds = int(run[q].sum())
    what = "closing bye(s)/absence(s)" if article == "16.3" else "round(s) without a game"
    return f"{face / table.scale:g} + {rounds} {what} counted as draws ({article}) = {counted / table.scale:g}"


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
    outcome = RuleOutcome.of(spec, hundredths, 100, missing=games == 0, contribution_scale=table.scale)

    def explain_row(p: int) -> list[Contribution]:
        opponents = table.opp[p].tolist()
        return [Contribution(r + 1, "opponent_value", int(bh[opponents[r]]), int(bh[opponents[r]]),
                             opponent=table.ids[opponents[r]]) for r in np.flatnonzero(played[p]).tolist()]

    def note_row(p: int) -> str | None:
        return mean_note(Fraction(int(total[p]), table.scale), int(games[p]),
                         "mean Buchholz of the opponents, to 2 decimals")

    outcome.explain_row, outcome.note_row = explain_row, note_row
    return outcome
