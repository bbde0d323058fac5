"""The team rules (C.07 11-13): each a pass over the score tables or the board table.

The individual rules of articles 6-9 run unchanged on the table of their reference score
(`BH:MP` is Buchholz over the match-point table). The team-only rules: `MPvGP` (13.1),
the extended Sonneborn-Berger family (13.2), extended direct encounter and its 2026
chains (13.3), the score-strength combination (13.4), and the board rules BC, TBR, BBE
(12.1-12.3). Values and breakdowns come from the same columns.
"""

from __future__ import annotations

from collections.abc import Callable

from fractions import Fraction

import numpy as np

from ..contributions import Contribution, Explanation, RuleOutcome, explanation
from ..families import buchholz, counts
from ..families.buchholz import with_cuts
from ..model import System
from ..modifiers import cut_label, cut_reasons, kept_total
from ..rounding import round_half_up_div
from ..rules import RuleSpec
from ..table import HAS_OPPONENT, IS_PLAYED, NO_OPPONENT, WIN, Table
from ...texts.message import Joined, Msg, made, msg
from .context import TeamContext
from .model import Score

NOT_SEPARATED = 0


# ---------------------------------------------------------------- the scores themselves


def points(ctx: TeamContext, spec: RuleSpec) -> RuleOutcome:
    """PTS on its reference score (C.07 7.1, 11): match points, or game points with `:GP`."""
    return counts.points(ctx.on(ctx.score_of(spec)), spec)


def secondary_score(ctx: TeamContext, spec: RuleSpec) -> RuleOutcome:
    """MPvGP (C.07 13.1): the other score — game points when match points are primary, and back."""
    outcome = counts.points(ctx.on(ctx.secondary), spec)
    contributions = outcome.explain
    note = msg("{score}, the secondary score", score=ctx.secondary.value)

    def explain(rows: list[int]) -> Explanation:
        return explanation(rows, contributions(rows).contributions, [note] * len(rows))

    outcome.explain = explain
    return outcome


def on_reference(rule: Callable[..., RuleOutcome]) -> Callable[..., RuleOutcome]:
    """An individual rule computed on the table of the spec's reference score."""

    def compute(ctx: TeamContext, spec: RuleSpec, *groups: list[list[int]]) -> RuleOutcome:
        return rule(ctx.on(ctx.score_of(spec)), spec, *groups)

    compute.__doc__ = rule.__doc__
    return compute


def no_team_meaning(ctx: TeamContext, spec: RuleSpec) -> RuleOutcome:
    """Rating rules (C.07 10) and colour counts have no team meaning: always dropped with a warning
    (the ranking never calls this; it stands for completeness)."""
    return RuleOutcome.dropped(spec, ctx.table.size, msg("no team meaning"))


# ---------------------------------------------------------------- counts of matches


def matches_won(ctx: TeamContext, spec: RuleSpec) -> RuleOutcome:
    """WIN for teams (C.07 7.2): matches that brought the match points of a win, played or not
    (forfeit win, full-point bye; a pairing-allocated bye only when it is worth a win)."""
    table = ctx.mp.table
    won = table.pts == table.win
    return _count(ctx, spec, won)


def matches_won_played(ctx: TeamContext, spec: RuleSpec) -> RuleOutcome:
    """WON for teams (C.07 7.3): matches won over the board."""
    return _count(ctx, spec, ctx.mp.table.kind == WIN)


def _count(ctx: TeamContext, spec: RuleSpec, counted: np.ndarray) -> RuleOutcome:
    mp = ctx.mp

    def explain(rows: list[int]) -> Explanation:
        return explanation(rows, counts.round_contributions(mp, rows, None, 1, counted[rows]))

    return RuleOutcome.of(spec, counted.sum(axis=1), 1, explain=explain)


def standard_points(ctx: TeamContext, spec: RuleSpec) -> RuleOutcome:
    """STD for teams (C.07 7.7): per match 1 won, ½ drawn, 0 lost, by its match points."""
    return counts.standard_points(ctx.mp, spec)


