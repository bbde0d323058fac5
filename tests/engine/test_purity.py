"""The engine is pure: it imports no web or serialisation library (STYLE pattern 9).

Beside the standard library it uses numpy (column passes in exact integers), which the
developers' guide welcomes in the engine.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_PROBE = """
import json, sys
before = set(sys.modules)
import tiebreak.engine
print(json.dumps({"all": sorted(sys.modules), "new": sorted(set(sys.modules) - before)}))
"""


def imported_by_the_engine() -> dict[str, list[str]]:
    out = subprocess.run([sys.executable, "-c", _PROBE], cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_engine_imports_no_web_or_serialisation_library():
    modules = imported_by_the_engine()["all"]
    for banned in ("litestar", "msgspec", "uvicorn", "starlette", "pydantic", "httpx"):
        assert not any(m == banned or m.startswith(banned + ".") for m in modules), banned


ALLOWED = {"tiebreak", "numpy"}


def test_engine_imports_only_the_standard_library_numpy_and_itself():
    new = imported_by_the_engine()["new"]
    foreign = sorted(
        {
            m.split(".")[0]
            for m in new
            if m.split(".")[0] not in sys.stdlib_module_names and m.split(".")[0] not in ALLOWED
        }
    )
    assert foreign == []
    assert not any(
        m.startswith(("tiebreak.wire", "tiebreak.usecases", "tiebreak.compute", "tiebreak.http", "tiebreak.formats"))
        for m in new
    )
