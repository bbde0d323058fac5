"""Drawing of lots (RND), the last resort when every rule before it leaves players tied.

The draw is reproducible by anyone: each player's ticket is the first eight bytes of the
SHA-256 digest of the text "SEED:ID" (the seed and the player's id in decimal), read as a
big-endian number; the lowest ticket draws lot 1, the best. A ticket depends on the seed and
the player alone, so the draw does not change with the order players are listed in.
"""

from __future__ import annotations

import hashlib

import numpy as np

from ..context import Context
from ..contributions import Explanation, RuleOutcome, explanation
from ..rules import RuleSpec
from ...texts.message import msg


def ticket(seed: int, player_id: int) -> int:
    """A player's ticket in the draw: lower draws the better lot."""
    return int.from_bytes(hashlib.sha256(f"{seed}:{player_id}".encode()).digest()[:8], "big")


def drawing_of_lots(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """Each player's lot, 1 to the number of players, lower is better: it always separates."""
    table, seed = ctx.table, ctx.lots_seed
    if seed is None:  # the use cases draw a seed when the request gives none
        raise ValueError("RND needs a seed")
    tickets = np.fromiter((ticket(seed, pid) for pid in table.ids), np.uint64, table.size)
    lots = np.empty(table.size, dtype=np.int64)
    lots[np.argsort(tickets, kind="stable")] = np.arange(1, table.size + 1)

    def explain(rows: list[int]) -> Explanation:
        return explanation(
            rows,
            notes=[
                msg(
                    "drawn by lot: lot {lot} of {players} (seed {seed})",
                    lot=int(lots[p]),
                    players=table.size,
                    seed=seed,
                )
                for p in rows
            ],
        )

    return RuleOutcome.of(spec, lots, 1, lower_is_better=True, explain=explain)