def games_elected(ctx: TeamContext, spec: RuleSpec) -> RuleOutcome:
    """GE for teams (C.07 7.6): matches played, plus rounds scored without play that the team did not decline."""
    return counts.count_rounds(ctx.mp, RuleSpec("GE") if spec.code == "GE" else spec)


def pairing_number(ctx: TeamContext, spec: RuleSpec) -> RuleOutcome:
    """TPN: the team pairing number, lower is better."""
    return counts.pairing_number(ctx.on(ctx.primary), spec)


# ---------------------------------------------------------------- extended Sonneborn-Berger (13.2)

ESB_SCORES = {
    "EMMSB": (Score.MP, Score.MP),
    "EMGSB": (Score.MP, Score.GP),
    "EGMSB": (Score.GP, Score.MP),
    "EGGSB": (Score.GP, Score.GP),
}


def esb_scores(code: str, primary: Score) -> tuple[Score, Score]:
    """(the opponent's total, what the team scored against it): ESB is EMGSB, or EGMSB when GP is primary."""
    if code == "ESB":
        return primary, primary.other
    return ESB_SCORES[code]


def extended_sonneborn_berger(ctx: TeamContext, spec: RuleSpec) -> RuleOutcome:
    """Per opponent, the opponent's total on the first-named score × what the team scored against
    it on the second-named score, summed (C.07 13.2). Unplayed rounds in a Swiss count a dummy
    opponent (16.4, capped in 2026) times what the round brought; a cut removes the opponent with
    the lowest total first (14.1.2), voluntarily unplayed rounds before it when not smaller (16.5)."""
    first, second = esb_scores(spec.code, ctx.primary)
    fctx, scored = ctx.on(first), ctx.on(second).table.pts
    low, high = spec.cut or spec.median, spec.median
    columns = fctx.opponent_columns(spec.forfeits_played)
    value = columns.key * scored
    reasons = cut_reasons(columns.key, value, columns.vur if columns.any_vur else None, columns.counted, low, high)
    table = fctx.table
    scale = table.scale * table.scale
    label = cut_label(low, high)
    second_scale = ctx.on(second).table.scale
    note = msg(
        "opponent's {first} × the team's {second} in the match (C.07 13.2)", first=first.value, second=second.value
    )
    uncut = kept_total(value, columns.counted, None) if reasons is not None else None

    def explain(rows: list[int]) -> Explanation:
        out = buchholz.opponent_contributions(fctx, columns, value, rows, True)
        for p, row in zip(rows, out, strict=True):
            factors = (scored[p] / second_scale).tolist()
            for c in row:
                c.result = factors[c.round - 1]  # what the team scored, on the second-named score
        notes: list[str | None] = [note] * len(rows)
        if reasons is None or uncut is None:
            return explanation(rows, out, notes)
        return explanation(
            rows, with_cuts(out, reasons[rows], columns.counted[rows], label), notes, (uncut[rows] / scale).tolist()
        )

    return RuleOutcome.of(spec, kept_total(value, columns.counted, reasons), scale, explain=explain)


# ---------------------------------------------------------------- score-strength combination (13.4)


