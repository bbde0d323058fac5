"""Cross-field rules of the request structs, declared once and written into the OpenAPI document.

msgspec's JSON Schema describes each field on its own; "exactly one of `tournament` and
`trf`" is a rule between fields that the structs check in `__post_init__`. A struct
declares such rules in its `schema_rules` class variable and `openapi.py` turns them
into `oneOf`/`not` with `required`, so that the document accepts exactly what the
server accepts (tests/contract/test_exact_contract.py enumerates the combinations).

A field counts as given when it is present and not null, as msgspec decodes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

Schema = dict[str, Any]  # a JSON Schema object

_NULL: Schema = {"type": "null"}


def given(schema: Schema) -> Schema:
    """The schema of a field when it is given: its `anyOf` without the null member."""
    members = [m for m in schema.get("anyOf", ()) if m != _NULL]
    if not members:
        return {"not": _NULL}
    given_schema = members[0] if len(members) == 1 else {"anyOf": members}
    if "description" in schema:
        given_schema = {**given_schema, "description": schema["description"]}
    return given_schema


@dataclass(frozen=True)
class ExactlyOne:
    """Exactly one of `names` must be given. `excludes[name]`: fields that must keep their
    default when `name` is the one given (e.g. reading TRF takes no rule list)."""

    names: tuple[str, ...]
    titles: dict[str, str] = field(default_factory=dict)
    excludes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    lists: tuple[str, ...] = ()  # list fields (default []): given when not empty

    def _given(self, name: str, properties: dict[str, Schema]) -> Schema:
        return {"minItems": 1} if name in self.lists else given(properties[name])

    def _absent(self, name: str) -> Schema:
        return {"maxItems": 0} if name in self.lists else _NULL

    def schema(self, properties: dict[str, Schema], defaults: dict[str, object]) -> Schema:
        branches = []
        for name in self.names:
            # the others absent or null: each branch stands alone (with `excludes`, both could not match)
            branch_properties = {
                name: self._given(name, properties),
                **{other: self._absent(other) for other in self.names if other != name},
            }
            for other in self.excludes.get(name, ()):
                branch_properties[other] = {"const": defaults.get(other)}
            branch = {"required": [name], "properties": branch_properties}
            if name in self.titles:
                branch = {"title": self.titles[name], **branch}
            branches.append(branch)
        return {"oneOf": branches}


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
        return {"anyOf": [{"required": [n], "properties": {n: {"not": _NULL}}} for n in self.names]}


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
    """The JSON Schema keywords that express `rules`, to merge into the struct's object schema.

    Side by side (`oneOf` and `not` beside `properties`) where the keywords differ: documentation
    tools show the properties with each `oneOf` branch then; `allOf` only when two rules need
    the same keyword."""
    merged: Schema = {}
    extra: list[Schema] = []
    for rule in rules:
        part = rule.schema(properties, defaults)
        if merged.keys() & part.keys():
            extra.append(part)
        else:
            merged.update(part)
    if extra:
        merged["allOf"] = extra
    return merged
