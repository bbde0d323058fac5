"""Bounds on what one request may ask for; each can be set from the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value else default


@dataclass(frozen=True, slots=True)
class Limits:
    max_body_bytes: int = _env_int("TIEBREAK_MAX_BODY_BYTES", 32 * 1024 * 1024)
    max_players: int = _env_int("TIEBREAK_MAX_PLAYERS", 50_000)
    max_rounds: int = _env_int("TIEBREAK_MAX_ROUNDS", 100)
    max_rules: int = _env_int("TIEBREAK_MAX_RULES", 40)
    max_trf_chars: int = _env_int("TIEBREAK_MAX_TRF_CHARS", 16 * 1024 * 1024)
    max_player_id: int = 1_000_000
    max_rating: int = 4000
    max_points_per_round: int = 100


LIMITS = Limits()
