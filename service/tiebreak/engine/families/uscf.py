"""US Chess tie-breaks (rule 34E of the US Chess Federation's Official Rules of Chess, 7th edition).

US Chess handles unplayed games its own way (34E1), for every rule here:
  * an opponent's score is *adjusted*: each of the opponent's unplayed games (byes,
    forfeits won or lost, rounds not played after withdrawing) counts as a draw;
  * the player's own unplayed games count as opponents with an adjusted score of 0.
In a round robin the idle round of an odd field is no game at all.

Values are passes over the table's columns; the breakdown of a player is built from
the same columns and the same drop marks.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..context import Context
from ..contributions import Contribution, RuleOutcome, mark_cut
from ..model import System
from ..modifiers import HIGHEST, cut_reasons, kept_total
from ..rounding import mean_note, round_half_up_div
from ..rules import RuleSpec
from ..table import (DRAW, FORFEIT_WIN, FULL_BYE, IS_PLAYED, KINDS, LOSS, NO_OPPONENT, PAIRING_BYE, WIN, Table)
from .rating import _games, _plain_aro

MANY_ROUNDS = 9  # 34E1: events of nine or more rounds drop two scores at each end instead of one

# 34E7 Kashdan: 4 for a win, 2 for a draw, 1 for a loss, 0 for an unplayed game.
KASHDAN = np.zeros(len(KINDS), dtype=np.int64)
KASHDAN[[WIN, DRAW, LOSS]] = (4, 2, 1)

# 34E3: "subtract one point for each one-point bye or forfeit win".
UNPLAYED_WINS = np.isin(np.arange(len(KINDS)), [FORFEIT_WIN, PAIRING_BYE, FULL_BYE])

OWN_UNPLAYED_NOTE = "own unplayed round: an opponent with adjusted score 0 (US Chess 34E1)"


def _fmt(units: int, scale: int) -> str:
    return f"{units / scale:g}"


# ---- adjusted scores (34E1) -----------------------------------------------------------

def counted_rounds(table: Table) -> np.ndarray:
    """The rounds that count as games, played or not, as a boolean matrix.

    In a round robin the idle round of an odd field (no scheduled opponent) is no game at
    all: it gives no ½ to the adjusted score and no 0-opponent to the medians or SB.
    """
    if table.system is not System.ROUND_ROBIN:
        return np.ones(table.kind.shape, dtype=bool)
    return table.opp != NO_OPPONENT


def adjusted_scores(table: Table) -> np.ndarray:
    """Every player's score as opponents count it: unplayed games count as a draw each (34E1)."""
    unplayed = counted_rounds(table) & ~IS_PLAYED[table.kind]
    return table.score + np.where(unplayed, table.draw - table.pts, 0).sum(axis=1)


class _Opposition:
    """Per player and counted round: the opponent's adjusted score, 0 for an own unplayed round."""

    def __init__(self, table: Table) -> None:
        self.counted = counted_rounds(table)
        self.played = IS_PLAYED[table.kind] & (table.opp != NO_OPPONENT)
        self.adjusted = adjusted_scores(table)
        self.key = np.where(self.played, self.adjusted[np.where(self.played, table.opp, 0)], 0)


def _opposition(ctx: Context) -> _Opposition:
    return ctx.cached("uscf-opposition", lambda: _Opposition(ctx.table))


def _adjusted_note(ctx: Context, q: int) -> str | None:
    """Why an opponent's adjusted score differs from the face value, if it does."""
    table, opposition = ctx.table, _opposition(ctx)
    adjusted = int(opposition.adjusted[q])
    if adjusted == table.scores[q]:
        return None
    unplayed = int((opposition.counted[q] & ~IS_PLAYED[table.kind[q]]).sum())
    return (f"adjusted score {_fmt(adjusted, table.scale)} (score {_fmt(table.scores[q], table.scale)}; "
            f"{unplayed} unplayed game(s) counted as draws, US Chess 34E1)")


