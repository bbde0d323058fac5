"""The FIDE team corpus (tests/fixtures/conformance_fide_team/, copied from
../shared/conformance/fide-team/): each case read from its TRF-26 file and from its JSON
request body, ranked, and compared with the expected values as exact decimals (as the
individual corpora are, `testkit.conformance`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import msgspec

from tiebreak.wire import schemas as s
from tiebreak.usecases.convert_teams import team_rules_from_wire, team_tournament_from_wire
from tiebreak.engine import Regulations
from tiebreak.engine.teams.model import TeamTournament
from tiebreak.engine.teams.standings import TeamStandings, compute_team_standings

from .conformance import FIXTURES, Case, expected_mismatches

FOLDER = FIXTURES / "conformance_fide_team"


@dataclass
class TeamCase(Case):
    folder: Path = FOLDER

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
    assert request.team_tournament is not None, f"{case.id}: the body holds no team_tournament"
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
    return expected_mismatches(case, run_team_case(case, event, explain), noun="team")
