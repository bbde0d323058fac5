"""The compute worker's work on one 20,000 x 11 body in this one process: CPU and wall time, page faults.

    .venv/bin/python -m bench.one_process player   # with "player": 7 (one breakdown)
    .venv/bin/python -m bench.one_process all      # every breakdown

No server and no second process: what the code of one tree costs, comparable with another
tree's (docs/benchmarks.md, "Results at the end of issue 20").
"""

import resource
import statistics
import sys
import time

import msgspec

from bench.main import in_process_pipeline
from testkit.rules import RULES_12
from testkit.synthetic import swiss_wire

RUNS = 15


def main() -> None:
    one_player = sys.argv[1:] != ["all"]
    wire = swiss_wire(20000, 11, seed=1)
    body = msgspec.json.encode({"tournament": wire, "tiebreaks": RULES_12, **({"player": 7} if one_player else {})})
    for _ in range(3):
        in_process_pipeline(body)
    cpu, wall = [], []
    faults_before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(RUNS):
        cpu_start, wall_start = time.process_time(), time.perf_counter()
        in_process_pipeline(body)
        cpu.append(time.process_time() - cpu_start)
        wall.append(time.perf_counter() - wall_start)
    faults = (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults_before) / RUNS
    print(
        f"cpu median {statistics.median(cpu) * 1000:.1f} ms, min {min(cpu) * 1000:.1f}; "
        f"wall median {statistics.median(wall) * 1000:.1f} ms, min {min(wall) * 1000:.1f}; "
        f"page faults per run {faults:.0f}"
    )


if __name__ == "__main__":
    main()
