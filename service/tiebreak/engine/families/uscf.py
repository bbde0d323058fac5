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

from typing import Any

import numpy as np

from ..context import Context
from ..contributions import Contribution, Explanation, RuleOutcome, contribution_rows, explanation, mark_cut
from ..model import System
from ..modifiers import HIGHEST, cut_reasons, kept_total
from ...texts.message import msg, msg_n
from ..rounding import mean_notes, round_half_up_div
from ..rules import RuleSpec
from ..table import DRAW, FORFEIT_WIN, FULL_BYE, IS_PLAYED, KINDS, LOSS, NO_OPPONENT, PAIRING_BYE, WIN, Table
from .counts import KIND_NAMES
from .rating import _games, _plain_aro

MANY_ROUNDS = 9  # 34E1: events of nine or more rounds drop two scores at each end instead of one

# 34E7 Kashdan: 4 for a win, 2 for a draw, 1 for a loss, 0 for an unplayed game.
KASHDAN = np.zeros(len(KINDS), dtype=np.int64)
KASHDAN[[WIN, DRAW, LOSS]] = (4, 2, 1)

# 34E3: "subtract one point for each one-point bye or forfeit win".
UNPLAYED_WINS = np.isin(np.arange(len(KINDS)), [FORFEIT_WIN, PAIRING_BYE, FULL_BYE])

OWN_UNPLAYED_NOTE = msg("own unplayed round: an opponent with adjusted score 0 (US Chess 34E1)")


# ---- adjusted scores (34E1) -----------------------------------------------------------


def counted_rounds(table: Table) -> np.ndarray:
    """The rounds that count as games, played or not, as a boolean matrix.

    In a round robin the idle round of an odd field (no scheduled opponent) is no game at
    all: it gives no ½ to the adjusted score and no 0-opponent to the medians or SB.
    """
    if table.system is not System.ROUND_ROBIN:
        return np.ones(table.kind.shape, dtype=bool)
    scheduled: np.ndarray = table.opp != NO_OPPONENT
    return scheduled


def adjusted_scores(table: Table) -> np.ndarray:
    """Every player's score as opponents count it: unplayed games count as a draw each (34E1)."""
    unplayed = counted_rounds(table) & ~IS_PLAYED[table.kind]
    adjusted: np.ndarray = table.score + np.where(unplayed, table.draw - table.pts, 0).sum(axis=1)
    return adjusted


class _Opposition:
    """Per player and counted round: the opponent's adjusted score, 0 for an own unplayed round."""

    def __init__(self, table: Table) -> None:
        self.counted = counted_rounds(table)
        self.played = IS_PLAYED[table.kind] & (table.opp != NO_OPPONENT)
        self.adjusted = adjusted_scores(table)
        self.key = np.where(self.played, self.adjusted[np.where(self.played, table.opp, 0)], 0)


def _opposition(ctx: Context) -> _Opposition:
    return ctx.cached("uscf-opposition", lambda: _Opposition(ctx.table))


def opposition_cells(ctx: Context) -> tuple[np.ndarray, np.ndarray]:
    """Per player and round, the opponent's adjusted score (0 for an own unplayed round) and whether
    the round counts: the cells Solkoff, the Medians and SB sum (the scenario solver reads them)."""
    opposition = _opposition(ctx)
    return opposition.key, opposition.counted


