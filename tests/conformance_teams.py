"""The FIDE team corpus (tests/fixtures/conformance_fide_team/, copied from
../shared/conformance/fide-team/): each case read from its TRF-26 file and from its JSON
request body, ranked, and compared with the expected values as exact decimals."""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import msgspec

from tiebreak.wire import schemas as s
from tiebreak.usecases.convert_teams import team_rules_from_wire, team_tournament_from_wire
from tiebreak.engine import Regulations
from tiebreak.engine.teams.model import TeamTournament
from tiebreak.engine.teams.standings import TeamStandings, compute_team_standings

FOLDER = Path(__file__).parent / "fixtures" / "conformance_fide_team"


@dataclass
class TeamCase:
    id: str
    data: dict
    folder: Path = FOLDER

    @property
    def trf_text(self) -> str:
        return (self.folder / self.data["trf"]).read_text(encoding="utf-8")

    @property
    def body(self) -> dict:
        return json.loads((self.folder / self.data["input"]).read_text(encoding="utf-8"))


def load_team_cases(folder: Path = FOLDER) -> list[TeamCase]:
    return [
        TeamCase(p.stem, json.loads(p.read_text()), folder)
        for p in sorted(folder.glob("*.json"))
        if not p.name.endswith(".input.json")
    ]


def event_from_json(case: TeamCase) -> TeamTournament:
    request = msgspec.convert(case.body, s.StandingsRequest)
    return team_tournament_from_wire(request.team_tournament)


def event_from_trf(case: TeamCase) -> TeamTournament:
    from tiebreak.formats.trf_teams import parse_team_trf

    return parse_team_trf(case.trf_text).event


def run_team_case(case: TeamCase, event: TeamTournament, explain: bool = False) -> TeamStandings:
    data = case.data
    regulations = Regulations(data["regulations"])
    specs = team_rules_from_wire(data["tiebreaks"], regulations)
    return compute_team_standings(event, specs, regulations, data["after_round"], explain)


def team_mismatches(case: TeamCase, event: TeamTournament, explain: bool = False) -> list[str]:
    standings = run_team_case(case, event, explain)
    table = standings.table
    index = table.index_of_id()
    rank_of = {table.ids[row.player]: row.rank for row in standings.rows}
    problems = []
    for row in case.data["expected"]:
        p = index[row["start_no"]]
        for spec_text, expected, outcome in zip(case.data["tiebreaks"], row["values"], standings.outcomes, strict=True):
            got = outcome.values[p]
            got = None if got is None else Fraction(got, outcome.scale)
            if Fraction(Decimal(expected)) != got:
                problems.append(
                    f"{case.id} team {row['start_no']} {spec_text}: expected {expected}, got "
                    f"{None if got is None else float(got)}"
                )
        if rank_of[row["start_no"]] != row["rank"]:
            problems.append(
                f"{case.id} team {row['start_no']}: rank expected {row['rank']}, got {rank_of[row['start_no']]}"
            )
    return problems
