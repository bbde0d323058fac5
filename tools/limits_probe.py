"""How long the service takes to decode (or refuse) requests at the size limit.

    .venv/bin/python -m tools.limits_probe   # figures in docs/benchmarks.md, "Decoding at the limit"

Every body is about TIEBREAK_MAX_BODY_BYTES (32 MiB by default). The largest valid
request is decoded in full; each hostile one must be refused no slower than a small
multiple of that (the compute deadline, 20 s by default, is the bound it is compared
with). Decoding runs in-process as the handler does it: a pre-scan that counts the
players and rules of bodies over 1 MiB (`tiebreak.wire.limits.prescan`), then the same
strict msgspec decoder.
"""

from __future__ import annotations

import sys
import time

import msgspec

from tiebreak.wire import schemas as s
from tiebreak.wire.decode import json_depth_exceeds, prescan
from tiebreak.wire.limits import LIMITS, LimitExceeded
from testkit.synthetic import swiss_wire

DECODER = msgspec.json.Decoder(s.StandingsRequest)

# Bodies built to make a nesting count slow (deep, escaped quotes, many shallow arrays), with the
# answer of `json_depth_exceeds(body, 32)`; tests/ops/test_gate.py checks the answers.
DEPTH_BOUND = 32
DEPTH_HOSTILE_BODIES = {
    "8 MiB of [": (b"[" * (8 << 20), True),
    "one string of 4 M escaped quotes": (b'["' + b'\\"' * (4 << 20) + b'"]', False),
    "3 M empty arrays in one": (b"[" + b"[]," * (3 << 20) + b"[]]", False),
}


def timed(body: bytes) -> tuple[float, str]:
    """What the handler does: the pre-scan of large bodies, then the strict decode."""
    started = time.perf_counter()
    try:
        prescan(body, LIMITS)
        DECODER.decode(body)
        outcome = "decoded"
    except (msgspec.MsgspecError, LimitExceeded) as exc:
        outcome = "refused: " + str(exc)[:90]
    return time.perf_counter() - started, outcome


def main() -> int:
    limit = LIMITS.max_body_bytes
    # the largest valid request: as many players of an 11-round Swiss as fit under the limit
    one = len(msgspec.json.encode(swiss_wire(1000, 11, seed=1)))
    players = min(LIMITS.max_players, int(1000 * limit * 0.97 / one))
    valid = msgspec.json.encode({"tournament": swiss_wire(players, 11, seed=1), "tiebreaks": ["BH/C1", "BH", "SB"]})
    pad = limit - 64
    cases = {
        f"valid: {players} players x 11 rounds": valid,
        "whitespace then {}": b" " * pad + b"{}",
        "nesting [[[[...": b'{"tournament":' + b"[" * pad,
        "one long string (name)": b'{"tournament":{"rounds":1,"name":"' + b"x" * pad + b'","players":[]}}',
        "one huge integer (rounds)": b'{"tournament":{"rounds":' + b"9" * pad + b',"players":[]}}',
        "too many players (ids only)": (
            b'{"tournament":{"rounds":1,"players":[' + b",".join([b'{"id":1}'] * (pad // 9)) + b"]}}"
        ),
        "one player, too many results": (
            b'{"tournament":{"rounds":1,"players":[{"id":1,"results":['
            + b",".join([b'{"round":1,"result":"win"}'] * (pad // 27))
            + b"]}]}}"
        ),
        "too many rules": b'{"trf":"x","tiebreaks":[' + b",".join([b'"BH"'] * (pad // 5)) + b"]}",
        "unknown fields": b'{"tournament":{"rounds":1,"players":[{"id":1,' + b'"x":0,' * (pad // 6) + b'"y":0}]}}',
        "NaN / Infinity": b'{"tournament":{"rounds":1,"players":[{"id":1,"rating":NaN}]}}' + b" " * pad,
    }
    print(f"body limit {limit / 2**20:.0f} MiB, compute deadline {LIMITS.compute_deadline_s:g} s")
    base = None
    for name, body in cases.items():
        best = min(timed(body)[0] for _ in range(3))
        outcome = timed(body)[1]
        base = base or best
        print(f"{name:36} {len(body) / 2**20:6.1f} MiB  {best * 1000:8.1f} ms  {best / base:5.2f} x valid  {outcome}")
    print(f"the nesting check of large batch bodies (json_depth_exceeds, bound {DEPTH_BOUND}), best of 3:")
    for name, (body, _) in DEPTH_HOSTILE_BODIES.items():
        best = min(_timed_depth_check(body) for _ in range(3))
        print(f"{name:36} {len(body) / 2**20:6.1f} MiB  {best * 1000:8.1f} ms")
    return 0


def _timed_depth_check(body: bytes) -> float:
    started = time.perf_counter()
    json_depth_exceeds(body, DEPTH_BOUND)
    return time.perf_counter() - started


if __name__ == "__main__":
    sys.exit(main())
