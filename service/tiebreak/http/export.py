"""Write the app's OpenAPI document, or check that the committed one is current.

python -m tiebreak.http.export openapi/openapi.json
python -m tiebreak.http.export --check openapi/openapi.json

Writing first recomputes the response examples (response_examples.py) from the request examples.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .app import create_app
from . import response_examples
from .openapi import finished_document
from .ops import OpsConfig


def document() -> str:
    schema = finished_document(create_app(ops=OpsConfig(api_keys=())))  # the default deployment: keys off
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    paths = [a for a in argv if a != "--check"]
    target = Path(paths[0] if paths else "openapi/openapi.json")
    if not check:
        response_examples.write(response_examples.compute(json.loads(document())))
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
