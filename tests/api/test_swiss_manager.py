"""Swiss-Manager tie-break numbers (SPEC 3.13, docs/interop.md, decision 0178).

Each number of the published table (shared/interop/swiss-manager-tiebreaks.md) with an exact C.07
counterpart, with its parameters, ranks as that C.07 rule: the expected specs below are read off the
table's parameter order by hand, and each number's values are compared with the C.07 rule's on the
same corpus case. Every other number is a 422 whose reason is the one written here per number.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.command import tiebreak
from tiebreak.http.examples import TRF

ROOT = Path(__file__).resolve().parents[2]
TEAM_FILE = ROOT / "tests" / "fixtures" / "conformance_fide_team" / "tswiss-0001.trf"
TEAM_TRF = TEAM_FILE.read_text()

# (number, parameters, expected C.07 spec) on the individual example, under fide-2026
INDIVIDUAL = [
    (1, "", "PTS"),
    (68, "0", "WIN"),
    (68, "1", "WON"),
    (68, "2", "BWG"),
    (68, "3,-", "BPG"),
    (77, "-", "AOB"),
    (77, "", "AOB"),
    (79, "", "GE"),
    (80, "0,0,0,0", "ARO"),
    (80, "0,0,1,0", "ARO/C1"),
    (80, "0,1,1,0", "ARO/M1"),
    (81, "-", "DE"),
    (81, "P", "DE/P"),
    (84, "0,0,0,P,-", "BH/P"),
    (84, "0,0,1,P,-,0,1", "BH/C1/P"),
    (84, "0,1,1,-,-", "BH/M1"),
    (84, "0,0,2,-,F", "FB/C2"),
    (85, "0,1,1,-", "SB/M1"),
    (85, "0,0,1,P", "SB/C1/P"),
    (86, "0,0", "PS"),
    (87, "0,50", "KS"),
    (87, "0,40", "KS/L40"),
    (88, "0,0", "TPR"),
    (88, "1", "APRO"),
    (88, "2,0", "PTP"),
    (88, "3,0", "APPO"),
]

# (number, parameters, expected spec) on the team example (match points primary, 2/1/0)
TEAM = [
    (1, "", "PTS:GP"),
    (13, "", "PTS:MP"),
    (77, "-", "AOB"),
    (78, "", "BC"),
    (82, "1,0,0,0", "EMGSB"),
    (82, "0,0,1,P,0", "EMMSB/C1/P"),
    (82, "2,0,0,-", "EGMSB"),
    (82, "3,0,1,-", "EGGSB/C1"),
    (83, "MP,-", "EDE"),
    (83, "MP,P", "EDE/P"),
    (84, "1,0,1,P,-,0,1", "BH:MP/C1/P"),
    (84, "0,0,0,-,-", "BH:GP"),
    (84, "1,0,0,-,F", "FB:MP"),
    (86, "1,0", "PS:MP"),
    (86, "0,0", "PS:GP"),
    (87, "1,50", "KS:MP"),
    (89, "", "TBR"),
    (90, "", "BBE"),
    (91, "MP,-", "SSSC"),
    (91, "MP,P", "SSSC/P"),
]

# Every other number, by the reason its 422 gives (a phrase of it).
REFUSED = {
    "is a historical rule": (2, 3, 4, 10, 17, 18, 19, 20, 21, 28, 29, 30, 31, 33),
    "predates C.07 (2024)": (7, 8, 9, 11, 12, 14, 15, 16, 22, 34, 35, 45, 53, 69),
    "is not a rule of C.07": (23, 24, 25, 38, 39, 41, 42, 46, 51, 54, 55, 58, 59, 61, 71, 76),
    "Swiss-Chess or another program": (72, 73, 92),
    "board or player list": (62, 63, 64, 65, 66),
    "the arbiter types in": (5, 6),
    "play-off games": (43,),
    "imported from another program": (26, 27, 32),
    "the published table does not give": (36, 37, 44, 47, 48, 52, 60, 70),
    "a Chess Olympiad's own regulations": (49, 50, 56, 57, 67, 74, 75),
}


def _standings(client, event: str, rules: list, regulations: str = "fide-2026"):
    return client.post(
        "/v1/standings", json={"trf": event, "tiebreaks": rules, "regulations": regulations, "explain": False}
    )


def _columns(body: dict) -> list[list]:
    return [row["values"] for row in body["standings"]]


def _same_as_c07(client, event: str, number: int, parameters: str, spec: str) -> None:
    numbered = _standings(client, event, [{"swiss_manager": number, "parameters": parameters}])
    assert numbered.status_code == 200, numbered.text
    assert [t["spec"] for t in numbered.json()["tiebreaks"]] == [spec]  # the C.07 spec it computed, echoed
    coded = _standings(client, event, [spec])
    assert coded.status_code == 200, coded.text
    assert _columns(numbered.json()) == _columns(coded.json())
    assert [r["id"] for r in numbered.json()["standings"]] == [r["id"] for r in coded.json()["standings"]]


@pytest.mark.parametrize(("number", "parameters", "spec"), INDIVIDUAL)
def test_a_number_of_an_individual_event_ranks_as_its_c07_rule(client, number, parameters, spec):
    _same_as_c07(client, TRF, number, parameters, spec)


@pytest.mark.parametrize(("number", "parameters", "spec"), TEAM)
def test_a_number_of_a_team_event_ranks_as_its_c07_rule(client, number, parameters, spec):
    _same_as_c07(client, TEAM_TRF, number, parameters, spec)


def test_every_number_of_the_table_is_computed_or_refused():
    computed = {n for n, _, _ in INDIVIDUAL + TEAM} | {40}  # 40: on a 3/1/0 event below
    refused = {n for numbers in REFUSED.values() for n in numbers}
    assert not computed & refused
    assert computed | refused == set(range(1, 93))


@pytest.mark.parametrize(("number", "phrase"), [(n, phrase) for phrase, numbers in REFUSED.items() for n in numbers])
def test_a_number_with_no_c07_counterpart_is_a_422_saying_why(client, number, phrase):
    answer = _standings(client, TRF, ["BH", {"swiss_manager": number}])
    assert answer.status_code == 422, answer.text
    (error,) = answer.json()["errors"]
    assert error["path"] == "tiebreaks[1]"
    assert error["message"].startswith(f"Swiss-Manager {number} (")
    assert phrase in error["message"]


@pytest.mark.parametrize(
    ("event", "number", "parameters", "phrase"),
    [
        (TRF, 80, "1200,0,0,0", "with minimum rating '1200' has no C.07 counterpart"),
        (TRF, 80, "0,0,0,1", "averages the opponents met over the board only"),
        (TRF, 80, "0,1,0,0", "never the strongest alone"),
        (TRF, 84, "1,0,0", "match points are a team event's score"),
        (TRF, 84, "0,0,0,X", "parameter 4 (- or P) is 'X'"),
        (TRF, 84, "0,0,0,-,-,0,1,1", "8 parameters given, it takes 7"),
        (TRF, 85, "1,0,0,-", "parameter 1 (0) is '1'"),
        (TRF, 77, "F", "not their Fore Buchholz"),
        (TRF, 68, "0,P", "with no P modifier"),
        (TRF, 86, "0,1", "the first rounds' running scores"),
        (TRF, 87, "0,101", "parameter 2 (limit in %) is '101'; it takes a whole number from 0 to 100"),
        (TRF, 80, "x,0,0,0", "parameter 1 (minimum rating) is 'X'; it takes a whole number from 0 to 4000"),
        (TRF, 84, "0,0,10", "parameter 3 (discarded weakest results) is '10'; it takes a whole number from 0 to 9"),
        (TRF, 88, "2,1400", "with minimum rating '1400'"),
        (TRF, 88, "4", "parameter 1 (type) is '4'"),
        (TRF, 13, "", "ranks team events; this is an individual event"),
        (TRF, 93, "", "has no tie-break number 93"),
        (TEAM_TRF, 79, "", "ranks individual events; this is a team event"),
        (TEAM_TRF, 78, "1", "1 parameters given, it takes 0"),
        (TEAM_TRF, 82, "1,1,1", "never the strongest alone"),  # ESB: a cut only (C.07 13.2)
        (TEAM_TRF, 40, "", "counts match points 3/1/0; this event scores a match won, drawn, lost 2/1/0"),
        (TEAM_TRF, 82, "1,0,0,-,1", "counts match points 3/1/0"),
        (TEAM_TRF, 84, "1,0,0,-,-,1", "counts match points 3/1/0"),
        (TEAM_TRF, 83, "GP,-", "ranks on GP first; this event's primary score is MP"),
        (TEAM_TRF, 91, "GP", "ranks on GP first"),
    ],
)
def test_a_parameter_with_no_c07_counterpart_is_a_422_saying_why(client, event, number, parameters, phrase):
    answer = _standings(client, event, [{"swiss_manager": number, "parameters": parameters}])
    assert answer.status_code == 422, answer.text
    (error,) = answer.json()["errors"]
    assert error["path"] == "tiebreaks[0]"
    assert phrase in error["message"]


def test_the_last_parameter_of_84_names_the_edition_applied(client):
    """84's 7th parameter, "valid from 1.2.2026": 1 the 2026 rules, 0 those before."""
    answer = _standings(client, TRF, ["SM84:0,0,1,P,-,0,1"], regulations="fide-2024")
    assert answer.status_code == 422
    assert 'send "regulations": "fide-2026"' in answer.json()["errors"][0]["message"]
    answer = _standings(client, TRF, ["SM84:0,0,1,P,-,0,0"], regulations="fide-2024")
    assert [t["spec"] for t in answer.json()["tiebreaks"]] == ["BH/C1/P"]


