"""The `tiebreak` command line run as a user runs it: golden output, explain, batch, errors."""

import argparse
import json
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from tiebreak.formats.trf import read_trf
from tiebreak.usecases.convert import tournament_to_wire
from tests.command import INSTALLED, ROOT, tiebreak

FIXTURES = ROOT / "tests" / "fixtures" / "conformance_fide"
GOLDEN = Path(__file__).parent / "golden"
ALEKHINE = FIXTURES / "worked-a-alekhine-memorial.trf"
HALF_POINT_BYE = FIXTURES / "worked-c-hpb-2026.trf"


@pytest.mark.parametrize(
    "args, golden",
    [
        (["standings", ALEKHINE, "-t", "BH/C1", "BH", "SB", "ARO"], "alekhine-standings.txt"),
        (["standings", ALEKHINE, "-t", "BH/C1", "BH", "SB", "ARO", "--format", "csv"], "alekhine-standings.csv"),
        (["explain", HALF_POINT_BYE, "-p", "1", "-t", "BH/C1", "BH"], "hpb-2026-explain-1.txt"),
        (["progression", GOLDEN / "riverside.trf", "-t"], "riverside-progression.txt"),
        (["progression", GOLDEN / "riverside.trf", "-t", "--csv"], "riverside-progression.csv"),
    ],
)
def test_golden_output_of_the_worked_examples(args, golden):
    result = tiebreak(*args)
    assert result.returncode == 0, result.stderr
    assert result.stdout == (GOLDEN / golden).read_text()


def test_standings_of_a_json_tournament_and_of_a_json_request(tmp_path):
    tournament = json.loads(tiebreak("standings", ALEKHINE, "--format", "json").stdout)
    converted = msgspec.json.encode(tournament_to_wire(read_trf(ALEKHINE.read_bytes()).tournament))
    (tmp_path / "t.json").write_bytes(converted)
    (tmp_path / "r.json").write_text(json.dumps({"tournament": json.loads(converted), "tiebreaks": ["SB"]}))
    from_tournament = tiebreak("standings", tmp_path / "t.json", "-t", "SB", "--format", "json")
    from_request = tiebreak("standings", tmp_path / "r.json", "--format", "json")
    assert from_tournament.returncode == from_request.returncode == 0, from_tournament.stderr + from_request.stderr
    assert json.loads(from_tournament.stdout)["standings"] == json.loads(from_request.stdout)["standings"]
    assert tournament["standings"][1]["name"] == "Kasparov"


def test_the_rule_list_of_the_file_is_used_when_none_is_given(tmp_path):
    path = tmp_path / "with-202.trf"
    path.write_text("202 SB, BH\n" + ALEKHINE.read_text())
    result = tiebreak("standings", path)
    assert result.stdout.splitlines()[0].split()[4:6] == ["SB", "BH"]


def test_after_round(tmp_path):
    result = tiebreak("standings", ALEKHINE, "-t", "BH", "--after-round", "2")
    assert result.returncode == 0 and "after round 2" in result.stdout


def test_a_latin1_file_reads_with_its_accents(tmp_path):
    path = tmp_path / "latin1.trf"
    path.write_bytes(ALEKHINE.read_text().replace("Tal       ", "Tàl Müller").encode("cp1252"))
    result = tiebreak("standings", path, "-t", "BH")
    assert result.returncode == 0, result.stderr
    assert "Tàl Müller" in result.stdout and "Windows-1252" in result.stderr


@pytest.mark.parametrize(
    "args, words",
    [
        (["standings", ALEKHINE, "-t", "NOPE"], "unknown tie-break"),
        (["standings", "missing.trf"], "No such file"),
        (["explain", ALEKHINE, "-p", "99"], "no player with id 99"),
        (["standings", FIXTURES / "swiss-0005.json"], "unknown field `id`"),  # an expected-values file, no tournament
    ],
)
def test_errors_go_to_stderr_with_a_non_zero_exit(args, words, tmp_path):
    result = tiebreak(*args)
    assert result.returncode == 1 and result.stdout == ""
    assert words in result.stderr


def test_a_broken_trf_names_file_line_and_column(tmp_path):
    path = tmp_path / "broken.trf"
    path.write_text(ALEKHINE.read_text().replace(" 5 w 1", " 5 x 1", 1))
    result = tiebreak("standings", path)
    assert result.returncode == 1 and "broken.trf: line" in result.stderr and "column 97" in result.stderr


