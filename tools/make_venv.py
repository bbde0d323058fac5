"""Make .venv fit for `make run` or `make test`, from the committed locks (standard library only).

    python3 -m tools.make_venv run    # what serving needs: requirements/run.txt
    python3 -m tools.make_venv test   # serving and the test tools: requirements/test.txt

Run by the machine's own Python. A .venv made by a Python this project does not support
(older than requires-python, or broken: its interpreter gone) is rebuilt, and says so.
Every package comes from the lock with its hash checked (pip --require-hashes); the project
itself is then installed editable without build isolation, so nothing unpinned is fetched.
A stamp per lock records what was installed, so a second run costs one file comparison.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / ".venv"
LOCKS = {"run": ROOT / "requirements" / "run.txt", "test": ROOT / "requirements" / "test.txt"}
SUPPORTED = (3, 11)  # pyproject.toml: requires-python = ">=3.11"


def say(message: str) -> None:
    print(f"venv: {message}", file=sys.stderr, flush=True)


def version_of(python: Path) -> tuple[int, int] | None:
    """The (major, minor) of an interpreter, or None when it does not run."""
    try:
        out = subprocess.run(
            [str(python), "-c", "import sys; print(*sys.version_info[:2])"], capture_output=True, text=True, timeout=30
        )
    except OSError:
        return None
    if out.returncode != 0:
        return None
    major, minor = out.stdout.split()
    return int(major), int(minor)


def python_in(folder: Path) -> Path:
    return folder / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")


def unsupported(folder: Path) -> str | None:
    """Why the virtual environment in `folder` cannot serve this project, or None when it can."""
    found = version_of(python_in(folder))
    if found is not None and found >= SUPPORTED:
        return None
    made_by = "a Python that no longer runs" if found is None else f"Python {found[0]}.{found[1]}"
    return f"{folder.name} was made by {made_by}; this project needs Python {SUPPORTED[0]}.{SUPPORTED[1]}+"


def fingerprint(lock: Path) -> str:
    digest = hashlib.sha256(lock.read_bytes())
    digest.update((ROOT / "pyproject.toml").read_bytes())
    return digest.hexdigest()


def ensure(target: str) -> int:
    if sys.version_info[:2] < SUPPORTED:
        say(
            f"this project needs Python {SUPPORTED[0]}.{SUPPORTED[1]} or newer, and {sys.executable} is "
            f"{sys.version.split()[0]}; run make with PYTHON=python3.12 (or another supported Python)"
        )
        return 1
    if VENV.exists() and (reason := unsupported(VENV)):
        say(f"{reason}: rebuilding it with {sys.executable} ({sys.version.split()[0]})")
        shutil.rmtree(VENV)
    if not VENV.exists():
        say(f"creating .venv with {sys.executable} ({sys.version.split()[0]})")
        venv.EnvBuilder(with_pip=True).create(VENV)
    lock = LOCKS[target]
    wanted = fingerprint(lock)
    # The test lock holds everything the run lock does, at the same versions.
    satisfied = [
        t
        for t in ("test", target)
        if (VENV / f".installed-{t}").is_file() and (VENV / f".installed-{t}").read_text() == fingerprint(LOCKS[t])
    ]
    if satisfied:
        return 0
    python = str(python_in(VENV))
    say(f"installing {lock.relative_to(ROOT)} (hashes checked)")
    steps = [
        [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--require-hashes", "-r", str(lock)],
        [
            python,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--no-deps",
            "--no-build-isolation",
            "-e",
            str(ROOT),
        ],
    ]
    for step in steps:
        if subprocess.run(step, cwd=ROOT).returncode != 0:
            say("installation failed; see the messages above")
            return 1
    for stale in VENV.glob(".installed-*"):
        stale.unlink()
    (VENV / f".installed-{target}").write_text(wanted)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in LOCKS:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(ensure(sys.argv[1]))
