"""The tie-break catalogue: one entry per code, shared by the engine, the API and the docs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .context import Context
from .contributions import RuleOutcome
from .families import buchholz, counts, direct_encounter, koya, progressive, rating, sonneborn_berger
from .model import Regulations
from .rules import RuleSpec

FIDE = frozenset({Regulations.FIDE_2026, Regulations.FIDE_2024})


@dataclass(frozen=True, slots=True)
class Tiebreak:
    code: str
    name: str
    article: str  # FIDE C.07 article
    modifiers: frozenset[str]  # modifier letters it takes: C, M, L, P
    compute: Callable[..., RuleOutcome]
    description: str
    regulations: frozenset[Regulations] = FIDE
    needs_groups: bool = False  # computed inside the groups tied on earlier rules (DE)
    rating_based: bool = False  # dropped when unrated players take part (C.07 10)
    opponent_scores: bool = False  # Buchholz family: not for round robins (note to C.07 8)


_ENTRIES = (
    Tiebreak("PTS", "Points", "7.1", frozenset(), counts.points, "The player's score."),
    Tiebreak("WIN", "Number of wins", "7.2", frozenset(), counts.count_rounds,
             "Rounds won, unplayed wins included (forfeit wins, full-point byes, pairing-allocated bye)."),
    Tiebreak("WON", "Games won", "7.3", frozenset(), counts.count_rounds, "Games won over the board."),
    Tiebreak("BPG", "Games played with black", "7.4", frozenset(), counts.count_rounds,
             "Games played over the board with the black pieces."),
    Tiebreak("BWG", "Games won with black", "7.4", frozenset(), counts.count_rounds,
             "Games won over the board with the black pieces."),
    Tiebreak("GE", "Games elected to play", "7.6", frozenset(), counts.count_rounds,
             "Games played plus rounds scored as a win without play: PAB, forfeit win, full-point bye."),
    Tiebreak("PS", "Progressive score", "7.5", frozenset("CM"), progressive.progressive,
             "Sum of the running score after each round; a cut removes the first rounds."),
    Tiebreak("DE", "Direct encounter", "6", frozenset("P"), direct_encounter.direct_encounter,
             "Place inside the group tied on all earlier rules by the games between them; 0 when it does not separate.",
             needs_groups=True),
    Tiebreak("KS", "Koya system", "9.2", frozenset("LP"), koya.koya,
             "Points scored against opponents who finished with at least the limit (50 %) of the maximum score."),
    Tiebreak("BH", "Buchholz", "8.1", frozenset("CMP"), buchholz.buchholz,
             "Sum of the opponents' scores, with a dummy opponent for each own unplayed round (16.4).",
             opponent_scores=True),
    Tiebreak("FB", "Fore Buchholz", "8.3", frozenset("CMP"), buchholz.fore_buchholz,
             "Buchholz as if every game of the last round had been drawn.", opponent_scores=True),
    Tiebreak("AOB", "Average of opponents' Buchholz", "8.4", frozenset(), buchholz.average_of_opponents_buchholz,
             "Mean Buchholz of the opponents met over the board, to two decimals.", opponent_scores=True),
    Tiebreak("SB", "Sonneborn-Berger", "9.1", frozenset("CMP"), sonneborn_berger.sonneborn_berger,
             "Sum of each opponent's score times the points scored against them."),
    Tiebreak("ARO", "Average rating of opponents", "10.1", frozenset("CM"), rating.average_rating_of_opponents,
             "Mean rating of the opponents met over the board, rounded to a whole number.", rating_based=True),
    Tiebreak("TPR", "Tournament performance rating", "10.2", frozenset(), rating.tournament_performance,
             "ARO plus the rating difference for the percentage scored over the board.", rating_based=True),
    Tiebreak("PTP", "Perfect tournament performance", "10.3", frozenset(), rating.perfect_tournament_performance,
             "The lowest rating whose expected score against the opponents reaches the score made.", rating_based=True),
    Tiebreak("APRO", "Average performance rating of opponents", "10.5", frozenset(),
             rating.average_performance_of_opponents, "Mean TPR of the opponents met over the board.", rating_based=True),
    Tiebreak("APPO", "Average perfect performance of opponents", "10.6", frozenset(),
             rating.average_perfect_performance_of_opponents, "Mean PTP of the opponents met over the board.",
             rating_based=True),
)

TIEBREAKS: dict[str, Tiebreak] = {t.code: t for t in _ENTRIES}


def valid_codes(regulations: Regulations | None = None) -> dict[str, frozenset[str]]:
    """Code → modifier letters, for the codes a rule set supports (all when None)."""
    return {
        t.code: t.modifiers
        for t in _ENTRIES
        if regulations is None or regulations in t.regulations
    }


def display_name(spec: RuleSpec) -> str:
    name = TIEBREAKS[spec.code].name
    if spec.cut:
        name += f" Cut-{spec.cut}"
    if spec.median:
        name += f" Median-{spec.median}"
    if spec.limit is not None:
        name += f" (limit {spec.limit} %)"
    if spec.forfeits_played:
        name += ", forfeits as played"
    return name
