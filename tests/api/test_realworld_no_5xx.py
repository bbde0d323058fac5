"""Every endpoint that takes a TRF file, over every real export and 400 seeded mutations of them
(fixed seed, half on the team records; the first 100 under the quick profile, tests/profiles.py):
never a 5xx (issue 21 items 5 and 10). The exports are read in place from ../shared (see
test_realworld_trf.py); without the folder these tests are skipped."""

from __future__ import annotations

import json
import random
import re

import pytest

from tests.api.test_realworld_trf import FOLDER, MISSING
from tiebreak.formats.trf import decode_trf
from tests.profiles import examples

EXPORTS = sorted([*FOLDER.glob("*.trf"), *FOLDER.glob("*.trfx")]) if FOLDER.is_dir() else []
CASES = [pytest.param(path, id=path.name) for path in EXPORTS] or [
    pytest.param(None, id="corpus-absent", marks=pytest.mark.skip(reason=MISSING))
]


def _bodies(text: str) -> dict[str, object]:
    """One body per endpoint that takes a TRF, each sending the file alone."""
    return {
        "/v1/standings": {"trf": text},
        "/v1/trf": {"trf": text},
        "/v1/compare": {
            "trf": text,
            "lists": [{"name": "points", "tiebreaks": []}, {"name": "BH", "tiebreaks": ["BH"]}],
        },
        "/v1/standings/batch": [{"trf": text}],
        "/v1/check": [{"trf": text}, {"trf": text, "participants": "players"}],
        "/v1/prizes": {"standings_request": {"trf": text}, "prizes": [{"id": "1", "amount": "100"}]},
    }


def _no_5xx(client, text: str) -> list[str]:
    failures = []
    for path, body in _bodies(text).items():
        response = client.post(path, json=body)
        statuses = [response.status_code]
        if path in ("/v1/standings/batch", "/v1/check") and response.status_code == 200:
            statuses += [json.loads(line)["status"] for line in response.text.splitlines()]
        if any(status >= 500 for status in statuses):
            failures.append(f"{path}: {statuses} {response.text[:300]}")
    return failures


@pytest.mark.parametrize("path", CASES)
def test_no_real_export_gets_a_5xx_from_any_endpoint(client, path):
    text, _, _ = decode_trf(path.read_bytes())
    assert _no_5xx(client, text) == []


# Mutations an arbiter's editor or a broken export makes: a column's digits changed, a number
# blown up or made not a number, a line cut short, doubled or dropped.
ODD_VALUES = ["NaN", "sNaN", "inf", "-1", "9" * 19, "9" * 400, "x", "", "0", "1e9"]
TEAM_RECORDS = ("013", "300", "310", "320", "330", "240", "352", "362", "801", "802")


def _mutate(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    team_lines = [i for i, line in enumerate(lines) if line.startswith(TEAM_RECORDS)]
    # Half the mutations go to the team records, when the file has them: fewer lines, more ways to fail.
    at = rng.choice(team_lines) if team_lines and rng.random() < 0.5 else rng.randrange(len(lines))
    line = lines[at]
    kind = rng.randrange(6)
    numbers = list(re.finditer(r"-?\d+(?:\.\d+)?", line[3:]))
    if kind == 5 and numbers:  # a number of the record replaced, in place: the reader's range checks
        number = rng.choice(numbers)
        lines[at] = line[: 3 + number.start()] + rng.choice(ODD_VALUES) + line[3 + number.end() :]
    elif kind == 0 and len(line) > 4:
        cut = rng.randrange(4, len(line) + 1)
        lines[at] = line[:cut]
    elif kind == 1:
        lines.insert(at, line)
    elif kind == 2:
        del lines[at]
    else:
        start = rng.randrange(len(line) + 1)
        value = rng.choice(ODD_VALUES)
        lines[at] = line[:start] + value + line[start + len(value) :]
    return "\n".join(lines) + "\n"


def _mutants(count: int) -> list:
    rng = random.Random(21)  # fixed: the same inputs on every run
    texts = [decode_trf(path.read_bytes())[0] for path in EXPORTS]
    return [pytest.param(_mutate(rng.choice(texts), rng), id=f"mutant-{i}") for i in range(count)] if texts else CASES


# 400 under the ci profile; the quick one runs the first quarter of the same seeded sequence.
@pytest.mark.parametrize("text", _mutants(examples(400)))
def test_no_mutated_export_gets_a_5xx_from_any_endpoint(client, text):
    assert _no_5xx(client, text) == []


def test_the_command_line_prints_no_traceback_over_mutated_exports(tmp_path):
    if not EXPORTS:
        pytest.skip(MISSING)
    from tests.command import tiebreak

    for i, param in enumerate(_mutants(40)):
        (tmp_path / f"mutant-{i:02}.trf").write_text(param.values[0], encoding="utf-8")
    for command in ("check", "batch"):
        done = tiebreak(command, str(tmp_path), "--out", str(tmp_path / f"{command}.ndjson"))
        assert "Traceback" not in done.stderr, done.stderr
        lines = (tmp_path / f"{command}.ndjson").read_text().splitlines()
        assert len(lines) == 40 and all(json.loads(line)["status"] < 500 for line in lines)
