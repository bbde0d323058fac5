"""docs/rules.md is generated from the registry; it must say what the engine does."""

from pathlib import Path

from tools.rules_doc import render

DOC = Path(__file__).parent.parent.parent / "docs" / "rules.md"


def test_rules_doc_is_current():
    assert DOC.read_text(encoding="utf-8") == render(), (
        "docs/rules.md is stale: run .venv/bin/python -m tools.rules_doc docs/rules.md"
    )
