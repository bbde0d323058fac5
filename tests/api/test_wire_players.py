"""The JSON API hands the engine a roster (ids, names, ratings) and makes a player's object only
when a row shows it (convert.WirePlayers): the standings are those of the players' objects."""

from __future__ import annotations

import dataclasses

import msgspec

from tiebreak.usecases import convert
from tiebreak.wire import schemas as s
from tiebreak.usecases.convert import WirePlayers, standings_to_wire, tournament_from_wire
from tiebreak.engine import compute_standings
from tiebreak.engine.registry import valid_codes
from tiebreak.engine.rules import parse_rule
from testkit.synthetic import swiss_wire

from tiebreak.texts.catalogue import enc_hook

_encode = msgspec.json.Encoder(enc_hook=enc_hook).encode

RULES = ["BH/C1", "SB", "DE", "ARO", "PS"]


def wire_tournament(players: int = 40) -> s.Tournament:
    body = swiss_wire(players, 7, seed=9)
    body["players"][4]["rating"] = 0  # unrated
    body["players"][5].update(key="five", title="IM", fide_id=123456)
    return msgspec.convert(body, s.Tournament)


def test_the_roster_and_the_players_agree():
    t = tournament_from_wire(wire_tournament(), columns=True)
    assert isinstance(t.players, WirePlayers)
    made = list(t.players)
    assert t.roster.ids == [p.id for p in made]
    assert t.roster.names == [p.name for p in made]
    assert t.roster.ratings == [p.rating or None for p in made]
    assert t.players[-1] is t.players[39] and t.players[2:4] == made[2:4]
    assert made[5].key == "five" and made[5].title == "IM"


def test_ranking_from_the_roster_is_ranking_from_the_players():
    specs = [parse_rule(rule, valid_codes()) for rule in RULES]
    with_roster = tournament_from_wire(wire_tournament(), columns=True)
    objects = dataclasses.replace(with_roster, players=tuple(with_roster.players), roster=None)
    a = compute_standings(with_roster, specs, unrated_rating=1400)
    b = compute_standings(objects, specs, unrated_rating=1400)
    assert list(a.rows) == list(b.rows)
    assert [o.values if o.column is None else o.column.tolist() for o in a.outcomes] == [
        o.values if o.column is None else o.column.tolist() for o in b.outcomes
    ]
    assert _encode(standings_to_wire(a, True, tournament=with_roster)) == _encode(
        standings_to_wire(b, True, tournament=objects)
    )


def test_one_row_makes_no_player_object():
    specs = [parse_rule(rule, valid_codes()) for rule in RULES]
    t = tournament_from_wire(wire_tournament(400), columns=True)
    result = compute_standings(t, specs, explain=False, contribution=s.ContributionOut)
    answer = standings_to_wire(result, True, player=[6], tournament=t)
    assert [row.id for row in answer.standings] == [6] and answer.standings[0].key == "five"
    assert not t.players._made  # the row's identity came from the wire player
    assert convert._player(t.players.wire[0]) == t.players[0]
