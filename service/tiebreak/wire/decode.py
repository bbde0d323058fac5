"""Decoding request bodies: one strict decoder, its one pre-scan and the nesting bound.

`decode` is the only way a body becomes a request struct: the nesting is bounded, a
large body's lists are counted before they are built (`prescan`), then msgspec decodes
it strictly. msgspec's errors keep their `$.path`; the problem mapping names the fields
or values the schema allows there.

msgspec in strict mode, with JSON Schema's idea of an integer:
Strict mode is kept ("5" is not 5, unknown fields are errors), but the OpenAPI document
says `"type": "integer"`, and in JSON Schema 1.0 is an integer. So a body msgspec refuses
only because an integer field holds an integral float is decoded again with integral
floats read as integers; anything else keeps msgspec's own error (and its path).
"""

from __future__ import annotations

import functools
import json
from decimal import Decimal, InvalidOperation
from typing import Any

import msgspec
from msgspec import inspect as mi

from .limits import LimitExceeded, Limits
from ..texts.message import msg, msg_n

_LARGEST_EXACT = 2**63  # beyond any bound of the schema; larger values stay floats (and fail the bound)


def _float_or_integer(text: str) -> float | int:
    try:
        number = Decimal(text)
    except InvalidOperation:  # pragma: no cover - msgspec hands over valid JSON numbers only
        return float(text)
    if number.is_finite() and abs(number) <= _LARGEST_EXACT and number == number.to_integral_value():
        return int(number)
    return float(text)


_lenient = msgspec.json.Decoder(float_hook=_float_or_integer)


def schema_depth(type_: Any) -> int | None:
    """The deepest JSON nesting (objects and arrays) a body that `type_` decodes can have, or
    None when it has no bound: a value of any shape (`Any`, `msgspec.Raw`, a custom type), a
    struct that skips unknown fields (their values can nest at will), a recursive type.

    msgspec stops at the first value out of place, so decoding into a type of depth D never
    looks deeper than D + 1 levels, however deep the body nests."""

    def deepest(inner: list[int | None]) -> int | None:
        known = [d for d in inner if d is not None]
        return None if len(known) < len(inner) else max(known, default=0)

    def depth(info: Any, seen: frozenset[type]) -> int | None:
        if isinstance(info, mi.Metadata):
            return depth(info.type, seen)
        if isinstance(info, (mi.AnyType, mi.RawType, mi.CustomType, mi.ExtType)):
            return None
        if isinstance(info, (mi.StructType, mi.TypedDictType, mi.DataclassType, mi.NamedTupleType)):
            if info.cls in seen or not getattr(info, "forbid_unknown_fields", False):
                return None
            most = deepest([depth(f.type, seen | {info.cls}) for f in info.fields])
            return None if most is None else 1 + most
        if isinstance(info, mi.UnionType):
            return deepest([depth(t, seen) for t in info.types])
        if isinstance(info, (mi.ListType, mi.SetType, mi.FrozenSetType, mi.VarTupleType)):
            item = depth(info.item_type, seen)
            return None if item is None else 1 + item
        if isinstance(info, mi.TupleType):
            most = deepest([depth(t, seen) for t in info.item_types])
            return None if most is None else 1 + most
        if isinstance(info, mi.DictType):
            value = depth(info.value_type, seen)
            return None if value is None else 1 + value
        return 0  # a scalar: number, string, boolean, null, date, enum, literal

    return depth(mi.type_info(type_), frozenset())


class WireDecoder:
    """A strict msgspec decoder for `type` that also accepts `1.0` where an integer is expected.

    `depth`: the deepest nesting a body it decodes can have (schema_depth), None when unbounded.
    Both are made when first used (walking a request's schema costs milliseconds, which the
    command line's start-up need not pay for the kinds it never reads); `ready` makes them now."""

    def __init__(self, type_: Any):
        self.type = type_

    @functools.cached_property
    def depth(self) -> int | None:
        return schema_depth(self.type)

    @functools.cached_property
    def _strict(self) -> msgspec.json.Decoder[Any]:
        return msgspec.json.Decoder(self.type)

    def ready(self) -> None:
        self._strict, self.depth  # noqa: B018 - made now, not on the first body

    def decode(self, data: bytes) -> Any:
        try:
            return self._strict.decode(data)
        except msgspec.ValidationError as exc:
            if "got `float`" not in str(exc):
                raise
        return msgspec.convert(_lenient.decode(data), self.type)