def normalising_factor(ctx: TeamContext, spec: RuleSpec) -> int:
    """The highest primary score achievable ÷ the highest secondary score of one match, rounded
    down (C.07 13.4): ⌊2 × rounds / team size⌋ with match points primary; at least 1."""
    if spec.factor is not None:
        return spec.factor
    primary, secondary = ctx.on(ctx.primary).table, ctx.on(ctx.secondary).table
    return max(1, (primary.win * primary.played_rounds) // secondary.win)


def score_strength(ctx: TeamContext, spec: RuleSpec) -> RuleOutcome:
    """SSSC (C.07 13.4): secondary score + Buchholz on the primary score ÷ the normalising factor,
    to two decimals, halves up. `/P` forfeits count as played, `/F` Fore Buchholz, `/K<n>` the factor."""
    prim = ctx.on(ctx.primary)
    bh_spec = RuleSpec("BH", forfeits_played=spec.forfeits_played)
    bh = (buchholz.fore_buchholz if spec.fore else buchholz.buchholz)(prim, bh_spec)
    secondary = ctx.on(ctx.secondary).table.score
    factor = normalising_factor(ctx, spec)
    scale = prim.table.scale
    hundredths = round_half_up_div(100 * (secondary * factor + bh.column), factor * scale)
    rule = msg("Fore Buchholz") if spec.fore else msg("Buchholz")

    def explain(rows: list[int]) -> Explanation:
        notes: list[str | None] = [
            msg(
                "{secondary} {s} + {rule} ({primary}) {b} / {factor} (normalising factor), to 2 decimals (C.07 13.4)",
                secondary=ctx.secondary.value,
                s=s / scale,
                rule=rule,
                primary=ctx.primary.value,
                b=b / scale,
                factor=factor,
            )
            for s, b in zip(secondary[rows].tolist(), bh.column[rows].tolist(), strict=True)
        ]
        return explanation(rows, bh.explain(rows).contributions, notes)

    return RuleOutcome.of(spec, hundredths, 100, contribution_scale=scale, explain=explain)


# ---------------------------------------------------------------- board rules (12)


def board_count(ctx: TeamContext, spec: RuleSpec) -> RuleOutcome:
    """BC (C.07 12.1): Σ board number × game points on that board over the rounds counted; lower
    is better (with equal game points, the points were made on higher boards)."""
    boards = ctx.boards
    totals = boards.totals()
    weights = np.arange(1, boards.team_size + 1, dtype=np.int64)

    def explain(rows: list[int]) -> Explanation:
        return explanation(rows, [_board_contributions(ctx, p, weights) for p in rows])

    return RuleOutcome.of(spec, totals @ weights, ctx.table.scale, lower_is_better=True, explain=explain)


def _board_contributions(ctx: TeamContext, p: int, weights: np.ndarray | None = None) -> list[Contribution]:
    """One contribution per board: its game points over the event (× the board number for BC)."""
    boards = ctx.boards
    scale = ctx.table.scale
    rows = []
    for b, total in enumerate(boards.totals()[p].tolist()):
        factor = 1 if weights is None else int(weights[b])
        unplayed = [_UNPLAYED_BOARD[how](r + 1) for r, how in enumerate(boards.how[p, :, b].tolist()) if how >= 3]
        if weights is None:
            note = msg("board {board}: {points} game points", board=b + 1, points=total / scale)
        else:
            note = msg(
                "board {board}: {points} game points × {factor}", board=b + 1, points=total / scale, factor=factor
            )
        if unplayed:
            note = Joined(note, msg(" (counted as board points: {rounds})", rounds=_listed(unplayed)))
        rows.append(ctx.contribution(None, "board", None, total * factor / scale, note=made(note)))
    return rows


# BOARD_HOW (build.py) 3 and 4: a forfeited match and a bye, which count as board points
_UNPLAYED_BOARD = {
    3: lambda r: msg("round {round} forfeited match", round=r),
    4: lambda r: msg("round {round} bye", round=r),
}


def _listed(texts: list[Msg]) -> Joined:
    """Texts separated by commas, each rendered on its own."""
    return _joined(texts, ", ")


def _board_vectors(ctx: TeamContext, code: str) -> np.ndarray:
    """Per team, the sequence the rule compares, most significant first, in game-point units.

    TBR (12.2): board 1's game points, then board 2's, ...; BBE (12.3): all boards but the
    last, then all but the last two, ..."""
    totals = ctx.boards.totals()
    if code == "TBR":
        return totals
    return np.cumsum(totals, axis=1)[:, -2::-1] if totals.shape[1] > 1 else totals


def board_elimination(ctx: TeamContext, spec: RuleSpec, groups: list[list[int]]) -> RuleOutcome:
    """TBR and BBE: inside each group tied on all earlier rules, the teams ordered by the board
    sequence (higher first); the value is the place in the group, 0 when it separates no one."""
    table = ctx.table
    vectors = _board_vectors(ctx, spec.code)
    scale = table.scale
    values = np.zeros(table.size, dtype=np.int64)
    notes: dict[int, Msg] = {}
    steps = _step_names(spec.code, vectors.shape[1])
    for group in groups:
        ordered = sorted(group, key=lambda p: (tuple(-vectors[p]), table.ids[p]))
        places, place = {}, 1
        for i, p in enumerate(ordered):
            if i and not np.array_equal(vectors[p], vectors[ordered[i - 1]]):
                place = i + 1
            places[p] = place
        separated = len(set(places.values())) > 1
        for i, p in enumerate(ordered):
            values[p] = places[p] if separated else NOT_SEPARATED
            if not separated:
                notes[p] = msg("equal on every board with {teams}", teams=_names(table, group, p))
                continue
            notes[p] = msg("place {place}", place=places[p])
            if i + 1 < len(ordered):
                nxt = ordered[i + 1]
                diff = np.flatnonzero(vectors[p] != vectors[nxt])
                if len(diff):
                    k = int(diff[0])
                    notes[p] = Joined(
                        notes[p],
                        msg(
                            "; ahead of {team} on {step}: {points} against {other}",
                            team=table.ids[nxt],
                            step=steps[k],
                            points=float(vectors[p][k]) / scale,
                            other=float(vectors[nxt][k]) / scale,
                        ),
                    )

    def explain(rows: list[int]) -> Explanation:
        return explanation(rows, [_board_contributions(ctx, p) for p in rows], list(map(notes.get, rows)))

    return RuleOutcome.of(spec, values, 1, lower_is_better=True, contribution_scale=scale, explain=explain)


def _step_names(code: str, n: int) -> list[Msg]:
    if code == "TBR":
        return [msg("board {board}", board=b + 1) for b in range(n)]
    return [msg("all boards but the last {count}", count=k + 1) for k in range(n)]


def _names(table: Table, group: list[int], p: int) -> str:
    return ", ".join(str(table.ids[q]) for q in sorted(group, key=table.ids.__getitem__) if q != p)


# ---------------------------------------------------------------- extended direct encounter (13.3)

EDE_CHAINS = {"DE": "P", "EDE": "PS", "EDEC": "PSC", "EDET": "PST", "EDEB": "PSB", "EDEBT": "PSCT", "EDEBB": "PSCB"}
STEP_NAMES = {
    "P": msg("primary score"),
    "S": msg("secondary score"),
    "C": msg("board count"),
    "T": msg("top-board result"),
    "B": msg("bottom-board elimination"),
}


def _chain(code: str, team_size: int) -> list[tuple[str, int]]:
    """The steps of an EDE chain: (kind, position); T and B repeat once per board (T: board 1,
    board 2, ...; B: without the last board, without the last two, ...)."""
    steps: list[tuple[str, int]] = []
    for kind in EDE_CHAINS[code]:
        repeat = team_size if kind == "T" else team_size - 1 if kind == "B" else 1
        steps += [(kind, k) for k in range(max(repeat, 1))]
    return steps


class _Encounters:
    """The matches between members of a tied group: mutual scores on either score, board points."""

    def __init__(self, ctx: TeamContext, spec: RuleSpec):
        table = ctx.table
        self.ctx = ctx
        self.round_robin = table.system is System.ROUND_ROBIN
        counts_forfeits = spec.forfeits_played or self.round_robin
        self.counted = (HAS_OPPONENT if counts_forfeits else IS_PLAYED)[table.kind] & (table.opp != NO_OPPONENT)

    def meetings(self, p: int, members: set[int]) -> list[int]:
        opp = self.ctx.table.opp[p]
        return [r for r in np.flatnonzero(self.counted[p]).tolist() if int(opp[r]) in members]

    def split(self, cls: list[int], kind: str, position: int) -> tuple[list[list[int]], dict[int, str]]:
        """Apply one step to one class of tied teams: the ordered sub-classes, and what it found."""
        ctx = self.ctx
        members = set(cls)
        value: Callable[[int, int], int]
        if kind in "PS":
            score = ctx.primary if kind == "P" else ctx.secondary
            table = ctx.on(score).table
            value = lambda p, r: int(table.pts[p, r])  # noqa: E731
            win = table.win
            higher_is_better = True
        else:
            if len(cls) != 2:  # C.07 13.3: the board steps apply when exactly two teams are still tied
                return [cls], {}
            n = ctx.boards.team_size
            if kind == "C":
                weights = np.arange(1, n + 1, dtype=np.int64)
                higher_is_better = False  # as BC (12.1): the same points on higher boards are better
            elif kind == "T":
                weights = (np.arange(n) == position).astype(np.int64)
                higher_is_better = True
            else:
                weights = (np.arange(n) < n - 1 - position).astype(np.int64)
                higher_is_better = True
            boards = ctx.boards.pts
            value = lambda p, r: int(boards[p, r] @ weights)  # noqa: E731
            win = 0
        mutual: dict[int, Fraction] = {}
        met: dict[int, set[int]] = {}
        for p in cls:
            by_opponent: dict[int, list[int]] = {}
            for r in self.meetings(p, members):
                by_opponent.setdefault(int(ctx.table.opp[p, r]), []).append(value(p, r))
            # C.07 6.1.2: teams that met more than once count the average of their matches
            mutual[p] = sum((Fraction(sum(v), len(v)) for v in by_opponent.values()), Fraction(0))
            met[p] = set(by_opponent)
        scale = ctx.table.scale
        found = {p: _shown(mutual[p] / scale) for p in cls}
        all_met = self.round_robin or all(len(met[p]) == len(cls) - 1 for p in cls)
        sign = -1 if higher_is_better else 1
        if all_met:
            by_value: dict[Fraction, list[int]] = {}
            for p in cls:
                by_value.setdefault(mutual[p], []).append(p)
            return [by_value[v] for v in sorted(by_value, key=lambda v: sign * v)], found
        if kind not in "PS":
            return [cls], found
        # C.07 6.3 (Swiss, not all met): a team stays alone on top when its mutual score beats
        # every other's highest possible one (every missing match won); peeled one at a time.
        highest = {p: mutual[p] + win * (len(cls) - 1 - len(met[p])) for p in cls}
        ordered = sorted(cls, key=lambda p: (-mutual[p], -highest[p], ctx.table.ids[p]))
        parts = []
        i = 0
        while i < len(ordered) - 1 and mutual[ordered[i]] > max(highest[q] for q in ordered[i + 1 :]):
            parts.append([ordered[i]])
            i += 1
        parts.append(ordered[i:])
        for p in cls:
            found[p] = msg("{score} (at most {highest})", score=found[p], highest=_shown(highest[p] / scale))
        return parts, found


def _refine(
    classes: list[list[int]],
    encounters: _Encounters,
    steps: list[tuple[str, int]],
    log: dict[int, list[Msg]],
    table: Table,
) -> list[list[int]]:
    """The classes of a tied group after the chain (C.07 13.3): each step again on the classes it
    leaves tied until it separates no more, then the next, round the chain until a whole turn
    changes nothing (bounded, whatever the input). What each step found goes into `log`."""
    i, idle = 0, 0
    guard = 0
    while idle < len(steps) and guard < 100 * len(steps):
        kind, position = steps[i]
        changed = False
        while True:
            guard += 1
            refined: list[list[int]] = []
            for cls in classes:
                if len(cls) < 2:
                    refined.append(cls)
                    continue
                parts, found = encounters.split(cls, kind, position)
                if len(parts) > 1:
                    _log_step(log, cls, found, kind, position, table)
                refined += parts
            if len(refined) == len(classes):
                break
            classes, changed = refined, True
        idle = 1 if changed else idle + 1
        i = (i + 1) % len(steps)
    return classes


def _log_step(
    log: dict[int, list[Msg]], cls: list[int], found: dict[int, str], kind: str, position: int, table: Table
) -> None:
    """A step that separated a class: what each of its teams scored in the matches between them."""
    what: Msg = STEP_NAMES[kind]
    if kind == "T":
        what = Joined(what, msg(" (board {board})", board=position + 1))
    elif kind == "B":
        what = Joined(what, msg(" (without the last {count})", count=position + 1))
    teams = ", ".join(str(table.ids[q]) for q in sorted(cls, key=table.ids.__getitem__))
    for p in cls:
        log[p].append(msg("{step}: {score} in the matches between {teams}", step=what, score=found[p], teams=teams))


def _encounter_contributions(
    ctx: TeamContext, encounters: _Encounters, p: int, members: set[int]
) -> list[Contribution]:
    """A team's matches against the others of its group: its points on the primary score, the secondary as the result."""
    table, secondary = ctx.table, ctx.on(ctx.secondary).table
    return [
        ctx.contribution(
            r + 1,
            "encounter",
            table.ids[table.opp[p, r]],
            int(table.pts[p, r]) / table.scale,
            result=int(secondary.pts[p, r]) / secondary.scale,
        )
        for r in encounters.meetings(p, members)
    ]


def _joined(texts: list[Msg], sep: str) -> Joined:
    """Texts with a separator between them, each rendered on its own."""
    parts: list[object] = []
    for i, text in enumerate(texts):
        parts += [sep, text] if i else [text]
    return Joined(*parts)


def _shown(value: Fraction) -> str:
    """A mutual score as text: exact where it is a decimal (1.5), else as a fraction (4/3)."""
    return f"{float(value):g}" if (value * 100).denominator == 1 else f"{value.numerator}/{value.denominator}"


def extended_direct_encounter(ctx: TeamContext, spec: RuleSpec, groups: list[list[int]]) -> RuleOutcome:
    """DE for teams and EDE with its chains (C.07 6, 13.3), inside each group tied on all earlier
    rules: the matches between the tied teams on the primary score, then on the secondary score,
    again and again on the teams still tied until neither separates more; EDEC/EDET/EDEB/EDEBT/EDEBB
    then compare exactly two teams still tied by board count, top-board result or bottom-board
    elimination in their match(es). The value is the place in the group, 0 when it separates no one."""
    table = ctx.table
    encounters = _Encounters(ctx, spec)
    steps = _chain(spec.code, ctx.boards.team_size)
    values = np.zeros(table.size, dtype=np.int64)
    notes: dict[int, Msg] = {}
    contributions: dict[int, list[Contribution]] = {}
    unresolved: list[list[int]] = []
    for group in groups:
        log: dict[int, list[Msg]] = {p: [] for p in group}
        classes = _refine([list(group)], encounters, steps, log, table)
        separated = len(classes) > 1
        place = 1
        members = set(group)
        for cls in classes:
            for p in cls:
                values[p] = place if separated else NOT_SEPARATED
                if not separated:
                    notes[p] = msg("the matches between the tied teams do not separate them (C.07 13.3)")
                elif log[p]:
                    notes[p] = msg("place {place}: {steps}", place=place, steps=_joined(log[p], "; "))
                else:
                    notes[p] = msg("shares place {place}", place=place)
                contributions[p] = _encounter_contributions(ctx, encounters, p, members)
            place += len(cls)
        if not separated and any(
            len({int(table.opp[p, r]) for r in encounters.meetings(p, members)}) < len(group) - 1 for p in group
        ):
            unresolved.append(group)

    def explain(rows: list[int]) -> Explanation:
        return explanation(rows, [contributions.get(p, []) for p in rows], list(map(notes.get, rows)))

    return RuleOutcome.of(
        spec, values, 1, lower_is_better=True, contribution_scale=table.scale, explain=explain, unresolved=unresolved
    )
