"""tiebreak.prizes imports only the standard library (itself, and texts.message); docs/prizes.md shows what
the command really prints."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from tests.command import ROOT, tiebreak

_PROBE = """
import json, sys
before = set(sys.modules)
import tiebreak.prizes
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def test_the_prize_package_imports_only_the_standard_library():
    out = subprocess.run([sys.executable, "-c", _PROBE], cwd=ROOT, capture_output=True, text=True, check=True)
    new = json.loads(out.stdout)
    foreign = sorted({m.split(".")[0] for m in new} - set(sys.stdlib_module_names) - {"tiebreak"})
    assert foreign == []
    # texts.message (standard library only, as for the engine, decision 0145) makes its messages
    ours = ("tiebreak.prizes", "tiebreak.version")
    assert [m for m in new if m.startswith("tiebreak.") and not m.startswith(ours)] == [
        "tiebreak.texts",
        "tiebreak.texts.message",
    ]


def test_the_worked_example_of_docs_prizes_md_is_what_the_command_prints():
    doc = (ROOT / "docs" / "prizes.md").read_text()
    block = re.search(r"```\n\$ (tiebreak prizes [^\n]*\\\n[^\n]*)\n(.*?)```", doc, re.S)
    command = block.group(1).replace("\\\n", " ").split()
    result = tiebreak(*command[1:])
    assert result.returncode == 0, result.stderr
    assert result.stdout == block.group(2)
