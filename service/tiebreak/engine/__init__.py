"""The tie-break engine: pure computation (the standard library and numpy), no I/O, no web framework."""

from .model import Color, Player, Regulations, ResultKind, RoundResult, Scoring, System, Tournament
from .rules import RuleSpec
from .standings import Standings, compute_standings

__all__ = [
    "Color",
    "Player",
    "Regulations",
    "ResultKind",
    "RoundResult",
    "RuleSpec",
    "Scoring",
    "Standings",
    "System",
    "Tournament",
    "compute_standings",
]
