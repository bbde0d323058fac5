"""US Chess tie-breaks (rule 34E of the US Chess Federation's Official Rules of Chess, 7th edition).

US Chess handles unplayed games its own way (34E1), for every rule here:
  * an opponent's score is *adjusted*: each of the opponent's unplayed games (byes,
    forfeits won or lost, rounds not played after withdrawing) counts as a draw;
  * the player's own unplayed games count as opponents with an adjusted score of 0.

The rules follow the engine's pattern: contributions first (one per round), then
the drops of the Median systems, then the sum. Without explanations the values
are computed from plain lists, without Contribution objects.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import accumulate

from ..context import Context
from ..contributions import Contribution, RuleOutcome
from ..crosstable import NO_OPPONENT, Crosstable
from ..model import ResultKind, System
from ..modifiers import HIGHEST, select_cuts
from ..rounding import mean_note, round_half_up
from ..rules import RuleSpec
from .rating import _played, _plain_aro

MANY_ROUNDS = 9  # 34E1: events of nine or more rounds drop two scores at each end instead of one

# 34E7 Kashdan: 4 for a win, 2 for a draw, 1 for a loss, 0 for an unplayed game.
KASHDAN = {ResultKind.WIN: 4, ResultKind.DRAW: 2, ResultKind.LOSS: 1}

# 34E3: "subtract one point for each one-point bye or forfeit win".
UNPLAYED_WINS = frozenset({ResultKind.FORFEIT_WIN, ResultKind.PAIRING_BYE, ResultKind.FULL_BYE})

OWN_UNPLAYED_NOTE = "own unplayed round: an opponent with adjusted score 0 (US Chess 34E1)"


def _fmt(units: int, scale: int) -> str:
    return f"{units / scale:g}"


# ---- adjusted scores (34E1) -----------------------------------------------------------

def counted_rounds(table: Crosstable) -> list[list[int]]:
    """Per player, the 0-based rounds that count as games, played or not.

    In a round robin the idle round of an odd field (no scheduled opponent) is no game at
    all: it gives no ½ to the adjusted score and no 0-opponent to the medians or SB.
    """
    every = list(range(table.played_rounds))
    if table.system is not System.ROUND_ROBIN:
        return [every] * table.size
    return [[r for r in every if opps[r] != NO_OPPONENT] for opps in table.opponents]


def adjusted_scores(table: Crosstable) -> list[int]:
    """Every player's score as opponents count it: unplayed games count as a draw each (34E1)."""
    draw = table.draw
    idle_free = counted_rounds(table)
    return [
        sum(points) + sum(draw - points[r] for r in rounds if not kinds[r].is_played)
        for kinds, points, rounds in zip(table.kinds, table.points, idle_free)
    ]


def _adjusted(ctx: Context) -> list[int]:
    return ctx.cached("uscf-adjusted", lambda: adjusted_scores(ctx.table))


def _counted(ctx: Context) -> list[list[int]]:
    return ctx.cached("uscf-counted-rounds", lambda: counted_rounds(ctx.table))


def _adjusted_note(ctx: Context, q: int) -> str | None:
    """Why an opponent's adjusted score differs from the face value, if it does."""
    table = ctx.table
    adjusted = _adjusted(ctx)[q]
    if adjusted == table.scores[q]:
        return None
    unplayed = sum(1 for r in _counted(ctx)[q] if not table.kinds[q][r].is_played)
    return (f"adjusted score {_fmt(adjusted, table.scale)} (score {_fmt(table.scores[q], table.scale)}; "
            f"{unplayed} unplayed game(s) counted as draws, US Chess 34E1)")


def _opposition(ctx: Context) -> list[list[int]]:
    """Per player, per counted round: the opponent's adjusted score, 0 for an own unplayed round (34E1)."""
    def compute() -> list[list[int]]:
        table, adjusted = ctx.table, _adjusted(ctx)
        return [
            [adjusted[opps[r]] if kinds[r].is_played else 0 for r in rounds]
            for kinds, opps, rounds in zip(table.kinds, table.opponents, _counted(ctx))
        ]
    return ctx.cached("uscf-opposition", compute)


def _opposition_contributions(ctx: Context, p: int) -> list[Contribution]:
    """One contribution per counted round: the opponent's adjusted score, or 0 for an unplayed round."""
    table = ctx.table
    notes = ctx.cached("uscf-adjusted-notes", dict)
    rows = []
    for r, key in zip(_counted(ctx)[p], _opposition(ctx)[p]):
        kind, q = table.kinds[p][r], table.opponents[p][r]
        if kind.is_played:
            if q not in notes:
                notes[q] = _adjusted_note(ctx, q)
            rows.append(Contribution(r + 1, "game", key, key, opponent=table.ids[q], note=notes[q]))
        else:
            rows.append(Contribution(r + 1, "unplayed", 0, 0, opponent=table.ids[q] if q != NO_OPPONENT else None,
                                     unplayed=kind, note=OWN_UNPLAYED_NOTE))
    return rows


