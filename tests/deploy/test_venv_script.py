"""tools/make_venv.py, the bootstrap of `make run` and `make test`: an unsupported .venv is found and named."""

import os
import subprocess
import sys
from pathlib import Path

from tools import make_venv as venv_script

ROOT = Path(__file__).resolve().parents[2]


def fake_venv(folder: Path, prints: str | None) -> Path:
    """A .venv whose python prints `prints` as its version (None: an interpreter that is gone)."""
    python = folder / "bin" / "python"
    python.parent.mkdir(parents=True)
    if prints is None:
        python.symlink_to(folder / "no-such-python")
    else:
        python.write_text(f"#!/bin/sh\necho {prints}\n")
        python.chmod(0o755)
    return folder


def test_a_venv_of_an_old_python_is_unsupported_and_says_which(tmp_path):
    reason = venv_script.unsupported(fake_venv(tmp_path / ".venv", "3 9"))
    assert reason == ".venv was made by Python 3.9; this project needs Python 3.11+"


def test_a_venv_whose_python_is_gone_is_unsupported(tmp_path):
    assert "no longer runs" in venv_script.unsupported(fake_venv(tmp_path / ".venv", None))


def test_the_running_venv_is_supported():
    assert venv_script.unsupported(Path(sys.prefix)) is None


def test_the_locks_exist_for_both_targets():
    assert all(path.is_file() for path in venv_script.LOCKS.values())
    assert os.access(ROOT / "tools" / "make_venv.py", os.R_OK)


def test_it_runs_on_the_standard_library_alone():
    """The Makefile runs it with the machine's own Python before any venv exists: without
    site-packages (-S) it still imports, and without a target it prints its usage."""
    out = subprocess.run([sys.executable, "-S", "-m", "tools.make_venv"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 2, out.stderr
    assert "python3 -m tools.make_venv test" in out.stderr
