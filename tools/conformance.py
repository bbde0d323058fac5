"""Agreement with the conformance corpora: per folder, cases agreeing / total.

    make conformance            # or: .venv/bin/python -m tools.conformance [-v]

A case agrees when every value of every player equals the expected one as an exact
decimal and every rank is the expected rank. `-v` lists what disagrees. The real-world
exports are read in place from ../shared/conformance/realworld-trf (never copied).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable

from testkit.conformance import CORPORA, REALWORLD, load_cases, mismatches, realworld_mismatches, realworld_runs
from testkit.conformance_teams import event_from_json, event_from_trf, load_team_cases, team_mismatches


def tally(
    label: str, items: Iterable[tuple[str, Callable[[], list[str]]]], unit: str, verbose: bool, note: str = ""
) -> None:
    """Run each item's comparison and print `label  agree / total unit agree`; a case the service
    refuses disagrees, with the reason."""
    agree = total = 0
    for item_id, compare in items:
        total += 1
        try:
            problems = compare()
        except Exception as error:
            problems = [f"{item_id}: {type(error).__name__}: {error}"]
        if not problems:
            agree += 1
        elif verbose:
            print("\n".join(f"  {p}" for p in problems[:10]))
    print(f"{label:<16} {agree:>4} / {total:<4} {unit} agree{note}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="list each disagreement")
    verbose = parser.parse_args().verbose
    for name, folder in CORPORA.items():
        tally(name, ((c.id, lambda c=c: mismatches(c)) for c in load_cases(folder)), "cases", verbose)
    teams = load_team_cases()
    for source, read in (("trf", event_from_trf), ("json", event_from_json)):
        tally(
            f"fide-team/{source}",
            ((c.id, lambda c=c, read=read: team_mismatches(c, read(c))) for c in teams),
            "cases",
            verbose,
        )
    runs = realworld_runs()
    if not runs:
        print(f"{'realworld-trf':<16} not found at {REALWORLD} (read in place, never copied)")
    else:
        tally(
            "realworld-trf",
            ((run_id, lambda c=c, r=r: realworld_mismatches(c, r)) for run_id, c, r in runs),
            "runs",
            verbose,
            " (the runs the reference could read; players ranked one by one, team files too)",
        )
    return 0  # a report: the tests hold every case (and name the known reference errors)


if __name__ == "__main__":
    sys.exit(main())
