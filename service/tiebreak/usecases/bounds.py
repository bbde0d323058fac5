"""What a decoded request costs at most, before its input is read: where the gate places it.

A bound is counted from the request struct alone (the players and rounds of a JSON tournament,
the player lines of TRF text, the rules asked for) and is never less than the counts of the
plan that reads the input (usecases/requests.py), so that a request the bound finds cheap is
read and computed on the event loop, and any other is read where it is computed: by a compute
worker (docs/decisions/0149-one-way-through-a-use-case.md). None: no bound short of reading it.
tests/usecases/test_bounds.py checks them against the plans of every corpus.
"""

from __future__ import annotations

import re

from ..engine.presets import PRESETS
from ..formats.trf import MAX_ROUNDS
from ..wire import schemas as s
from ..wire.compare import CompareRequest
from ..wire.limits import Limits
from ..wire.progression import ProgressionRequest
from ..wire.scenarios import ScenariosRequest
from .cost import MOST_OPEN_GAMES, Counts, explained_rows, progression_counts, returned_rows
from .standings import team_counts
from .teams import is_team_request

# A player record, the rounds record (142, or XXR before TRF-26) and the rule lists (202, 212),
# each at the start of a line once line ends are read as the TRF reader reads them.
_PLAYER_LINE = re.compile(r"^001[^\n]*", re.MULTILINE)
_ROUNDS_RECORD = re.compile(r"^(?:142|XXR) +0*(\d{1,4})", re.MULTILINE)  # four digits: past MAX_ROUNDS
_RULES_RECORD = re.compile(r"^(?:202|212) ([^\n]*)", re.MULTILINE)
_BYE_ROUND = re.compile(r"^240 .. *0*(\d{1,4})", re.MULTILINE)  # 240 (TRF-26): the bye's round in columns 7-9
_RULE_SEPARATORS = re.compile(r"[\s,;]+")
FIRST_ROUND_COLUMN = 92  # TRF: round 1's block starts in column 92, each block 10 columns wide
ROUND_WIDTH = 10


def trf_size(text: str) -> tuple[int, int, int]:
    """At most the players, rounds and file rules (202/212) that reading TRF `text` gives: its
    player lines, the round blocks of the longest one (or more when the rounds record or a bye
    record 240 says so), and the names on the rule records."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # as formats.trf.parse_trf reads line ends
    lines = _PLAYER_LINE.findall(text)
    longest = max(map(len, lines), default=0)
    rounds = max(0, -(-(longest - FIRST_ROUND_COLUMN + 1) // ROUND_WIDTH))
    # past MAX_ROUNDS the reader refuses the file: a longer number counts as that many
    declared = [min(int(n), MAX_ROUNDS) for n in _ROUNDS_RECORD.findall(text) + _BYE_ROUND.findall(text)]
    rules = max((len(_RULE_SEPARATORS.split(value.strip())) for value in _RULES_RECORD.findall(text)), default=0)
    return len(lines), max(rounds, *declared, 1), rules


def event_size(body) -> tuple[int, int, int]:
    """Players, rounds and file rules of an individual event's `tournament` or `trf`, at most."""
    if body.trf is not None:
        return trf_size(body.trf)
    return len(body.tournament.players), body.tournament.rounds, 0


def rule_count(tiebreaks: list | None, preset: str | None, file_rules: int) -> int:
    """The rules a list evaluates: the preset's, the ones given, else the file's own."""
    if preset is not None:
        known = PRESETS.get(preset)
        return len(known.rules) if known is not None else 0  # an unknown preset is a 400 when planned
    return len(tiebreaks) if tiebreaks is not None else file_rules


def standings_bound(body: s.StandingsRequest, limits: Limits, body_bytes: int) -> Counts:
    if body.participants == "auto" and is_team_request(body):
        return team_counts(body, len(body.tiebreaks or []), body.explain, body_bytes)  # its price
    players, rounds, file_rules = event_size(body)
    rules = rule_count(body.tiebreaks, body.preset, file_rules)
    return Counts(
        players=players,
        rounds=body.after_round if body.after_round is not None else rounds,
        rule_passes=max(1, rules),
        explained_rules=explained_rows(body.explain, players, body.top, body.player) * rules,
        body_bytes=body_bytes,
        rows=returned_rows(players, body.top, body.player),
    )


def progression_bound(body: ProgressionRequest, limits: Limits, body_bytes: int) -> Counts:
    one = standings_bound(body.standings_request(), limits, body_bytes)
    return progression_counts(one, one.rounds)


def compare_bound(body: CompareRequest, limits: Limits, body_bytes: int) -> Counts:
    if is_team_request(body):
        rules = sum(max(1, len(item.tiebreaks or [])) for item in body.lists)
        return team_counts(body, rules, body.explain, body_bytes, len(body.lists))  # its price
    players, rounds, _ = event_size(body)
    rules = sum(max(1, rule_count(item.tiebreaks, item.preset, 0)) for item in body.lists)
    return Counts(
        players=players,
        rounds=body.after_round if body.after_round is not None else rounds,
        rule_passes=rules,
        explained_rules=players * rules if body.explain else 0,
        body_bytes=body_bytes,
        lists=len(body.lists),
    )


def scenarios_bound(body: ScenariosRequest, limits: Limits, body_bytes: int) -> Counts | None:
    """Every game of `pairings` open, every outcome ranked whole and by parts."""
    games = sum(p.white is not None for p in body.pairings)
    if games > MOST_OPEN_GAMES:
        return None  # refused when priced; past any bound
    players, rounds, file_rules = event_size(body)
    outcomes = 3**games
    return Counts(
        players=players,
        rounds=max(rounds, *(p.round for p in body.pairings)),
        rule_passes=max(1, rule_count(body.tiebreaks, body.preset, file_rules)),
        body_bytes=body_bytes,
        open_games=games,
        ranked_outcomes=outcomes,
        assembled_outcomes=outcomes,
        reported=len(body.players) if body.players is not None else players,
        places=body.places,
    )
