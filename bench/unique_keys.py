"""The repeated-key check's cost (wire/decode.py `check_unique_keys`, issue 39 point 10), beside
msgspec's generic decode of the same body and the standard library's keys-only read (`read_keys`,
the whole check before decision 0277, still the check over 1 MiB), on standings bodies of 100 and
500 players and of 12.7 MB.

    .venv/bin/python -m bench.unique_keys   # best of 21 (500 players) and of 5 (12.7 MB)
"""

from __future__ import annotations

import time

import msgspec

from testkit.synthetic import swiss_wire
from tiebreak.wire.decode import check_unique_keys, read_keys

RULES = ["BH/C1", "BH", "SB", "DE", "PS", "WIN"]


def best_ms(run, body: bytes, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run(body)
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def main() -> None:
    for players, rounds, repeat in ((100, 9, 41), (500, 11, 21), (23_000, 9, 5)):
        body = msgspec.json.encode(
            {"tournament": swiss_wire(players, rounds, seed=1), "tiebreaks": RULES, "explain": False}
        )
        generic = best_ms(msgspec.json.decode, body, repeat)
        stdlib = best_ms(read_keys, body, repeat)
        check = best_ms(check_unique_keys, body, repeat)
        print(
            f"{players} x {rounds} ({len(body) / 1e6:.2f} MB): msgspec generic decode {generic:.2f} ms, "
            f"read_keys {stdlib:.2f} ms, check_unique_keys {check:.2f} ms"
        )


if __name__ == "__main__":
    main()
