"""The cost model: what a request will cost, known once its input is read, before the engine runs.

A request's work grows with players × rounds × rules, and with the rows whose
breakdown is built × rounds × rules; its memory grows with players × rounds (every
round of every player is a table cell, played or not) and with the breakdowns. The
gate (service/api/gate.py) refuses a request whose estimate is over
`max_cost_s` or `max_memory_mib` (413, naming the limit), and computes a request on
the event loop only when its estimate is under `inline_max_cost_ms`.

The constants are measured, not guessed, on the current engine by

    .venv/bin/python scripts/calibrate_cost.py            # about 2 minutes; prints this block

which runs each shape in a fresh process (decode, read, engine, encode: what a
compute worker does) and takes, per unit, the largest figure it saw, on synthetic
Swiss events and on events without any results (every round a dummy opponent: the
most memory per cell). They are all in this one place: re-run the script after an
engine change and paste its output here (docs/operations.md keeps the history).
"""

from __future__ import annotations

from dataclasses import dataclass

from .limits import LimitExceeded, Limits

# ---- calibrated constants (scripts/calibrate_cost.py, see the module docstring) ----
# Measured 2026-11-30 on the shared 2-vCPU development VM (load average 2-4 from other work),
# CPython 3.11.7, the columnar engine (main at dc63d7d); CPU seconds of one worker process.
SECONDS_PER_PLAYER = 4.15e-05
SECONDS_PER_CELL = 1.00e-06            # one player × one round: reading, table, dummy opponents
SECONDS_PER_RULE_CELL = 1.94e-07       # one player × one round × one rule evaluation
SECONDS_PER_EXPLAINED_CELL = 6.42e-06  # one explained row × one round × one rule: contributions and their JSON
SECONDS_PER_BODY_BYTE = 7.11e-08       # decoding, and what grows with the input's text beyond the cells
BYTES_PER_PLAYER = 3173
BYTES_PER_CELL = 238
BYTES_PER_RULE_CELL = 23.7
BYTES_PER_EXPLAINED_CELL = 747
ANSWER_BYTES_PER_PLAYER = 129          # the JSON answer: a row per player,
ANSWER_BYTES_PER_RULE_PLAYER = 4.9     # a value per rule and player,
ANSWER_BYTES_PER_EXPLAINED_CELL = 81.7  # a contribution per explained row, round and rule
# Not fitted: a worker holds the job frame read from its pipe and the body decoded from it.
BYTES_PER_BODY_BYTE = 2
BYTES_BASE = 40 * 1024 * 1024          # a compute worker with the service imported, before any job
# Not modelled: a group rule (DE) inside one huge tie group (an event without results yet: every
# player tied) costs about players² / 6e6 s, more than the counts tell; the deadline stops it.


@dataclass(frozen=True, slots=True)
class Counts:
    """What a request asks for, in the units of the model."""

    players: int
    rounds: int
    rule_passes: int = 1  # rules evaluated for every player: rules × lists (compare) × passes (top)
    explained_rules: int = 0  # Σ over the rows explained of the rules they are explained for
    body_bytes: int = 0

    @property
    def cells(self) -> int:
        return self.players * self.rounds


@dataclass(frozen=True, slots=True)
class Estimate:
    seconds: float
    memory_bytes: int
    answer_bytes: int = 0

    @property
    def memory_mib(self) -> float:
        return self.memory_bytes / (1024 * 1024)


def estimate(counts: Counts) -> Estimate:
    cells = counts.cells
    explained_cells = counts.explained_rules * counts.rounds
    rule_cells = cells * counts.rule_passes
    seconds = (SECONDS_PER_PLAYER * counts.players + SECONDS_PER_CELL * cells + SECONDS_PER_RULE_CELL * rule_cells
               + SECONDS_PER_EXPLAINED_CELL * explained_cells + SECONDS_PER_BODY_BYTE * counts.body_bytes)
    memory = (BYTES_BASE + BYTES_PER_PLAYER * counts.players + BYTES_PER_CELL * cells
              + BYTES_PER_RULE_CELL * rule_cells + BYTES_PER_EXPLAINED_CELL * explained_cells
              + BYTES_PER_BODY_BYTE * counts.body_bytes)
    answer = (ANSWER_BYTES_PER_PLAYER * counts.players + ANSWER_BYTES_PER_RULE_PLAYER * counts.players
              * counts.rule_passes + ANSWER_BYTES_PER_EXPLAINED_CELL * explained_cells)
    return Estimate(seconds, int(memory), int(answer))


def describe(counts: Counts) -> str:
    text = f"{counts.players} players × {counts.rounds} rounds × {counts.rule_passes} rule evaluations"
    if counts.explained_rules:
        text += f", {counts.explained_rules} rule breakdowns"
    return text


def check_cost(counts: Counts, limits: Limits, path: str = "") -> Estimate:
    """The estimate, or a 413 naming the limit it is over (the work asked for is too large)."""
    cost = estimate(counts)
    if cost.seconds > limits.max_cost_s:
        raise LimitExceeded("max_cost_s", path, f"estimated {cost.seconds:.1f} s of computation for "
                            f"{describe(counts)}; ask for fewer rules, `explain: false`, `top` or `player`",
                            413, limits)
    if cost.answer_bytes > limits.max_response_bytes:
        raise LimitExceeded("max_response_bytes", path, f"the answer would be about {cost.answer_bytes >> 20} MiB "
                            f"for {describe(counts)}; ask for `explain: false`, `top` or `player`", 413, limits)
    if cost.memory_mib > limits.max_memory_mib:
        raise LimitExceeded("max_memory_mib", path, f"estimated {cost.memory_mib:.0f} MiB of memory for "
                            f"{describe(counts)}; ask for fewer players or rounds, `explain: false`, `top` or "
                            f"`player`", 413, limits)
    return cost
