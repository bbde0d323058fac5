"""`tiebreak(*args)`: the command line run for a test, in the test's process by default.

In-process, `tiebreak.cli.main(argv)` runs with stdin, stdout and stderr replaced by buffers and
with the environment and working directory of the call; the answer is what a subprocess gives
(`subprocess.CompletedProcess`, its output decoded as `text=True` decodes it), so a test reads it
the same either way. A new interpreter per command (Python, numpy, the engine, the catalogues
imported again) is what made the command-line tests slow; the command's code is the same.

`installed=True` runs the installed entry point (`.venv/bin/tiebreak`) as a subprocess: for the
few tests that prove the command a user types, and for what a test process must not do itself
(`--jobs N` forks worker processes; a closed pipe ends the process).
"""

from __future__ import annotations

import contextlib
import gc
import io
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The console script pip wrote for `[project.scripts] tiebreak` (pyproject.toml).
INSTALLED = Path(sys.executable).parent / "tiebreak"
# argparse wraps --help to the terminal's width, 80 columns when stdout is a pipe (a subprocess's).
PIPE_COLUMNS = "80"


def tiebreak(
    *args: object,
    env: Mapping[str, str | None] | None = None,
    cwd: Path | str = ROOT,
    input: bytes | str | None = None,
    installed: bool = False,
    timeout: float = 600,
) -> subprocess.CompletedProcess[str]:
    """`tiebreak ARGS` (each argument str()-ed): its exit code, stdout and stderr as text.

    `env` changes the test process's environment for the command (a value sets a variable, None
    unsets it), `input` is its standard input (empty when None). `timeout` bounds a subprocess only: a guard against a
    hang, far above any run on a loaded machine, never a limit a test relies on."""
    argv = [str(arg) for arg in args]
    data = input.encode() if isinstance(input, str) else input
    environment = {k: v for k, v in {**os.environ, **(env or {})}.items() if v is not None}
    if installed:
        done = subprocess.run(
            [str(INSTALLED), *argv],
            cwd=cwd,
            env=environment,
            input=data if data is not None else b"",
            capture_output=True,
            timeout=timeout,
        )
        return subprocess.CompletedProcess(argv, done.returncode, _text(done.stdout), _text(done.stderr))
    return _in_process(argv, environment, cwd, data or b"")


def _text(data: bytes) -> str:
    """Bytes decoded as `subprocess.run(text=True)` decodes them: UTF-8 (the tests' locale,
    tests/conftest.py) with universal newlines (the CSV writer's \\r\\n read as \\n)."""
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8").read()


def _in_process(argv: list[str], environment: dict[str, str], cwd: Path | str, data: bytes):
    from tiebreak.cli import main

    stdout, stderr = io.BytesIO(), io.BytesIO()
    with _environment({"COLUMNS": PIPE_COLUMNS, **environment}), contextlib.chdir(cwd), _streams(data, stdout, stderr):
        try:
            code = main(argv)
        except SystemExit as exit:  # argparse: --help, --version, a refused option
            code = exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 1)
        finally:
            # `batch` and `check` freeze the collector's objects for the rest of the process
            # (a command's life); the test process lives on: hand them back.
            gc.unfreeze()
    return subprocess.CompletedProcess(argv, code, _text(stdout.getvalue()), _text(stderr.getvalue()))


@contextlib.contextmanager
def _streams(data: bytes, stdout: io.BytesIO, stderr: io.BytesIO) -> Iterator[None]:
    """sys.stdin/stdout/stderr as a process's are: text over bytes (`.buffer` for NDJSON), UTF-8;
    written through, so that text and bytes written to one stream keep their order."""
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(stdout, encoding="utf-8", write_through=True)
    sys.stderr = io.TextIOWrapper(stderr, encoding="utf-8", errors="backslashreplace", write_through=True)
    try:
        yield
    finally:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
            stream.detach()  # the buffers stay readable
        sys.stdin, sys.stdout, sys.stderr = saved


@contextlib.contextmanager
def _environment(environment: Mapping[str, str]) -> Iterator[None]:
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(environment)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)
