"""The command line on team events (SPEC 3.7): standings, explain -p TEAM, batch, from TRF and JSON."""

import json

from tests.command import ROOT, tiebreak

TEAMS = ROOT / "tests" / "fixtures" / "conformance_fide_team"
FINAL = TEAMS / "tworked-0001.trf"


def test_standings_of_a_team_trf():
    result = tiebreak("standings", FINAL, "-t", "PTS", "MPvGP", "BC", "TBR")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["Rank", "Id", "Name", "Pts", "PTS", "MPvGP", "BC", "TBR", "Ahead", "of", "next", "by"]
    assert lines[1].split()[:2] == ["1", "1"] and lines[1].endswith("TBR")


def test_explain_one_team():
    result = tiebreak("explain", FINAL, "-p", "2", "-t", "PTS", "MPvGP", "BC", "BBE")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("Knotbury (id 2): rank 1 of 2, 1 match points, 3 game points")
    assert "ahead of Gifford's Cross (id 1) by BBE" in out
    assert "all boards but the last 2: 2.5 against 1.5" in out


def test_a_json_request_and_a_bare_team_tournament(tmp_path):
    body = json.loads((TEAMS / "tswiss-0009.input.json").read_text())
    (tmp_path / "request.json").write_text(json.dumps(body))
    (tmp_path / "event.json").write_text(json.dumps(body["team_tournament"]))
    whole = tiebreak("standings", tmp_path / "request.json", "--format", "json")
    bare = tiebreak("standings", tmp_path / "event.json", "-t", *body["tiebreaks"], "--format", "json")
    assert whole.returncode == bare.returncode == 0, whole.stderr + bare.stderr
    assert json.loads(whole.stdout)["standings"] == json.loads(bare.stdout)["standings"]
    assert json.loads(whole.stdout)["standings"][0]["match_points"] == 9.0


def test_batch_of_team_files(tmp_path):
    out = tmp_path / "out.ndjson"
    result = tiebreak("batch", TEAMS, "-t", "PTS", "MPvGP", "--out", out)
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 15 and {line["status"] for line in lines} == {200}