def median_drops(table: Table, modified: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per player, how many of the lowest and highest adjusted scores the Median (or Modified
    Median) drops (34E1)."""
    low, high, _ = _drops(table, counted_rounds(table), modified)
    return low, high


def _adjusted_note(ctx: Context, q: int) -> str | None:
    """Why an opponent's adjusted score differs from the face value, if it does."""
    table, opposition = ctx.table, _opposition(ctx)
    adjusted = int(opposition.adjusted[q])
    if adjusted == table.scores[q]:
        return None
    unplayed = int((opposition.counted[q] & ~IS_PLAYED[table.kind[q]]).sum())
    return msg_n(
        "adjusted score {adjusted} (score {score}; {n} unplayed game counted as a draw, US Chess 34E1)",
        "adjusted score {adjusted} (score {score}; {n} unplayed games counted as draws, US Chess 34E1)",
        unplayed,
        adjusted=adjusted / table.scale,
        score=table.scores[q] / table.scale,
    )


def _opposition_contributions(
    ctx: Context, rows: list[int], value: np.ndarray | None = None, value_scale: int = 1, result: bool = False
) -> list[list[Any]]:
    """Per row, one contribution per counted round: the opponent's adjusted score, or 0 for an
    unplayed round (`value`, in units of 1/value_scale, replaces the score as what is summed;
    `result`: the points scored in the round too, for Sonneborn-Berger)."""
    table, opposition = ctx.table, _opposition(ctx)
    scale = table.scale
    key = opposition.key[rows]
    played = opposition.played[rows]
    opp = np.where(played, table.opp[rows], 0)
    notes: dict[int, str | None] = ctx.cached("uscf-adjusted-notes", dict)
    for q in set(opp[played].tolist()) - notes.keys():
        notes[q] = _adjusted_note(ctx, q)
    face = table.score[opp]
    off_face = played & (key != face)
    nothing = np.full(key.shape, None, dtype=object)
    note = np.full(key.shape, OWN_UNPLAYED_NOTE, dtype=object)  # a Msg kept as it is, not as a numpy string
    note[played] = None
    cells = np.nonzero(played)
    note[cells] = [notes[q] for q in opp[cells].tolist()]
    fields: dict[str, object] = {
        "kind": np.where(played, "game", "unplayed").astype(object),
        "opponent": ctx.opponent_ids()[rows],
        "value": key / scale if value is None else value[rows] / value_scale,
        "unplayed": np.where(played, nothing, KIND_NAMES[table.kind[rows]]),
        "note": note,
        "opponent_score": np.where(played, (face / scale).astype(object), nothing),
        "counted_score": np.where(off_face, (key / scale).astype(object), nothing),
    }
    if result:
        fields["result"] = table.pts[rows] / scale
    return contribution_rows(ctx.contribution, opposition.counted[rows], fields)


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
    why: list[str] = [_WHY[k] for k in np.where(plus, 0, np.where(minus, 1, 2)).tolist()]
    return low, high, why


_WHY = (msg("plus score"), msg("minus score"), msg("even score"))


def _drop_reason(code: int, why: str) -> str:
    if code == HIGHEST:
        return msg("highest adjusted score dropped ({why}, US Chess 34E1)", why=why)
    return msg("lowest adjusted score dropped ({why}, US Chess 34E1)", why=why)


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
        for lo, hi in {(int(a), int(b)) for a, b in zip(low.tolist(), high.tolist(), strict=True)}:
            rows = (low == lo) & (high == hi)
            marks = cut_reasons(key[rows], key[rows], None, counted[rows], lo, hi)
            if marks is not None:
                reasons[rows] = marks

    def explain(rows: list[int]) -> Explanation:
        made = _opposition_contributions(ctx, rows)
        if reasons is None:
            return explanation(rows, made)
        assert low is not None and high is not None and why is not None
        _mark_drops(made, reasons[rows], opposition.counted[rows], [why[p] for p in rows])
        notes: list[str | None] = [
            msg("{why}: {drops} (US Chess 34E1)", why=why[p], drops=_describe_drops(lo, hi))
            if modified
            else msg("{drops} (US Chess 34E1)", drops=_describe_drops(lo, hi))
            for p, lo, hi in zip(rows, low[rows].tolist(), high[rows].tolist(), strict=True)
        ]
        return explanation(rows, made, notes)

    return RuleOutcome.of(spec, kept_total(key, counted, reasons), table.scale, explain=explain)


def _mark_drops(made: list[list[Any]], reasons: np.ndarray, counted: np.ndarray, why: list[str]) -> None:
    """Mark the dropped contributions of each row (34E1), in place: they are made for this rule alone."""
    position = np.cumsum(counted, axis=1) - 1  # where each round's contribution sits in its row
    cut_rows, cut_rounds = np.nonzero(reasons)
    for i, j, code in zip(
        cut_rows.tolist(), position[cut_rows, cut_rounds].tolist(), reasons[cut_rows, cut_rounds].tolist(), strict=True
    ):
        mark_cut(made[i][j], _drop_reason(code, why[i]), "dropped-highest" if code == HIGHEST else "dropped-lowest")


def _describe_drops(low: int, high: int) -> str:
    lowest = msg("the two lowest") if low == 2 else msg("the lowest")
    highest = msg("the two highest") if high == 2 else msg("the highest")
    if low and high:
        return msg("{lowest} and {highest} adjusted score(s) dropped", lowest=lowest, highest=highest)
    return msg("{ends} adjusted score(s) dropped", ends=lowest if low else highest)


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
        cumulative: np.ndarray = np.cumsum(table.pts, axis=1).sum(axis=1) - table.win * unplayed_wins
        return cumulative

    return ctx.cached("uscf-cumulative", compute)


def cumulative(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """34E3: the running score after each round, summed, minus one point per unplayed win."""
    table = ctx.table

    def explain(rows: list[int]) -> Explanation:
        every = np.ones(table.pts[rows].shape, dtype=bool)
        running = contribution_rows(
            ctx.contribution,
            every,
            {"kind": "running_score", "opponent": None, "value": np.cumsum(table.pts[rows], axis=1) / table.scale},
        )
        unplayed_wins = contribution_rows(
            ctx.contribution,
            UNPLAYED_WINS[table.kind[rows]],
            {
                "kind": "unplayed_win",
                "opponent": None,
                "value": -table.win / table.scale,
                "unplayed": KIND_NAMES[table.kind[rows]],
                "note": "one point subtracted for an unplayed win (US Chess 34E3)",
            },
        )
        return explanation(rows, [a + b for a, b in zip(running, unplayed_wins, strict=True)])

    return RuleOutcome.of(spec, _cumulative_values(ctx), table.scale, explain=explain)


def cumulative_of_opposition(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """34E9: the sum of the opponents' cumulative tie-break scores (34E3); unplayed rounds add 0."""
    table = ctx.table
    cum = _cumulative_values(ctx)
    played = IS_PLAYED[table.kind] & (table.opp != NO_OPPONENT)
    opp = np.where(played, table.opp, 0)

    def explain(rows: list[int]) -> Explanation:
        here = played[rows]
        nothing = np.full(here.shape, None, dtype=object)
        fields = {
            "kind": np.where(here, "opponent_value", "unplayed").astype(object),
            "opponent": ctx.opponent_ids()[rows],
            "value": np.where(here, cum[opp[rows]], 0) / table.scale,
            "unplayed": np.where(here, nothing, KIND_NAMES[table.kind[rows]]),
            "note": np.where(
                here,
                "the opponent's cumulative score (US Chess 34E3)",
                "own unplayed round adds nothing (US Chess 34E9)",
            ).astype(object),
        }
        return explanation(rows, contribution_rows(ctx.contribution, np.ones(here.shape, dtype=bool), fields))

    return RuleOutcome.of(spec, np.where(played, cum[opp], 0).sum(axis=1), table.scale, explain=explain)


# ---- Kashdan, Sonneborn-Berger (34E7, 34E8) ---------------------------------------------


def kashdan(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """34E7: 4 points for a win, 2 for a draw, 1 for a loss, 0 for an unplayed game."""
    table = ctx.table
    points = KASHDAN[table.kind]

    def explain(rows: list[int]) -> Explanation:
        kinds = table.kind[rows]
        names = KIND_NAMES[kinds]
        fields = {
            "kind": names,
            "opponent": ctx.opponent_ids()[rows],
            "value": points[rows] / 1,
            "unplayed": np.where(IS_PLAYED[kinds], None, names),
        }
        return explanation(rows, contribution_rows(ctx.contribution, np.ones(kinds.shape, dtype=bool), fields))

    return RuleOutcome.of(spec, points.sum(axis=1), 1, explain=explain)


def sonneborn_berger(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """34E8: the adjusted scores of the opponents beaten plus half those of the opponents drawn.

    Each opponent's adjusted score times the points scored against them over the
    board; an own unplayed round is an opponent with adjusted score 0 (34E1).
    """
    table = ctx.table
    opposition = _opposition(ctx)
    value = opposition.key * table.pts

    def explain(rows: list[int]) -> Explanation:
        return explanation(rows, _opposition_contributions(ctx, rows, value, table.scale * table.scale, result=True))

    return RuleOutcome.of(spec, kept_total(value, opposition.counted, None), table.scale * table.scale, explain=explain)


# ---- Result between tied players (34E4) -------------------------------------------------


def result_between_tied_players(ctx: Context, spec: RuleSpec, groups: list[list[int]]) -> RuleOutcome:
    """34E4: inside each group tied on all earlier rules, wins minus losses in the games
    the tied players played against each other ("plus or minus, not percentage").

    Only games played over the board count. A group whose games leave everyone
    equal (or who never met) is not separated.
    """
    table = ctx.table
    values: list[int] = [0] * table.size
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
                        ctx.contribution(r + 1, "encounter", table.ids[q], float(step), note=kind.value)
                    )
            values[p] = balance
        everyone_met = all(len(met[p]) == len(group) - 1 for p in group)
        separated = len({values[p] for p in group}) > 1
        for p in group:
            notes[p] = "wins minus losses against the other tied players (US Chess 34E4)" + (
                "" if everyone_met else "; not all of them met"
            )
        if not everyone_met and not separated:
            unresolved.append(group)

    def explain(rows: list[int]) -> Explanation:
        return explanation(rows, [encounters.get(p, []) for p in rows], list(map(notes.get, rows)))

    return RuleOutcome.of(spec, np.asarray(values, dtype=np.int64), 1, explain=explain, unresolved=unresolved)


# ---- Rating-based (34E10, 34E11) ----------------------------------------------------------

RULE_OF_400 = 400  # the linear performance: opposition average + 400 × (wins − losses) / games


def performances(ctx: Context) -> np.ndarray:
    """Each player's performance over the board: ARO + 400 × (W − L) / N, rounded half up."""

    def compute() -> np.ndarray:
        games = _games(ctx)
        balance = np.where(games.played, games.halves - 1, 0).sum(axis=1)  # W − L from half points 2/1/0
        # ARO is whole, so round(ARO + 400 b / N) = ARO + round(400 b / N)
        performance: np.ndarray = _plain_aro(ctx) + round_half_up_div(RULE_OF_400 * balance, np.maximum(games.count, 1))
        return performance

    return ctx.cached("uscf-performance", compute)


def opposition_performance(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """34E11: the mean of the opponents' performance ratings, each over the board."""
    games = _games(ctx)
    perf = performances(ctx)
    count = games.count
    total = np.where(games.played, perf[games.opponent], 0).sum(axis=1)

    def explain(rows: list[int]) -> Explanation:
        fields = {
            "kind": "opponent_value",
            "opponent": ctx.opponent_ids()[rows],
            "value": perf[games.opponent[rows]] / 1,
            "note": "the opponent's performance: their opposition's average + 400 × (wins − losses) / games",
        }
        return explanation(
            rows,
            contribution_rows(ctx.contribution, games.played[rows], fields),
            mean_notes(total[rows], 1, count[rows], msg("mean performance of the opponents")),
        )

    return RuleOutcome.of(spec, round_half_up_div(total, np.maximum(count, 1)), 1, missing=count == 0, explain=explain)
