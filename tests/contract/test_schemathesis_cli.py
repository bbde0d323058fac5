"""The command of issue 8, as a user runs it: `schemathesis run openapi/openapi.json --checks all`
against a real uvicorn finds no failure (fewer examples than `make fuzz`, all the phases).
schemathesis reads schemathesis.toml from the repository root, as it does for a user there."""

import subprocess
import sys
from pathlib import Path

import pytest

from tests.contract.real_server import ROOT, uvicorn_server

SCHEMATHESIS = Path(sys.executable).parent / "schemathesis"


@pytest.mark.server
def test_schemathesis_run_with_all_checks_finds_no_failure():
    with uvicorn_server() as base:
        result = subprocess.run(
            [str(SCHEMATHESIS), "run", "openapi/openapi.json", "--url", base, "--checks", "all",
             "--max-examples", "15", "--workers", "1", "--no-color"],
            cwd=ROOT, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "Configuration:    " in result.stdout and "schemathesis.toml" in result.stdout
