"""docs/coverage.md, the table of articles and rules with their tests, cannot drift: every rule
code of the catalogue is named in a row, and every test a row names exists."""

import ast
import re
from functools import cache
from pathlib import Path

from tiebreak.engine.registry import TIEBREAKS
from tiebreak.engine.teams.registry import TEAM_TIEBREAKS

ROOT = Path(__file__).resolve().parents[1]
ROWS = [
    line for line in (ROOT / "docs" / "coverage.md").read_text(encoding="utf-8").splitlines() if line.startswith("| ")
]
TEST_REFERENCE = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")


@cache
def functions_in(path: str) -> frozenset[str]:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    return frozenset(node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef))


def test_every_rule_code_of_the_catalogue_has_a_row():
    codes_named = {code for row in ROWS for code in re.findall(r"`([A-Za-z]+)`", row.split("|")[4])}
    missing = (set(TIEBREAKS) | set(TEAM_TIEBREAKS)) - codes_named
    assert not missing, f"docs/coverage.md names no row for {sorted(missing)}"


def test_every_test_a_row_names_exists():
    references = [match for row in ROWS for match in TEST_REFERENCE.findall(row)]
    assert len(references) > 40
    absent = [f"{path}::{name}" for path, name in references if name not in functions_in(path)]
    assert not absent, f"docs/coverage.md names tests that do not exist: {absent}"


def test_a_row_without_a_test_says_it_is_not_implemented():
    for row in ROWS[2:]:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        if cells[0] in {"article", "rule"} or set(cells[0]) <= {"-"}:
            continue
        assert TEST_REFERENCE.search(cells[4]) or cells[2].startswith("❌"), row
