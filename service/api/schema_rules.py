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

_NOT_NULL = {"not": {"type": "null"}}


@dataclass(frozen=True)
class ExactlyOne:
    """Exactly one of `names` must be given. `excludes[name]`: fields that must keep their
    default when `name` is the one given (e.g. reading TRF takes no rule list)."""

    names: tuple[str, ...]
    titles: dict[str, str] = field(default_factory=dict)
    excludes: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def schema(self, defaults: dict[str, object]) -> dict:
        branches = []
        for name in self.names:
            # the others absent or null: each branch stands alone (with `excludes`, both could not match)
            properties = {name: _NOT_NULL, **{other: {"type": "null"} for other in self.names if other != name}}
            for other in self.excludes.get(name, ()):
                properties[other] = {"const": defaults.get(other)}
            branch = {"required": [name], "properties": properties}
            if name in self.titles:
                branch = {"title": self.titles[name], **branch}
            branches.append(branch)
        return {"oneOf": branches}


@dataclass(frozen=True)
class AtMostOne:
    """At most one of `names` may be given (none is fine)."""

    names: tuple[str, ...]

    def schema(self, defaults: dict[str, object]) -> dict:
        return {"not": {"required": list(self.names), "properties": {n: _NOT_NULL for n in self.names}}}


def rules_schema(rules, defaults: dict[str, object]) -> dict:
    """The JSON Schema keywords that express `rules` (merged into the struct's object schema)."""
    parts = [rule.schema(defaults) for rule in rules]
    if len(parts) == 1:
        return parts[0]
    return {"allOf": parts}
