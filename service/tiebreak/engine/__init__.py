"""The tie-break engine: pure Python, standard library only."""

from .model import Color, Player, Regulations, ResultKind, RoundResult, Scoring, System, Tournament
from .rules import RuleSpec
from .standings import Standings, compute_standings

__all__ = [
    "Color", "Player", "Regulations", "ResultKind", "RoundResult", "RuleSpec", "Scoring",
    "Standings", "System", "Tournament", "compute_standings",
]