def _three_one_nil(trf: str, primary: str = "MP_GP") -> str:
    lines = trf.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("192"))
    return "\n".join([*lines[:at], f"192 FIDE_TEAM_{primary}", "362 TW 3 TD 1 TL 0", *lines[at + 1 :]]) + "\n"


def test_match_points_numbers_follow_the_events_match_scoring(client):
    event = _three_one_nil(TEAM_TRF)
    _same_as_c07(client, event, 40, "", "PTS:MP")
    _same_as_c07(client, event, 84, "1,0,1,-,-,1", "BH:MP/C1")
    refused = _standings(client, event, [{"swiss_manager": 13}])
    assert refused.status_code == 422
    assert "counts match points 2/1/0; this event scores a match won, drawn, lost 3/1/0" in refused.text


def test_numbers_on_game_points_first_need_an_event_ranked_on_game_points(client):
    event = _three_one_nil(TEAM_TRF, "GP_MP")
    _same_as_c07(client, event, 83, "GP,-", "EDE")
    _same_as_c07(client, event, 91, "GP,P", "SSSC/P")


def test_the_string_form_reads_the_same_in_a_list_and_on_the_command_line(client, tmp_path):
    answer = _standings(client, TRF, ["sm84:0,0,1,P,-,0,1", "SM 85"])
    assert [t["spec"] for t in answer.json()["tiebreaks"]] == ["BH/C1/P", "SB"]
    trf = tmp_path / "event.trf"
    trf.write_text(TRF)
    run = tiebreak("standings", "--regulations", "fide-2026", "-t", "SM84:0,0,1,P,-,0,1", "SM81:P", str(trf))
    assert run.returncode == 0, run.stderr
    assert "Pts  BH/C1/P  DE/P" in run.stdout
    refused = tiebreak("standings", "-t", "SM18", str(trf))
    assert refused.returncode != 0
    assert "Swiss-Manager 18 (Carasaxa Tie-Breaks) is a historical rule" in refused.stderr


