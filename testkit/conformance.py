"""Load the FIDE conformance corpora (tests/fixtures/conformance_*) and compare.

Each corpus is a folder of `<id>.trf` + `<id>.json` cases in the format of its README,
copied from ../shared/conformance/ so that the suite is complete without it. The tests and
`python -m tools.conformance` (`make conformance`) read them through this module.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

from tiebreak.engine import Regulations, System, compute_standings
from tiebreak.engine.registry import valid_codes
from tiebreak.engine.rules import parse_rule
from tiebreak.formats.trf import parse_trf

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
# corpus name (its folder under ../shared/conformance/) -> the copy the tests read
CORPORA = {
    "fide": FIXTURES / "conformance_fide",
    "fide-edge": FIXTURES / "conformance_fide_edge",
}
CASES_DIR = CORPORA["fide"]


@dataclass
class Case:
    id: str
    data: dict
    folder: Path = CASES_DIR

    @property
    def trf_text(self) -> str:
        return (self.folder / self.data["trf"]).read_text(encoding="utf-8")


def load_cases(folder: Path = CASES_DIR) -> list[Case]:
    return [Case(p.stem, json.loads(p.read_text()), folder) for p in sorted(folder.glob("*.json"))]


def all_cases() -> list[Case]:
    """Every case of every individual corpus, ids prefixed by the corpus."""
    return [
        Case(f"{name}/{case.id}", case.data, case.folder)
        for name, folder in CORPORA.items()
        for case in load_cases(folder)
    ]


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


def expected_mismatches(case: Case, standings, noun: str = "player") -> list[str]:
    """Each expected value (an exact decimal, or null) and rank of the case against `standings`
    (individual or team: the same table, rows and outcomes), one line per difference."""
    table = standings.table
    index = table.index_of_id()
    rank_of = {table.ids[row.player]: row.rank for row in standings.rows}
    problems = []
    for row in case.data["expected"]:
        p = index[row["start_no"]]
        for spec_text, expected, outcome in zip(case.data["tiebreaks"], row["values"], standings.outcomes, strict=True):
            want = None if expected is None else Fraction(Decimal(expected))
            got = value_of(outcome, p)
            if want != got:
                problems.append(
                    f"{case.id} {noun} {row['start_no']} {spec_text}: expected {expected}, got "
                    f"{None if got is None else float(got)}"
                )
        if rank_of[row["start_no"]] != row["rank"]:
            problems.append(
                f"{case.id} {noun} {row['start_no']}: rank expected {row['rank']}, got {rank_of[row['start_no']]}"
            )
    return problems


def mismatches(case: Case, explain: bool = False) -> list[str]:
    return expected_mismatches(case, run_case(case, explain))


# ---- the real-world exports, read in place (they belong to their authors: never copied) ----

REALWORLD = ROOT.parent / "shared" / "conformance" / "realworld-trf"


def realworld_runs() -> list[tuple[str, dict, dict]]:
    """(id, case, run) of every run in ../shared/conformance/realworld-trf/expected that the
    independent reference could read; empty when the folder is absent."""
    if not REALWORLD.is_dir():
        return []
    runs = []
    for path in sorted((REALWORLD / "expected").glob("*.json")):
        case = json.loads(path.read_text())
        for run in case["runs"]:
            if run["reference"]["ok"]:
                runs.append((f"{case['file']}-{run['name']}", case, run))
    return runs


def realworld_mismatches(case: dict, run: dict) -> list[str]:
    """A run of a real-world file through the standings pipeline, against the reference. The
    reference ranked the players of every file (team files with their team records removed):
    `participants: players` asks for that ranking."""
    import msgspec

    from tiebreak.wire import schemas as s
    from tiebreak.usecases.standings import run_standings
    from tiebreak.formats.trf import decode_trf

    text, _, _ = decode_trf((REALWORLD / case["file"]).read_bytes())
    body = {
        "trf": text,
        "tiebreaks": [t for t in run["tiebreaks"] if t != "PTS"],
        "explain": False,
        "participants": "players",
    }
    if run["unrated_rating"] is not None:
        body["unrated_rating"] = run["unrated_rating"]
    result = run_standings(msgspec.convert(body, s.StandingsRequest))
    got = {row.id: row for row in result.standings}
    problems = []
    if result.regulations != case["regulations"]:
        problems.append(f"{case['file']}: regulations {result.regulations}, expected {case['regulations']}")
    for expected in run["reference"]["expected"]:
        row = got.get(expected["id"])
        if row is None:
            problems.append(f"{case['file']} player {expected['id']}: missing")
            continue
        mine = [row.points, *row.values]
        want = [None if v is None else Decimal(v) for v in expected["values"]]
        have = [None if v is None else Decimal(repr(v)) for v in mine]
        if have != want or row.rank != expected["rank"]:
            problems.append(
                f"{case['file']} {run['name']} player {expected['id']}: expected {expected['values']} "
                f"rank {expected['rank']}, got {[str(v) for v in have]} rank {row.rank}"
            )
    return problems
