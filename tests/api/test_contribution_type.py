"""The engine builds breakdowns in the wire's contribution type, so they are encoded as they are.

tiebreak.engine.contributions.Contribution (the engine's default, standard library only) and
tiebreak.wire.schemas.ContributionOut (the msgspec struct the API encodes) must agree field by
field: the engine constructs either one positionally and by keyword.
"""

from __future__ import annotations

import dataclasses

import msgspec

from tiebreak.texts.catalogue import enc_hook
from tiebreak.wire import schemas as s
from tiebreak.engine import compute_standings
from tiebreak.engine.contributions import Contribution
from tiebreak.engine.registry import valid_codes
from tiebreak.engine.rules import parse_rule
from tests.builders import crosstable


def test_the_two_contribution_types_have_the_same_fields_order_and_defaults():
    engine_fields = [
        (f.name, f.default if f.default is not dataclasses.MISSING else "required")
        for f in dataclasses.fields(Contribution)
    ]
    wire_fields = [
        (f.name, f.default if f.default is not msgspec.NODEFAULT else "required")
        for f in msgspec.structs.fields(s.ContributionOut)
    ]
    assert engine_fields == wire_fields


def test_the_engine_builds_the_wire_type_when_asked_and_it_encodes_as_the_default_would():
    t = crosstable({1: "2w1 3b= 4w+", 2: "1b0 U 3b1", 3: "H 1w= 2w0", 4: "Z - 1b-"})
    specs = [parse_rule(rule, valid_codes()) for rule in ("BH/C1", "SB", "PS", "WIN", "BH")]
    plain = compute_standings(t, specs, explain=True)
    wired = compute_standings(t, specs, explain=True, contribution=s.ContributionOut)
    compared = 0
    for a, b in zip(plain.outcomes, wired.outcomes, strict=True):
        for p, rows in b.contributions.items():
            assert all(type(c) is s.ContributionOut for c in rows)
            assert [msgspec.json.encode(c, enc_hook=enc_hook) for c in rows] == [
                msgspec.json.encode(
                    s.ContributionOut(**{f.name: getattr(c, f.name) for f in dataclasses.fields(c)}), enc_hook=enc_hook
                )
                for c in a.contributions[p]
            ]
            compared += len(rows)
    assert compared > 20
