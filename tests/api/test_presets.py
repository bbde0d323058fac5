"""GET /v1/presets and `preset` in standings requests (SPEC 3.6)."""

from __future__ import annotations

from pathlib import Path

import pytest

TRF = (Path(__file__).parent.parent / "fixtures" / "conformance_fide" / "worked-d-bh.trf").read_text(encoding="utf-8")

SPEC_PRESETS = {  # SPEC 3.6
    "fide-swiss-traditional": ["BH/C1", "BH"],
    "club-swiss-5-7": ["BH/C1", "BH", "SB"],
    "weekend-open": ["BH/C1", "BH/C2", "SB"],
    "round-robin": ["DE", "SB", "KS", "WIN"],
    "uscf-default": ["MM", "SOLK", "CUM", "OCUM"],
    "school": ["WIN", "DE"],
}


def test_presets_listed_with_origin(client):
    presets = {p["name"]: p for p in client.get("/v1/presets").json()}
    assert {name: p["tiebreaks"] for name, p in presets.items() if name in SPEC_PRESETS} == SPEC_PRESETS
    assert all(p["origin"] for p in presets.values())
    assert "US Chess rule 34" in presets["uscf-default"]["origin"]
    assert presets["uscf-default"]["regulations"] == ["uscf"]


def test_no_preset_is_called_the_fide_default(client):
    # FIDE publishes no default order (C.07 4.1).
    for p in client.get("/v1/presets").json():
        text = " ".join([p["name"], p["origin"], p["description"]]).lower()
        assert "fide default" not in text and "default" not in text.replace("uscf-default", "").replace(
            "us chess rule 34 default", ""
        )


def test_standings_with_a_preset(client):
    body = client.post("/v1/standings", json={"trf": TRF, "preset": "fide-swiss-traditional"}).json()
    assert [t["spec"] for t in body["tiebreaks"]] == ["BH/C1", "BH"]
    assert body["regulations"] == "fide-2026"
    assert body["standings"][0]["id"] == 1  # worked-d-c1.json: Ana first on BH/C1 12.0


def test_uscf_preset_selects_uscf_under_auto(client):
    body = client.post("/v1/standings", json={"trf": TRF, "preset": "uscf-default"}).json()
    assert body["regulations"] == "uscf"
    assert [(t["spec"], t["article"]) for t in body["tiebreaks"]] == [
        ("MM", "US Chess 34E1"),
        ("SOLK", "US Chess 34E2"),
        ("CUM", "US Chess 34E3"),
        ("OCUM", "US Chess 34E9"),
    ]


@pytest.mark.parametrize(
    "payload, message",
    [
        ({"preset": "uscf-default", "regulations": "fide-2026"}, "not for fide-2026"),
        ({"preset": "round-robin", "regulations": "uscf"}, "not for uscf"),
        ({"preset": "nonesuch"}, "fide-swiss-traditional"),
    ],
)
def test_preset_errors(client, payload, message):
    response = client.post("/v1/standings", json={"trf": TRF, **payload})
    assert response.status_code == 422
    assert response.json()["errors"][0]["path"] == "preset"
    assert message in response.json()["errors"][0]["message"]


def test_preset_and_tiebreaks_together_is_a_400(client):
    response = client.post("/v1/standings", json={"trf": TRF, "preset": "school", "tiebreaks": ["BH"]})
    assert response.status_code == 400
    assert response.headers["content-type"].startswith("application/problem+json")
