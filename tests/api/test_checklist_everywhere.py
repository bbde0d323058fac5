"""The checklist's request fields (SPEC 3.12: `ratings`, `expelled_after_round`, `playoffs`,
`manual_values`, `tiebreak_changes`) through the batch (HTTP and `tiebreak batch`) and the prizes,
on test_checklist.py's events and its hand-worked values."""

from __future__ import annotations

import json

from tests.api.test_checklist import ROUND_ROBIN, SOURCES, SWISS, _crosstable
from tests.command import tiebreak

NDJSON = "application/x-ndjson"


def _swiss_tournament(expelled: bool) -> dict:
    players = _crosstable(SWISS, {pid: {} for pid in range(1, 7)})
    players[4]["results"].append({"round": 3, "result": "pairing_bye"})
    if expelled:
        players[5]["expelled_after_round"] = 2
    return {"rounds": 3, "system": "swiss", "start_date": "2026-04-01", "players": players}


ROUND_ROBIN_SOURCES = {"rounds": 3, "players": _crosstable(ROUND_ROBIN, SOURCES)}
# One request per field; test_checklist.py works each answer out by hand.
ITEMS = [
    {"id": "expelled", "tournament": _swiss_tournament(True), "tiebreaks": ["BH"]},
    {"id": "playoff", "tournament": _swiss_tournament(False), "tiebreaks": ["BH"], "playoffs": [{"order": [3, 1]}]},
    {
        "id": "man",
        "tournament": _swiss_tournament(False),
        "tiebreaks": ["MAN", "BH"],
        "manual_values": {"1": 1, "2": 0, "3": 2.5, "4": 0, "5": 0, "6": 0},
    },
    {
        "id": "changed",
        "tournament": _swiss_tournament(False),
        "tiebreaks": ["BH"],
        "tiebreak_changes": [{"from_round": 3, "previous": ["SB"]}],
    },
    {
        "id": "ratings",
        "tournament": ROUND_ROBIN_SOURCES,
        "tiebreaks": ["ARO"],
        "ratings": {"source": "fide-else-national", "unrated": 1000},
    },
]


def _check(results: dict[str, dict]) -> None:
    assert {k: r["status"] for k, r in results.items()} == dict.fromkeys(results, 200), results
    rows = {k: r["result"]["standings"] for k, r in results.items()}
    # 6 expelled after round 2: ranked nowhere, last (q197); 1 and 3 share first on 2½ and BH 3½.
    assert [(r["id"], r["rank"], r.get("status")) for r in rows["expelled"]][-1] == (6, None, "expelled")
    assert [(r["id"], r["rank"]) for r in rows["expelled"][:2]] == [(1, 1), (3, 1)]
    # the play-off puts 3 ahead of 1 (q205)
    assert [(r["id"], r["rank"], r["decided_by"]) for r in rows["playoff"][:2]] == [(3, 1, "playoff"), (1, 2, "PTS")]
    # MAN 2½ for 3, 1 for 1 (q207)
    assert [(r["id"], r["values"][0], r["decided_by"]) for r in rows["man"][:2]] == [(3, 2.5, "MAN"), (1, 1, "PTS")]
    changed = results["changed"]["result"]
    assert "tiebreaks-changed" in [w["code"] for w in changed["warnings"]]
    assert changed["tiebreak_changes"] == [{"from_round": 3, "previous": ["SB"]}]
    # player 1's opponents 1800, 1700 (national: 3 has no FIDE rating), 2000: 5500 / 3 = 1833.33
    assert next(r for r in rows["ratings"] if r["id"] == 1)["values"] == [1833]
    assert results["ratings"]["result"]["ratings"]["source"] == "fide-else-national"


def test_the_http_batch_takes_every_checklist_field(client):
    body = "\n".join(json.dumps({**item, "explain": False}) for item in ITEMS)
    answer = client.post("/v1/standings/batch", content=body, headers={"Content-Type": NDJSON})
    assert answer.status_code == 200, answer.text
    lines = [json.loads(line) for line in answer.text.splitlines()]
    _check({line["id"]: line for line in lines})


