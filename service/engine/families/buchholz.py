"""Buchholz (C.07 8.1), Fore Buchholz (8.3), Average of Opponents' Buchholz (8.4), and the
opponent-score sum they share with Sonneborn-Berger (9.1)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..context import Context
from ..contributions import Contribution, RuleOutcome, marked_cut
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
        rows = [base[p] for p in players]
        if reasons is None:
            return rows
        return with_cuts(rows, reasons[players], columns.counted[players], label)

    outcome.explain_rows = explain_rows
    outcome.forget_rows = lambda players: [base.pop(p, None) for p in players]
    if reasons is not None:
        outcome.uncut = kept_total(value, columns.counted, None)
    return outcome


GAME_KINDS = ("game", "forfeit")  # a contribution from a round with an opponent: played or not


def _contributions(ctx: Context, columns, value: np.ndarray, players: list[int],
                   weight_by_result: bool) -> list[list[Contribution]]:
    """The players' counted rounds as contributions, before any cut (one slice of each column).

    The common contribution, a game counted at face value, is made in one step; a dummy
    opponent, an opponent counted other than at face value (16.3), Fore Buchholz's last
    round and Sonneborn-Berger's factors carry their details.
    """
    table = ctx.table
    scale = table.scale
    value_scale = scale * scale if weight_by_result else scale
    adjusted = ctx.adjusted()
    ids = table.ids
    kinds = table.kind[players]
    opps = table.opp[players]
    has_opp = opps != NO_OPPONENT
    opp_index = np.where(has_opp, opps, 0)
    counted = columns.counted[players]
    dummy = columns.dummy[players]
    # an opponent counted other than at face value (C.07 16.3, C.02 13.15) gets a note
    off_face = has_opp & ~dummy & (adjusted != table.score)[opp_index]
    detailed = dummy | off_face
    if ctx.fore_buchholz and table.played_rounds:
        detailed[:, -1] |= counted[:, -1]
    shown = (value[players] / value_scale).tolist()
    opponent_ids = np.asarray(ids, dtype=np.int64)[opp_index] if len(ids) else opp_index
    opponent_ids = np.where(has_opp, opponent_ids, -1).tolist()
    game_kind = (kinds > LOSS).astype(np.int8).tolist()  # 0: game, 1: forfeit
    detailed_rows = detailed.any(axis=1).tolist()
    if weight_by_result:
        factors = (table.pts[players] / scale).tolist()
        opponent_scores = (table.score[opp_index] / scale).tolist()
    contribution = ctx.contribution
    out = []
    for i, (p, row_counted, row_kind, row_opp, row_value) in enumerate(
            zip(players, counted.tolist(), game_kind, opponent_ids, shown)):
        if weight_by_result:
            row_factor, row_score = factors[i], opponent_scores[i]
            rows = [contribution(r + 1, GAME_KINDS[row_kind[r]], row_opp[r], row_value[r], result=row_factor[r],
                             opponent_score=row_score[r])
                    for r in range(len(row_counted)) if row_counted[r]]
        else:
            rows = [contribution(r + 1, GAME_KINDS[row_kind[r]], row_opp[r], row_value[r])
                    for r in range(len(row_counted)) if row_counted[r]]
        if detailed_rows[i]:
            _detail_row(ctx, columns, p, rows, detailed[i], weight_by_result)
        out.append(rows)
    return out


def _detail_row(ctx: Context, columns, p: int, rows: list[Contribution], detailed: np.ndarray,
                weight_by_result: bool) -> None:
    """Replace a row's contributions that carry details (dummies, 16.3 notes, Fore Buchholz's
    last round) by their full form."""
    table = ctx.table
    scale = table.scale
    policy = policy_of(ctx.regulations)
    notes = ctx.cached("adjustment-notes", dict)
    adjusted = ctx.adjusted()
    ids, scores = table.ids, table.scores
    own = scores[p]
    last = table.played_rounds - 1
    at = {c.round - 1: i for i, c in enumerate(rows)}
    for r in np.flatnonzero(detailed).tolist():
        if r not in at:
            continue
        plain = rows[at[r]]
        kind_code, q, key = int(table.kind[p, r]), int(table.opp[p, r]), int(columns.key[p, r])
        result = plain.result
        if columns.dummy[p, r]:
            kind, how = KINDS[kind_code], int(columns.how[p, r])
            if how == VIRTUAL:
                rows[at[r]] = ctx.contribution(r + 1, "virtual", plain.opponent if q != NO_OPPONENT else None, plain.value,
                                           note=virtual_note(table, p, r, key),
                                           result=result, article=DUMMY_ARTICLES[how],
                                           reason_code=DUMMY_REASONS[how], unplayed=kind)
                continue
            rows[at[r]] = ctx.contribution(
                r + 1, "dummy", plain.opponent if q != NO_OPPONENT else None, plain.value, unplayed=kind,
                note=dummy_note(how, own, key, scale, plain.opponent if q != NO_OPPONENT else None),
                result=result, own_score=own / scale, capped_at=key / scale if how != OWN_SCORE else None,
                article=DUMMY_ARTICLES[how], reason_code=DUMMY_REASONS[how])
            continue
        if q in notes:
            note = notes[q]
        else:
            note = notes[q] = adjustment_note(table, ctx.counted_as_draw(), q, scores[q], int(adjusted[q]),
                                              policy.article)
        article = None if note is None else policy.article
        if ctx.fore_buchholz and r == last:
            note = "the last round counted as a draw (8.3)" + (f"; {note}" if note else "")
        # The opponent's score is shown apart only when it is not counted at face value,
        # and as a factor of Sonneborn-Berger.
        rows[at[r]] = ctx.contribution(
            r + 1, plain.kind, ids[q], plain.value, note=note,
            opponent_score=scores[q] / scale if article or weight_by_result else None,
            counted_score=key / scale if article else None, result=result, article=article)


def with_cuts(rows: list[list[Contribution]], reasons: np.ndarray, counted: np.ndarray,
              label: str) -> list[list[Contribution]]:
    """Per row, the contributions with the cut ones (from the reason codes) replaced by marked
    copies; a row without a cut is the shared list itself."""
    position = np.cumsum(counted, axis=1) - 1  # where each round's contribution sits in its row
    marked = list(rows)
    cut_rows, cut_rounds = np.nonzero(reasons)
    for i, r in zip(cut_rows.tolist(), cut_rounds.tolist()):
        if marked[i] is rows[i]:
            marked[i] = rows[i][:]
        code = int(reasons[i, r])
        j = int(position[i, r])
        marked[i][j] = marked_cut(marked[i][j], reason_text(code, label), REASON_CODES[code])
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
        return [ctx.contribution(r + 1, "opponent_value", table.ids[opponents[r]], int(bh[opponents[r]]) / table.scale)
                for r in np.flatnonzero(played[p]).tolist()]

    def note_row(p: int) -> str | None:
        return mean_note(Fraction(int(total[p]), table.scale), int(games[p]),
                         "mean Buchholz of the opponents, to 2 decimals")

    outcome.explain_row, outcome.note_row = explain_row, note_row
    return outcome
