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
from .cost import MOST_OPEN_GAMES, Counts, estimate, explained_rows, progression_counts, returned_rows
from .standings import team_counts

# The records that say how many rounds (142, or XXR before TRF-26, from column 5; 240, a bye's
# round in columns 7-9): up to four digits of the number (past MAX_ROUNDS the reader refuses the
# file). The rule records (202, 212): names between blanks, commas or semicolons.
_NUMBER = re.compile(r"\s*0*(\d{1,4})")
_RULE_SEPARATORS = re.compile(r"[\s,;]+")
_COUNTED = ("142", "XXR", "240", "202", "212")
FIRST_ROUND_COLUMN = 92  # TRF: round 1's block starts in column 92, each block 10 columns wide
ROUND_WIDTH = 10


def trf_size(text: str) -> tuple[int, int, int]:
    """At most the players, rounds and file rules (202/212) that reading TRF `text` gives: its
    player lines, the round blocks of the longest one (or more when the rounds record or a bye
    record 240 says so), and the names on the rule records."""
    if "\r" in text:  # as formats.trf.parse_trf reads line ends (and a byte order mark)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = text.removeprefix("\ufeff")
    lines = text.split("\n")
    players = [line for line in lines if line.startswith("001")]  # C-speed passes: every small body pays them
    rounds = rules = 0
    for line in (line for line in lines if line.startswith(_COUNTED)):
        if line.startswith(("202", "212")):
            rules = max(rules, len(_RULE_SEPARATORS.split(line[4:].strip())))
        elif (found := _NUMBER.match(line[6:9] if line.startswith("240") else line[4:])) is not None:
            rounds = max(rounds, min(int(found[1]), MAX_ROUNDS))
    longest = max(map(len, players), default=0)
    blocks = -(-(longest - FIRST_ROUND_COLUMN + 1) // ROUND_WIDTH)
    return len(players), max(blocks, rounds, 1), rules


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


def _dearer(one: Counts, other: Counts) -> Counts:
    return one if estimate(one).seconds >= estimate(other).seconds else other


def standings_bound(body: s.StandingsRequest, limits: Limits, body_bytes: int) -> Counts:
    """A team event is priced from its size (usecases/standings.py); TRF text may hold one, which
    only reading it tells: its bound is the dearer of the two readings."""
    team = body.participants == "auto"
    if body.tournament is None and body.trf is None or team and body.team_tournament is not None:
        return team_counts(body, len(body.tiebreaks or []), body.explain, body_bytes)
    players, rounds, file_rules = event_size(body)
    rules = rule_count(body.tiebreaks, body.preset, file_rules)
    individual = Counts(
        players=players,
        rounds=body.after_round if body.after_round is not None else rounds,
        rule_passes=max(1, rules),
        explained_rules=explained_rows(body.explain, players, body.top, body.player) * rules,
        body_bytes=body_bytes,
        rows=returned_rows(players, body.top, body.player),
    )
    if team and body.trf is not None:
        return _dearer(individual, team_counts(body, len(body.tiebreaks or []), body.explain, body_bytes))
    return individual


def progression_bound(body: ProgressionRequest, limits: Limits, body_bytes: int) -> Counts:
    one = standings_bound(body.standings_request(), limits, body_bytes)
    return progression_counts(one, one.rounds)


def compare_bound(body: CompareRequest, limits: Limits, body_bytes: int) -> Counts:
    team_rules = sum(max(1, len(item.tiebreaks or [])) for item in body.lists)
    team = team_counts(body, team_rules, body.explain, body_bytes, len(body.lists))  # a team event's price
    if body.tournament is None and body.trf is None:
        return team
    players, rounds, _ = event_size(body)
    rules = sum(max(1, rule_count(item.tiebreaks, item.preset, 0)) for item in body.lists)
    individual = Counts(
        players=players,
        rounds=body.after_round if body.after_round is not None else rounds,
        rule_passes=rules,
        explained_rules=players * rules if body.explain else 0,
        body_bytes=body_bytes,
        lists=len(body.lists),
    )
    return _dearer(individual, team) if body.trf is not None else individual


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
