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


class WireDecoder:
    """A strict msgspec decoder for `type` that also accepts `1.0` where an integer is expected."""

    def __init__(self, type_):
        self.type = type_
        self._strict = msgspec.json.Decoder(type_)

    def decode(self, data: bytes):
        try:
            return self._strict.decode(data)
        except msgspec.ValidationError as exc:
            if "got `float`" not in str(exc):
                raise
        return msgspec.convert(_lenient.decode(data), self.type)
