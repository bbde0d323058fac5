"""Load the FIDE conformance cases (tests/fixtures/conformance_fide) and compare."""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

from service.engine import Regulations, System, compute_standings
from service.engine.registry import valid_codes
from service.engine.rules import parse_rule
from service.formats.trf import parse_trf

CASES_DIR = Path(__file__).parent / "fixtures" / "conformance_fide"


@dataclass
class Case:
    id: str
    data: dict

    @property
    def trf_text(self) -> str:
        return (CASES_DIR / self.data["trf"]).read_text(encoding="utf-8")


def load_cases() -> list[Case]:
    return [Case(p.stem, json.loads(p.read_text())) for p in sorted(CASES_DIR.glob("*.json"))]


def unrated_rating(flags: str) -> int | None:
    parts = flags.split()
    return int(parts[parts.index("-u") + 1]) if "-u" in parts else None


def run_case(case: Case, explain: bool = False):
    data = case.data
    doc = parse_trf(case.trf_text)
    tournament = doc.tournament
    from dataclasses import replace

    tournament = replace(tournament, system=System(data["system"]))
    codes = valid_codes()
    specs = [parse_rule(t, codes) for t in data["tiebreaks"]]
    return compute_standings(
        tournament,
        specs,
        regulations=Regulations(data["regulations"]),
        after_round=data["after_round"],
        unrated_rating=unrated_rating(data["reference_flags"]),
        explain=explain,
    )


def value_of(outcome, p) -> Fraction | None:
    v = outcome.values[p]
    return None if v is None else Fraction(v, outcome.scale)


def mismatches(case: Case, explain: bool = False) -> list[str]:
    standings = run_case(case, explain)
    table = standings.table
    index = {pid: i for i, pid in enumerate(table.ids)}
    rank_of = {table.ids[row.player]: row.rank for row in standings.rows}
    problems = []
    for row in case.data["expected"]:
        p = index[row["start_no"]]
        for spec_text, expected, outcome in zip(case.data["tiebreaks"], row["values"], standings.outcomes):
            want = None if expected is None else Fraction(Decimal(expected))
            got = value_of(outcome, p)
            if want != got:
                problems.append(f"{case.id} player {row['start_no']} {spec_text}: expected {expected}, got "
                                f"{None if got is None else float(got)}")
        if rank_of[row["start_no"]] != row["rank"]:
            problems.append(f"{case.id} player {row['start_no']}: rank expected {row['rank']}, got {rank_of[row['start_no']]}")
    return problems
