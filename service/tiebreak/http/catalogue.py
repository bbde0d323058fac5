"""The catalogue (GET /v1/tiebreaks) and the presets (GET /v1/presets), generated from the
engine's registry and preset list so that they cannot drift from what the engine computes."""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from typing import Annotated, Literal

import msgspec
from litestar import Response, get
from litestar.datastructures import ResponseHeader
from litestar.enums import MediaType
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import HeaderParameter

from ..engine.interop import trf26_acronym
from ..engine.presets import PRESETS, Preset
from ..engine.registry import TIEBREAKS
from ..engine.teams.presets import TEAM_PRESETS
from ..engine.swiss_manager import numbers_of
from ..engine.teams.registry import TEAM_TIEBREAKS, team_aliases
from ..texts.catalogue import LANGUAGES, enc_hook
from ..texts.message import LANGUAGE, language
from ..wire import schemas as s
from .problems import PROBLEM_JSON


def _entry(t, aliases: list[str], rating_based: bool, events: list[Literal["individual", "team"]]) -> s.CatalogueEntry:
    """One catalogue entry from a registry entry (individual or team)."""
    return s.CatalogueEntry(
        code=t.code,
        name=t.name,
        article=t.citation,
        description=t.description,
        modifiers=sorted(t.modifiers),
        regulations=sorted(r.value for r in t.regulations),
        lower_is_better=t.lower_is_better,
        aliases=aliases,
        rating_based=rating_based,
        trf26=trf26_acronym(t.code, t.regulations),
        events=events,
        swiss_manager=[s.SwissManagerNumber(n, p) for n, p in numbers_of(t.code)],
    )


def catalogue() -> list[s.CatalogueEntry]:
    return [
        _entry(t, t.aliases, t.rating_based, ["individual", "team"] if t.code in TEAM_TIEBREAKS else ["individual"])
        for t in TIEBREAKS.values()
    ] + [_entry(t, team_aliases(t.code), False, ["team"]) for t in TEAM_TIEBREAKS.values() if t.team_only]


def presets() -> list[s.PresetOut]:
    return [_preset(p, "individual") for p in PRESETS.values()] + [_preset(p, "team") for p in TEAM_PRESETS.values()]


def _preset(p: Preset, event: Literal["individual", "team"]) -> s.PresetOut:
    return s.PresetOut(
        name=p.name,
        origin=p.origin,
        description=p.description,
        regulations=sorted(r.value for r in p.regulations),
        tiebreaks=list(p.rules),
        event=event,
    )


# ---- caching: both lists change only with a release ----

CACHE_CONTROL = "max-age=3600"  # an hour; then a conditional request, answered 304 while the ETag holds


@dataclass(frozen=True)
class Cached:
    """A response body encoded once, with its (weak) entity tag: the same list is the same
    JSON whatever the content coding, so a weak validator, compared weakly (RFC 9110 13.1.2)."""

    body: bytes
    etag: str

    @classmethod
    def of(cls, value, lang: str) -> Cached:
        with language(lang):
            body = _encoder.encode(value)
        return cls(body, f'W/"{hashlib.sha256(body).hexdigest()[:32]}"')

    def matches(self, if_none_match: str | None) -> bool:
        if not if_none_match:
            return False
        tags = [tag.strip() for tag in if_none_match.split(",")]
        return "*" in tags or any(tag.removeprefix("W/") == self.etag.removeprefix("W/") for tag in tags)

    def response(self, if_none_match: str | None) -> Response:
        headers = {"ETag": self.etag, "Cache-Control": CACHE_CONTROL}
        if self.matches(if_none_match):
            return Response(content=b"", status_code=304, headers=headers)
        return Response(content=self.body, media_type=MediaType.JSON, headers=headers)


_encoder = msgspec.json.Encoder(enc_hook=enc_hook)
# Per language, encoded on first use: each its own body and so its own ETag (SPEC 3.10).
_CATALOGUE = {lang: functools.cache(functools.partial(Cached.of, catalogue(), lang)) for lang in LANGUAGES}
_PRESETS = {lang: functools.cache(functools.partial(Cached.of, presets(), lang)) for lang in LANGUAGES}

IfNoneMatch = Annotated[
    str | None,
    HeaderParameter(
        name="If-None-Match",
        required=False,
        max_length=1000,
        description="The ETag of a copy the client holds: 304 Not Modified (no body) while it is current",
    ),
]
_CACHE_HEADERS = [
    ResponseHeader(
        name="ETag",
        documentation_only=True,
        required=True,
        description="A weak entity tag of the list in the language of the answer (each language has "
        "its own); send it back as If-None-Match",
    ),
    ResponseHeader(
        name="Cache-Control",
        documentation_only=True,
        required=True,
        description=f"`{CACHE_CONTROL}`: the list changes only with a new release of the service",
    ),
]
_NOT_MODIFIED = {
    304: ResponseSpec(
        data_container=None,
        generate_examples=False,
        description="Not Modified: the copy named by If-None-Match is current",
    ),
    400: ResponseSpec(
        data_container=s.Problem,
        generate_examples=False,
        media_type=PROBLEM_JSON,
        description="An If-None-Match header longer than 1000 characters",
    ),
}


@get(
    "/v1/tiebreaks",
    operation_id="listTiebreaks",
    summary="The tie-break catalogue: codes, names, articles, modifiers and the rule sets accepting each",
    description="Every code the service computes, generated from the engine's registry: its name, the "
    "article it implements, the modifiers it takes, the rule sets that accept it and the "
    "aliases it is known by. Cacheable: `ETag`, `Cache-Control`, and 304 for `If-None-Match`.",
    response_headers=_CACHE_HEADERS,
    responses=_NOT_MODIFIED,
)
async def tiebreaks(if_none_match: IfNoneMatch = None) -> Response[list[s.CatalogueEntry]]:
    return _CATALOGUE[LANGUAGE.get()]().response(if_none_match)


@get(
    "/v1/presets",
    operation_id="listPresets",
    summary="Named rule lists, each with its origin (FIDE publishes no default order, C.07 4.1)",
    description="Each preset names the rule sets it is a list for; send its name as `preset` instead of "
    "`tiebreaks`. Cacheable: `ETag`, `Cache-Control`, and 304 for `If-None-Match`.",
    response_headers=_CACHE_HEADERS,
    responses=_NOT_MODIFIED,
)
async def list_presets(if_none_match: IfNoneMatch = None) -> Response[list[s.PresetOut]]:
    return _PRESETS[LANGUAGE.get()]().response(if_none_match)


CATALOGUE_ROUTES = [tiebreaks, list_presets]
