"""The command line speaks the language of --lang, else of the locale (LC_ALL, LC_MESSAGES, LANG)."""

import json
import os
from pathlib import Path

import msgspec
import pytest

from tiebreak.cli.parser import locale_language
from tiebreak.usecases.convert import tournament_to_wire
from tests.command import ROOT, tiebreak
from tests.texts.test_answers import EVENT


def locale(**names: str) -> dict[str, str | None]:
    """The environment change that leaves the command these locale variables alone (tests/conftest.py
    sets LC_ALL=C.UTF-8 for the others, which would win over LANG)."""
    return {**dict.fromkeys(("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")), **names}


@pytest.fixture(scope="module")
def event_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("event") / "event.json"
    path.write_text(json.dumps({"tournament": msgspec.to_builtins(tournament_to_wire(EVENT))}), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "en"),
        ({"LANG": "ru_RU.UTF-8"}, "ru"),
        ({"LANG": "pl_PL.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8"}, "ja"),  # LC_MESSAGES before LANG
        ({"LC_ALL": "zh_CN.UTF-8", "LC_MESSAGES": "ja_JP"}, "zh"),  # LC_ALL before both
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "zh_TW.UTF-8"}, "en"),  # Traditional Chinese: not ours
        ({"LANG": "sr_RS@latin"}, "en"),
    ],
)
def test_the_locale_names_the_language(environ, expected):
    assert locale_language(environ) == expected


def test_explain_in_russian_with_lang(event_file):
    done = tiebreak("explain", event_file, "-p", "1", "-t", "BH/C1", "DE", "--lang", "ru")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Anna (номер 1): место 1 из 6, очки: 4,5" in out
    assert "BH/C1  Бухгольц Cut-1 (C.07 8.1) = 8.5" in out  # the value column is a number as the JSON has it
    assert "собственные очки 4,5, ограничено до 2,5 (16.4.2)" in out
    assert "[отброшено: несыгранные туры отбрасываются первыми (16.5)]" in out


def test_the_locale_chooses_the_language_and_lang_overrides_it(event_file):
    japanese = tiebreak("standings", event_file, "-t", "DE", "BH/C1", env=locale(LANG="ja_JP.UTF-8"))
    assert japanese.returncode == 0, japanese.stderr
    header = japanese.stdout.splitlines()[0]
    assert header.split()[:3] == ["順位", "Id", "氏名"]
    assert "規定: fide-2026" in japanese.stdout
    english = tiebreak("standings", event_file, "-t", "DE", "BH/C1", "--lang", "en", env=locale(LANG="ja_JP.UTF-8"))
    assert english.stdout.splitlines()[0].split()[:3] == ["Rank", "Id", "Name"]
    # the same numbers in both
    assert [line.split()[-3:] for line in japanese.stdout.splitlines()[1:7]] == [
        line.split()[-3:] for line in english.stdout.splitlines()[1:7]
    ]


def test_json_output_and_warnings_in_the_language(event_file):
    done = tiebreak("standings", event_file, "-t", "PTS", "BH/C1", "--format", "json", "--lang", "pl")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert [t["name"] for t in answer["tiebreaks"]] == ["Punkty", "Buchholz Cut-1"]
    assert answer["warnings"][0]["code"] == "redundant-tiebreak"
    assert "klasyfikacja jest najpierw ustalana według punktów" in answer["warnings"][0]["message"]
    assert done.stderr.startswith("tiebreak: ostrzeżenie: tiebreaks[0] PTS: klasyfikacja")


def test_an_unknown_language_is_refused_by_the_option():
    done = tiebreak("--lang", "de", "standings", "x.trf")
    assert done.returncode == 2 and "--lang" in done.stderr


def test_the_check_summary_in_the_language():
    fixture = ROOT / "tests/fixtures/conformance_fide/worked-a-alekhine-memorial.trf"
    done = tiebreak("check", fixture, "--out", os.devnull, "--lang", "ru")
    assert done.returncode == 0, done.stderr
    summary = done.stderr.strip().splitlines()[-1]
    assert summary.startswith("tiebreak check: файлов: 1 за ")
    assert summary.endswith(" с, согласованных: 1, несогласованных: 0, нечитаемых: 0")
    polish = tiebreak("check", fixture, "--out", os.devnull, env=locale(LANG="pl_PL.UTF-8"))
    assert "zgodne: 1, niezgodne: 0, nieczytelne: 0" in polish.stderr


def test_help_in_the_language_of_lang_or_the_locale():
    japanese = tiebreak("--help", "--lang", "ja")
    assert japanese.returncode == 0
    assert "チェスのタイブレーク順位（FIDE C.07）" in japanese.stdout
    assert "TRF か JSON の大会の順位を出す" in japanese.stdout  # a command's one line
    russian = tiebreak("check", "--help", env=locale(LANG="ru_RU.UTF-8"))
    assert "индикатор хода в stderr" in russian.stdout
    english = tiebreak("check", "--help", env=locale())  # no locale at all: English
    assert "progress bar on stderr" in english.stdout


def test_an_unreadable_file_is_said_in_the_language(tmp_path):
    bad = tmp_path / "bad.trf"
    bad.write_text("012 X\n001    x      A\n", encoding="utf-8")
    done = tiebreak("standings", bad, "--lang", "zh")
    assert done.returncode == 1
    assert "第 2 行第 5 列：编排号必须是整数" in done.stderr
