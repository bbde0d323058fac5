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
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from ..texts.message import Joined, msg, msg_n


def env_int(variable: str, default: int) -> int:
    """An integer setting from the environment variable, `default` when it is unset or blank."""
    value = os.environ.get(variable, "").strip()
    return int(value) if value else default


def env_float(variable: str, default: float) -> float:
    """A number setting from the environment variable, `default` when it is unset or blank."""
    value = os.environ.get(variable, "").strip()
    return float(value) if value else default


def env_variable(limit: str) -> str:
    """The environment variable that sets a limit: its name in capitals after TIEBREAK_."""
    return "TIEBREAK_" + limit.upper()


def _limit_int(limit: str, default: int) -> int:
    return env_int(env_variable(limit), default)


def _limit_float(limit: str, default: float) -> float:
    return env_float(env_variable(limit), default)


@dataclass(frozen=True, slots=True)
class Limits:
    max_body_bytes: int = _limit_int("max_body_bytes", 32 * 1024 * 1024)
    max_players: int = _limit_int("max_players", 50_000)
    max_rounds: int = _limit_int("max_rounds", 100)
    max_rules: int = _limit_int("max_rules", 40)
    max_trf_chars: int = _limit_int("max_trf_chars", 16 * 1024 * 1024)
    max_batch_items: int = _limit_int("max_batch_items", 10_000)
    # Wall-clock seconds from the end of reading the body to the answer (queueing,
    # decoding, the engine, encoding); past it the computation is killed and the
    # request answered 503 with Retry-After (docs/operations.md, "Bounded work").
    compute_deadline_s: float = _limit_float("compute_deadline_s", 20.0)
    # The cost model (usecases/cost.py): a request whose estimated computation or
    # peak memory is over these is refused at once with a 413 naming the limit.
    max_cost_s: float = _limit_float("max_cost_s", 10.0)
    max_memory_mib: int = _limit_int("max_memory_mib", 512)
    # Hard caps on what one answer may carry: the encoded JSON, and the warnings kept
    # (the rest is summed up in one "n more ... ignored" warning).
    max_response_bytes: int = _limit_int("max_response_bytes", 64 * 1024 * 1024)
    max_warnings: int = _limit_int("max_warnings", 100)
    # JSON nesting, checked on the raw bytes before decoding (a request needs 6 levels).
    max_json_depth: int = _limit_int("max_json_depth", 32)
    # The compute gate (compute/gate.py): worker processes per server process and
    # how many requests may wait for one; requests cheaper than inline_max_cost_ms are
    # computed on the event loop, one at a time, with inline_queue waiting at most.
    compute_workers: int = _limit_int("compute_workers", 1)
    compute_queue: int = _limit_int("compute_queue", 2)
    # In the cost model's milliseconds (usecases/cost.py): a request priced under it is computed
    # on the event loop (docs/operations.md, "Bounded work").
    inline_max_cost_ms: float = _limit_float("inline_max_cost_ms", 3.0)
    inline_queue: int = _limit_int("inline_queue", 32)
    # Requests being handled at once (probes excepted) and the request bodies they may
    # hold in memory (Content-Length, or max_body_bytes when unknown); past either: 503.
    max_in_flight: int = _limit_int("max_in_flight", 64)
    max_in_flight_body_bytes: int = _limit_int("max_in_flight_body_bytes", 96 * 1024 * 1024)
    # POST /v1/prizes: prizes over all prize groups, and categories.
    max_prizes: int = _limit_int("max_prizes", 1000)
    max_prize_categories: int = _limit_int("max_prize_categories", 100)
    max_prize_items: int = 20  # non-cash items (trophies, titles) of one prize
    max_player_id: int = _limit_int("max_player_id", 1_000_000)  # start numbers; FIDE IDs go in fide_id
    max_rating: int = _limit_int("max_rating", 4000)
    max_points_per_round: int = _limit_int("max_points_per_round", 100)

    def describe(self, name: str) -> str:
        env = ENV.get(name)
        value = getattr(self, name)
        if env:
            return msg("limit {name} = {value} ({env})", name=name, value=str(value), env=env)
        return msg("limit {name} = {value}", name=name, value=str(value))


LIMITS = Limits()
# Every limit that can be set from the environment (all but max_prize_items), with its variable.
ENV = {f.name: env_variable(f.name) for f in fields(Limits) if f.name != "max_prize_items"}


class LimitExceeded(Exception):
    """A request asks for more than a limit allows; errors.py makes it a problem+json 4xx."""

    def __init__(self, limit: str, path: str, message: str, status: int = 400, limits: Limits = LIMITS):
        self.limit = limit
        self.path = path
        self.status = status
        self.message = Joined(message, "; ", limits.describe(limit))  # each part in the answer's language
        super().__init__(self.message)


class TooManyOpenGames(LimitExceeded):
    """Scenarios past the limits, said in the arbiter's words: how many games are open and how many
    fit (`summary`), then what to narrow (`advice`, the API's fields; the command line names its
    options instead). No limit's name: the reader is an arbiter, not an operator."""

    def __init__(self, limit: str, path: str, summary: str, advice: str, limits: Limits = LIMITS):
        super().__init__(limit, path, summary, 413, limits)
        self.summary = summary
        self.message = Joined(summary, "; ", advice)
        self.args = (self.message,)


def check_standings(body: Any, limits: Limits, root: str = "") -> None:
    """Check a decoded standings request against `limits` (the schema may allow more)."""
    prefix = f"{root}." if root else ""
    check_rule_count(body.tiebreaks, limits, f"{prefix}tiebreaks")
    if body.trf is not None:
        check_trf_size(body.trf, limits, f"{prefix}trf")
    if body.after_round is not None and body.after_round > limits.max_rounds:
        raise LimitExceeded(
            "max_rounds", f"{prefix}after_round", msg("round {round}", round=body.after_round), limits=limits
        )
    if body.tournament is not None:
        check_tournament(len(body.tournament.players), body.tournament.rounds, limits, f"{prefix}tournament")


def check_rule_count(rules: Sequence[object] | None, limits: Limits, path: str = "tiebreaks") -> None:
    """At most `max_rules` rules in a rule list (the schema may allow more)."""
    if rules is not None and len(rules) > limits.max_rules:
        raise LimitExceeded("max_rules", path, msg_n("{n} rule", "{n} rules", len(rules)), limits=limits)


def check_trf_size(text: str, limits: Limits, path: str = "trf") -> None:
    if len(text) > limits.max_trf_chars:
        raise LimitExceeded("max_trf_chars", path, msg_n("{n} character", "{n} characters", len(text)), 413, limits)


def check_tournament(players: int, rounds: int, limits: Limits, path: str = "tournament") -> None:
    """Players and rounds of a tournament, from JSON or read from TRF text."""
    if players > limits.max_players:
        raise LimitExceeded(
            "max_players", f"{path}.players", msg_n("{n} player", "{n} players", players), limits=limits
        )
    if rounds > limits.max_rounds:
        raise LimitExceeded("max_rounds", f"{path}.rounds", msg_n("{n} round", "{n} rounds", rounds), limits=limits)


class Unavailable(Exception):
    """The service cannot take this request now; errors.py makes it a 503 problem+json with Retry-After.

    Retrying later can succeed: the pool was full (`reason` "saturated") or the
    computation ran past the deadline ("deadline"), which a less busy moment may not.
    """

    def __init__(
        self, reason: str, message: str, retry_after_s: int, limit: str | None = None, limits: Limits = LIMITS
    ):
        self.reason = reason
        self.limit = limit
        self.retry_after_s = max(1, int(retry_after_s))
        self.message = Joined(message, "; ", limits.describe(limit)) if limit else message
        super().__init__(self.message)


class Deadline:
    """The moment past which a request's computation is killed (from the end of reading its body)."""

    def __init__(self, limits: Limits = LIMITS, since: float | None = None):
        self.limits = limits
        now = time.monotonic()
        self.at = now + limits.compute_deadline_s
        # When the request began to be read: how long it has waited, for the gate's lobby order.
        self.since = now if since is None else since

    def remaining(self) -> float:
        return self.at - time.monotonic()

    def check(self, stage: str) -> None:
        if time.monotonic() > self.at:
            raise deadline_exceeded(self.limits, stage)


def deadline_exceeded(limits: Limits, stage: str = "") -> Unavailable:
    return Unavailable(
        "deadline",
        msg("the computation took longer than allowed (stopped {stage})", stage=stage)
        if stage
        else msg("the computation took longer than allowed"),
        retry_after_s=int(limits.compute_deadline_s),
        limit="compute_deadline_s",
        limits=limits,
    )


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
    (
        re.compile(
            r"(^|\.)(win|draw|loss|forfeit_win|forfeit_loss|pairing_bye|full_bye|half_bye|zero_bye|absent|points)$"
        ),
        "<=",
        "max_points_per_round",
    ),
)


def name_schema_limit(path: str, message: str, limits: Limits = LIMITS) -> tuple[str, str | None]:
    """The message with the limit it comes from named, and that limit's name (or None)."""
    if "<=" not in message:
        return message, None
    bare = re.sub(r"\[\d+\]", "", path)
    for pattern, kind, limit in _SCHEMA_LIMITS:
        if pattern.search(bare) and (kind != "length" or "length" in message):
            return Joined(message, "; ", limits.describe(limit)), limit
    return message, None