# ---- Solkoff, Median, Modified Median (34E1, 34E2) -------------------------------------

def _drops(ctx: Context, p: int, modified: bool) -> tuple[int, int, str]:
    """How many of the lowest and highest adjusted scores the Median systems drop, and why."""
    table = ctx.table
    n = 2 if table.played_rounds >= MANY_ROUNDS else 1  # 34E1: two of each in 9+ rounds
    if not modified:
        return n, n, "Median"
    # 34E1: an even score is exactly half the maximum possible score (over the games the
    # player was scheduled to play: a round robin's idle round is none).
    twice, maximum = 2 * table.scores[p], table.win * len(_counted(ctx)[p])
    if twice > maximum:
        return n, 0, "plus score"
    if twice < maximum:
        return 0, n, "minus score"
    return n, n, "even score"


def _drop_reason(reason: str, why: str) -> str:
    end = "highest" if reason == HIGHEST else "lowest"
    return f"{end} adjusted score dropped ({why}, US Chess 34E1)"


def _median_family(ctx: Context, spec: RuleSpec, modified: bool | None) -> RuleOutcome:
    """Solkoff (modified None), Median (False), Modified Median (True)."""
    table = ctx.table
    opposition = _opposition(ctx)
    values: list[int | None] = []
    all_contributions: list[list[Contribution]] | None = [] if ctx.explain else None
    notes: list[str | None] | None = [] if ctx.explain else None
    for p in range(table.size):
        keys = opposition[p]
        if modified is None:
            low = high = 0
            why = ""
        else:
            low, high, why = _drops(ctx, p, modified)
        if not ctx.explains(p):
            if low or high:
                ordered = sorted(keys)
                kept = ordered[low: len(ordered) - high] if len(ordered) > low + high else []
                values.append(sum(kept))
            else:
                values.append(sum(keys))
            if all_contributions is not None:
                all_contributions.append([])
                notes.append(None)
            continue
        rows = _opposition_contributions(ctx, p)
        dropped = set()
        for i, reason in select_cuts(keys, keys, None, low, high):
            rows[i].cut_reason = _drop_reason(reason, why)
            dropped.add(i)
        values.append(sum(k for i, k in enumerate(keys) if i not in dropped))
        all_contributions.append(rows)
        if modified is not None:
            what = (f"{why}: " if modified else "") + _describe_drops(low, high)
            notes.append(what + " (US Chess 34E1)")
        else:
            notes.append(None)
    return RuleOutcome(spec, values, table.scale, all_contributions, notes=notes)


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

def _cumulative_values(ctx: Context) -> list[int]:
    def compute() -> list[int]:
        table = ctx.table
        win = table.win
        return [
            sum(accumulate(points)) - win * sum(1 for kind in kinds if kind in UNPLAYED_WINS)
            for kinds, points in zip(table.kinds, table.points)
        ]
    return ctx.cached("uscf-cumulative", compute)


