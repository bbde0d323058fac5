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
# Measured 2026-11-30 on the shared 2-vCPU development VM (load average 2-5 from other work),
# CPython 3.11.7, the engine of commit 1282c34; CPU seconds of one worker process.
SECONDS_PER_PLAYER = 2.89e-05
SECONDS_PER_CELL = 2.09e-06           # one player × one round: reading, table, dummy opponents
SECONDS_PER_RULE_CELL = 2.09e-07      # one player × one round × one rule evaluation
SECONDS_PER_EXPLAINED_CELL = 2.44e-06  # one explained row × one round × one rule: contributions and their JSON
SECONDS_PER_BODY_BYTE = 1.04e-07      # decoding, and what grows with the input's text beyond the cells
BYTES_PER_PLAYER = 2672
BYTES_PER_CELL = 465
BYTES_PER_RULE_CELL = 19.4
BYTES_PER_EXPLAINED_CELL = 368
# Not fitted: a worker holds the job frame read from its pipe and the body decoded from it.
BYTES_PER_BODY_BYTE = 2
BYTES_BASE = 40 * 1024 * 1024         # a compute worker with the service imported, before any job


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
    return Estimate(seconds, int(memory))


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
    if cost.memory_mib > limits.max_memory_mib:
        raise LimitExceeded("max_memory_mib", path, f"estimated {cost.memory_mib:.0f} MiB of memory for "
                            f"{describe(counts)}; ask for fewer players or rounds, `explain: false`, `top` or "
                            f"`player`", 413, limits)
    return cost
