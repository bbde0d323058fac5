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
from ..table import IS_PLAYED, KINDS, LOSS, NO_OPPONENT
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
    reasons = cut_reasons(key, value, vur, columns.counted, low, high, ctx.cached("cut-orders", dict))
    totals = kept_total(value, columns.counted, reasons)
    scale = table.scale * table.scale if weight_by_result else table.scale
    outcome = RuleOutcome.of(spec, totals, scale)
    # Every rule of the family shares the uncut contributions; a cut one is a marked copy.
    base = ctx.cached(("opponent-contributions", spec.forfeits_played, weight_by_result), dict)
    label = cut_label(low, high)

    def explain_rows(players: list[int]) -> list[list[Contribution]]:
        missing = [p for p in players if p not in base]
        if missing:
            base.update(zip(missing, _contributions(ctx, columns, value, missing, weight_by_result)))
        if reasons is None:
            return [base[p] for p in players]
        return [with_cuts(base[p], codes, label) for p, codes in zip(players, reasons[players].tolist())]

    outcome.explain_rows = explain_rows
    outcome.forget_rows = lambda players: [base.pop(p, None) for p in players]
    return outcome


def _contributions(ctx: Context, columns, value: np.ndarray, players: list[int],
                   weight_by_result: bool) -> list[list[Contribution]]:
    """The players' counted rounds as contributions, before any cut (one slice of each column)."""
    table = ctx.table
    adjusted = ctx.adjusted()
    policy = policy_of(ctx.regulations)
    notes = ctx.cached("adjustment-notes", dict)
    ids, scores = table.ids, table.scores
    last = table.played_rounds - 1
    fore = ctx.fore_buchholz
    out = []
    for p, kinds, opps, keys, values, points, counted, dummies, hows, vurs in zip(
            players, table.kind[players].tolist(), table.opp[players].tolist(), columns.key[players].tolist(),
            value[players].tolist(), table.pts[players].tolist(), columns.counted[players].tolist(),
            columns.dummy[players].tolist(), columns.how[players].tolist(), columns.vur[players].tolist()):
        own = scores[p]
        rows = []
        for r, (is_counted, kind_code, q, key, v) in enumerate(zip(counted, kinds, opps, keys, values)):
            if not is_counted:
                continue
            result = points[r] if weight_by_result else None
            if dummies[r]:
                kind, how = KINDS[kind_code], hows[r]
                scheduled = ids[q] if q != NO_OPPONENT else None
                if how == VIRTUAL:
                    rows.append(Contribution(r + 1, "virtual", v, key, False, scheduled, kind,
                                             virtual_note(table, p, r, key), result=result,
                                             article=DUMMY_ARTICLES[how], reason_code=DUMMY_REASONS[how]))
                    continue
                rows.append(Contribution(r + 1, "dummy", v, key, vurs[r], scheduled, kind,
                                         dummy_note(how, own, key, table.scale, scheduled), result=result,
                                         own_score=own, capped_at=key if how != OWN_SCORE else None,
                                         article=DUMMY_ARTICLES[how], reason_code=DUMMY_REASONS[how]))
                continue
            if q in notes:
                note = notes[q]
            else:
                note = notes[q] = adjustment_note(table, ctx.counted_as_draw(), q, scores[q], int(adjusted[q]),
                                                  policy.article)
            if note is None and not weight_by_result and not (fore and r == last):
                # the common case: a game counted at face value, its value the opponent's score
                rows.append(Contribution(r + 1, "game" if kind_code <= LOSS else "forfeit", v, key, False, ids[q]))
                continue
            article = None if note is None else policy.article
            if fore and r == last:
                note = "the last round counted as a draw (8.3)" + (f"; {note}" if note else "")
            # The opponent's score is shown apart only when it is not counted at face value,
            # and as a factor of Sonneborn-Berger.
            shown = scores[q] if article or weight_by_result else None
            rows.append(Contribution(r + 1, "game" if kind_code <= LOSS else "forfeit", v, key, opponent=ids[q],
                                     note=note, opponent_score=shown, counted_score=key if article else None,
                                     result=result, article=article))
        out.append(rows)
    return out


def with_cuts(rows: list[Contribution], codes: list[int], label: str) -> list[Contribution]:
    """A copy of the list with the cut entries (by round, from the reason codes) replaced by
    marked copies; the others are shared."""
    marked = rows[:]
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
