"""Clients generated from openapi/openapi.json (tools/clients.py, `make clients`), used against a
real uvicorn: every operation of the document through the generated Python client, and a TypeScript
program type-checked with `tsc --noEmit --strict` against the generated types and SDK, then run with
node (skipped, saying so, only where node is not installed)."""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import typing
from pathlib import Path

import pytest

from tools import clients

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = json.loads((ROOT / "openapi" / "openapi.json").read_text())

pytestmark = pytest.mark.server
OPERATIONS = [
    (path, method, operation)
    for path, item in sorted(DOCUMENT["paths"].items())
    for method, operation in sorted(item.items())
]


def snake(operation_id: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", operation_id).lower()


@pytest.fixture(scope="module")
def python_client(tmp_path_factory):
    out = tmp_path_factory.mktemp("clients") / "python"
    said = clients.generate_python(out)  # raises on any warning
    assert "Generating" in said
    sys.path.insert(0, str(out))
    yield importlib.import_module("tiebreak_client")
    sys.path.remove(str(out))


def _body(module, example):
    """The generated body model of `module`'s operation, built from the document's request example."""
    hint = typing.get_type_hints(module._get_kwargs, vars(module))["body"]
    kinds = [hint] if typing.get_origin(hint) is list else typing.get_args(hint) or [hint]
    kind = next(k for k in kinds if typing.get_origin(k) is list or hasattr(k, "from_dict"))
    if typing.get_origin(kind) is list:
        (item,) = typing.get_args(kind)
        return [item.from_dict(one) for one in example]
    return kind.from_dict(example)


@pytest.mark.parametrize("path, method, operation", OPERATIONS, ids=[op["operationId"] for _, _, op in OPERATIONS])
def test_every_operation_through_the_generated_python_client(python_client, server, path, method, operation):
    module = importlib.import_module(f"tiebreak_client.api.default.{snake(operation['operationId'])}")
    client = python_client.AuthenticatedClient(base_url=server, token="unused: the server has no keys")
    body = (operation.get("requestBody") or {}).get("content", {}).get("application/json")
    with client:
        if body is None:
            answer = module.sync_detailed(client=client)
            assert answer.status_code == 200, answer.content
            return
        assert body.get("examples"), f"{operation['operationId']}: a request body without an example"
        for name, example in body["examples"].items():
            answer = module.sync_detailed(client=client, body=_body(module, example["value"]))
            assert answer.status_code == 200, (name, answer.content[:500])
            (media,) = operation["responses"]["200"]["content"]
            expected = operation["responses"]["200"]["content"][media]["examples"][name]["value"]
            if media == "application/x-ndjson":  # the client gives the stream as bytes: its first line
                assert json.loads(answer.content.splitlines()[0]) == expected
            else:
                assert type(answer.parsed).__name__ != "Problem"
                assert answer.parsed.to_dict() == expected


def test_a_problem_comes_back_as_the_generated_problem_model(python_client, server):
    from tiebreak_client.api.default import compute_standings
    from tiebreak_client.models import Problem, StandingsRequest

    body = StandingsRequest.from_dict({"trf": "012 x\n", "tiebreaks": ["BHX"]})
    # a plain Client (no key): what docs/clients.md tells a job to use when the operator set none
    with python_client.Client(base_url=server) as client:
        answer = compute_standings.sync_detailed(client=client, body=body)
    assert answer.status_code == 422 and isinstance(answer.parsed, Problem)
    assert answer.parsed.status == 422


@pytest.fixture(scope="module")
def typescript(tmp_path_factory):
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node is not installed: the TypeScript clients are not checked (.ci/run installs node)")
    out = tmp_path_factory.mktemp("clients") / "ts"
    clients.generate_typescript(out)  # raises on any warning
    return out


@pytest.fixture(scope="module")
def compiled(typescript) -> subprocess.CompletedProcess:
    """tsc over the program, strict, once for both tests: what it says, and the JavaScript in js/."""
    return subprocess.run(
        [str(clients.NODE_BIN / "tsc"), "--strict", "-p", str(typescript)], capture_output=True, text=True, timeout=300
    )


def test_the_typescript_program_type_checks_strictly(compiled):
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr


def test_the_typescript_program_runs_against_the_real_server(typescript, compiled, server):
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    done = subprocess.run(
        ["node", str(typescript / "js" / "smoke.js")],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TIEBREAK_URL": server},
    )
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    # Worked by hand (clients/smoke.ts): 1 beat 2 and 3; 3 beat 4; 2 and 4 drew. Points 2, 1, ½, ½;
    # Buchholz of 2: 2 + ½ = 2.5, of 4: 1 + ½ = 1.5, so 2 before 4.
    assert said["ranking"] == [1, 3, 2, 4]
    assert said["buchholz"] == {"1": 1.5, "2": 2.5, "3": 2.5, "4": 1.5}
    assert said["team_ranking"] == [1, 2]  # 1½–½ on the two boards
    assert said["champions"] == [[1], [1]]
    assert said["batch"] == [["good", 200], ["bad", 422]]
    assert said["problem"] == [422, 422, "tiebreaks[0]"]
