"""docs/python.md: every example runs as written, and the Python API answers what the HTTP API answers."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest
from litestar.testing import TestClient

import tiebreak
from tiebreak.http.app import app

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "python.md").read_text(), re.S)
ALEKHINE = (ROOT / "tests" / "fixtures" / "conformance_fide" / "worked-a-alekhine-memorial.trf").read_text()


def test_the_page_has_its_examples():
    assert len(EXAMPLES) == 4


def test_every_docstring_example_of_the_api_runs():
    """`help(tiebreak.standings)` and the others show examples: doctest runs each as written."""
    import doctest

    import tiebreak.library

    results = doctest.testmod(tiebreak.library)
    assert results.failed == 0
    documented = {name for name in tiebreak.library.__all__ if ">>>" in (getattr(tiebreak, name).__doc__ or "")}
    assert documented == set(tiebreak.__all__) - {"__version__", "problem_of"}, "every function has an example"


def test_help_of_the_package_names_the_api():
    out = subprocess.run(
        [sys.executable, "-c", "import tiebreak; help(tiebreak.standings)"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PAGER": "cat"},
    )
    assert "POST /v1/standings" in out.stdout and ">>> result = tiebreak.standings(event" in out.stdout


def test_the_package_is_typed():
    assert (Path(tiebreak.__file__).parent / "py.typed").exists()


@pytest.mark.parametrize("example", EXAMPLES[:3], ids=["standings", "compare-and-errors", "prizes-and-check"])
def test_each_example_of_docs_python_md_runs(example, monkeypatch):
    monkeypatch.chdir(ROOT)
    exec(compile(example, "docs/python.md", "exec"), {})


def test_the_batch_job_example_rerank_a_folder_in_processes(tmp_path):
    script = tmp_path / "rerank.py"
    script.write_text(EXAMPLES[3])
    out = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = [msgspec.json.decode(line) for line in out.stdout.splitlines()]
    files = sorted(p.name for p in (ROOT / "tests" / "fixtures" / "conformance_fide").glob("*.trf"))
    assert [line["file"] for line in lines] == files
    assert all("winner" in line for line in lines), [line for line in lines if "winner" not in line]


def test_the_python_api_answers_what_the_http_api_answers():
    body = {"trf": ALEKHINE, "tiebreaks": ["BH/C1", "BH", "SB", "DE"], "top": 4}
    with TestClient(app) as client:
        over_http = client.post("/v1/standings", json=body).json()
    direct = tiebreak.standings(ALEKHINE, ["BH/C1", "BH", "SB", "DE"], top=4)
    assert msgspec.json.decode(msgspec.json.encode(direct)) == over_http


def test_the_progression_answers_what_the_http_api_answers():
    body = {"trf": ALEKHINE, "tiebreaks": ["BH/C1", "SB"], "after_round": 5}
    with TestClient(app) as client:
        over_http = client.post("/v1/standings/progression", json=body).json()
    direct = tiebreak.progression(ALEKHINE, ["BH/C1", "SB"], after_round=5)
    assert msgspec.json.decode(msgspec.json.encode(direct)) == over_http
    assert direct.rounds == [1, 2, 3, 4, 5]


def test_a_dict_that_does_not_match_the_schema_is_refused_as_the_api_refuses_it():
    with pytest.raises(msgspec.ValidationError) as caught:
        tiebreak.standings({"rounds": 1, "players": [{"id": 0}]}, ["BH"])
    assert tiebreak.problem_of(caught.value).status == 400


def test_importing_the_engine_does_not_load_the_api():
    probe = "import sys, tiebreak.engine; print('msgspec' in sys.modules, 'tiebreak.library' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
