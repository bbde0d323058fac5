"""Rows without breakdowns are encoded by a fast path (convert._plain_rows); its JSON must be
byte for byte what the `Standing` structs of the general path give, for every selection."""

from __future__ import annotations

import dataclasses

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tiebreak.usecases.convert import standings_to_wire
from tiebreak.engine import compute_standings
from tiebreak.engine.registry import valid_codes
from tiebreak.engine.rules import parse_rule
from tests.builders import crosstable
from tests.strategies import swiss_tournaments

from tiebreak.texts.catalogue import enc_hook
from tests.profiles import examples

_encode = msgspec.json.Encoder(enc_hook=enc_hook).encode

RULES = ["BH/C1", "SB", "PS", "WIN", "DE", "ARO", "TPR", "BH"]  # ARO, TPR dropped when unrated players take part


def both_ways(tournament, rules, **selection) -> tuple[bytes, bytes]:
    specs = [parse_rule(rule, valid_codes()) for rule in rules]
    result = compute_standings(tournament, specs)
    fast = standings_to_wire(result, False, tournament=tournament, encode_rows=True, **selection)
    general = standings_to_wire(result, False, tournament=tournament, encode_rows=False, **selection)
    assert isinstance(fast.standings, msgspec.Raw) and isinstance(general.standings, list)
    return _encode(fast), _encode(general)


IDENTITY = st.fixed_dictionaries(
    {},
    optional={
        "key": st.text(min_size=1, max_size=8),
        "fide_id": st.integers(1, 10**9),
        "federation": st.sampled_from(["NOR", "GER"]),
        "title": st.sampled_from(["GM", "WIM"]),
        "sex": st.sampled_from(["m", "f"]),
        "birth_date": st.sampled_from(["1990", "2008-04-02"]),
    },
)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn=swiss_tournaments(max_players=12), data=st.data())
def test_the_fast_rows_encode_as_the_standing_structs_do(drawn, data):
    tournament = drawn.tournament
    identities = data.draw(st.lists(IDENTITY, min_size=len(tournament.players), max_size=len(tournament.players)))
    players = tuple(
        dataclasses.replace(p, name=data.draw(st.text(max_size=6)), **identity)
        for p, identity in zip(tournament.players, identities, strict=True)
    )
    tournament = dataclasses.replace(tournament, players=players)
    rules = data.draw(st.lists(st.sampled_from(RULES), max_size=5))
    ids = [p.id for p in players]
    selection = data.draw(
        st.fixed_dictionaries(
            {},
            optional={
                "top": st.integers(1, len(ids) + 1),
                "offset": st.integers(0, len(ids) + 1),
                "player": st.sampled_from(ids) | st.lists(st.sampled_from(ids), min_size=1, unique=True),
            },
        )
    )
    fast, general = both_ways(tournament, rules, **selection)
    assert fast == general


def test_every_row_and_a_dropped_rule_read_the_same_either_way():
    t = crosstable({1: "2w1 3b= H", 2: "1b0 U 3w+", 3: "U 1w= 2b-"})
    t = dataclasses.replace(t, players=(dataclasses.replace(t.players[0], key="k1", title="GM"), *t.players[1:]))
    fast, general = both_ways(t, ["BH", "ARO", "SB"])
    assert fast == general
    rows = msgspec.json.decode(fast)["standings"]
    assert [row["id"] for row in rows] == [1, 2, 3]
    assert rows[0]["key"] == "k1" and "key" not in rows[1]
    assert rows[0]["breakdown"] is None and rows[0]["opponents"] is None
    assert len(rows[0]["values"]) == 3 and rows[0]["values"][1] is None  # ARO dropped: unrated players
