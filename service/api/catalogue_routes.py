"""The catalogue (GET /v1/tiebreaks) and the presets (GET /v1/presets), generated from the
engine's registry and preset list so that they cannot drift from what the engine computes."""

from __future__ import annotations

from litestar import get

from ..engine.presets import PRESETS
from ..engine.registry import TIEBREAKS
from ..engine.teams.presets import TEAM_PRESETS
from ..engine.teams.registry import TEAM_TIEBREAKS, team_aliases
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
            events=["individual", "team"] if t.code in TEAM_TIEBREAKS else ["individual"],
        )
        for t in TIEBREAKS.values()
    ] + [
        s.CatalogueEntry(
            code=t.code,
            name=t.name,
            article=t.citation,
            description=t.description,
            modifiers=sorted(t.modifiers),
            regulations=sorted(r.value for r in t.regulations),
            lower_is_better=t.lower_is_better,
            aliases=team_aliases(t.code),
            rating_based=False,
            events=["team"],
        )
        for t in TEAM_TIEBREAKS.values() if t.team_only
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
    ] + [
        s.PresetOut(
            name=p.name,
            origin=p.origin,
            description=p.description,
            regulations=sorted(r.value for r in p.regulations),
            tiebreaks=list(p.rules),
            event="team",
        )
        for p in TEAM_PRESETS.values()
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
