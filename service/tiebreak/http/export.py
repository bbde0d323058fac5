"""Write the app's OpenAPI document, or check that the committed one is current.

python -m tiebreak.http.export openapi/openapi.json
python -m tiebreak.http.export --check openapi/openapi.json

Writing first recomputes the response examples (response_examples.py) from the request examples.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Any

from litestar.testing import TestClient

from . import response_examples
from .app import create_app
from .openapi import finished_document
from .ops import OpsConfig


def document() -> str:
    schema = finished_document(create_app(ops=OpsConfig(api_keys=())))  # the default deployment: keys off
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def compute_response_examples(document: dict[str, Any]) -> response_examples.Examples:
    """Post every JSON request example of `document` to a fresh app; each answer becomes the
    response example of the same name (an NDJSON stream: its first line)."""
    found: response_examples.Examples = {}
    with TestClient(create_app(ops=OpsConfig(api_keys=(), access_log=False))) as client:
        for path, item in sorted(document["paths"].items()):
            for method, operation in item.items():
                content = (operation.get("requestBody") or {}).get("content", {})
                for name, example in content.get("application/json", {}).get("examples", {}).items():
                    answer = client.request(method.upper(), path, json=example["value"])
                    if answer.status_code != 200:
                        raise RuntimeError(f"{operation['operationId']} example {name!r}: {answer.status_code}")
                    media = answer.headers["content-type"].split(";")[0]
                    if media == response_examples.NDJSON:
                        value = json.loads(answer.text.splitlines()[0])
                        summary = f"The first line of the answer to: {example['summary']}"
                    else:
                        value, summary = answer.json(), f"The answer to: {example['summary']}"
                    found.setdefault(operation["operationId"], {})[name] = {
                        "summary": summary,
                        "media": media,
                        "value": value,
                    }
            get = item.get("get")
            if get and "application/json" in get["responses"].get("200", {}).get("content", {}):
                found[get["operationId"]] = {"answer": _get_example(client, path)}
    return found


GET_EXAMPLE_ENTRIES = 3  # a catalogue's first entries: enough to show its shape, not all 49 rules


def _get_example(client: TestClient, path: str) -> dict[str, Any]:
    """The answer to GET `path`, a long list cut to its first entries (the answer's own, in order)."""
    answer = client.get(path)
    if answer.status_code != 200:
        raise RuntimeError(f"GET {path}: {answer.status_code}")
    value = answer.json()
    summary = f"The answer to GET {path}"
    if isinstance(value, list) and len(value) > GET_EXAMPLE_ENTRIES:
        summary += f": its first {GET_EXAMPLE_ENTRIES} of {len(value)} entries"
        value = value[:GET_EXAMPLE_ENTRIES]
    return {"summary": summary, "media": "application/json", "value": value}


def main(argv: list[str]) -> int:
    check = "--check" in argv
    paths = [a for a in argv if a != "--check"]
    target = Path(paths[0] if paths else "openapi/openapi.json")
    if not check:
        logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per example posted: noise here
        response_examples.write(compute_response_examples(json.loads(document())))
    current = document()
    if check:
        if not target.exists() or target.read_text() != current:
            print(f"{target} is out of date: run `make openapi`", file=sys.stderr)
            return 1
        print(f"{target} is current")
        return 0
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(current)
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
