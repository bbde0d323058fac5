"""Agreement with the conformance corpora: per folder, cases agreeing / total.

    make conformance            # or: .venv/bin/python scripts/conformance.py [-v]

A case agrees when every value of every player equals the expected one as an exact
decimal and every rank is the expected rank. `-v` lists what disagrees. The real-world
exports are read in place from ../shared/conformance/realworld-trf (never copied).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.conformance import CORPORA, REALWORLD, load_cases, mismatches, realworld_mismatches, realworld_runs  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="list each disagreement")
    args = parser.parse_args()
    disagreeing = 0
    for name, folder in CORPORA.items():
        cases = load_cases(folder)
        agree = 0
        for case in cases:
            try:
                problems = mismatches(case)
            except Exception as error:  # a case the service refuses disagrees; say why
                problems = [f"{case.id}: {type(error).__name__}: {error}"]
            if problems:
                disagreeing += 1
                if args.verbose:
                    print("\n".join(f"  {p}" for p in problems[:10]))
            else:
                agree += 1
        print(f"{name:<16} {agree:>4} / {len(cases):<4} cases agree")
    runs = realworld_runs()
    if not runs:
        print(f"{'realworld-trf':<16} not found at {REALWORLD} (read in place, never copied)")
    else:
        agree = 0
        for run_id, case, run in runs:
            try:
                problems = realworld_mismatches(case, run)
            except Exception as error:
                problems = [f"{run_id}: {type(error).__name__}: {error}"]
            if problems:
                disagreeing += 1
                if args.verbose:
                    print("\n".join(f"  {p}" for p in problems[:10]))
            else:
                agree += 1
        print(f"{'realworld-trf':<16} {agree:>4} / {len(runs):<4} runs agree (the runs the reference could read)")
    return 0  # a report: the tests hold every case (and name the known reference errors)


if __name__ == "__main__":
    sys.exit(main())
