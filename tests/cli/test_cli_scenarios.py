"""`tiebreak scenarios`: the sentences for an event worked by hand, and a real event's last round
reopened from the file itself, the same answer as POST /v1/scenarios."""

from __future__ import annotations

import json

import pytest

from tiebreak.http.scenarios import EXAMPLE
from tests.command import ROOT, tiebreak

REAL = ROOT.parent / "shared" / "conformance" / "realworld-trf" / "gelendzhik-2016-sds-classic.trf"


def test_the_sentences_of_the_worked_example(tmp_path):
    """Kira beat Hugo, Ana beat Kira; round 3 Kira-Bo and Hugo-Ana, direct encounter (see
    tests/api/test_scenarios_examples.py for why)."""
    (tmp_path / "t.json").write_text(json.dumps(EXAMPLE["tournament"]))
    (tmp_path / "p.json").write_text(json.dumps(EXAMPLE["pairings"]))
    done = tiebreak("scenarios", tmp_path / "t.json", "--pairings", tmp_path / "p.json", "-t", "DE")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("9 outcomes of 2 open games examined; ")
    assert lines[1:] == [
        "Kira: best rank 1, worst rank 4",
        "  Kira finishes 1st if Kira wins and Hugo beats Ana.",
        "Hugo: best rank 1, worst rank 3",
        "  Hugo finishes 1st if Hugo wins.",
        "Ana: best rank 1, worst rank 2",
        "  Ana finishes 1st if Kira beats Bo, or Ana does not lose.",
        "Bo: best rank 2, worst rank 4",
        "  Bo cannot finish 1st.",
    ]


def test_the_sentences_in_russian(tmp_path):
    # The same answer as above, through the catalogue (texts/locale/ru.po): a game of others is
    # written "в партии БЕЛЫЕ — ЧЁРНЫЕ побеждает …", so that names need no declension.
    (tmp_path / "t.json").write_text(json.dumps(EXAMPLE["tournament"]))
    (tmp_path / "p.json").write_text(json.dumps(EXAMPLE["pairings"]))
    done = tiebreak("scenarios", tmp_path / "t.json", "--pairings", tmp_path / "p.json", "-t", "DE", "--lang", "ru")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("рассмотрено исходов 2 несыгранных партий: 9; ")
    assert lines[1:3] == [
        "Kira: лучшее место 1, худшее место 4",
        "  Kira занимает 1-е место, если Kira выигрывает и в партии Hugo — Ana побеждает Hugo.",
    ]
    assert lines[-1] == "  Bo не может занять 1-е место."


def test_a_real_event_with_its_last_round_reopened():
    if not REAL.exists():
        pytest.skip(f"{REAL} is not on this machine")
    args = ["scenarios", REAL, "--pairings", "last", "-t", "BH/C1", "BH", "SB", "--places", "3"]
    done = tiebreak(*args, "--format", "json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["outcomes"] == 3 ** len(answer["open_games"]) and len(answer["players"]) == 13
    assert {g["round"] for g in answer["open_games"]} == {7}  # the file's last round, reopened
    text = tiebreak(*args)
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert sum(line.startswith(tuple(f"{p['name']}: best rank" for p in answer["players"])) for line in lines) == 13


def test_the_real_event_in_the_docs_is_what_the_command_prints():
    """docs/scenarios.md quotes the command's output for the real event: every line it shows whole
    (one is shortened there, and marked so) is a line the command prints today."""
    if not REAL.exists():
        pytest.skip(f"{REAL} is not on this machine")
    docs = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    section = docs.split("## A real event: Gelendzhik 2016", 1)[1]
    block = [line[4:] for line in section.splitlines() if line.startswith("    ")]
    command, shown = block[0].split(), block[1:]
    assert command[:2] == ["tiebreak", "scenarios"] and len(shown) > 10
    done = tiebreak("scenarios", REAL, *command[3:])
    assert done.returncode == 0, done.stderr
    printed = set(done.stdout.splitlines())
    whole = [line for line in shown if "(shortened here)" not in line]
    assert len(whole) == len(shown) - 1
    assert [line for line in whole if line not in printed] == []