def _opposition_contributions(ctx: Context, p: int, value: np.ndarray | None = None,
                              value_scale: int | None = None) -> list[Contribution]:
    """One contribution per counted round: the opponent's adjusted score, or 0 for an unplayed
    round (`value`, in units of 1/value_scale, replaces the score as what is summed)."""
    table, opposition = ctx.table, _opposition(ctx)
    scale = table.scale
    notes = ctx.cached("uscf-adjusted-notes", dict)
    rows = []
    for r in np.flatnonzero(opposition.counted[p]).tolist():
        key = int(opposition.key[p, r])
        v = key / scale if value is None else int(value[p, r]) / value_scale
        q = int(table.opp[p, r])
        if opposition.played[p, r]:
            if q not in notes:
                notes[q] = _adjusted_note(ctx, q)
            rows.append(ctx.contribution(r + 1, "game", table.ids[q], v, note=notes[q],
                                     opponent_score=table.scores[q] / scale,
                                     counted_score=key / scale if key != table.scores[q] else None))
        else:
            rows.append(ctx.contribution(r + 1, "unplayed", table.ids[q] if q != NO_OPPONENT else None, v,
                                     unplayed=table.kind_of(p, r).value, note=OWN_UNPLAYED_NOTE))
    return rows


# ---- Solkoff, Median, Modified Median (34E1, 34E2) -------------------------------------

def _drops(table: Table, counted: np.ndarray, modified: bool) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Per player, how many of the lowest and highest adjusted scores the Median systems drop, and why."""
    n = 2 if table.played_rounds >= MANY_ROUNDS else 1  # 34E1: two of each in 9+ rounds
    size = table.size
    if not modified:
        return np.full(size, n), np.full(size, n), ["Median"] * size
    # 34E1: an even score is exactly half the maximum possible score (over the games the
    # player was scheduled to play: a round robin's idle round is none).
    twice, maximum = 2 * table.score, table.win * counted.sum(axis=1)
    plus, minus = twice > maximum, twice < maximum
    low = np.where(minus, 0, n)
    high = np.where(plus, 0, n)
    why = np.where(plus, "plus score", np.where(minus, "minus score", "even score")).tolist()
    return low, high, why


def _drop_reason(code: int, why: str) -> str:
    end = "highest" if code == HIGHEST else "lowest"
    return f"{end} adjusted score dropped ({why}, US Chess 34E1)"


def _median_family(ctx: Context, spec: RuleSpec, modified: bool | None) -> RuleOutcome:
    """Solkoff (modified None), Median (False), Modified Median (True)."""
    table = ctx.table
    opposition = _opposition(ctx)
    key, counted = opposition.key, opposition.counted
    if modified is None:
        reasons, low, high, why = None, None, None, None
    else:
        low, high, why = _drops(table, counted, modified)
        # drops go by value only: the same selection as a Cut/Median without unplayed rounds
        reasons = np.zeros(key.shape, dtype=np.int8)
        for lo, hi in {(int(a), int(b)) for a, b in zip(low.tolist(), high.tolist())}:
            rows = (low == lo) & (high == hi)
            marks = cut_reasons(key[rows], key[rows], None, counted[rows], lo, hi)
            if marks is not None:
                reasons[rows] = marks
    outcome = RuleOutcome.of(spec, kept_total(key, counted, reasons), table.scale)
    if reasons is not None:
        outcome.uncut = kept_total(key, counted, None)

    def explain_row(p: int) -> list[Contribution]:
        rows = _opposition_contributions(ctx, p)
        if reasons is not None:
            codes = reasons[p].tolist()
            for c in rows:
                code = codes[c.round - 1]
                if code:
                    mark_cut(c, _drop_reason(code, why[p]), "dropped-highest" if code == HIGHEST else "dropped-lowest")
        return rows

    def note_row(p: int) -> str | None:
        if reasons is None:
            return None
        return (f"{why[p]}: " if modified else "") + _describe_drops(int(low[p]), int(high[p])) + " (US Chess 34E1)"

    outcome.explain_row, outcome.note_row = explain_row, note_row
    return outcome


def _describe_drops(low: int, high: int) -> str:
    parts = []
    if low:
        parts.append(f"the {'two lowest' if low == 2 else 'lowest'}")
    if high:
        parts.append(f"the {'two highest' if high == 2 else 'highest'}")
    return " and ".join(parts) + " adjusted score(s) dropped"


def solkoff(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """34E2: the sum of the opponents' adjusted scores, nothing dropped."""
    return _median_family(ctx, spec, None)


