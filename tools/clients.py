"""Generate the clients of openapi/openapi.json into a build folder (`make clients`, docs/clients.md).

    python -m tools.clients [OUT]        # default build/clients: python/, ts/
    python -m tools.clients --python-only [OUT]

- python/: openapi-python-client (from the test lock) with clients/openapi-python-client.yaml;
- ts/schema.d.ts: openapi-typescript; ts/sdk/: @hey-api/openapi-ts (fetch client and SDK);
  ts/smoke.ts and its tsconfig.json: the program that checks them (clients/smoke.ts).

The npm tools come from clients/package-lock.json (`npm ci --prefix clients`, run here when
clients/node_modules is missing). Any warning a generator prints fails the run: the document
must generate cleanly. tests/contract/test_generated_clients.py calls the same functions.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCUMENT = ROOT / "openapi" / "openapi.json"
CLIENTS = ROOT / "clients"
NODE_BIN = CLIENTS / "node_modules" / ".bin"
# What the generators print when they skip or doubt something.
WARNING = re.compile(r"warn|unable|skipp|error|could not|unsupported", re.IGNORECASE)


class GeneratorWarning(RuntimeError):
    pass


def _run(command: list[str], cwd: Path = ROOT) -> str:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=600)
    output = done.stdout + done.stderr
    if done.returncode != 0:
        raise GeneratorWarning(f"{' '.join(command[:2])} failed ({done.returncode}):\n{output}")
    return output


def _clean(name: str, output: str) -> str:
    doubts = [line for line in output.splitlines() if WARNING.search(line)]
    if doubts:
        raise GeneratorWarning(f"{name} warned:\n" + "\n".join(doubts))
    return output


NDJSON = "application/x-ndjson"


def python_generators_document(out: Path) -> Path:
    """The document as openapi-python-client is given it: without the NDJSON request bodies beside a
    JSON array (decision 0213). Given both, it writes `isinstance(body, list[Item])`, which raises
    on every call; its clients send the JSON array, which the server takes as it takes NDJSON."""
    document = json.loads(DOCUMENT.read_text())
    for item in document["paths"].values():
        for operation in item.values():
            content = (operation.get("requestBody") or {}).get("content", {})
            if "application/json" in content:
                content.pop(NDJSON, None)
    path = out.parent / "openapi-for-python.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document))
    return path


def generate_python(out: Path) -> str:
    """The Python client package out/tiebreak_client; the generator's output."""
    shutil.rmtree(out, ignore_errors=True)
    document = python_generators_document(out)
    generator = Path(sys.executable).with_name("openapi-python-client")
    # the generator formats its output with ruff, found on PATH: the venv's own
    env_path = f"{generator.parent}:{os.environ.get('PATH', '')}"
    done = subprocess.run(
        [str(generator), "generate", "--path", str(document), "--output-path", str(out / "tiebreak_client")]
        + ["--config", str(CLIENTS / "openapi-python-client.yaml"), "--meta", "none"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PATH": env_path},
    )
    output = done.stdout + done.stderr
    if done.returncode != 0:
        raise GeneratorWarning(f"openapi-python-client failed ({done.returncode}):\n{output}")
    return _clean("openapi-python-client", output)


def node_tools() -> Path:
    """clients/node_modules/.bin, installed from the committed lock when missing."""
    if not (NODE_BIN / "openapi-typescript").exists():
        _run(["npm", "ci", "--no-audit", "--no-fund", "--prefix", str(CLIENTS)])
    return NODE_BIN


def generate_typescript(out: Path) -> str:
    """out/schema.d.ts, out/sdk/ and the checking program with its tsconfig.json; both generators' output."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    tools = node_tools()
    said = _clean(
        "openapi-typescript", _run([str(tools / "openapi-typescript"), str(DOCUMENT), "-o", str(out / "schema.d.ts")])
    )
    said += _clean(
        "@hey-api/openapi-ts", _run([str(tools / "openapi-ts"), "-i", str(DOCUMENT), "-o", str(out / "sdk")])
    )
    shutil.copy(CLIENTS / "smoke.ts", out / "smoke.ts")
    tsconfig = {
        "compilerOptions": {
            "strict": True,
            "target": "ES2022",
            "lib": ["ES2022", "DOM"],
            # CommonJS: node runs the compiled files as they are (the SDK's imports carry no extension)
            "module": "commonjs",
            "moduleResolution": "node10",
            "ignoreDeprecations": "5.0",
            "types": ["node"],
            "typeRoots": [str(CLIENTS / "node_modules" / "@types")],
            "skipLibCheck": False,
            "outDir": "js",
        },
        "files": ["smoke.ts"],
    }
    (out / "tsconfig.json").write_text(json.dumps(tsconfig, indent=2) + "\n")
    return said


def main(argv: list[str]) -> int:
    python_only = "--python-only" in argv
    paths = [a for a in argv if not a.startswith("--")]
    out = Path(paths[0]) if paths else ROOT / "build" / "clients"
    try:
        print(generate_python(out / "python").strip())
        if python_only:
            return 0
        if shutil.which("node") is None:
            print("note: node is not installed: the TypeScript clients were not generated", file=sys.stderr)
            return 0
        print(generate_typescript(out / "ts").strip())
        _run([str(NODE_BIN / "tsc"), "--noEmit", "--strict", "-p", str(out / "ts")])
    except GeneratorWarning as exc:
        print(exc, file=sys.stderr)
        return 1
    print(f"clients in {out}: python/tiebreak_client, ts/schema.d.ts, ts/sdk (tsc --strict: clean)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
