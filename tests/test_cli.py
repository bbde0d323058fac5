"""The `tiebreak` command line, run as a user would: the installed command once, then in-process
(tests/command.py)."""

import json

from tests.command import ROOT, tiebreak

ALEKHINE = ROOT / "tests" / "fixtures" / "conformance_fide" / "worked-a-alekhine-memorial.trf"


def test_standings_table_shows_values_and_the_deciding_rule():
    result = tiebreak("standings", ALEKHINE, "-t", "BH", "BH/C1", "SB", installed=True)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["Rank", "Id", "Name", "Pts", "BH", "BH/C1", "SB", "Ahead", "of", "next", "by"]
    # Kasparov: BH 14.5, Cut-1 12.5, SB 9.75, ahead of Tal on Buchholz (seed 000).
    assert lines[2].split() == ["2", "2", "Kasparov", "3.5", "14.5", "12.5", "9.75", "BH"]


def test_standings_json_is_the_api_response():
    result = tiebreak("standings", ALEKHINE, "-t", "SB", "--format", "json")
    body = json.loads(result.stdout)
    assert body["regulations"] == "fide-2026"
    assert body["standings"][1]["breakdown"]["SB"]["value"] == 9.75


def test_errors_go_to_stderr_with_a_non_zero_exit():
    result = tiebreak("standings", ALEKHINE, "-t", "NOPE")
    assert result.returncode == 1
    assert "unknown tie-break" in result.stderr and result.stdout == ""