def median(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """34E1 (Harkness): the highest and lowest adjusted scores dropped (two of each in 9+ rounds)."""
    return _median_family(ctx, spec, False)


def modified_median(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """34E1: plus score drops the lowest, minus score the highest, even score both."""
    return _median_family(ctx, spec, True)


# ---- Cumulative, Cumulative of opposition (34E3, 34E9) ---------------------------------

def _cumulative_values(ctx: Context) -> np.ndarray:
    def compute() -> np.ndarray:
        table = ctx.table
        unplayed_wins = UNPLAYED_WINS[table.kind].sum(axis=1)
        return np.cumsum(table.pts, axis=1).sum(axis=1) - table.win * unplayed_wins
    return ctx.cached("uscf-cumulative", compute)


def cumulative(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """34E3: the running score after each round, summed, minus one point per unplayed win."""
    table = ctx.table
    outcome = RuleOutcome.of(spec, _cumulative_values(ctx), table.scale)

    def explain_row(p: int) -> list[Contribution]:
        running = (np.cumsum(table.pts[p]) / table.scale).tolist()
        rows = [ctx.contribution(r + 1, "running_score", None, v) for r, v in enumerate(running)]
        rows += [
            ctx.contribution(r + 1, "unplayed_win", None, -table.win / table.scale, unplayed=table.kind_of(p, r).value,
                         note="one point subtracted for an unplayed win (US Chess 34E3)")
            for r in np.flatnonzero(UNPLAYED_WINS[table.kind[p]]).tolist()
        ]
        return rows

    outcome.explain_row = explain_row
    return outcome


def cumulative_of_opposition(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """34E9: the sum of the opponents' cumulative tie-break scores (34E3); unplayed rounds add 0."""
    table = ctx.table
    cum = _cumulative_values(ctx)
    played = IS_PLAYED[table.kind] & (table.opp != NO_OPPONENT)
    opp = np.where(played, table.opp, 0)
    outcome = RuleOutcome.of(spec, np.where(played, cum[opp], 0).sum(axis=1), table.scale)

    def explain_row(p: int) -> list[Contribution]:
        rows = []
        for r, q in enumerate(table.opp[p].tolist()):
            if played[p, r]:
                rows.append(ctx.contribution(r + 1, "opponent_value", table.ids[q], int(cum[q]) / table.scale,
                                         note="the opponent's cumulative score (US Chess 34E3)"))
            else:
                rows.append(ctx.contribution(r + 1, "unplayed", table.ids[q] if q != NO_OPPONENT else None, 0.0,
                                         unplayed=table.kind_of(p, r).value,
                                         note="own unplayed round adds nothing (US Chess 34E9)"))
        return rows

    outcome.explain_row = explain_row
    return outcome


# ---- Kashdan, Sonneborn-Berger (34E7, 34E8) ---------------------------------------------

def kashdan(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """34E7: 4 points for a win, 2 for a draw, 1 for a loss, 0 for an unplayed game."""
    table = ctx.table
    points = KASHDAN[table.kind]
    outcome = RuleOutcome.of(spec, points.sum(axis=1), 1)

    def explain_row(p: int) -> list[Contribution]:
        rows = []
        for r, q in enumerate(table.opp[p].tolist()):
            kind = table.kind_of(p, r)
            rows.append(ctx.contribution(r + 1, kind.value, table.ids[q] if q != NO_OPPONENT else None,
                                     float(points[p, r]), unplayed=None if kind.is_played else kind.value))
        return rows

    outcome.explain_row = explain_row
    return outcome


def sonneborn_berger(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """34E8: the adjusted scores of the opponents beaten plus half those of the opponents drawn.

    Each opponent's adjusted score times the points scored against them over the
    board; an own unplayed round is an opponent with adjusted score 0 (34E1).
    """
    table = ctx.table
    opposition = _opposition(ctx)
    value = opposition.key * table.pts
    outcome = RuleOutcome.of(spec, kept_total(value, opposition.counted, None), table.scale * table.scale)

    def explain_row(p: int) -> list[Contribution]:
        rows = _opposition_contributions(ctx, p, value, table.scale * table.scale)
        points = (table.pts[p] / table.scale).tolist()
        for c in rows:
            c.result = points[c.round - 1]
        return rows

    outcome.explain_row = explain_row
    return outcome


# ---- Result between tied players (34E4) -------------------------------------------------

def result_between_tied_players(ctx: Context, spec: RuleSpec, groups: list[list[int]]) -> RuleOutcome:
    """34E4: inside each group tied on all earlier rules, wins minus losses in the games
    the tied players played against each other ("plus or minus, not percentage").

    Only games played over the board count. A group whose games leave everyone
    equal (or who never met) is not separated.
    """
    table = ctx.table
    values: list[int | None] = [0] * table.size
    encounters: dict[int, list[Contribution]] = {}
    notes: dict[int, str | None] = {}
    unresolved: list[list[int]] = []
    for group in groups:
        if len(group) < 2:
            continue
        members = set(group)
        met: dict[int, set[int]] = {p: set() for p in group}
        for p in group:
            balance = 0
            kinds = table.kind[p].tolist()
            for r, q in enumerate(table.opp[p].tolist()):
                kind = KINDS[kinds[r]]
                if q in members and kind.is_played:
                    met[p].add(q)
                    step = 1 if kinds[r] == WIN else -1 if kinds[r] == LOSS else 0
                    balance += step
                    encounters.setdefault(p, []).append(
                        ctx.contribution(r + 1, "encounter", table.ids[q], float(step), note=kind.value))
            values[p] = balance
        everyone_met = all(len(met[p]) == len(group) - 1 for p in group)
        separated = len({values[p] for p in group}) > 1
        for p in group:
            notes[p] = ("wins minus losses against the other tied players (US Chess 34E4)"
                        + ("" if everyone_met else "; not all of them met"))
        if not everyone_met and not separated:
            unresolved.append(group)
    outcome = RuleOutcome(spec, values, 1)
    outcome.explain_row = lambda p: encounters.get(p, [])
    outcome.note_row = notes.get
    outcome.unresolved = unresolved
    return outcome


# ---- Rating-based (34E10, 34E11) ----------------------------------------------------------

RULE_OF_400 = 400  # the linear performance: opposition average + 400 × (wins − losses) / games


def _performances(ctx: Context) -> np.ndarray:
    """Each player's performance over the board: ARO + 400 × (W − L) / N, rounded half up."""
    def compute() -> np.ndarray:
        games = _games(ctx)
        balance = np.where(games.played, games.halves - 1, 0).sum(axis=1)  # W − L from half points 2/1/0
        # ARO is whole, so round(ARO + 400 b / N) = ARO + round(400 b / N)
        return _plain_aro(ctx) + round_half_up_div(RULE_OF_400 * balance, np.maximum(games.count, 1))
    return ctx.cached("uscf-performance", compute)


def opposition_performance(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """34E11: the mean of the opponents' performance ratings, each over the board."""
    table = ctx.table
    games = _games(ctx)
    perf = _performances(ctx)
    count = games.count
    total = np.where(games.played, perf[games.opponent], 0).sum(axis=1)
    outcome = RuleOutcome.of(spec, round_half_up_div(total, np.maximum(count, 1)), 1, missing=count == 0)

    def explain_row(p: int) -> list[Contribution]:
        return [
            ctx.contribution(r + 1, "opponent_value", table.ids[games.opponent[p, r]],
                         float(perf[games.opponent[p, r]]), note="the opponent's performance: their opposition's average + "
                              "400 × (wins − losses) / games")
            for r in np.flatnonzero(games.played[p]).tolist()]

    outcome.explain_row = explain_row
    outcome.note_row = lambda p: mean_note(Fraction(int(total[p])), int(count[p]), "mean performance of the opponents")
    return outcome
