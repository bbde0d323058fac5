"""The command of issue 8, as a user runs it: `schemathesis run … --checks all` against a real
uvicorn finds no failure (fewer examples than `make fuzz`; every phase under the ci profile, all
but the coverage phase under the quick one, tests/profiles.py).

The server has the test-only lower limits of tests/contract/target.py, and schemathesis reads
the document it serves (the committed one with smaller bounds: test_schemathesis.py), so no
generated body costs more than a moment of work. Deterministic generation (no seed drawn,
no example database): every run sends the same cases. schemathesis reads schemathesis.toml
from the repository root, as it does for a user there."""

import subprocess
import sys
from pathlib import Path

import pytest

from tests.contract.real_server import ROOT
from tests.contract.target import REQUEST_TIMEOUT_S
from tests.profiles import examples, thorough

SCHEMATHESIS = Path(sys.executable).parent / "schemathesis"
EXAMPLES = examples(15)
# The coverage phase is most of the run and the same every run; under the quick profile it is left to
# test_schemathesis.py, which runs it over every operation too, with every check but the stateful ones.
PHASES = [] if thorough() else ["--phases", "examples,fuzzing"]


@pytest.mark.server
def test_schemathesis_run_with_all_checks_finds_no_failure(limited_server):
    result = subprocess.run(
        [
            str(SCHEMATHESIS),
            "run",
            f"{limited_server}/schema/openapi.json",
            "--url",
            limited_server,
            "--checks",
            "all",
            "--max-examples",
            str(EXAMPLES),
            "--generation-deterministic",
            "--request-timeout",
            str(REQUEST_TIMEOUT_S),
            "--workers",
            "1",
            "--no-color",
            *PHASES,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=3600,
    )  # a guard against a hang, far above any run on a loaded machine
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "Configuration:    " in result.stdout and "schemathesis.toml" in result.stdout
    assert "Seed: not used in the deterministic mode" in result.stdout, result.stdout[-2000:]