def test_an_object_names_a_code_or_a_number(client):
    for rule in (
        {"code": "BH", "swiss_manager": 84},
        {"code": "BH", "parameters": "0"},
        {"swiss_manager": 84, "modifiers": {"cut": 1}},
        {},
    ):
        answer = _standings(client, TRF, [rule])
        assert answer.status_code == 400, (rule, answer.text)


def test_the_catalogue_gives_each_rules_numbers_with_their_parameters(client):
    entries = {e["code"]: e["swiss_manager"] for e in client.get("/v1/tiebreaks").json()}
    assert {"number": 84, "parameters": "0,0,0,-,-"} in entries["BH"]
    assert {"number": 84, "parameters": "0,0,0,-,F"} in entries["FB"]
    assert entries["EMGSB"] == [{"number": 82, "parameters": "1,0,0,-,0"}]
    assert entries["WON"] == [{"number": 68, "parameters": "1"}]
    assert entries["GE"] == [{"number": 79, "parameters": ""}]
    assert entries["MM"] == []  # US Chess rules have none
    # each number listed reads back as its rule
    for code, numbers in entries.items():
        for pair in numbers:
            assert pair["number"] in {n for n, _, _ in INDIVIDUAL + TEAM} | {40}, code


def test_the_interop_page_gives_every_number_its_verdict():
    rows = {}
    for line in (ROOT / "docs" / "interop.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 5 and cells[0].isdigit():
            rows[int(cells[0])] = cells[3]
    assert sorted(rows) == list(range(1, 93))
    for number, _, spec in INDIVIDUAL + TEAM:
        assert f"`{spec.split('/')[0].split(':')[0]}" in rows[number], number
    for numbers in REFUSED.values():
        for number in numbers:
            assert rows[number].startswith("refused: "), number
