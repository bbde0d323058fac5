"""The layers of docs/architecture.md as the processes see them: the compute worker and the use cases
never load the web framework (import-linter checks the imports themselves in `make lint`)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

_LOADED = """
import json, sys
import {module}
{run}
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in ("litestar", "uvicorn", "starlette"))))
"""

_WORKER_JOB = """
from tiebreak.compute.worker import warm_up
warm_up()  # a whole standings job: decode, use case, engine, answer
"""


@pytest.mark.parametrize(
    ("module", "run"),
    [
        ("tiebreak.compute.worker", _WORKER_JOB),
        ("tiebreak.usecases.requests", ""),
        ("tiebreak.library", "import tiebreak; tiebreak.standings({'rounds': 1, 'players': [{'id': 1}]}, ['BH'])"),
        ("tiebreak.cli", ""),
    ],
    ids=["compute-worker-after-a-job", "use-cases", "python-api", "command-line"],
)
def test_no_web_framework_is_loaded(module, run):
    out = subprocess.run(
        [sys.executable, "-c", _LOADED.format(module=module, run=run)], capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == []
