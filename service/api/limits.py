"""Bounds on what one request may ask for; each can be set from the environment.

Every limit has a name (the `Limits` field) and an environment variable; a request
that exceeds one is refused with a problem+json 4xx whose `errors` entry names
both, e.g. `limit max_players = 50000 (TIEBREAK_MAX_PLAYERS)`.

The list lengths and number ranges are also part of the msgspec schemas (read
from the environment when the service starts), so decoding stops at the first
element past a limit; `check_standings` re-checks them against the limits of the
running app (`create_app(limits)`), which may be lower.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass

import msgspec


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value else default


def _env_float(name: str, default: float) -> float:
    value = os.environ.get(name)
    return float(value) if value else default


ENV = {
    "max_body_bytes": "TIEBREAK_MAX_BODY_BYTES",
    "max_players": "TIEBREAK_MAX_PLAYERS",
    "max_rounds": "TIEBREAK_MAX_ROUNDS",
    "max_rules": "TIEBREAK_MAX_RULES",
    "max_trf_chars": "TIEBREAK_MAX_TRF_CHARS",
    "max_batch_items": "TIEBREAK_MAX_BATCH_ITEMS",
    "compute_deadline_s": "TIEBREAK_COMPUTE_DEADLINE_S",
    "compute_threads": "TIEBREAK_COMPUTE_THREADS",
    "max_player_id": "TIEBREAK_MAX_PLAYER_ID",
    "max_rating": "TIEBREAK_MAX_RATING",
    "max_points_per_round": "TIEBREAK_MAX_POINTS_PER_ROUND",
    "max_prizes": "TIEBREAK_MAX_PRIZES",
    "max_prize_categories": "TIEBREAK_MAX_PRIZE_CATEGORIES",
}


@dataclass(frozen=True, slots=True)
class Limits:
    max_body_bytes: int = _env_int("TIEBREAK_MAX_BODY_BYTES", 32 * 1024 * 1024)
    max_players: int = _env_int("TIEBREAK_MAX_PLAYERS", 50_000)
    max_rounds: int = _env_int("TIEBREAK_MAX_ROUNDS", 100)
    max_rules: int = _env_int("TIEBREAK_MAX_RULES", 40)
    max_trf_chars: int = _env_int("TIEBREAK_MAX_TRF_CHARS", 16 * 1024 * 1024)
    max_batch_items: int = _env_int("TIEBREAK_MAX_BATCH_ITEMS", 10_000)
    # Wall-clock seconds one standings computation may take (reading the input,
    # the engine, building the response); past it the request is answered 422.
    compute_deadline_s: float = _env_float("TIEBREAK_COMPUTE_DEADLINE_S", 20.0)
    # Large requests run in worker threads; at most this many at once per process.
    compute_threads: int = _env_int("TIEBREAK_COMPUTE_THREADS", 2)
    # POST /v1/prizes: prizes over all prize groups, and categories.
    max_prizes: int = _env_int("TIEBREAK_MAX_PRIZES", 1000)
    max_prize_categories: int = _env_int("TIEBREAK_MAX_PRIZE_CATEGORIES", 100)
    max_prize_items: int = 20  # non-cash items (trophies, titles) of one prize
    max_player_id: int = _env_int("TIEBREAK_MAX_PLAYER_ID", 1_000_000)  # start numbers; FIDE IDs go in fide_id
    max_rating: int = _env_int("TIEBREAK_MAX_RATING", 4000)
    max_points_per_round: int = _env_int("TIEBREAK_MAX_POINTS_PER_ROUND", 100)

    def describe(self, name: str) -> str:
        env = ENV.get(name)
        return f"limit {name} = {getattr(self, name)}" + (f" ({env})" if env else "")


LIMITS = Limits()


class LimitExceeded(Exception):
    """A request asks for more than a limit allows; errors.py makes it a problem+json 4xx."""

    def __init__(self, limit: str, path: str, message: str, status: int = 400, limits: Limits = LIMITS):
        self.limit = limit
        self.path = path
        self.status = status
        self.message = f"{message}; {limits.describe(limit)}"
        super().__init__(self.message)


def check_standings(body, limits: Limits, root: str = "") -> None:
    """Check a decoded standings request against `limits` (the schema may allow more)."""
    prefix = f"{root}." if root else ""
    rules = body.tiebreaks or []
    if len(rules) > limits.max_rules:
        raise LimitExceeded("max_rules", f"{prefix}tiebreaks", f"{len(rules)} rules", limits=limits)
    if body.trf is not None and len(body.trf) > limits.max_trf_chars:
        raise LimitExceeded("max_trf_chars", f"{prefix}trf", f"{len(body.trf)} characters", 413, limits)
    if body.after_round is not None and body.after_round > limits.max_rounds:
        raise LimitExceeded("max_rounds", f"{prefix}after_round", f"round {body.after_round}", limits=limits)
    if body.tournament is not None:
        check_tournament(len(body.tournament.players), body.tournament.rounds, limits, f"{prefix}tournament")


def check_tournament(players: int, rounds: int, limits: Limits, path: str = "tournament") -> None:
    """Players and rounds of a tournament, from JSON or read from TRF text."""
    if players > limits.max_players:
        raise LimitExceeded("max_players", f"{path}.players", f"{players} players", limits=limits)
    if rounds > limits.max_rounds:
        raise LimitExceeded("max_rounds", f"{path}.rounds", f"{rounds} rounds", limits=limits)


class Deadline:
    """A point in time past which a computation is abandoned at its next stage."""

    def __init__(self, limits: Limits = LIMITS):
        self.limits = limits
        self.at = time.monotonic() + limits.compute_deadline_s

    def check(self, stage: str) -> None:
        if time.monotonic() > self.at:
            raise deadline_exceeded(self.limits, stage)


def deadline_exceeded(limits: Limits, stage: str = "") -> LimitExceeded:
    where = f" (stopped {stage})" if stage else ""
    return LimitExceeded("compute_deadline_s", "", f"the computation took longer than allowed{where}",
                         422, limits)


# msgspec's own bound errors ("Expected `array` of length <= 50000 - at `$.tournament.players`")
# gain the name of the limit they come from.
_SCHEMA_LIMITS = (
    (re.compile(r"(^|\.)players$"), "length", "max_players"),
    (re.compile(r"(^|\.)top$"), "<=", "max_players"),
    (re.compile(r"(^|\.)(results|round_dates)$"), "length", "max_rounds"),
    (re.compile(r"(^|\.)tiebreaks$"), "length", "max_rules"),
    (re.compile(r"(^|\.)trf$"), "length", "max_trf_chars"),
    (re.compile(r"(^|\.)prizes\.items$"), "length", "max_prize_items"),
    (re.compile(r"(^|\.)items$"), "length", "max_batch_items"),
    (re.compile(r"(^|\.)standings$"), "length", "max_players"),
    (re.compile(r"(^|\.)prizes$"), "length", "max_prizes"),
    (re.compile(r"^categories$"), "length", "max_prize_categories"),
    (re.compile(r"(^|\.)(rounds|round|after_round)$"), "<=", "max_rounds"),
    (re.compile(r"(^|\.)(id|opponent|player)$"), "<=", "max_player_id"),
    (re.compile(r"(^|\.)(rating|unrated_rating)$"), "<=", "max_rating"),
    (re.compile(r"(^|\.)(win|draw|loss|forfeit_win|forfeit_loss|pairing_bye|full_bye|half_bye|zero_bye|absent|points)$"),
     "<=", "max_points_per_round"),
)


def name_schema_limit(path: str, message: str, limits: Limits = LIMITS) -> tuple[str, str | None]:
    """The message with the limit it comes from named, and that limit's name (or None)."""
    if "<=" not in message:
        return message, None
    bare = re.sub(r"\[\d+\]", "", path)
    for pattern, kind, limit in _SCHEMA_LIMITS:
        if pattern.search(bare) and (kind != "length" or "length" in message):
            return f"{message}; {limits.describe(limit)}", limit
    return message, None


