"""Decoding request bodies: msgspec in strict mode, with JSON Schema's idea of an integer.

Strict mode is kept ("5" is not 5, unknown fields are errors), but the OpenAPI document
says `"type": "integer"`, and in JSON Schema 1.0 is an integer. So a body msgspec refuses
only because an integer field holds an integral float is decoded again with integral
floats read as integers; anything else keeps msgspec's own error (and its path).
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

import msgspec

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


def schema_depth(type_) -> int | None:
    """The deepest JSON nesting (objects and arrays) a body that `type_` decodes can have, or
    None when it has no bound: a value of any shape (`Any`, `msgspec.Raw`, a custom type), a
    struct that skips unknown fields (their values can nest at will), a recursive type.

    msgspec stops at the first value out of place, so decoding into a type of depth D never
    looks deeper than D + 1 levels, however deep the body nests."""
    from msgspec import inspect as mi

    def depth(info, seen: frozenset) -> int | None:
        if isinstance(info, mi.Metadata):
            return depth(info.type, seen)
        if isinstance(info, (mi.AnyType, mi.RawType, mi.CustomType, mi.ExtType)):
            return None
        if isinstance(info, (mi.StructType, mi.TypedDictType, mi.DataclassType, mi.NamedTupleType)):
            if info.cls in seen or not getattr(info, "forbid_unknown_fields", False):
                return None
            inner = [depth(f.type, seen | {info.cls}) for f in info.fields]
            return None if None in inner else 1 + max(inner, default=0)
        if isinstance(info, mi.UnionType):
            inner = [depth(t, seen) for t in info.types]
            return None if None in inner else max(inner, default=0)
        if isinstance(info, (mi.ListType, mi.SetType, mi.FrozenSetType, mi.VarTupleType)):
            inner = depth(info.item_type, seen)
            return None if inner is None else 1 + inner
        if isinstance(info, mi.TupleType):
            inner = [depth(t, seen) for t in info.item_types]
            return None if None in inner else 1 + max(inner, default=0)
        if isinstance(info, mi.DictType):
            inner = depth(info.value_type, seen)
            return None if inner is None else 1 + inner
        return 0  # a scalar: number, string, boolean, null, date, enum, literal

    return depth(mi.type_info(type_), frozenset())


class WireDecoder:
    """A strict msgspec decoder for `type` that also accepts `1.0` where an integer is expected.

    `depth`: the deepest nesting a body it decodes can have (schema_depth), None when unbounded."""

    def __init__(self, type_):
        self.type = type_
        self.depth = schema_depth(type_)
        self._strict = msgspec.json.Decoder(type_)

    def decode(self, data: bytes):
        try:
            return self._strict.decode(data)
        except msgspec.ValidationError as exc:
            if "got `float`" not in str(exc):
                raise
        return msgspec.convert(_lenient.decode(data), self.type)
