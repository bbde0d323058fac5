"""`tiebreak check` and the archive check: what a TRF file says against what the service computes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from testkit.conformance import REALWORLD
from tiebreak.usecases.check import check_trf
from tests.command import ROOT, tiebreak

FIXTURES = ROOT / "tests" / "fixtures"
ALEKHINE = (FIXTURES / "conformance_fide" / "worked-a-alekhine-memorial.trf").read_text(encoding="utf-8")


def with_columns(text: str, start_number: int, points: str | None = None, rank: str | None = None) -> str:
    """The TRF with player `start_number`'s points (81-84) and/or rank (86-89) rewritten."""
    lines = []
    for line in text.splitlines():
        if line.startswith("001") and int(line[4:8]) == start_number:
            if points is not None:
                line = line[:80] + points.rjust(4) + line[84:]
            if rank is not None:
                line = line[:85] + rank.rjust(4) + line[89:]
        lines.append(line)
    return "\n".join(lines) + "\n"


def test_a_faithful_file_is_consistent():
    report = check_trf(ALEKHINE)
    assert report.status == "consistent" and report.disagreements == []
    assert report.compared == ["points", "rank"]


def test_a_wrong_points_column_is_reported():
    report = check_trf(with_columns(ALEKHINE, 1, points="9.5"))
    assert report.status == "inconsistent"
    (d,) = [d for d in report.disagreements if d.field == "points"]
    assert (d.player, d.file) == (1, "9.5") and d.computed != "9.5"


def test_a_rank_outside_the_players_tie_group_is_reported():
    # Without a rule list in the file, the standings go by points: the last player ranked 1
    # is outside every place his score group covers.
    last = max(int(line[4:8]) for line in ALEKHINE.splitlines() if line.startswith("001"))
    report = check_trf(with_columns(ALEKHINE, last, rank="1"))
    (d,) = [d for d in report.disagreements if d.field == "rank"]
    assert d.player == last and d.file == "1" and d.computed != "1"


def test_a_pre_2024_file_is_checked_under_the_rule_of_its_time():
    text = "\n".join(line if not line.startswith("042") else "042 2019/05/04" for line in ALEKHINE.splitlines())
    assert check_trf(text + "\n").regulations == "fide-2009"


def test_the_conformance_folders_are_consistent_file_by_file():
    folders = ("tests/fixtures/conformance_fide", "tests/fixtures/conformance_fide_edge")
    done = tiebreak("check", *folders, "--jobs", "2", installed=True)  # worker processes: not forked from the tests
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(lines) == 67 + 75
    assert {line["result"]["status"] for line in lines} == {"consistent"}
    assert "142 consistent, 0 inconsistent, 0 unreadable" in done.stderr


def test_an_inconsistent_file_fails_the_run_and_is_named(tmp_path):
    bad = tmp_path / "bad.trf"
    bad.write_text(with_columns(ALEKHINE, 1, points="9.5"), encoding="utf-8")
    done = tiebreak("check", str(bad))
    assert done.returncode == 1
    assert "inconsistent: " in done.stderr and "player 1 points 9.5 in the file" in done.stderr


def test_a_folder_with_an_undecodable_file_checks_every_file_and_names_the_bad_one(tmp_path):
    (tmp_path / "a-good.trf").write_text(ALEKHINE, encoding="utf-8")
    # A UTF-8 BOM promises UTF-8; the byte 0xff that follows cannot be UTF-8.
    (tmp_path / "b-bad.trf").write_bytes(b"\xef\xbb\xbf012 Broken\n001    1 \xff\n")
    (tmp_path / "c-vega.trfx").write_text(ALEKHINE, encoding="utf-8")
    for jobs in ("1", "2"):
        done = tiebreak("check", str(tmp_path), "--jobs", jobs, installed=jobs != "1")
        lines = [json.loads(line) for line in done.stdout.splitlines()]
        assert [Path(line["id"]).name for line in lines] == ["a-good.trf", "b-bad.trf", "c-vega.trfx"], done.stderr
        assert [line["status"] for line in lines] == [200, 400, 200]
        assert "Traceback" not in done.stderr and f"unreadable: {tmp_path / 'b-bad.trf'}" in done.stderr


def test_check_takes_tiebreaks_and_regulations(tmp_path):
    path = tmp_path / "a.trf"
    path.write_text(ALEKHINE, encoding="utf-8")
    done = tiebreak("check", str(path), "--tiebreaks", "BH", "SB", "--regulations", "fide-2024")
    (line,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert line["result"]["tiebreaks"] == ["BH", "SB"] and line["result"]["regulations"] == "fide-2024"


def test_batch_of_a_folder_includes_vegas_trfx_files(tmp_path):
    (tmp_path / "a.trf").write_text(ALEKHINE, encoding="utf-8")
    (tmp_path / "b.trfx").write_text(ALEKHINE, encoding="utf-8")
    done = tiebreak("batch", str(tmp_path), "--no-explain")
    assert [Path(json.loads(line)["id"]).name for line in done.stdout.splitlines()] == ["a.trf", "b.trfx"]


CRETE = REALWORLD / "crete-team-cup-2024.trf"


@pytest.mark.skipif(not CRETE.is_file(), reason=f"{CRETE} is not here (../shared/conformance)")
def test_a_team_file_whose_players_points_disagree_is_inconsistent():
    """Issue 37, 11: the Crete team cup's 310 records carry no columns, so nothing was compared and the
    file was "consistent" while its own warnings named 12 players' points columns that disagree."""
    done = tiebreak("check", str(CRETE))
    (line,) = [json.loads(line) for line in done.stdout.splitlines()]
    report = line["result"]
    mismatches = [w for w in report["warnings"] if w["code"] == "trf-points-mismatch"]
    assert len(mismatches) == 12
    assert report["status"] == "inconsistent" and "points" in report["compared"]
    assert sorted(d["player"] for d in report["disagreements"] if d["field"] == "points") == sorted(
        int(w["message"].split("player ")[1].split(":")[0]) for w in mismatches
    )
    assert done.returncode == 1 and "inconsistent: " in done.stderr


KARL_MALA = [REALWORLD / "karl-mala-2005-sharly.trf", REALWORLD / "karl-mala-2005-sklangen.trf"]


@pytest.mark.skipif(not all(p.is_file() for p in KARL_MALA), reason=f"{REALWORLD} is not here (../shared/conformance)")
def test_places_are_counted_among_the_players_the_file_ranks(tmp_path):
    """Issue 37, 11: Karl-Mala leaves 8 of its 284 players unranked (rank 0) and numbers the others
    without them; counted with them, 17 players' places were called inconsistent."""
    done = tiebreak("check", *map(str, KARL_MALA))
    reports = [json.loads(line)["result"] for line in done.stdout.splitlines()]
    assert [(r["status"], r["compared"], r["disagreements"]) for r in reports] == [
        ("consistent", ["points", "rank"], [])
    ] * 2
    # a place that is wrong among the ranked players is still found
    text = KARL_MALA[0].read_text(encoding="utf-8", errors="replace")
    wrong = tmp_path / "wrong.trf"
    wrong.write_text(with_columns(text, 59, rank="100"), encoding="utf-8")
    (line,) = [json.loads(line) for line in tiebreak("check", str(wrong)).stdout.splitlines()]
    (disagreement,) = line["result"]["disagreements"]
    assert (disagreement["player"], disagreement["field"], disagreement["file"]) == (59, "rank", "100")
    assert disagreement["computed"] == "209-239"  # the file ranks its 2.5-point players 209 to 239
