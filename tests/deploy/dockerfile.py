"""A small reader for the Dockerfile and .dockerignore (no container engine runs here)."""

from __future__ import annotations

import fnmatch
import json
import shlex
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Instruction:
    keyword: str
    args: str
    stage: int  # index of the FROM it belongs to

    def exec_form(self) -> list[str] | None:
        """The JSON array form (`CMD ["a", "b"]`), or None for the shell form."""
        text = self.args.strip()
        if text.startswith("["):
            return json.loads(text)
        return None


def parse(text: str) -> list[Instruction]:
    """Instructions with line continuations joined and comments dropped."""
    instructions: list[Instruction] = []
    stage = -1
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if pending and line.startswith("#"):
            continue  # comments may sit inside a continued instruction
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line = pending + line
        pending = ""
        keyword, _, args = line.partition(" ")
        keyword = keyword.upper()
        if keyword == "FROM":
            stage += 1
        instructions.append(Instruction(keyword, args.strip(), stage))
    assert not pending, "the Dockerfile ends inside a continued line"
    return instructions


def split_flags(args: str) -> tuple[dict[str, str], list[str]]:
    """`--from=build a b` -> ({"from": "build"}, ["a", "b"])."""
    flags, rest = {}, []
    for word in shlex.split(args):
        if word.startswith("--") and not rest:
            name, _, value = word[2:].partition("=")
            flags[name] = value
        else:
            rest.append(word)
    return flags, rest


def ignored(path: str, patterns: list[str]) -> bool:
    """Docker's rule: the last matching pattern wins; `!` re-includes. A directory's
    pattern covers everything below it."""
    result = False
    parts = path.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    for pattern in patterns:
        negate = pattern.startswith("!")
        pattern = pattern.lstrip("!").rstrip("/")
        candidates = prefixes
        if pattern.startswith("**/"):
            pattern = pattern[3:]
            candidates = [
                p for i in range(len(parts)) for p in ["/".join(parts[i : j + 1]) for j in range(i, len(parts))]
            ]
        if any(fnmatch.fnmatchcase(c, pattern) for c in candidates):
            result = not negate
    return result


def dockerignore_patterns() -> list[str]:
    lines = (ROOT / ".dockerignore").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.strip().startswith("#")]