# ---- a cheap look at large bodies before the strict decode ----


class _Players(msgspec.Struct):
    players: list[msgspec.Raw] = []


class _Inner(msgspec.Struct):
    tournament: _Players | None = None


class _RequestShape(msgspec.Struct):
    """The long lists of any request body: a standings request's players and rules, a prize
    request's standings rows, prizes and inner crosstable."""

    tournament: _Players | None = None
    tiebreaks: list[msgspec.Raw] | None = None
    standings: list[msgspec.Raw] | None = None
    prizes: list[msgspec.Raw] | None = None
    standings_request: _Inner | None = None


_shape_decoder = msgspec.json.Decoder(_RequestShape)
PRESCAN_BYTES = 1024 * 1024


# What prescan counted, as the 413 says it.
_COUNTED = {
    "rules": lambda n: msg_n("{n} rule", "{n} rules", n),
    "players": lambda n: msg_n("{n} player", "{n} players", n),
    "standings": lambda n: msg_n("{n} standings", "{n} standings", n),
    "prizes": lambda n: msg_n("{n} prize", "{n} prizes", n),
}


def prescan(data: bytes, limits: Limits) -> None:
    """Count the long lists of a large body (players, rules, prize rows, prizes) without
    building them; a list over its limit is refused before the strict decode.

    msgspec checks a list's length only once the whole list is built, so 32 MiB of
    `{"id":1},` would build 3.7 million players (seconds) before being refused.
    Skipping over the elements (msgspec.Raw) costs a fraction of that. A body whose
    JSON is malformed is refused here; one of another shape is left to the strict
    decoder, which names the field.
    """
    if len(data) <= PRESCAN_BYTES:
        return
    try:
        shape = _shape_decoder.decode(data)
    except msgspec.ValidationError:
        return  # of another shape: the strict decoder names the field
    inner = shape.standings_request.tournament if shape.standings_request is not None else None
    counted: list[tuple[str, str, str, list[msgspec.Raw] | None, int]] = [
        ("max_rules", "tiebreaks", "rules", shape.tiebreaks, limits.max_rules),
        (
            "max_players",
            "tournament.players",
            "players",
            shape.tournament.players if shape.tournament else None,
            limits.max_players,
        ),
        ("max_players", "standings", "standings", shape.standings, limits.max_players),
        ("max_prizes", "prizes", "prizes", shape.prizes, limits.max_prizes),
        (
            "max_players",
            "standings_request.tournament.players",
            "players",
            inner.players if inner else None,
            limits.max_players,
        ),
    ]
    for limit, path, what, items, bound in counted:
        if items is not None and len(items) > bound:
            raise LimitExceeded(limit, path, _COUNTED[what](len(items)), limits=limits)


# ---- nesting depth, before any decoder recurses into it ----

# Everything but what the depth needs: brackets and quotes.
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'[]{}"')
_EXACT_SCAN_BYTES = 64 * 1024
_MAX_BRACKETED_STRINGS = 200_000


def json_depth_exceeds(data: bytes, max_depth: int) -> bool:
    """Whether JSON `data` nests deeper than `max_depth`, in C-speed passes over the bytes.

    Decoders recurse once per level (msgspec raises RecursionError near 1,000 levels,
    which used to surface as a 500), so the depth is bounded before any decoding.
    Escaped backslashes and quotes are dropped, then everything but brackets and
    quotes, then the strings (`""` first: most strings hold no bracket). Each pass
    then removes the innermost empty pairs, exactly one level per pass, so a valid
    request is gone after a few passes. What a pass cannot shorten is malformed
    JSON: a short remainder is scanned for its depth, a long one counts as too deep
    (the decoder would refuse it either way), and so do more than 200,000 strings
    with brackets inside.
    """
    if b"\\" in data:
        data = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    rest = data.translate(None, _NOT_STRUCTURE).replace(b'""', b"")
    if b'"' in rest:  # strings with brackets inside: keep what lies between them
        if rest.count(b'"') > 2 * _MAX_BRACKETED_STRINGS:
            return True  # no request holds that many; splitting them would take seconds
        rest = b"".join(rest.split(b'"')[::2])
    for _ in range(max_depth):
        if not rest:
            return False
        # One level per pass: a pair emptied by this pass is removed by the next one.
        shorter = rest.replace(b"[]", b"\0").replace(b"{}", b"\0").replace(b"\0", b"")
        if len(shorter) == len(rest):
            break
        rest = shorter
    else:
        return bool(rest)
    if len(rest) > _EXACT_SCAN_BYTES:
        return True
    depth = deepest = 0
    for byte in rest:
        depth += 1 if byte in (0x5B, 0x7B) else -1  # [ {
        deepest = max(deepest, depth)
    return deepest > max_depth


