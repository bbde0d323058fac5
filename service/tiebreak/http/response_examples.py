"""Response examples for the OpenAPI document: what the service answers to each worked request
example (examples.py and the operations' own), so ReDoc and Swagger show a real answer, not a
schema placeholder.

They are computed by posting every request example to the app (export.py) and kept in
response_examples.json (package data): building the document must not run the engine.
`python -m tiebreak.http.export` recomputes them; tests/contract/test_response_examples.py
checks that the stored ones are what the service answers today.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

STORED = Path(__file__).with_name("response_examples.json")
NDJSON = "application/x-ndjson"

# operationId -> example name -> {"summary", "value", "media"}
Examples = dict[str, dict[str, dict[str, Any]]]


def stored() -> Examples:
    return json.loads(STORED.read_text(encoding="utf-8")) if STORED.exists() else {}


def write(examples: Examples) -> None:
    STORED.write_text(json.dumps(examples, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")


def add_to(document: dict[str, Any], examples: Examples) -> None:
    """Put each operation's response examples on its 200 response (in place)."""
    for item in document["paths"].values():
        for operation in item.values():
            for name, example in examples.get(operation.get("operationId"), {}).items():
                media = operation.get("responses", {}).get("200", {}).get("content", {}).get(example["media"])
                if media is not None:
                    media.setdefault("examples", {})[name] = {"summary": example["summary"], "value": example["value"]}