# ---- a cheap look at large bodies before the strict decode ----

class _TournamentShape(msgspec.Struct):
    players: list[msgspec.Raw] = []


class _RequestShape(msgspec.Struct):
    tournament: _TournamentShape | None = None
    tiebreaks: list[msgspec.Raw] | None = None


_shape_decoder = msgspec.json.Decoder(_RequestShape)
PRESCAN_BYTES = 1024 * 1024


def prescan(data: bytes, limits: Limits) -> None:
    """Count players and rules of a large body without building them.

    msgspec checks a list's length only once the whole list is built, so 32 MiB of
    `{"id":1},` would build 3.7 million players (seconds) before being refused.
    Skipping over the elements (msgspec.Raw) costs a fraction of that. A body whose
    JSON is malformed is refused here; one of another shape is left to the strict
    decoder, which names the field.
    """
    if len(data) <= PRESCAN_BYTES:
        return
    try:
        shape = _shape_decoder.decode(data)
    except msgspec.ValidationError:
        return
    rules = shape.tiebreaks or []
    if len(rules) > limits.max_rules:
        raise LimitExceeded("max_rules", "tiebreaks", f"{len(rules)} rules", limits=limits)
    if shape.tournament is not None and len(shape.tournament.players) > limits.max_players:
        raise LimitExceeded("max_players", "tournament.players", f"{len(shape.tournament.players)} players",
                            limits=limits)
