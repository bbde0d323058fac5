"""`-t` before the file (issue 37 item 12): `tiebreak standings -t BH/C1 BH FILE` ranks FILE by
BH/C1 and BH, as `tiebreak standings FILE -t BH/C1 BH` does; the rule list ends where a file
begins (docs/cli.md). In-process through `tiebreak.cli.main` (tests/command.py), which may run again
and again."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.command import tiebreak

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "conformance_fide"
EVENT = str(FIXTURES / "worked-a-alekhine-memorial.trf")


def run(*argv: str, **options) -> tuple[int, str, str]:
    done = tiebreak(*argv, **options)
    return done.returncode, done.stdout, done.stderr


def test_the_rules_may_come_before_the_file():
    after = run("standings", EVENT, "-t", "BH/C1", "BH", "--format", "csv")
    before = run("standings", "-t", "BH/C1", "BH", EVENT, "--format", "csv")
    assert before == after
    status, out, _ = before
    assert status == 0 and out.splitlines()[0] == "rank,id,name,points,BH/C1,BH,decided_by"


@pytest.mark.parametrize("command", ["explain", "progression"])
def test_every_command_of_one_file_reads_it_after_the_rules(command):
    extra = ["-p", "1"] if command == "explain" else []
    after = run(command, EVENT, *extra, "-t", "BH/C1", "SB")
    before = run(command, *extra, "-t", "BH/C1", "SB", EVENT)
    assert before == after and before[0] == 0
    assert "BH/C1" in before[1] and "SB" in before[1]


def test_a_json_file_and_standard_input_end_the_rule_list_too(tmp_path):
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"trf": Path(EVENT).read_text(), "explain": False}))
    status, out, _ = run("standings", "-t", "SB", str(event), "--format", "csv")
    assert status == 0 and out.splitlines()[0] == "rank,id,name,points,SB,decided_by"
    status, stdin_out, _ = run("standings", "-t", "SB", "-", "--format", "csv", input=Path(EVENT).read_bytes())
    assert status == 0 and stdin_out == out


def test_a_missing_file_named_as_one_is_read_as_the_file_and_reported(tmp_path):
    status, out, err = run("standings", "-t", "BH", str(tmp_path / "nowhere.trf"))
    assert status == 1 and out == ""
    assert "nowhere.trf" in err and "No such file" in err


def test_without_a_file_it_is_still_the_usage_error():
    status, _, err = run("standings", "-t", "BH", "SB")
    assert status == 2
    assert "the following arguments are required: file" in err


def test_a_second_file_after_the_rules_is_refused_not_taken_for_a_rule(tmp_path):
    other = tmp_path / "other.trf"
    shutil.copy(EVENT, other)
    status, _, err = run("standings", EVENT, "-t", "BH", str(other))
    assert status == 2
    assert f"unrecognized arguments: {other}" in err


def test_a_folder_written_like_a_rule_stays_a_rule(tmp_path):
    (tmp_path / "SB").mkdir()  # `-t BH SB` still means the rules BH and SB
    status, out, _ = run("standings", EVENT, "-t", "BH", "SB", "--format", "csv", cwd=tmp_path)
    assert status == 0 and out.splitlines()[0] == "rank,id,name,points,BH,SB,decided_by"


@pytest.mark.parametrize("command", ["batch", "check"])
def test_many_files_may_follow_the_rules(tmp_path, command):
    folder = tmp_path / "events"
    folder.mkdir()
    for name in ("a.trf", "b.trf"):
        shutil.copy(EVENT, folder / name)
    single = tmp_path / "c.trf"
    shutil.copy(EVENT, single)
    after = run(command, f"{folder}/", str(single), "-t", "BH", "--no-progress")
    before = run(command, "-t", "BH", f"{folder}/", str(single), "--no-progress")
    assert before[:2] == after[:2]
    lines = [json.loads(line) for line in before[1].splitlines()]
    assert [Path(line["id"]).name for line in lines] == ["a.trf", "b.trf", "c.trf"]
    # batch: the standings' rules (described); check: the rules each file was ranked by
    ranked_by = [[t["spec"] if command == "batch" else t for t in line["result"]["tiebreaks"]] for line in lines]
    assert ranked_by == [["BH"]] * 3


def test_the_language_of_one_call_does_not_stay_for_the_next():
    status, russian, _ = run("standings", EVENT, "-t", "BH", "--lang", "ru")
    status_en, english, _ = run("standings", EVENT, "-t", "BH")
    assert status == status_en == 0
    assert russian != english and english.splitlines()[0].startswith("Rank")
