"""Build small tournaments inline, so that a test reads like a crosstable.

    t = crosstable({
        1: "2w1 3b= H",
        2: "1b0 U   3w+",
        3: "U   1w= 2b-",
    })

Each player's row is one token per round, separated by blanks (or a list of tokens):

    5w1  5b0  5w=     game against 5 (colour w/b) won, lost, drawn
    5w+  5b-          forfeit win / forfeit loss against 5 ("5-+": no colour)
    U F H Z           pairing-allocated bye, full-point bye, half-point bye, zero-point bye
    -                 absent, written as an explicit entry
    .                 nothing submitted for the round (a missing round is absent)

A suffix `@points` overrides the points of an unusual result: "5w0@0" and "1b0@0" is a 0-0.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import date
from fractions import Fraction

from tiebreak.engine import (
    Color,
    Player,
    Regulations,
    ResultKind,
    RoundResult,
    Scoring,
    System,
    Tournament,
    compute_standings,
)
from tiebreak.engine.registry import valid_codes
from tiebreak.engine.rules import parse_rule

_GAME = re.compile(r"^(\d+)([wb-])([10=+-])(?:@(.+))?$")
_GAME_RESULTS = {
    "1": ResultKind.WIN,
    "0": ResultKind.LOSS,
    "=": ResultKind.DRAW,
    "+": ResultKind.FORFEIT_WIN,
    "-": ResultKind.FORFEIT_LOSS,
}
_UNPAIRED = {
    "U": ResultKind.PAIRING_BYE,
    "F": ResultKind.FULL_BYE,
    "H": ResultKind.HALF_BYE,
    "Z": ResultKind.ZERO_BYE,
    "-": ResultKind.ABSENT,
}
_COLOURS = {"w": Color.WHITE, "b": Color.BLACK, "-": None}


def parse_round(rnd: int, token: str) -> RoundResult | None:
    """One round token as a RoundResult (None for '.', nothing submitted)."""
    if token == ".":
        return None
    if token in _UNPAIRED:
        return RoundResult(rnd, _UNPAIRED[token])
    m = _GAME.match(token)
    if not m:
        raise ValueError(f"round {rnd}: cannot read {token!r}")
    points = Fraction(m[4]) if m[4] is not None else None
    return RoundResult(rnd, _GAME_RESULTS[m[3]], int(m[1]), _COLOURS[m[2]], points)


def player(pid: int, row: str | Iterable[str], rating: int | None = None, name: str = "") -> Player:
    tokens = row.split() if isinstance(row, str) else list(row)
    results = tuple(r for rnd, tok in enumerate(tokens, start=1) if (r := parse_round(rnd, tok)) is not None)
    return Player(id=pid, name=name or f"P{pid}", rating=rating, results=results)


def crosstable(
    rows: Mapping[int, str | Iterable[str]] | Iterable[tuple[int, str | Iterable[str]]],
    *,
    rounds: int | None = None,
    ratings: Mapping[int, int | None] | None = None,
    names: Mapping[int, str] | None = None,
    system: System | None = System.SWISS,
    scoring: Scoring | None = None,
    start_date: date | None = None,
) -> Tournament:
    """A Tournament from rows of round tokens; `rounds` defaults to the longest row."""
    items = list(rows.items()) if isinstance(rows, Mapping) else list(rows)
    players = tuple(player(pid, row, (ratings or {}).get(pid), (names or {}).get(pid, "")) for pid, row in items)
    longest = max((len(row.split() if isinstance(row, str) else list(row)) for _, row in items), default=1)
    return Tournament(
        players=players,
        rounds=rounds if rounds is not None else longest,
        system=system,
        scoring=scoring or Scoring(),
        name="inline",
        start_date=start_date,
    )


def specs(*texts: str):
    codes = valid_codes()
    return [parse_rule(t, codes) for t in texts]


def standings(tournament: Tournament, *rules: str, regulations: Regulations | None = Regulations.FIDE_2026, **kw):
    """compute_standings with rule texts; fide-2026 unless told otherwise."""
    return compute_standings(tournament, specs(*rules), regulations=regulations, **kw)


def values(result, rule: str | int) -> dict[int, Fraction | None]:
    """One rule's values by player id, as exact fractions (None: no value)."""
    if isinstance(rule, str):
        index = [s.canonical for s in result.specs].index(parse_rule(rule, valid_codes()).canonical)
    else:
        index = rule
    outcome = result.outcomes[index]
    return {
        pid: None if v is None else Fraction(v, outcome.scale)
        for pid, v in zip(result.table.ids, outcome.values, strict=True)
    }


def contributions(result, rule: str, pid: int):
    """The contributions of one player to one rule (explain=True)."""
    index = [s.canonical for s in result.specs].index(parse_rule(rule, valid_codes()).canonical)
    return result.outcomes[index].contributions[result.table.ids.index(pid)]


def all_values(result) -> dict[int, list[Fraction | None]]:
    """Per id (a player's or a team's): every rule's value as an exact number."""
    return {
        pid: [None if o.values[p] is None else Fraction(o.values[p], o.scale) for o in result.outcomes]
        for p, pid in enumerate(result.table.ids)
    }


def assert_kept_contributions_add_up(result, summed: set[str]) -> None:
    """For every rule of `summed` (its value the sum of what its cuts leave): each row's contributions
    not cut add up to its value, exactly (SPEC 1: an arbiter audits every number from its parts)."""
    for outcome in result.outcomes:
        if outcome.spec.code not in summed:
            continue
        for p, rows in outcome.contributions.items():
            kept = sum(exact(c.value) for c in rows if not c.cut)
            assert kept == Fraction(outcome.values[p], outcome.scale), (outcome.spec.canonical, p)


def ranks(result) -> dict[int, int]:
    return {result.table.ids[row.player]: row.rank for row in result.rows}


def F(text: str | int | float) -> Fraction:
    """An exact number from a literal: F("9.75"), F("1/2")."""
    return Fraction(str(text))


def three_one_zero(half_bye: Fraction = Fraction(1)) -> Scoring:
    """3-1-0 scoring: a win, a forfeit win and a pairing or full-point bye 3, a draw 1, a loss 0,
    the half-point bye `half_bye` (a draw's worth by default)."""
    three = Fraction(3)
    return Scoring(win=three, draw=Fraction(1), forfeit_win=three, pairing_bye=three, full_bye=three, half_bye=half_bye)


def contribution_scale(result, rule: str) -> int:
    index = [s.canonical for s in result.specs].index(parse_rule(rule, valid_codes()).canonical)
    outcome = result.outcomes[index]
    return outcome.contribution_scale or outcome.scale


def exact(points: float) -> Fraction:
    """A breakdown's number as the exact decimal it stands for (its shortest repr)."""
    return Fraction(repr(points))


def is_vur(contribution) -> bool:
    """Whether a dummy's round was a voluntary unplayed round (C.07 16.2)."""
    return contribution.unplayed is not None and ResultKind(contribution.unplayed).is_voluntary_unplayed
