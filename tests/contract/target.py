"""The server schemathesis and the fuzz tests run against, and the document they read from it.

A real uvicorn on a loopback port (tests/contract/real_server.py), started with test-only
lower limits (TEST_LIMITS, read by the service from the environment at start-up). The
limits are part of the OpenAPI document's schemas (maxItems, maxLength, maximum), so the
document such a server serves is the committed openapi/openapi.json with smaller bounds and
nothing else changed (test_schemathesis.py checks both). schemathesis reads the bounds from
it, and its coverage phase, which sends each list at its `maxItems`, sends 50 archived
files to `/v1/check` instead of 10,000 (7 MB, over 10 s of work on a busy 2-core machine).

schemathesis builds its tests when pytest collects them, before any fixture runs (its lazy
`from_fixture` schemas fail under pytest 9: `Function` has no `_nodeid`), so the document is
written by `make openapi`'s command run with TEST_LIMITS in a subprocess (limited_document());
the server is a fixture. Nothing here imports the service; EXPORT names the one module.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import schemathesis
from schemathesis.config import SchemathesisConfig

from tests.contract.real_server import ROOT, uvicorn_server

# What one generated request can ask for: the lists whose length multiplies the work. Everything
# else keeps its default: rounds (100), rules (40), prizes (1,000; the limit counts the prizes
# of all groups, the document each group's, so a lower one is met by schema-valid bodies that
# it refuses), ratings, ids and points.
TEST_LIMITS = {
    "TIEBREAK_MAX_BATCH_ITEMS": "50",  # /v1/check and /v1/standings/batch items (default 10,000)
    "TIEBREAK_MAX_PLAYERS": "500",  # players, teams, `top`, `offset`, `player` lists (50,000)
    "TIEBREAK_MAX_TRF_CHARS": str(64 * 1024),  # TRF text (16 MiB)
}
# Not a bound on what is asked but on when the server gives up: far above what any request
# under TEST_LIMITS takes on a loaded machine, so a slow moment is not a 503.
SERVER_ENV = {**TEST_LIMITS, "TIEBREAK_COMPUTE_DEADLINE_S": "120"}
# The client waits longer than the server's deadline: a late answer is the server's to give.
REQUEST_TIMEOUT_S = 180
SCHEMATHESIS_TOML = ROOT / "schemathesis.toml"
# `make openapi`'s command (the Makefile's `openapi` target): the module that writes the document.
EXPORT = [sys.executable, "-m", "tiebreak.http.export"]


@contextlib.contextmanager
def running_limited_server() -> Iterator[str]:
    """The base URL of a uvicorn with TEST_LIMITS, for the block."""
    with uvicorn_server(SERVER_ENV) as base:
        yield base


@pytest.fixture(scope="session")
def limited_server() -> Iterator[str]:
    """The fixture: the base URL of a uvicorn with TEST_LIMITS, for the session (a module
    that uses it imports it, as tests/contract/conftest.py does)."""
    with running_limited_server() as base:
        yield base


def served_document(base: str) -> dict:
    response = httpx.get(f"{base}/schema/openapi.json", timeout=REQUEST_TIMEOUT_S)
    response.raise_for_status()
    return response.json()


@functools.cache
def _limited_document_text() -> str:
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "openapi.json"
        subprocess.run(
            [*EXPORT, str(target)],
            cwd=ROOT,
            env={**os.environ, **SERVER_ENV},
            check=True,
            stdout=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            timeout=3600,
        )  # a guard against a hang, not a time limit
        return target.read_text()


def limited_document() -> dict:
    """The document a server with TEST_LIMITS serves (a fresh copy)."""
    return json.loads(_limited_document_text())


def load_schema() -> schemathesis.BaseSchema:
    """schemathesis over limited_document() with the repository's schemathesis.toml (each call
    its own copy); the tests send each case to the limited server (`case.call(base_url=...)`)."""
    return schemathesis.openapi.from_dict(limited_document(), config=SchemathesisConfig.from_path(SCHEMATHESIS_TOML))