def test_the_batch_command_takes_every_checklist_field(tmp_path):
    paths = []
    for item in ITEMS:
        path = tmp_path / f"{item['id']}.json"
        path.write_text(json.dumps({k: v for k, v in item.items() if k != "id"}))
        paths.append(path)
    ran = tiebreak("batch", *paths, "--no-explain")
    assert ran.returncode == 0, ran.stderr
    lines = [json.loads(line) for line in ran.stdout.splitlines()]
    _check({line["id"].rsplit("/", 1)[-1].removesuffix(".json"): line for line in lines})
    # the command line's policy over a file that gives none: the same 1833
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps(ROUND_ROBIN_SOURCES))
    ran = tiebreak(
        "batch", plain, "-t", "ARO", "--ratings-source", "fide-else-national", "--unrated", "1000", "--no-explain"
    )
    row = next(r for r in json.loads(ran.stdout)["result"]["standings"] if r["id"] == 1)
    assert row["values"] == [1833], ran.stdout


PRIZES = {"prizes": [{"id": "1", "amount": "100"}, {"id": "2", "amount": "60"}, {"id": "3", "amount": "30"}]}


def _prizes(client, request: dict, sharing: str = "none") -> dict:
    answer = client.post("/v1/prizes", json={"standings_request": request, **PRIZES, "rules": {"sharing": sharing}})
    assert answer.status_code == 200, answer.text
    return answer.json()


def _paid(result: dict) -> dict[int, str]:
    return {p["id"]: p["total"] for p in result["players"]}


def test_prizes_go_past_an_expelled_player_and_follow_a_playoff(client):
    # 1 and 3 on 2½ (3 ahead by the play-off), 6 on 2 but expelled (q197), then 2 on 1.
    result = _prizes(
        client, {"tournament": _swiss_tournament(True), "tiebreaks": ["BH"], "playoffs": [{"order": [3, 1]}]}
    )
    assert result["computed_standings"]["order"][:2] == [3, 1]
    assert _paid(result) == {3: "100.00", 1: "60.00", 2: "30.00"}


def test_prizes_follow_rule_man_and_echo_a_changed_list(client):
    request = {
        "tournament": _swiss_tournament(False),
        "tiebreaks": ["MAN", "BH"],
        "manual_values": {"1": 1, "2": 0, "3": 2.5, "4": 0, "5": 0, "6": 0},
        "tiebreak_changes": [{"from_round": 3, "previous": ["BH"]}],
    }
    result = _prizes(client, request)
    # 3 (MAN 2½) and 1 (MAN 1) on 2½, then 6 on 2 (not expelled here)
    assert _paid(result) == {3: "100.00", 1: "60.00", 6: "30.00"}
    assert result["computed_standings"]["tiebreaks"] == ["MAN", "BH"]


def test_prizes_read_the_ratings_policy(client):
    # Every game drawn: ARO alone orders them. fide-else-national: 1 gets 1800+1700+2000 = 1833,
    # 2 gets 2100+2000+1700 = 1933, 3 gets 2000+2100+1800 = 1967, 4 gets 1700+1800+2100 = 1867.
    request = {"tournament": ROUND_ROBIN_SOURCES, "tiebreaks": ["ARO"]}
    result = _prizes(client, {**request, "ratings": {"source": "fide-else-national", "unrated": 1000}})
    assert result["computed_standings"]["order"] == [3, 2, 4, 1]
    assert _paid(result) == {3: "100.00", 2: "60.00", 4: "30.00"}
    # national, 1000 for 1 and 4 (no national rating): 1 gets 1850+1700+1000 = 4550, 2 gets
    # 1000+1000+1700 = 3700, 3 gets 1000+1000+1850 = 3850, 4 gets 1700+1850+1000 = 4550
    result = _prizes(client, {**request, "ratings": {"source": "national", "unrated": 1000}})
    assert result["computed_standings"]["order"] == [1, 4, 3, 2]
