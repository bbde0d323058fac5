"""The cost model: what a request will cost, known once its input is read, before the engine runs.

A request's work grows with players × rounds × rules, with the rankings it makes
(compare: one per rule list, each a whole standings in the answer), and with the rows
whose breakdown is built × rounds × rules; its memory grows with players × rounds
(every round of every player is a table cell, played or not) and with the
breakdowns. The gate (compute/gate.py) refuses a request whose estimate is over
`max_cost_s` or `max_memory_mib` (413, naming the limit), and computes a request on
the event loop only when its estimate is under `inline_max_cost_ms`.

The constants are measured, not guessed, on the current engine by

    .venv/bin/python -m tools.calibrate_cost --json run1.json   # half a minute
    .venv/bin/python -m tools.calibrate_cost --merge run1.json run2.json   # prints this block

which runs each shape in a fresh process (decode, read, engine, encode: what a
compute worker does) and fits the constants so that no shape is under-estimated, on
the shapes that cost most per unit: synthetic Swiss events and events without any
results (every round a dummy opponent: the most memory per cell), every breakdown,
`top` and a `player` list, compare with ten lists. On a shared machine: two runs at
the quietest time, the larger figure per constant (`--merge`). They are all in this
one place: re-run after an engine change, paste the block here and keep the runs in
docs/calibration/ (docs/benchmarks.md gives the current figures, docs/benchmarks-history.md the
earlier calibrations; tests/ops/test_cost_model.py
checks these constants over-estimate every recorded run).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TypedDict

from ..texts.message import Joined, msg, msg_n
from ..wire.limits import LimitExceeded, Limits, TooManyOpenGames

# ---- calibrated constants (tools/calibrate_cost.py, see the module docstring; the runs are in
# docs/calibration/, their figures in docs/benchmarks.md, "The cost model's calibration") ----
CALIBRATION = "2026-12-02"  # docs/calibration/2026-12-02-run1.json, -run2.json
SECONDS_PER_PLAYER = 1.64e-06  # one player: reading, ranking, the row
SECONDS_PER_COMPARED_PLAYER = 5.88e-06  # one player × each rule list after the first (compare): ranking, summary
SECONDS_PER_CELL = 7.33e-08  # one player × one round: reading, table, dummy opponents
SECONDS_PER_RULE_CELL = 2.73e-08  # one player × one round × one rule evaluation
SECONDS_PER_EXPLAINED_RULE = 5.25e-06  # one explained row × one rule: its breakdown's frame, notes, total
SECONDS_PER_EXPLAINED_CELL = 4.96e-07  # one explained row × one round × one rule: contributions and their JSON
SECONDS_PER_BODY_BYTE = 1.80e-08  # decoding, and what grows with the input's text beyond the cells
BYTES_PER_PLAYER = 610.5
BYTES_PER_COMPARED_PLAYER = 1332.8
BYTES_PER_CELL = 146.0
BYTES_PER_RULE_CELL = 11.5
BYTES_PER_EXPLAINED_RULE = 1139.1
BYTES_PER_EXPLAINED_CELL = 304.9
ANSWER_BYTES_PER_ROW = 135.1  # the JSON answer: a row per player returned,
ANSWER_BYTES_PER_COMPARED_ROW = 227.2  # each list after the first: its rows and the summary's changes and moves,
ANSWER_BYTES_PER_RULE_ROW = 4.7  # a value per rule and row,
ANSWER_BYTES_PER_EXPLAINED_RULE = 300.7  # a breakdown per explained row and rule,
ANSWER_BYTES_PER_EXPLAINED_CELL = 93.3  # a contribution per explained row, round and rule
# Scenarios (POST /v1/scenarios), measured with bench/scenarios.py, not fitted by the
# calibration: the points of every outcome, the outcomes the engine ranks whole in a stacked
# table, the outcomes put together from each player's values (by parts), the needs.
SECONDS_PER_OUTCOME_PLAYER = 2.0e-08  # one outcome × one player: its points and the ranges they leave
SECONDS_PER_RANKED_CELL = 3.0e-08  # one outcome ranked in full × one player × one round: its block
SECONDS_PER_RANKED_RULE_CELL = 1.0e-07  # the same × one rule
SECONDS_PER_ASSEMBLED_PLAYER = 2.5e-08  # one outcome ranked by parts × one player
SECONDS_PER_OUTCOME_QUESTION = 4.0e-09  # one outcome × one reported player × one place: its needs
# The solver (engine/scenario_solver.py) is priced by what it measures before it runs
# (usecases/scenarios.solver_size): a best-rank question per rival who can be level with the player
# on points, a worst-rank question per rival × the values it compares × the open games they read
# (the worst rank's search grows with them: decision 0302), a rate per kind of model and a fixed
# part per request, each the largest CPU ratio its shapes reached in docs/benchmarks.md ("Pricing
# the solver") times 2; decisions 0268, 0262, 0300, 0302.
SOLVER_SECONDS_PER_RIVAL = 2.0e-04  # a best-rank question × one rival, tables: 1.0e-04 at worst × 2
SOLVER_SECONDS_PER_SUM_RIVAL = 9.5e-04  # the same, sums over rounds: 4.67e-04 at worst × 2
SOLVER_SECONDS_PER_UNIT = 8.0e-08  # a worst-rank question × rival × table value × game: 4.01e-08 at worst × 2
SOLVER_SECONDS_PER_SUM_UNIT = 4.0e-08  # the same, values of sums over rounds: 1.97e-08 at worst × 2
SOLVER_SECONDS_BASE = 0.3  # the keys and models made once per request (the 60-player shape: 0.33 s in all)
BYTES_PER_OUTCOME_PLAYER = 6  # one outcome × one reported player: its rank range (two int16), a reach
BYTES_PER_SCENARIO_VALUE = 8  # by parts: one rule's sort key of one player in one outcome the engine ranks
# Not fitted: a worker holds the job frame read from its pipe and the body decoded from it.
BYTES_PER_BODY_BYTE = 2
BYTES_BASE = 40 * 1024 * 1024  # a compute worker with the service imported, before any job
# Prize distribution (POST /v1/prizes), measured by bench/prizes.py (docs/benchmarks.md,
# "Prize distribution"): an entrant checked against a category; an entrant tied with others
# (pooled, explained); one tied entrant × one category (one cash prize: the prizes it could win
# untied, US Chess 32B3's class-prize parts); a share paid, explained and written in the answer.
PRIZE_SECONDS_PER_CHECK = 5.0e-07
PRIZE_SECONDS_PER_TIED = 3.5e-05
PRIZE_SECONDS_PER_TIED_CHECK = 3.2e-06
PRIZE_SECONDS_PER_SHARE = 3.5e-05
PRIZE_BYTES_PER_SHARE = 2000
PRIZE_ANSWER_BYTES_PER_SHARE = 420
# Progression (POST /v1/standings/progression), measured by bench/progression.py
# (docs/benchmarks.md, "Progression"): per player and ranking, the rank and points kept and written.
BYTES_PER_PROGRESSION_CELL = 250
ANSWER_BYTES_PER_PROGRESSION_CELL = 16
# Not modelled: direct encounter (DE) works inside the groups tied on every earlier rule; the engine
# places a group in linear time, so its cost is small against the rest (docs/operations.md). The
# deadline stops anything the counts still miss.


@dataclass(frozen=True, slots=True)
class Counts:
    """What a request asks for, in the units of the model."""

    players: int
    rounds: int
    rule_passes: int = 1  # rules evaluated for every player: Σ over the rule lists (compare) of their rules
    explained_rules: int = 0  # Σ over the rows explained of the rules they are explained for
    body_bytes: int = 0
    lists: int = 1  # rankings made (compare: one per rule list), each a whole standings in the answer
    # Progression: rankings made one after another, each let go before the next (time × rankings,
    # the memory of one), and the answer's rank and points per player and round.
    rankings: int = 1
    progression_cells: int = 0
    rows: int | None = None  # the rows the answer returns per list (`top`, `player`); None: every player
    prize_checks: int = 0  # prizes: entrants × categories (overall included)
    prize_tied: int = 0  # prizes: entrants in a score group of two or more
    prize_tied_checks: int = 0  # prizes, one cash prize each: tied entrants × categories
    prize_shares: int = 0  # prizes: the most shares the distribution can pay
    open_games: int = 0  # scenarios: games whose result is open (3 ** open_games outcomes)
    ranked_outcomes: int = 0  # scenarios: outcomes the engine ranks whole
    assembled_outcomes: int = 0  # scenarios: outcomes ranked from each player's values (by parts)
    reported: int = 0  # scenarios: players reported
    places: int = 0  # scenarios: places asked about
    solver_questions: int = 0  # scenarios by the solver: the questions at most (usecases/scenarios.solver_size)
    solver_units: int = 0  # Σ over the worst-rank questions of rivals × the values compared × the games read
    solver_sums: int = 0  # of those units, the ones of sums over rounds (the rule families' model)
    solver_rivals: int = 0  # Σ over the best-rank questions of their rivals (decision 0302)
    solver_sum_rivals: int = 0  # of those rivals, the ones of sums over rounds
    teams: bool = False  # scenarios of a team event: its rows are teams, `contenders_only` is not for it

    @property
    def cells(self) -> int:
        return self.players * self.rounds

    @property
    def compared_players(self) -> int:
        """Players × the rule lists after the first: what a compare adds to one standings."""
        return self.players * (self.lists - 1)

    @property
    def outcomes(self) -> int:
        return 3**self.open_games if self.open_games else 0

    @property
    def answer_rows(self) -> int:
        return self.players if self.rows is None else self.rows


def text_counts(text: str, rules: int, body_bytes: int, explain: bool = False, lists: int = 1) -> Counts:
    """TRF text priced from its size before it is read: a player line holds about 10 characters a round."""
    lines = text.count("\n") + 1
    return Counts(
        players=lines,
        rounds=max(1, len(text) // (10 * lines)),
        rule_passes=max(1, rules),
        explained_rules=lines * rules if explain else 0,
        body_bytes=body_bytes,
        lists=lists,
    )


def progression_counts(one: Counts, rankings: int) -> Counts:
    """`rankings` standings of one event without breakdowns (POST /v1/standings/progression), one
    after another, each priced as the standings after the last round; the answer a rank and points
    per player and ranking (bench/progression.py measures it)."""
    return Counts(
        players=one.players,
        rounds=one.rounds,
        rule_passes=one.rule_passes,
        body_bytes=one.body_bytes,
        rankings=rankings,
        progression_cells=one.players * rankings,
    )


def returned_rows(players: int, top: int | None, player: int | list | None) -> int:
    """The rows a standings answer returns: every row, or those `top` and `player` (one start
    number or a list of them) select."""
    if top is None and player is None:
        return players
    chosen = 0 if player is None else 1 if isinstance(player, int) else len(player)
    return min(players, (top or 0) + chosen)


def explained_rows(explain: bool, players: int, top: int | None, player: int | list | None) -> int:
    """The rows whose breakdowns a standings answer carries."""
    return returned_rows(players, top, player) if explain else 0


@dataclass(frozen=True, slots=True)
class Estimate:
    seconds: float
    memory_bytes: int
    answer_bytes: int = 0

    @property
    def memory_mib(self) -> float:
        return self.memory_bytes / (1024 * 1024)


def estimate(counts: Counts) -> Estimate:
    cells, compared_players = counts.cells, counts.compared_players
    explained_cells = counts.explained_rules * counts.rounds
    rule_cells = cells * counts.rule_passes
    seconds = (
        counts.rankings
        * (SECONDS_PER_PLAYER * counts.players + SECONDS_PER_CELL * cells + SECONDS_PER_RULE_CELL * rule_cells)
        + SECONDS_PER_COMPARED_PLAYER * compared_players
        + SECONDS_PER_EXPLAINED_RULE * counts.explained_rules
        + SECONDS_PER_EXPLAINED_CELL * explained_cells
        + SECONDS_PER_BODY_BYTE * counts.body_bytes
        + PRIZE_SECONDS_PER_CHECK * counts.prize_checks
        + PRIZE_SECONDS_PER_TIED * counts.prize_tied
        + PRIZE_SECONDS_PER_TIED_CHECK * counts.prize_tied_checks
        + PRIZE_SECONDS_PER_SHARE * counts.prize_shares
        + _scenario_seconds(counts)
    )
    memory = (
        BYTES_BASE
        + BYTES_PER_PLAYER * counts.players
        + BYTES_PER_COMPARED_PLAYER * compared_players
        + BYTES_PER_CELL * cells
        + BYTES_PER_RULE_CELL * rule_cells
        + BYTES_PER_EXPLAINED_RULE * counts.explained_rules
        + BYTES_PER_EXPLAINED_CELL * explained_cells
        + BYTES_PER_BODY_BYTE * counts.body_bytes
        + PRIZE_BYTES_PER_SHARE * counts.prize_shares
        + BYTES_PER_OUTCOME_PLAYER * counts.outcomes * counts.reported
        + BYTES_PER_SCENARIO_VALUE
        * counts.ranked_outcomes
        * counts.players
        * counts.rule_passes
        * bool(counts.assembled_outcomes)
        + BYTES_PER_PROGRESSION_CELL * counts.progression_cells
    )
    rows = counts.answer_rows
    answer = (
        ANSWER_BYTES_PER_ROW * rows
        + ANSWER_BYTES_PER_COMPARED_ROW * rows * (counts.lists - 1)
        + ANSWER_BYTES_PER_RULE_ROW * rows * counts.rule_passes
        + ANSWER_BYTES_PER_EXPLAINED_RULE * counts.explained_rules
        + ANSWER_BYTES_PER_EXPLAINED_CELL * explained_cells
        + PRIZE_ANSWER_BYTES_PER_SHARE * counts.prize_shares
        + ANSWER_BYTES_PER_PROGRESSION_CELL * counts.progression_cells
    )
    return Estimate(seconds, int(memory), int(answer))


def _scenario_seconds(counts: Counts) -> float:
    """The points of every outcome, the outcomes ranked in full (each a standings of its own), the needs."""
    outcomes = counts.outcomes
    per_ranking = (
        SECONDS_PER_RANKED_CELL * counts.cells + SECONDS_PER_RANKED_RULE_CELL * counts.cells * counts.rule_passes
    )
    return (
        SECONDS_PER_OUTCOME_PLAYER * outcomes * counts.players
        + per_ranking * counts.ranked_outcomes
        + SECONDS_PER_ASSEMBLED_PLAYER * counts.assembled_outcomes * counts.players
        + SECONDS_PER_OUTCOME_QUESTION * outcomes * counts.reported * counts.places
        + SOLVER_SECONDS_PER_UNIT * (counts.solver_units - counts.solver_sums)
        + SOLVER_SECONDS_PER_SUM_UNIT * counts.solver_sums
        + SOLVER_SECONDS_PER_RIVAL * (counts.solver_rivals - counts.solver_sum_rivals)
        + SOLVER_SECONDS_PER_SUM_RIVAL * counts.solver_sum_rivals
        + SOLVER_SECONDS_BASE * bool(counts.solver_questions)
    )


MOST_OPEN_GAMES = 40


def largest_open_games(counts: Counts, limits: Limits) -> int:
    """The most open games this event's scenarios fit the limits with, the share of outcomes that
    need the rules taken as it is."""
    share = counts.ranked_outcomes / counts.outcomes if 0 < counts.open_games <= MOST_OPEN_GAMES else 0.0
    games = 0
    while games < MOST_OPEN_GAMES:
        more = games + 1
        assembled = 3**more if counts.assembled_outcomes else 0
        trial = replace(counts, open_games=more, ranked_outcomes=int(share * 3**more), assembled_outcomes=assembled)
        cost = estimate(trial)
        if cost.seconds > limits.max_cost_s or cost.memory_mib > limits.max_memory_mib:
            break
        games = more
    return games


def describe(counts: Counts) -> str:
    # each part its own message, so that the text is rendered in the language of the answer
    parts: list[object] = [
        msg(
            "{players} players × {rounds} rounds × {passes} rule evaluations",
            players=counts.players,
            rounds=counts.rounds,
            passes=counts.rule_passes,
        )
    ]
    if counts.lists > 1:
        parts.append(msg(" in {lists} rule lists", lists=counts.lists))
    if counts.explained_rules:
        parts.append(msg(", {count} rule breakdowns", count=counts.explained_rules))
    if counts.rankings > 1:
        parts.append(msg(", ranked after each of {rankings} rounds", rankings=counts.rankings))
    if counts.prize_checks:
        parts.append(
            msg(
                ", a prize distribution of {checks} entrant × category checks, {tied} tied entrants and up to "
                "{shares} shares",
                checks=counts.prize_checks,
                tied=counts.prize_tied,
                shares=counts.prize_shares,
            )
        )
    if counts.open_games:
        parts.append(
            msg(
                ", 3^{games} = {outcomes} outcomes of {games} open games",
                games=counts.open_games,
                outcomes=counts.outcomes,
            )
        )
    if counts.solver_questions:
        parts.append(
            msg(
                # no count of units: since decision 0302 they are of two kinds, neither a thing an arbiter counts
                ", up to {questions} questions to the solver (each reported player's best and worst rank,"
                " and again per result of their own game)",
                questions=counts.solver_questions,
            )
        )
    return Joined(*parts)


def _advice(counts: Counts, standings_advice: str) -> str:
    if counts.solver_questions:  # what narrows the solver's work, in the request's own fields
        return TEAM_SOLVER_ADVICE if counts.teams else SOLVER_ADVICE
    if counts.prize_checks:
        return msg("ask for fewer categories or prizes, or `one_cash_prize: true`")
    return standings_advice


class PrizeCounts(TypedDict):
    """The Counts fields of a prize distribution (typed, so that `**` of them type-checks)."""

    prize_checks: int
    prize_tied: int
    prize_tied_checks: int
    prize_shares: int


def prize_counts(points: list, categories: int, prizes: int, groups: int, one_cash_prize: bool) -> PrizeCounts:
    """The Counts fields of a prize distribution over entrants with these points (a list of None:
    not known yet, everyone counted as tied), `categories` besides `overall`, `prizes` in all of
    the `groups` (each group is distributed over every entrant)."""
    entrants, checked = len(points), (categories + 1) * groups
    if points and points[0] is None:
        tied, largest = entrants, entrants
    else:
        sizes: dict = {}
        for value in points:
            sizes[value] = sizes.get(value, 0) + 1
        tied = sum(size for size in sizes.values() if size > 1)
        largest = max(sizes.values(), default=0)
    # One cash prize each (per group): a share per entrant and per prize at most. Otherwise a tied
    # group shares each category's prizes among its eligible members: at most every entrant in
    # every category, and at most the largest tie per prize.
    if one_cash_prize:
        shares = entrants * groups + prizes
    else:
        shares = min(entrants * checked, entrants * groups + prizes * largest)
    return {
        "prize_checks": entrants * checked,
        "prize_tied": tied,
        "prize_tied_checks": tied * checked if one_cash_prize else 0,
        "prize_shares": shares,
    }


def check_cost(counts: Counts, limits: Limits, path: str = "") -> Estimate:
    """The estimate, or a 413 naming the limit it is over (the work asked for is too large)."""
    if counts.open_games > MOST_OPEN_GAMES:  # 3^40 outcomes is past any limit (and past a float)
        raise _too_many_open_games(counts, limits, "max_cost_s", path or "pairings")
    cost = estimate(counts)
    if counts.open_games:
        _check_outcomes(counts, cost, limits, path or "pairings")
    if cost.seconds > limits.max_cost_s:
        text = msg(
            "estimated {seconds} s of computation for {what}; {advice}",
            seconds=round(cost.seconds, 1),
            what=describe(counts),
            advice=_advice(counts, msg("ask for fewer rules, `explain: false`, `top` or `player`")),
        )
        raise LimitExceeded("max_cost_s", path, text, 413, limits)
    if cost.answer_bytes > limits.max_response_bytes:
        text = msg(
            "the answer would be about {mib} MiB for {what}; {advice}",
            mib=cost.answer_bytes >> 20,
            what=describe(counts),
            advice=_advice(counts, msg("ask for `explain: false`, `top` or `player`")),
        )
        raise LimitExceeded("max_response_bytes", path, text, 413, limits)
    if cost.memory_mib > limits.max_memory_mib:
        text = msg(
            "estimated {mib} MiB of memory for {what}; {advice}",
            mib=round(cost.memory_mib),
            what=describe(counts),
            advice=_advice(counts, msg("ask for fewer players or rounds, `explain: false`, `top` or `player`")),
        )
        raise LimitExceeded("max_memory_mib", path, text, 413, limits)
    return cost


SOLVER_ADVICE = msg(
    "report fewer players (`players`; `contenders_only: true` keeps those who can still reach the places on"
    " points), fix the results of some games (`assume`) or ask about fewer places (`places`)"
)

TEAM_SOLVER_ADVICE = msg(
    "report fewer teams (`players`), fix the results of some boards (`assume`) or ask about fewer places (`places`)"
)


def check_solver_cost(counts: Counts, limits: Limits, games: int) -> Estimate:
    """The solver's estimate, or a 413 at `players` in the arbiter's words (decisions 0230, 0300):
    how long answering these players would take against the bound, and what narrows it."""
    cost = estimate(counts)
    if cost.seconds > limits.max_cost_s:
        if counts.teams:  # a team event's rows are teams, its open games boards
            summary = msg_n(
                "answering {n} team with {games} boards open would take the solver about {seconds} s,"
                " more than the {bound} s a request may take",
                "answering {n} teams with {games} boards open would take the solver about {seconds} s,"
                " more than the {bound} s a request may take",
                counts.reported,
                games=games,
                seconds=round(cost.seconds),
                bound=round(limits.max_cost_s),
            )
        else:
            summary = msg_n(
                "answering {n} player with {games} games open would take the solver about {seconds} s,"
                " more than the {bound} s a request may take",
                "answering {n} players with {games} games open would take the solver about {seconds} s,"
                " more than the {bound} s a request may take",
                counts.reported,
                games=games,
                seconds=round(cost.seconds),
                bound=round(limits.max_cost_s),
            )
        raise TooManyOpenGames("max_cost_s", "players", summary, _advice(counts, ""), limits)
    return check_cost(counts, limits, "players")


def _check_outcomes(counts: Counts, cost: Estimate, limits: Limits, path: str) -> None:
    """Scenarios: every outcome of the open games is ranked, so a time or memory over its limit is
    said as open games, with how many fit."""
    if cost.seconds > limits.max_cost_s or cost.memory_mib > limits.max_memory_mib:
        limit = "max_cost_s" if cost.seconds > limits.max_cost_s else "max_memory_mib"
        raise _too_many_open_games(counts, limits, limit, path)


def _too_many_open_games(counts: Counts, limits: Limits, limit: str, path: str) -> TooManyOpenGames:
    return too_many_open_games(counts.open_games, largest_open_games(counts, limits), limits, limit, path)


def too_many_open_games(games: int, fit: int, limits: Limits, limit: str, path: str) -> TooManyOpenGames:
    # in the arbiter's words: the games, how many fit, what to narrow (decision 0230)
    summary = msg(
        "{games} games are open: too many outcomes to go through; at most {fit} open games fit for this event",
        games=games,
        fit=fit,
    )
    advice = msg("fix the results of some games (`assume`) or report fewer players (`players`)")
    return TooManyOpenGames(limit, path, summary, advice, limits)
