"""`tiebreak prizes` run as an organiser runs it: standings rows, a standings response or a
crosstable to rank first, and a prizes file."""

from __future__ import annotations

import json
from pathlib import Path

from tests.command import ROOT, tiebreak

from .conftest import FIXTURES, load

ALEKHINE = ROOT / "tests" / "fixtures" / "conformance_fide" / "worked-a-alekhine-memorial.trf"
PRIZES = {
    "prizes": [
        {"id": "1", "amount": "500", "items": ["Trophy"]},
        {"id": "2", "amount": "300", "items": ["Medal"]},
        {"id": "3", "amount": "100"},
    ],
    "rules": {"currency": "EUR"},
}


def split(case: dict, tmp_path: Path) -> tuple[Path, Path]:
    """A fixture's request as the two files an organiser has: the standings and the prizes."""
    request = dict(case["request"])
    standings, prizes = tmp_path / "standings.json", tmp_path / "prizes.json"
    standings.write_text(json.dumps(request.pop("standings")))
    prizes.write_text(json.dumps(request))
    return standings, prizes


def test_standings_rows_and_a_prizes_file_give_the_published_hort_figures(tmp_path):
    case = load(FIXTURES / "p02-hort-wikipedia-de.json")  # German Wikipedia's Hort example
    standings, prizes = split(case, tmp_path)
    result = tiebreak("prizes", standings, "--prizes", prizes, "--format", "json")
    assert result.returncode == 0, result.stderr
    paid = {p["id"]: p["total"] for p in json.loads(result.stdout)["players"]}
    assert paid == {e["id"]: e["total"] for e in case["expected"]["players"]}
    text = tiebreak("prizes", standings, "--prizes", prizes)
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("Prizes: EUR 2300 paid of 2300 announced\n")
    assert (
        "  A (1): 875 - tied on 8 with B; keeps 50 % of 1st overall (1,000 → 500) + an equal share of the pot "
        "(750 / 2 = 375) (Hort system)"
    ) in text.stdout.splitlines()


def test_a_crosstable_is_ranked_first(tmp_path):
    # Hand-worked from the conformance set's Alekhine memorial (worked-a-*.json): Fischer alone on
    # 4; Kasparov (BH 14.5) and Tal (BH 11.5) on 3.5 share 2nd + 3rd, 200 each, the medal to Kasparov.
    prizes = tmp_path / "prizes.json"
    prizes.write_text(json.dumps(PRIZES))
    result = tiebreak("prizes", ALEKHINE, "--prizes", prizes, "-t", "BH")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Prizes: EUR 900.00 paid of 900.00 announced (standings computed under fide-2026: BH)"
    assert lines[2:6] == [
        "Id  Name      Pts  Total   Items",
        "1   Fischer   4    500.00  Trophy",
        "2   Kasparov  3.5  200.00  Medal",
        "3   Tal       3.5  200.00",
    ]
    assert (
        "  Kasparov (2): 200.00 + Medal - tied on 3.5 with Tal; the group brings in 2nd overall 300 + "
        "3rd overall 100 = 400; both eligible → 200 each" in lines
    )


def test_a_standings_response_works_as_the_standings(tmp_path):
    response = tiebreak("standings", ALEKHINE, "-t", "BH", "--format", "json")
    assert response.returncode == 0, response.stderr
    (tmp_path / "standings.json").write_text(response.stdout)
    (tmp_path / "prizes.json").write_text(json.dumps(PRIZES))
    result = tiebreak("prizes", tmp_path / "standings.json", "--prizes", tmp_path / "prizes.json", "--format", "json")
    assert result.returncode == 0, result.stderr
    paid = {p["id"]: (p["total"], p["items"]) for p in json.loads(result.stdout)["players"]}
    assert paid == {1: ("500.00", ["Trophy"]), 2: ("200.00", ["Medal"]), 3: ("200.00", [])}


def test_a_prizes_file_that_cannot_be_distributed_is_an_error(tmp_path):
    (tmp_path / "prizes.json").write_text(json.dumps({"prizes": [{"id": "1", "amount": "50", "category": "u1800"}]}))
    result = tiebreak("prizes", ALEKHINE, "--prizes", tmp_path / "prizes.json")
    assert result.returncode == 1
    assert result.stdout == ""
    assert "prizes[0].category: unknown category 'u1800'" in result.stderr


def test_the_explanations_in_russian(tmp_path):
    # The same event as above, asked with --lang ru: every sentence from the catalogue, the amounts
    # with Russian signs, the names and ids as they are.
    prizes = tmp_path / "prizes.json"
    prizes.write_text(json.dumps(PRIZES))
    result = tiebreak("prizes", ALEKHINE, "--prizes", prizes, "-t", "BH", "--lang", "ru")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "Призы: выплачено EUR 900.00 из объявленных 900.00 (таблица рассчитана по редакции fide-2026: BH)"
    )
    assert lines[2] == "Id  Имя       Очки  Итого   Предметы"
    assert (
        "  Kasparov (2): 200.00 + Medal - столько же очков (3,5), сколько у Tal; группа приносит 2-й приз (overall) 300 + "
        "3-й приз (overall) 100 = 400; оба имеют право → по 200" in lines
    )
