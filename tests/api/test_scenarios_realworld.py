"""POST /v1/scenarios on real events: the last round's results dropped, its pairings kept (taken from
the file itself), against the oracle (one POST /v1/standings per outcome). The files are read
from ../shared/conformance/realworld-trf beside the clone (skipped when absent, never copied)."""

from __future__ import annotations


import msgspec
import pytest

from tests.api.scenario_oracle import check_agrees, oracle_ranks
from tiebreak.usecases.scenarios import file_request
from testkit.conformance import REALWORLD

# Real events whose last round has few enough games for the oracle (3^games standings requests).
EVENTS = [
    ("gelendzhik-2016-sds-classic.trf", ["BH/C1", "BH", "SB"], 3),
    ("lichess-2020-05-mai-5plus0.trf", ["BH", "SB", "DE"], 2),
    ("fide-tec-held-swiss-9.trf", ["SB", "BH/C1"], 3),
]

OPEN_AT_MOST = 6  # the oracle's minimality checks grow fast with the outcomes


@pytest.mark.parametrize("name, tiebreaks, places", EVENTS)
def test_the_last_round_reopened_agrees_with_the_oracle(client, name, tiebreaks, places):
    path = REALWORLD / name
    if not path.exists():
        pytest.skip(f"{path} is not on this machine")
    text = path.read_text(encoding="utf-8", errors="replace")
    request, _, played = file_request(None, text, None, tiebreaks, places=places)
    body = _without_nulls(msgspec.to_builtins(request))
    if len(played) > OPEN_AT_MOST:  # the boards past the first few keep the results they had
        body["assume"] = _without_nulls(msgspec.to_builtins(played[OPEN_AT_MOST:]))
    games, outcomes, ranks, _ = oracle_ranks(client, body)
    assert 3 <= len(games) <= OPEN_AT_MOST
    response = client.post("/v1/scenarios", json=body)
    assert response.status_code == 200, response.text
    check_agrees(response.json(), body, games, outcomes, ranks)


def _without_nulls(value):
    """The request as a client would write it: fields left out rather than null."""
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value
