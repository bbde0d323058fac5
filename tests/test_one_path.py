"""The HTTP API, the Python API and the command line go one way through the standings use case
(usecases/requests.py): for every case of the FIDE corpora, individual and team, from TRF and
from the team cases' JSON bodies, the three answer the same bytes.

- HTTP: the body of `POST /v1/standings` from the real ASGI app;
- Python API: `tiebreak.standings(...)` encoded by a bare `msgspec.json.encode`: its texts are plain
  strings already, rendered as the answer was made, not by a round trip through JSON;
- command line: `tiebreak standings FILE ... --format json`, in this process, whose output is the
  same JSON indented (msgspec.json.format) with a newline: the one deliberate difference.
  (What reading a file's bytes notes, an encoding guessed, would come first in its warnings;
  these files are UTF-8 and note nothing.)
"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

import tiebreak
from testkit.conformance import all_cases, unrated_rating
from testkit.conformance_teams import load_team_cases
from tests import command

INDIVIDUAL = all_cases()
TEAMS = load_team_cases()


def three_answers(client, body: dict, file: Path, flags: list[str]) -> tuple[bytes, bytes, bytes]:
    """(HTTP body, the Python API's answer encoded, the command line's stdout) for one request;
    `file` and `flags` are what the command line is given for `body`."""
    answered = client.post(
        "/v1/standings", content=msgspec.json.encode(body), headers={"content-type": "application/json"}
    )
    assert answered.status_code == 200, answered.text
    event = body.get("trf", body.get("team_tournament"))
    options = {k: body[k] for k in ("regulations", "after_round", "unrated_rating") if k in body}
    python = msgspec.json.encode(tiebreak.standings(event, body.get("tiebreaks"), **options))
    done = command.tiebreak("standings", file, *flags, "--format", "json")
    assert done.returncode == 0
    assert done.stderr == "".join(
        f"tiebreak: warning: {w['message']}" + (f" ({w['rule']})" if w["rule"] else "") + "\n"
        for w in answered.json()["warnings"]
    )
    return answered.content, python, done.stdout.encode()


def request_of(trf: str, data: dict) -> tuple[dict, list[str]]:
    """A case's request with its TRF text, and the command line's flags for it."""
    body = {"trf": trf, "tiebreaks": data["tiebreaks"], "regulations": data["regulations"]}
    flags = ["-t", *data["tiebreaks"], "--regulations", data["regulations"]]
    if data["after_round"] is not None:
        body["after_round"] = data["after_round"]
        flags += ["--after-round", str(data["after_round"])]
    rating = unrated_rating(data["reference_flags"])
    if rating is not None:
        body["unrated_rating"] = rating
        flags += ["--unrated-rating", str(rating)]
    return body, flags


def agree(answers: tuple[bytes, bytes, bytes]) -> None:
    over_http, python, command_line = answers
    assert python == over_http
    assert command_line == msgspec.json.format(over_http) + b"\n"


@pytest.mark.parametrize("case", INDIVIDUAL, ids=[c.id for c in INDIVIDUAL])
def test_an_individual_case_is_answered_alike_by_all_three(client, case):
    body, flags = request_of(case.trf_text, case.data)
    agree(three_answers(client, body, case.folder / case.data["trf"], flags))


@pytest.mark.parametrize("case", TEAMS, ids=[c.id for c in TEAMS])
def test_a_team_case_is_answered_alike_from_trf(client, case):
    body, flags = request_of(case.trf_text, case.data)
    agree(three_answers(client, body, case.folder / case.data["trf"], flags))


@pytest.mark.parametrize("case", TEAMS, ids=[c.id for c in TEAMS])
def test_a_team_case_is_answered_alike_from_its_json_body(client, case):
    body = case.body  # the file the command line reads is this very request
    answers = three_answers(client, body, case.folder / case.data["input"], [])
    agree(answers)
    assert json.loads(answers[0])["standings"], case.id  # a team event ranked, not an empty answer


LANGUAGES = ["ru", "pl", "zh", "ja"]
# A case of each kind with texts in its breakdowns: dummy opponents, cuts, unplayed rounds.
SAMPLE = [c for c in INDIVIDUAL if c.id.startswith(("fide-edge/", "fide/"))][::9]


@pytest.mark.parametrize("case", SAMPLE, ids=[c.id for c in SAMPLE])
def test_the_python_api_answers_in_each_language_what_the_http_api_answers(client, case):
    body, _ = request_of(case.trf_text, case.data)
    options = {k: body[k] for k in ("regulations", "after_round", "unrated_rating") if k in body}
    lists = {"asked": body["tiebreaks"], "other": ["BH/C1", "SB/C1", "KS", "AOB", "ARO"]}
    for lang in LANGUAGES:
        headers = {"content-type": "application/json", "accept-language": lang}
        for path, made in (
            ("/v1/standings", tiebreak.standings(body["trf"], body["tiebreaks"], lang=lang, **options)),
            ("/v1/standings/progression", tiebreak.progression(body["trf"], body["tiebreaks"], lang=lang, **options)),
            ("/v1/compare", tiebreak.compare(body["trf"], lists, lang=lang, **options)),
        ):
            sent = dict(body)
            if path == "/v1/compare":
                sent.pop("tiebreaks")
                sent["lists"] = [{"name": name, "tiebreaks": rules} for name, rules in lists.items()]
            answered = client.post(path, content=msgspec.json.encode(sent), headers=headers)
            assert answered.status_code == 200, answered.text
            assert msgspec.json.encode(made) == answered.content, (path, lang)


# What reading notes (records it skips), a team event's file, and prize fixtures with shared pools.
ALEKHINE = (Path(__file__).parent / "fixtures" / "conformance_fide" / "worked-a-alekhine-memorial.trf").read_text()
NOTED = ALEKHINE.replace("\n001", "\nXXC white1\n999 something else\n001", 1)
TEAM_TRF = TEAMS[0].trf_text
PRIZES = sorted((Path(__file__).parent / "fixtures" / "prizes").glob("*.json"))


@pytest.mark.parametrize("lang", ["en", *LANGUAGES])
def test_reading_checking_and_prizes_answer_in_each_language_what_the_http_api_answers(client, lang):
    """read_trf, check and distribute_prizes render their texts as the answer is made, as standings
    does: a bare encode of their structs (which refuses a text left unrendered) is the HTTP body."""
    headers = {"content-type": "application/json", "accept-language": lang}
    for text in (NOTED, TEAM_TRF):
        made = tiebreak.read_trf(text, lang=lang)
        assert made.warnings, "a file whose reading notes something"
        answered = client.post("/v1/trf", content=msgspec.json.encode({"trf": text}), headers=headers)
        assert answered.status_code == 200, answered.text
        assert msgspec.json.encode(made) == answered.content
        report = tiebreak.check(text, lang=lang)
        line = client.post("/v1/check", content=msgspec.json.encode([{"trf": text}]), headers=headers)
        assert line.status_code == 200, line.text
        assert msgspec.json.encode(report) == msgspec.json.encode(json.loads(line.text)["result"])
    notes = 0
    for path in PRIZES:
        request = json.loads(path.read_text())["request"]
        paid = tiebreak.distribute_prizes(request, lang=lang)
        notes += sum(pool.note is not None for pool in paid.pools)
        answered = client.post("/v1/prizes", content=msgspec.json.encode(request), headers=headers)
        assert answered.status_code == 200, answered.text
        assert msgspec.json.encode(paid) == answered.content, path.name
    assert notes, "prizes whose pools carry a note"