def test_batch_over_the_conformance_folder_with_two_jobs(tmp_path):
    out = tmp_path / "results.ndjson"
    result = tiebreak(
        "batch", FIXTURES, "-t", "BH/C1", "BH", "SB", "--out", out, "--jobs", "2", "--progress", installed=True
    )
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 67 and all(line["status"] == 200 for line in lines)
    assert [line["index"] for line in lines] == list(range(67))
    assert [Path(line["id"]).name for line in lines] == sorted(p.name for p in FIXTURES.glob("*.trf"))
    assert "67/67 files" in result.stderr and "67 ranked, 0 failed" in result.stderr
    kasparov = next(line for line in lines if line["id"].endswith("worked-a-alekhine-memorial.trf"))
    assert kasparov["result"]["standings"][1]["values"] == [12.5, 14.5, 9.75]


def test_batch_with_bad_files_reports_them_and_fails(tmp_path):
    (tmp_path / "good.trf").write_text(ALEKHINE.read_text())
    (tmp_path / "broken.trf").write_text("001  xx\n")
    (tmp_path / "contradiction.trf").write_text(ALEKHINE.read_text().replace(" 5 w 1", " 5 w =", 1))
    result = tiebreak("batch", tmp_path / "*.trf", "-t", "BH", "--jobs", "2", installed=True)
    assert result.returncode == 1
    lines = {Path(r["id"]).name: r for r in map(json.loads, result.stdout.splitlines())}
    assert {name: r["status"] for name, r in lines.items()} == {
        "broken.trf": 422,
        "contradiction.trf": 422,
        "good.trf": 200,
    }
    assert "1 ranked, 2 failed" in result.stderr
    assert "failed: " in result.stderr and "broken.trf: the TRF text cannot be read" in result.stderr


def test_batch_lines_are_the_same_with_one_job_and_with_several(tmp_path):
    """Worker processes take the files in chunks (smaller towards the end); the output is the
    one-process output byte for byte, broken files included."""
    for path in sorted(FIXTURES.glob("*.trf"))[:20]:
        (tmp_path / path.name).write_text(path.read_text())
    (tmp_path / "zz-broken.trf").write_text("001  xx\n")
    runs = [
        tiebreak("batch", tmp_path, "-t", "BH/C1", "SB", "--no-explain", "--jobs", jobs, installed=jobs != "1")
        for jobs in ("1", "3")
    ]
    assert runs[0].returncode == runs[1].returncode == 1
    assert runs[0].stdout == runs[1].stdout and len(runs[0].stdout.splitlines()) == 21


def test_batch_with_a_pattern_that_matches_nothing_fails(tmp_path):
    result = tiebreak("batch", tmp_path / "*.trf")
    assert result.returncode == 1 and "no file matches" in result.stderr


# ---- fit for scripts (issue 11, item 10)


@pytest.mark.parametrize("fmt", ["table", "csv", "json"])
def test_warnings_go_to_stderr_in_every_format(fmt):
    result = tiebreak("standings", ALEKHINE, "--format", fmt)  # no rules: a no-tiebreaks warning
    assert result.returncode == 0
    assert "tiebreak: warning: no tie-break rules given" in result.stderr
    assert "no tie-break rules given" not in result.stdout or fmt == "json"  # JSON carries them in `warnings`
    if fmt == "csv":
        assert result.stdout.splitlines()[0] == "rank,id,name,points,decided_by"


def test_a_closed_pipe_ends_quietly():
    script = (
        f"{INSTALLED} batch {FIXTURES} -t BH/C1 BH SB --jobs 1 --no-progress"
        " | head -c 100 > /dev/null; echo ${PIPESTATUS[0]}"
    )
    result = subprocess.run(["bash", "-c", script], cwd=ROOT, capture_output=True, text=True)
    assert "Traceback" not in result.stderr and "Error" not in result.stderr, result.stderr
    assert result.stdout.strip() == "141"  # as cat or grep: killed by SIGPIPE, no message


def test_dash_reads_the_file_from_standard_input():
    for data in (ALEKHINE.read_bytes(), json.dumps({"trf": ALEKHINE.read_text(), "tiebreaks": ["BH"]}).encode()):
        result = tiebreak("standings", "-", "-t", "BH", input=data, installed=True)  # a real process's stdin
        assert result.returncode == 0, result.stderr
        assert result.stdout.splitlines()[2].split()[:5] == ["2", "2", "Kasparov", "3.5", "14.5"]


def test_version():
    result = tiebreak("--version")
    assert result.returncode == 0 and result.stdout.startswith("tiebreak ")


