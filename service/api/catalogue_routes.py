"""The catalogue (GET /v1/tiebreaks) and the presets (GET /v1/presets), generated from the
engine's registry and preset list so that they cannot drift from what the engine computes."""

from __future__ import annotations

from litestar import get

from ..engine.presets import PRESETS
from ..engine.registry import TIEBREAKS
from . import schemas as s


def catalogue() -> list[s.CatalogueEntry]:
    return [
        s.CatalogueEntry(
            code=t.code,
            name=t.name,
            article=t.citation,
            description=t.description,
            modifiers=sorted(t.modifiers),
            regulations=sorted(r.value for r in t.regulations),
            lower_is_better=t.lower_is_better,
            aliases=t.aliases,
            rating_based=t.rating_based,
        )
        for t in TIEBREAKS.values()
    ]


def presets() -> list[s.PresetOut]:
    return [
        s.PresetOut(
            name=p.name,
            origin=p.origin,
            description=p.description,
            regulations=sorted(r.value for r in p.regulations),
            tiebreaks=list(p.rules),
        )
        for p in PRESETS.values()
    ]


_CATALOGUE = catalogue()
_PRESETS = presets()


@get("/v1/tiebreaks", operation_id="listTiebreaks",
     summary="The tie-break catalogue: codes, names, articles, modifiers and the rule sets accepting each")
async def tiebreaks() -> list[s.CatalogueEntry]:
    return _CATALOGUE


@get("/v1/presets", operation_id="listPresets",
     summary="Named rule lists, each with its origin (FIDE publishes no default order, C.07 4.1)")
async def list_presets() -> list[s.PresetOut]:
    return _PRESETS


CATALOGUE_ROUTES = [tiebreaks, list_presets]