def cumulative(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """34E3: the running score after each round, summed, minus one point per unplayed win."""
    table = ctx.table
    values: list[int | None] = list(_cumulative_values(ctx))
    outcome = RuleOutcome(spec, values, table.scale)
    if ctx.explain:
        outcome.contributions = []
        for p in range(table.size):
            if not ctx.explains(p):
                outcome.contributions.append([])
                continue
            kinds = table.kinds[p]
            rows = [Contribution(r + 1, "running_score", v, r) for r, v in enumerate(accumulate(table.points[p]))]
            rows += [
                Contribution(r + 1, "unplayed_win", -table.win, r, unplayed=kind,
                             note="one point subtracted for an unplayed win (US Chess 34E3)")
                for r, kind in enumerate(kinds) if kind in UNPLAYED_WINS
            ]
            outcome.contributions.append(rows)
    return outcome


def cumulative_of_opposition(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """34E9: the sum of the opponents' cumulative tie-break scores (34E3); unplayed rounds add 0."""
    table = ctx.table
    cum = _cumulative_values(ctx)
    values: list[int | None] = []
    all_contributions: list[list[Contribution]] | None = [] if ctx.explain else None
    for p in range(table.size):
        kinds, opps = table.kinds[p], table.opponents[p]
        values.append(sum(cum[q] for kind, q in zip(kinds, opps) if kind.is_played))
        if all_contributions is not None:
            all_contributions.append([] if not ctx.explains(p) else [
                Contribution(r + 1, "opponent_value", cum[q], cum[q], opponent=table.ids[q],
                             note="the opponent's cumulative score (US Chess 34E3)")
                if kind.is_played else
                Contribution(r + 1, "unplayed", 0, 0, opponent=table.ids[q] if q != NO_OPPONENT else None,
                             unplayed=kind, note="own unplayed round adds nothing (US Chess 34E9)")
                for r, (kind, q) in enumerate(zip(kinds, opps))
            ])
    return RuleOutcome(spec, values, table.scale, all_contributions)


# ---- Kashdan, Sonneborn-Berger (34E7, 34E8) ---------------------------------------------

def kashdan(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """34E7: 4 points for a win, 2 for a draw, 1 for a loss, 0 for an unplayed game."""
    table = ctx.table
    values: list[int | None] = []
    all_contributions: list[list[Contribution]] | None = [] if ctx.explain else None
    for p, (kinds, opps) in enumerate(zip(table.kinds, table.opponents)):
        values.append(sum(KASHDAN.get(kind, 0) for kind in kinds))
        if all_contributions is not None:
            all_contributions.append([] if not ctx.explains(p) else [
                Contribution(r + 1, kind.value, KASHDAN.get(kind, 0), r,
                             opponent=table.ids[q] if q != NO_OPPONENT else None,
                             unplayed=None if kind.is_played else kind)
                for r, (kind, q) in enumerate(zip(kinds, opps))
            ])
    return RuleOutcome(spec, values, 1, all_contributions)


def sonneborn_berger(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """34E8: the adjusted scores of the opponents beaten plus half those of the opponents drawn.

    Each opponent's adjusted score times the points scored against them over the
    board; an own unplayed round is an opponent with adjusted score 0 (34E1).
    """
    table = ctx.table
    opposition = _opposition(ctx)
    values: list[int | None] = [
        sum(k * points[r] for k, r in zip(keys, rounds))
        for keys, points, rounds in zip(opposition, table.points, _counted(ctx))
    ]
    outcome = RuleOutcome(spec, values, table.scale * table.scale)
    if ctx.explain:
        outcome.contributions = []
        for p in range(table.size):
            rows = _opposition_contributions(ctx, p) if ctx.explains(p) else []
            for row in rows:
                row.value = row.key * table.points[p][row.round - 1]
            outcome.contributions.append(rows)
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
    all_contributions: list[list[Contribution]] | None = (
        [[] for _ in range(table.size)] if ctx.explain else None
    )
    notes: list[str | None] = [None] * table.size
    unresolved: list[list[int]] = []
    for group in groups:
        if len(group) < 2:
            continue
        members = set(group)
        met: dict[int, set[int]] = {p: set() for p in group}
        for p in group:
            balance = 0
            for r, (kind, q) in enumerate(zip(table.kinds[p], table.opponents[p])):
                if q in members and kind.is_played:
                    met[p].add(q)
                    step = 1 if kind is ResultKind.WIN else -1 if kind is ResultKind.LOSS else 0
                    balance += step
                    if all_contributions is not None and ctx.explains(p):
                        all_contributions[p].append(
                            Contribution(r + 1, "encounter", step, r, opponent=table.ids[q], note=kind.value))
            values[p] = balance
        everyone_met = all(len(met[p]) == len(group) - 1 for p in group)
        separated = len({values[p] for p in group}) > 1
        for p in group:
            notes[p] = ("wins minus losses against the other tied players (US Chess 34E4)"
                        + ("" if everyone_met else "; not all of them met"))
        if not everyone_met and not separated:
            unresolved.append(group)
    outcome = RuleOutcome(spec, values, 1, all_contributions, notes=notes)
    outcome.unresolved = unresolved
    return outcome


# ---- Rating-based (34E10, 34E11) ----------------------------------------------------------

RULE_OF_400 = 400  # the linear performance: opposition average + 400 × (wins − losses) / games


def _performances(ctx: Context) -> list[int | None]:
    """Each player's performance over the board: ARO + 400 × (W − L) / N, rounded half up."""
    def compute() -> list[int | None]:
        aro = _plain_aro(ctx)
        values: list[int | None] = []
        for p in range(ctx.table.size):
            games = _played(ctx, p)
            if not games:
                values.append(None)
                continue
            balance = sum(h - 1 for _, _, h in games)  # standard half points 2/1/0: W − L
            values.append(round_half_up(aro[p] + Fraction(RULE_OF_400 * balance, len(games))))
        return values
    return ctx.cached("uscf-performance", compute)


def opposition_performance(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """34E11: the mean of the opponents' performance ratings, each over the board."""
    table = ctx.table
    perf = _performances(ctx)
    values: list[int | None] = []
    all_contributions: list[list[Contribution]] | None = [] if ctx.explain else None
    notes: list[str | None] | None = [] if ctx.explain else None
    for p in range(table.size):
        counted = [(rnd, q) for rnd, q, _ in _played(ctx, p) if perf[q] is not None]
        total = sum(perf[q] for _, q in counted)
        values.append(round_half_up(Fraction(total, len(counted))) if counted else None)
        if all_contributions is not None:
            explained = ctx.explains(p)
            all_contributions.append([
                Contribution(rnd, "opponent_value", perf[q], perf[q], opponent=table.ids[q],
                             note="the opponent's performance: their opposition's average + "
                                  "400 × (wins − losses) / games")
                for rnd, q in counted
            ] if explained else [])
            notes.append(mean_note(Fraction(total), len(counted), "mean performance of the opponents")
                         if explained else None)
    return RuleOutcome(spec, values, 1, all_contributions, notes=notes)