def test_every_option_has_help():
    from tiebreak.cli.parser import parser

    def actions(p):
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    yield from actions(sub)
            elif not isinstance(action, argparse._HelpAction):
                yield p.prog, action

    missing = [f"{prog} {action.dest}" for prog, action in actions(parser()) if not action.help]
    assert missing == []


def test_the_batch_summary_shows_the_first_error_of_each_failed_file(tmp_path):
    (tmp_path / "bad.trf").write_text(
        "012 x\n001    1      A                                 2000                             0.0    1     2 x 1\n"
    )
    result = tiebreak("batch", tmp_path, "--no-progress", "--out", tmp_path / "out.ndjson")
    assert result.returncode == 1
    assert "bad.trf: the TRF text cannot be read" in result.stderr and "-- trf:2:97: round 1: colour" in result.stderr


def test_the_command_line_starts_without_the_web_framework():
    """Start-up is most of a small batch's time: `tiebreak batch` and `standings` import neither
    litestar nor prometheus_client (a failing file's line brings in the error handlers)."""
    code = (
        "import sys, tiebreak.cli; from tiebreak.cli import main; "
        "main(['standings', sys.argv[1], '-t', 'BH']); "
        "print(sorted(m for m in ('litestar', 'prometheus_client') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code, str(ALEKHINE)], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "[]"


def test_an_english_batch_starts_without_babel(tmp_path):
    """Issue 40: Babel reads the catalogues of the other languages; a batch in English (every line
    encoded, none rendered) never loads it, nor the web framework."""
    code = (
        "import sys; from tiebreak.cli import main; "
        "main(['batch', sys.argv[1], '-t', 'BH', '--no-progress', '--out', sys.argv[2], '--lang', 'en']); "
        "print(sorted(m for m in ('babel', 'litestar', 'prometheus_client') if m in sys.modules))"
    )
    out = tmp_path / "out.ndjson"
    result = subprocess.run(
        [sys.executable, "-c", code, str(ALEKHINE), str(out)], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "[]"
    assert json.loads(out.read_text())["status"] == 200


def test_a_long_name_is_cut_with_a_mark_never_silently():
    from tiebreak.cli.render import NAME_WIDTH, shown_name

    long_name = "Wolfgang Amadeus Mozart-Salieri von Habsburg"
    assert shown_name(long_name) == long_name[: NAME_WIDTH - 1] + "…"
    assert len(shown_name(long_name)) == NAME_WIDTH
    assert shown_name("Anna") == "Anna"


def test_explain_shows_sonneborn_bergers_factors_and_who_met_whom():
    # Alekhine memorial, Kasparov (2): round 3 a draw with Fischer, who has 4 points: 4 x ½ = 2;
    # tied with Tal (3) on 3½, their round 4 draw is DE's only game: ½ each, so DE leaves them equal.
    result = tiebreak("explain", ALEKHINE, "-p", "2", "-t", "DE", "SB")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert any("vs 1 Fischer" in line and "= 4 x 0.5 (opponent's score x own result)" in line for line in lines)
    assert any("encounter vs 3 Tal" in line and "0.5  scored in the game between them" in line for line in lines)


def test_progression_takes_the_rules_and_the_last_round():
    result = tiebreak("progression", ALEKHINE, "-t", "BH/C1", "SB", "--after-round", "2", "--csv")
    assert result.returncode == 0, result.stderr
    header, *rows = result.stdout.splitlines()
    assert header == "id,name,rank_1,rank_2,points_1,points_2"
    assert len(rows) == 8
    table = tiebreak("progression", ALEKHINE, "-t", "BH/C1", "SB", "--after-round", "2")
    assert table.stdout.splitlines()[-1].endswith("rules: BH/C1, SB")


def test_drawing_of_lots_prints_its_seed_and_reproduces(tmp_path):
    # All four on 1 point; lots for seed 42 worked with `printf '42:ID' | sha256sum`: 1, 4, 3, 2.
    from tests.api.test_drawing_of_lots_api import FOUR_TIED

    path = tmp_path / "tied.json"
    path.write_text(json.dumps(FOUR_TIED))
    seeded = tiebreak("standings", path, "-t", "RND", "--seed", "42", "--format", "csv")
    assert seeded.returncode == 0, seeded.stderr
    assert [line.split(",")[1] for line in seeded.stdout.splitlines()[1:]] == ["1", "4", "3", "2"]
    drawn = tiebreak("standings", path, "-t", "RND")
    footer = drawn.stdout.splitlines()[-1]
    assert ", lots drawn with seed " in footer
    seed = footer.rsplit(" ", 1)[1]
    again = tiebreak("standings", path, "-t", "RND", "--seed", seed)
    assert again.stdout == drawn.stdout