def check_json_depth(data: bytes, limits: Limits, path: str = "body") -> None:
    if json_depth_exceeds(data, limits.max_json_depth):
        raise LimitExceeded(
            "max_json_depth",
            path,
            msg(
                "the JSON nests deeper than {depth} levels (or holds more than {strings} strings with brackets)",
                depth=limits.max_json_depth,
                strings=_MAX_BRACKETED_STRINGS,
            ),
            400,
            limits,
        )


BOM = b"\xef\xbb\xbf"
BOM_MESSAGE = "Input starts with a UTF-8 byte order mark (BOM)"
DUPLICATE_KEY = "Object repeats the key `{key}`"


def _unique(pairs: list[tuple[str, Any]]) -> None:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise msgspec.DecodeError(DUPLICATE_KEY.format(key=key))
        seen.add(key)


def _nothing(_: str) -> None:
    return None


_GENERIC = msgspec.json.Decoder()
_ENCODER = msgspec.json.Encoder()
_COLON_ESCAPES = (b"\\u003a", b"\\u003A")


def _no_key_dropped(data: bytes) -> bool:
    """Whether msgspec's generic decode of a valid JSON `data` kept every key, counted in colons.
    Outside strings a colon only ends a key; inside, with no `\\u003a` escape, a string's colons are
    the text's. The decode keeps the last of repeated keys, and its re-encoding writes one colon per
    key and each kept string's colons as they are: as many colons as `data` exactly when none was
    dropped (a dropped key takes its colon and its strings' colons with it)."""
    try:
        return _ENCODER.encode(_GENERIC.decode(data)).count(b":") == data.count(b":")
    except msgspec.MsgspecError:  # e.g. 1e999, out of a float's range, where the schema reads no float
        return False


def check_unique_keys(data: bytes) -> None:
    """RFC 8259 4: names within an object SHOULD be unique; msgspec keeps the last of two silently,
    which would hide an edit gone wrong. Up to PRESCAN_BYTES, and without a colon escaped, the colons
    are counted (`_no_key_dropped`: about half the time); else, or to name the repeated key, a
    second read of the keys only with the standard library (its values not built: the generic
    decode of a 12.7 MB body would hold 90 MiB more in the compute worker)."""
    if len(data) <= PRESCAN_BYTES and not any(e in data for e in _COLON_ESCAPES) and _no_key_dropped(data):
        return
    read_keys(data)


def read_keys(data: bytes) -> None:
    """The keys of every object read with the standard library; a repeated one is a DecodeError naming it."""
    json.loads(data, object_pairs_hook=_unique, parse_int=_nothing, parse_float=_nothing, parse_constant=_nothing)


def decode(data: bytes, decoder: WireDecoder, limits: Limits) -> Any:
    """Strictly decode a body: nesting bounded, a large body's lists counted before they are built.

    The nesting is checked before decoding when the decoder's schema could hold a body nested
    deeper than max_json_depth (`schema_depth`). Every request schema is shallower than the
    limit, and msgspec stops at the first value out of place, so a body that decodes nests no
    deeper than its schema; the nesting is then checked only when reading fails, so that a body
    nested too deep is refused as such whatever else is wrong with it."""
    deep = decoder.depth is None or decoder.depth > limits.max_json_depth
    if deep:
        check_json_depth(data, limits)
    try:
        if data.startswith(BOM):
            raise msgspec.DecodeError(BOM_MESSAGE)  # msgspec would say "invalid character (byte 0)"
        prescan(data, limits)
        decoded = decoder.decode(data)
        check_unique_keys(data)
        return decoded
    except Exception as exc:
        if not deep:
            check_json_depth(data, limits)
        if isinstance(exc, RecursionError):  # a second line of defence: check_json_depth should refuse it
            raise LimitExceeded("max_json_depth", "body", msg("the JSON nests too deeply"), 400, limits) from None
        if isinstance(exc, msgspec.MsgspecError):
            exc.root_type = decoder.type  # type: ignore[attr-defined]  # the problem lists what the schema allows
            exc.empty_body = not data.strip()  # type: ignore[attr-defined]
        raise
