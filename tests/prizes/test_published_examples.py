"""Every example of tests/fixtures/prizes through POST /v1/prizes (the real ASGI app).

Each fixture records where its figures come from (`source`: a published page, the
seeds' guide, a pairing program's manual, or `hand-worked`, with the steps in
`hand_computation`), and `expected` holds those figures, never the service's output.
The `v*` files are the shared conformance set (../shared/conformance/prizes), copied.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from .conftest import fixture_files, load

FILES = fixture_files()


def test_the_fixtures_are_all_there():
    names = {f.stem for f in FILES}
    assert {"v1-pool-three-way", "v2-hort-two-tied", "v3-class-prize-in-the-pool"} <= names
    assert len(names) >= 18


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_every_fixture_says_where_its_figures_come_from(path):
    case = load(path)
    source = case.get("source")
    if source is None:  # the shared conformance set: worked by hand, step by step
        assert case["hand_computation"], path
        return
    assert source["title"] and source["says"] and source["figures"], path
    if "hand" in source["kind"]:
        assert case["hand_computation"], f"{path}: a hand-worked case shows its steps"


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_published_figures(client, path):
    case = load(path)
    response = client.post("/v1/prizes", json=case["request"])
    assert response.status_code == 200, response.text
    body = response.json()
    paid = {p["id"]: p for p in body["players"]}
    for expected in case["expected"]["players"]:
        got = paid.get(expected["id"])
        assert Decimal(got["total"] if got else "0") == Decimal(expected["total"]), (expected["id"], got)
        assert (got["items"] if got else []) == expected.get("items", []), expected["id"]
    listed = {e["id"] for e in case["expected"]["players"]}
    assert all(Decimal(p["total"]) == 0 and not p["items"] for i, p in paid.items() if i not in listed)
    assert Decimal(body["total_paid"]) == Decimal(case["expected"]["total_paid"])
    assert Decimal(body["total_paid"]) == sum(Decimal(p["total"]) for p in body["players"])
    assert Decimal(body["total_paid"]) == sum(Decimal(p["sum"]) for p in body["pools"])
