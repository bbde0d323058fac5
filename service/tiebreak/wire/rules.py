"""Cross-field rules of the request structs, declared once and written into the OpenAPI document.

msgspec's JSON Schema describes each field on its own; "exactly one of `tournament` and
`trf`" is a rule between fields that the structs check in `__post_init__`. A struct
declares such rules in its `schema_rules` class variable and `openapi.py` turns them
into an `allOf` of `not` clauses with `required`, so that the document accepts exactly what the
server accepts (tests/contract/test_exact_contract.py enumerates the combinations).

A field counts as given when it is present and not null, as msgspec decodes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

Schema = dict[str, Any]  # a JSON Schema object

_NULL: Schema = {"type": "null"}


@dataclass(frozen=True)
class ExactlyOne:
    """Exactly one of `names` must be given. `excludes[name]`: fields that must keep their
    default when `name` is the one given (e.g. reading TRF takes no rule list)."""

    names: tuple[str, ...]
    titles: dict[str, str] = field(default_factory=dict)
    excludes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    lists: tuple[str, ...] = ()  # list fields (default []): given when not empty

    def _given(self, name: str) -> Schema:
        return {"minItems": 1} if name in self.lists else {"not": _NULL}

    def _absent(self, name: str) -> Schema:
        return {"maxItems": 0} if name in self.lists else _NULL

    def schema(self, properties: dict[str, Schema], defaults: dict[str, object]) -> Schema:
        # Only `not` clauses: code generators read a `oneOf` beside `properties` as a union of
        # the branches and drop the properties (decision 0135).
        named = ", ".join(
            f"`{name}` ({self.titles[name]})" if name in self.titles else f"`{name}`" for name in self.names
        )
        at_least_one = {"not": {"properties": {name: self._absent(name) for name in self.names}}}
        clauses: list[Schema] = [{"description": f"Exactly one of {named}", **at_least_one}]
        for i, name in enumerate(self.names):
            for other in self.names[i + 1 :]:
                clauses.append(_both_given(name, self._given(name), other, self._given(other)))
            for other in self.excludes.get(name, ()):
                clauses.append(_both_given(name, self._given(name), other, {"not": {"const": defaults.get(other)}}))
        return {"allOf": clauses}


def _both_given(name: str, name_given: Schema, other: str, other_given: Schema) -> Schema:
    return {"not": {"required": [name, other], "properties": {name: name_given, other: other_given}}}


@dataclass(frozen=True)
class AtMostOne:
    """At most one of `names` may be given (none is fine)."""

    names: tuple[str, ...]

    def schema(self, properties: dict[str, Schema], defaults: dict[str, object]) -> Schema:
        return {"not": {"required": list(self.names), "properties": {n: {"not": _NULL} for n in self.names}}}


@dataclass(frozen=True)
class AtLeastOne:
    """At least one of `names` must be given."""

    names: tuple[str, ...]

    def schema(self, properties: dict[str, Schema], defaults: dict[str, object]) -> Schema:
        return {"not": {"properties": dict.fromkeys(self.names, _NULL)}}


@dataclass(frozen=True)
class ExcludesWhen:
    """`field` set to `value` excludes `other` (e.g. `participants: players` with a team event)."""

    field: str
    value: object
    other: str

    def schema(self, properties: dict[str, Schema], defaults: dict[str, object]) -> Schema:
        return {
            "not": {
                "required": [self.field, self.other],
                "properties": {self.field: {"const": self.value}, self.other: {"not": _NULL}},
            }
        }


class SchemaRule(Protocol):
    def schema(self, properties: dict[str, Schema], defaults: dict[str, object]) -> Schema: ...


def rules_schema(rules: tuple[SchemaRule, ...], properties: dict[str, Schema], defaults: dict[str, object]) -> Schema:
    """The JSON Schema keywords that express `rules`, to merge into the struct's object schema:
    one `allOf` of every rule's `not` clauses."""
    clauses: list[Schema] = []
    for rule in rules:
        part = rule.schema(properties, defaults)
        clauses += part["allOf"] if part.keys() == {"allOf"} else [part]
    return {"allOf": clauses}
