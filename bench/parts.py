#!/usr/bin/env python3
"""The parts behind the figures docs/benchmarks.md and docs/decisions/ quote.

    .venv/bin/python -m bench.parts

Each figure is the best of a few runs, in this process, on synthetic events (testkit.synthetic,
seed 1), 12 rules `BH/C1 BH/C2 BH BH/M1 SB SB/C1 PS WIN WON BPG DE ARO`:

- a contribution made through `contribution_rows`: the engine's default dataclass against the
  API's msgspec struct (ns per contribution, 20,000 × 11 Buchholz rows);
- all 20,000 breakdowns: made (engine and conversion), encoded to JSON, freed;
- the pairing checks of the table build at 20,000 × 11;
- direct encounter right after the points (20,000 × 11), and on one group of 50,000 players
  without results;
- reading a 20,000 × 11 JSON body in one process: the pre-scan, msgspec's decoding, the result
  columns, a Player object per player against the roster.
"""

from __future__ import annotations

import dataclasses
import gc
import sys
import time
from testkit.rules import RULES_12


def best(run, repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        gc.collect()
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> int:
    from testkit.synthetic import swiss_tournament
    from tiebreak.engine.registry import valid_codes
    from tiebreak.engine.rules import parse_rule

    codes = valid_codes()
    tournament = swiss_tournament(20_000, 11, seed=1)
    breakdowns(tournament, [parse_rule(rule, codes) for rule in RULES_12])
    checks_and_direct_encounter(tournament, [parse_rule(rule, codes) for rule in ("DE", "BH")])
    reading()
    return 0


def breakdowns(tournament, specs) -> None:
    """Contribution rows one by one, then every breakdown of the event made, encoded and freed."""
    import msgspec
    import numpy as np

    from tiebreak.engine import compute_standings
    from tiebreak.engine.contributions import Contribution, contribution_rows
    from tiebreak.engine.standings import cyclic_gc_paused
    from tiebreak.texts.catalogue import enc_hook
    from tiebreak.usecases.convert import standings_to_wire
    from tiebreak.wire import schemas as s

    selected = np.ones((20_000, 11), dtype=bool)
    fields = {
        "kind": np.full(selected.shape, "game", dtype=object),
        "opponent": np.arange(220_000, dtype=np.int64).reshape(selected.shape).astype(object),
        "value": np.arange(220_000).reshape(selected.shape) / 2,
    }
    for kind in (Contribution, s.ContributionOut):
        with cyclic_gc_paused():
            seconds = best(lambda kind=kind: contribution_rows(kind, selected, fields))
        print(f"contribution_rows, {kind.__module__}.{kind.__name__}: {seconds / 220_000 * 1e9:.0f} ns each")

    # The answer's texts are messages: written as the service writes them.
    encoder = msgspec.json.Encoder(enc_hook=enc_hook)
    with cyclic_gc_paused():
        result = compute_standings(tournament, specs, explain=False, contribution=s.ContributionOut)
        started = time.perf_counter()
        response = standings_to_wire(result, True, tournament=tournament)
        made = time.perf_counter() - started
        started = time.perf_counter()
        body = encoder.encode(response)
        encoded = time.perf_counter() - started
        started = time.perf_counter()
        del response, result
        freed = time.perf_counter() - started
    print(
        f"all 20,000 breakdowns: made {made:.2f} s, encoded {encoded:.2f} s ({len(body) / 1e6:.0f} MB), "
        f"freed {freed:.2f} s"
    )


def checks_and_direct_encounter(tournament, de_first) -> None:
    """The pairing checks of the table, and DE right after the points (one large tie group, then one
    group of every player)."""
    import numpy as np

    from testkit.synthetic import swiss_tournament
    from tiebreak.engine import compute_standings
    from tiebreak.engine import table as engine_table
    from tiebreak.engine.table import build_table

    built = build_table(tournament)
    entry = np.full(built.kind.shape, -1, dtype=np.int64)
    has_points = np.zeros(1, dtype=bool)
    seconds = best(
        lambda: engine_table._check_pairings(built.ids, built.kind, built.opp, built.color, entry, has_points, None), 10
    )
    print(f"pairing checks, 20,000 x 11: {seconds * 1000:.1f} ms")

    seconds = best(lambda: compute_standings(tournament, de_first, explain=False))
    print(f"DE right after the points, 20,000 x 11: {seconds:.2f} s")
    empty = swiss_tournament(50_000, 11, seed=1)
    empty = dataclasses.replace(
        empty, players=tuple(dataclasses.replace(p, results=()) for p in empty.players), columns=None
    )
    seconds = best(lambda: compute_standings(empty, de_first, explain=False))
    print(f"DE on one group of 50,000 players without results: {seconds:.2f} s")


def reading() -> None:
    """Reading a 20,000 x 11 JSON body, step by step, as a compute worker does (collector paused)."""
    import msgspec

    from testkit.synthetic import swiss_wire
    from tiebreak.engine import model as m
    from tiebreak.engine.standings import cyclic_gc_paused
    from tiebreak.usecases import convert
    from tiebreak.usecases.requests import KINDS
    from tiebreak.wire.decode import prescan
    from tiebreak.wire.limits import LIMITS

    body = msgspec.json.encode({"tournament": swiss_wire(20_000, 11, seed=1), "tiebreaks": RULES_12})
    limits = dataclasses.replace(LIMITS, max_cost_s=1e9, max_memory_mib=10**9)
    with cyclic_gc_paused():
        request = KINDS["standings"].decoder.decode(body)
        wire = request.tournament
        steps = {
            "pre-scan (players counted, not built)": lambda: prescan(body, limits),
            "msgspec decoding into structs": lambda: KINDS["standings"].decoder.decode(body),
            "the five result columns read from them": lambda: convert.columns_from_wire(wire),
            "a Player object per player (what the roster replaced)": lambda: tuple(map(convert._player, wire.players)),
            "the roster (ids, names, ratings; no Player object until a row shows one)": lambda: m.Roster(
                [p.id for p in wire.players], [p.name for p in wire.players], [p.rating or None for p in wire.players]
            ),
        }
        for label, step in steps.items():
            print(f"reading {len(body) / 1e6:.1f} MB, {label}: {best(step, 5) * 1000:.1f} ms")


if __name__ == "__main__":
    sys.exit(main())
