"""The tie-break catalogue: one entry per code, shared by the engine, the API and the docs."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from ..texts.message import Joined, msg
from .contributions import RuleOutcome
from .errors import Issue, Path, UnknownTiebreak
from .families import (
    buchholz,
    counts,
    direct_encounter,
    koya,
    lots,
    manual,
    progressive,
    rating,
    sonneborn_berger,
    uscf,
)
from . import swiss_manager
from .interop import refused_rule
from .model import Regulations
from .rules import (
    FIDE_ALIASES,
    USCF_ALIASES,
    RuleSpec,
    code_of,
    modifiers_text,
    normalise,
    parse_rule,
    suggest,
    unknown_message,
)

FIDE = frozenset({Regulations.FIDE_2026, Regulations.FIDE_2024, Regulations.FIDE_2009})
USCF = frozenset({Regulations.USCF})


@dataclass(frozen=True, slots=True)
class Tiebreak:
    code: str
    name: str
    # the article of the rule set's text: FIDE C.07 "8.1", US Chess rule "34E1"; empty where
    # we have not checked the number in the text (the 2026 codes RTNG and TPN, RND)
    article: str
    modifiers: frozenset[str]  # modifier letters it takes: C, M, L, P
    compute: Callable[..., RuleOutcome]
    description: str
    regulations: frozenset[Regulations] = FIDE
    needs_groups: bool = False  # computed inside the groups tied on earlier rules (DE)
    rating_based: bool = False  # dropped when unrated players take part (C.07 10)
    opponent_scores: bool = False  # Buchholz family: not for round robins (note to C.07 8)
    lower_is_better: bool = False  # DE's value is a place

    @property
    def citation(self) -> str:
        """The article as cited in responses: "C.07 8.1", "US Chess 34E1"."""
        text = f"US Chess {self.article}" if Regulations.USCF in self.regulations else f"C.07 {self.article}"
        return text.strip()

    @property
    def aliases(self) -> list[str]:
        """The spellings (SPEC 3.3) that name this rule without modifiers."""
        table = USCF_ALIASES if Regulations.USCF in self.regulations else FIDE_ALIASES
        return sorted(alias for alias, spec in table.items() if spec == self.code)


_ENTRIES = (
    Tiebreak("PTS", msg("Points"), "7.1", frozenset(), counts.points, msg("The player's score.")),
    Tiebreak(
        "WIN",
        msg("Number of wins"),
        "7.2",
        frozenset(),
        counts.count_rounds,
        msg("Rounds won, unplayed wins included (forfeit wins, full-point byes, pairing-allocated bye)."),
    ),
    Tiebreak("WON", msg("Games won"), "7.3", frozenset(), counts.count_rounds, msg("Games won over the board.")),
    Tiebreak(
        "BPG",
        msg("Games played with black"),
        "7.4",
        frozenset(),
        counts.count_rounds,
        msg("Games played over the board with the black pieces."),
    ),
    Tiebreak(
        "BWG",
        msg("Games won with black"),
        "7.4",
        frozenset(),
        counts.count_rounds,
        msg("Games won over the board with the black pieces."),
    ),
    Tiebreak(
        "GE",
        msg("Games elected to play"),
        "7.6",
        frozenset(),
        counts.count_rounds,
        msg("Games played plus rounds scored as a win without play: PAB, forfeit win, full-point bye."),
    ),
    Tiebreak(
        "STD",
        msg("Standard points"),
        "7.7",
        frozenset(),
        counts.standard_points,
        msg(
            "Per round 1 when it scored more than a draw, ½ for a draw, 0 otherwise (new in 2026): "
            "a 1-½-0 score for events with other scoring."
        ),
    ),
    Tiebreak(
        "PS",
        msg("Progressive score"),
        "7.5",
        frozenset("CM"),
        progressive.progressive,
        msg("Sum of the running score after each round; a cut removes the first rounds."),
    ),
    Tiebreak(
        "DE",
        msg("Direct encounter"),
        "6",
        frozenset("PW"),
        direct_encounter.direct_encounter,
        msg(
            "Place inside the group tied on all earlier rules by the games between them (players who met more "
            "than once count the average of their games, C.07 6.1.2); 0 when it does not separate."
        ),
        needs_groups=True,
        lower_is_better=True,
    ),
    Tiebreak(
        "KS",
        msg("Koya system"),
        "9.2",
        frozenset("LPR"),
        koya.koya,
        msg("Points scored against opponents who finished with at least the limit (50 %) of the maximum score."),
    ),
    Tiebreak(
        "BH",
        msg("Buchholz"),
        "8.1",
        frozenset("CMP"),
        buchholz.buchholz,
        msg("Sum of the opponents' scores, with a dummy opponent for each own unplayed round (16.4)."),
        opponent_scores=True,
    ),
    Tiebreak(
        "FB",
        msg("Fore Buchholz"),
        "8.3",
        frozenset("CMP"),
        buchholz.fore_buchholz,
        msg("Buchholz as if every game of the last round had been drawn."),
        opponent_scores=True,
    ),
    Tiebreak(
        "AOB",
        msg("Average of opponents' Buchholz"),
        "8.4",
        frozenset(),
        buchholz.average_of_opponents_buchholz,
        msg("Mean Buchholz of the opponents met over the board, to two decimals."),
        opponent_scores=True,
    ),
    Tiebreak(
        "SB",
        msg("Sonneborn-Berger"),
        "9.1",
        frozenset("CMP"),
        sonneborn_berger.sonneborn_berger,
        msg("Sum of each opponent's score times the points scored against them."),
    ),
    Tiebreak(
        "ARO",
        msg("Average rating of opponents"),
        "10.1",
        frozenset("CM"),
        rating.average_rating_of_opponents,
        msg("Mean rating of the opponents met over the board, rounded to a whole number."),
        rating_based=True,
    ),
    Tiebreak(
        "TPR",
        msg("Tournament performance rating"),
        "10.2",
        frozenset(),
        rating.tournament_performance,
        msg("ARO plus the rating difference for the percentage scored over the board."),
        rating_based=True,
    ),
    Tiebreak(
        "PTP",
        msg("Perfect tournament performance"),
        "10.3",
        frozenset(),
        rating.perfect_tournament_performance,
        msg("The lowest rating whose expected score against the opponents reaches the score made."),
        rating_based=True,
    ),
    Tiebreak(
        "APRO",
        msg("Average performance rating of opponents"),
        "10.5",
        frozenset(),
        rating.average_performance_of_opponents,
        msg("Mean TPR of the opponents met over the board."),
        rating_based=True,
    ),
    Tiebreak(
        "APPO",
        msg("Average perfect performance of opponents"),
        "10.6",
        frozenset(),
        rating.average_perfect_performance_of_opponents,
        msg("Mean PTP of the opponents met over the board."),
        rating_based=True,
    ),
    Tiebreak(
        "RTNG",
        msg("Rating"),
        "",
        frozenset(),
        rating.own_rating,
        msg(
            "The participant's own rating (new in 2026); dropped like the other rating rules when "
            "unrated players take part and no unrated_rating is given."
        ),
        rating_based=True,
    ),
    Tiebreak(
        "TPN",
        msg("Tournament pairing number"),
        "",
        frozenset(),
        counts.pairing_number,
        msg("The start number, lower is better (new in 2026): a last resort that always separates."),
        lower_is_better=True,
    ),
    Tiebreak(
        "RND",
        msg("Drawing of lots"),
        "",
        frozenset(),
        lots.drawing_of_lots,
        msg(
            "The lot each player draws, lower is better: the last resort that always separates. Reproducible: "
            "the request's `seed` gives the draw (the answer echoes it, drawn when none is given); lots follow "
            'SHA-256 of "SEED:ID" per player.'
        ),
        lower_is_better=True,
    ),
    Tiebreak(
        "MAN",
        msg("Manual value"),
        "",
        frozenset(),
        manual.manual_values,
        msg(
            "A value the arbiter gives each player in the request's `manual_values` (an external tie-break or "
            "a decision), higher is better; a player without one is an error."
        ),
    ),
    # US Chess rule 34E (Official Rules of Chess, 7th edition). Unplayed games: the opponents'
    # adjusted scores count each of their unplayed games as a draw; the player's own unplayed
    # games count as opponents with adjusted score 0 (34E1).
    Tiebreak(
        "MM",
        msg("Modified Median"),
        "34E1",
        frozenset(),
        uscf.modified_median,
        msg(
            "Sum of the opponents' adjusted scores; a plus score drops the lowest, a minus score the highest, "
            "an even score both (two of each in events of nine or more rounds)."
        ),
        USCF,
    ),
    Tiebreak(
        "MED",
        msg("Median (Harkness)"),
        "34E1",
        frozenset(),
        uscf.median,
        msg(
            "Sum of the opponents' adjusted scores without the highest and the lowest "
            "(two of each in events of nine or more rounds)."
        ),
        USCF,
    ),
    Tiebreak(
        "SOLK",
        msg("Solkoff"),
        "34E2",
        frozenset(),
        uscf.solkoff,
        msg("Sum of the opponents' adjusted scores, nothing dropped."),
        USCF,
    ),
    Tiebreak(
        "CUM",
        msg("Cumulative"),
        "34E3",
        frozenset(),
        uscf.cumulative,
        msg(
            "Sum of the running score after each round, minus one point for each unplayed win "
            "(forfeit win, full-point bye)."
        ),
        USCF,
    ),
    Tiebreak(
        "RBT",
        msg("Result between tied players"),
        "34E4",
        frozenset(),
        uscf.result_between_tied_players,
        msg("Inside the group tied on all earlier rules: wins minus losses in the games between them."),
        USCF,
        needs_groups=True,
    ),
    Tiebreak(
        "BLK",
        msg("Most blacks"),
        "34E5",
        frozenset(),
        counts.count_rounds,
        msg("Games played over the board with the black pieces."),
        USCF,
    ),
    Tiebreak(
        "KASH",
        msg("Kashdan"),
        "34E7",
        frozenset(),
        uscf.kashdan,
        msg("4 points for a win, 2 for a draw, 1 for a loss, 0 for an unplayed game."),
        USCF,
    ),
    Tiebreak(
        "SBUS",
        msg("Sonneborn-Berger (US Chess)"),
        "34E8",
        frozenset(),
        uscf.sonneborn_berger,
        msg("Adjusted scores of the opponents beaten plus half the adjusted scores of those drawn."),
        USCF,
    ),
    Tiebreak(
        "OCUM",
        msg("Cumulative of opposition"),
        "34E9",
        frozenset(),
        uscf.cumulative_of_opposition,
        msg("Sum of the opponents' cumulative scores (34E3)."),
        USCF,
    ),
    Tiebreak(
        "AROUS",
        msg("Average rating of opposition"),
        "34E10",
        frozenset(),
        rating.average_rating_of_opponents,
        msg("Mean rating of the opponents met over the board, rounded to a whole number."),
        USCF,
        rating_based=True,
    ),
    Tiebreak(
        "OPERF",
        msg("Opposition performance"),
        "34E11",
        frozenset(),
        uscf.opposition_performance,
        msg(
            "Mean of the opponents' performance ratings (their opposition's average + 400 × (wins − losses) / "
            "games), rounded to a whole number."
        ),
        USCF,
        rating_based=True,
    ),
)

TIEBREAKS: dict[str, Tiebreak] = {t.code: t for t in _ENTRIES}


@functools.cache
def valid_codes(regulations: Regulations | None = None) -> dict[str, frozenset[str]]:
    """Code → modifier letters, for the codes a rule set supports (all when None). One dict per
    rule set, shared: read it, never change it."""
    return {t.code: t.modifiers for t in _ENTRIES if regulations is None or regulations in t.regulations}


def display_name(spec: RuleSpec) -> str:
    return Joined(TIEBREAKS[spec.code].name, modifiers_text(spec))


def rule_sets_of(code: str) -> list[str]:
    return sorted(r.value for r in TIEBREAKS[code].regulations)


# The nearest rule of the other family, suggested when a rule is used under the wrong rule set.
EQUIVALENTS = {
    Regulations.USCF: {"ARO": "AROUS", "SB": "SBUS", "BH": "SOLK", "PS": "CUM", "DE": "RBT", "BPG": "BLK"},
    Regulations.FIDE_2026: {
        "AROUS": "ARO",
        "SBUS": "SB",
        "SOLK": "BH",
        "CUM": "PS",
        "RBT": "DE",
        "BLK": "BPG",
        "MED": "BH/M1",
    },
}
EQUIVALENTS[Regulations.FIDE_2024] = EQUIVALENTS[Regulations.FIDE_2026]


def parse_spec(text: str, regulations: Regulations | None, path: Path = ()) -> RuleSpec:
    """A rule string under one rule set: its aliases first, its codes only.

    A code or alias of another rule set is a 400 that names the rule set applied,
    the rule sets the rule belongs to, and the valid codes.
    """
    if (numbered := swiss_manager.spec_of(text, False, regulations, path)) is not None:
        return parse_spec(numbered, regulations, path)
    if (refused := refused_rule(text, team=False)) is not None:
        raise UnknownTiebreak([Issue(path, refused)])
    codes = valid_codes(regulations)
    if regulations is None:
        return parse_rule(text, codes, path)
    own, other = (USCF_ALIASES, FIDE_ALIASES) if regulations is Regulations.USCF else (FIDE_ALIASES, USCF_ALIASES)
    code = code_of(normalise(text, own, other))
    if code is not None and code not in codes:
        listing = ", ".join(sorted(codes))
        if code in TIEBREAKS:
            near = EQUIVALENTS.get(regulations, {}).get(code)
            hint = (
                msg(
                    "; did you mean {near} ({name}, {article})?",
                    near=repr(near),
                    name=TIEBREAKS[near.split("/")[0]].name,
                    article=TIEBREAKS[near.split("/")[0]].citation,
                )
                if near
                else "."
            )
            sets = rule_sets_of(code)
            args = {
                "rule": repr(text),
                "code": code,
                "sets": ", ".join(sets),
                "regulations": regulations.value,
                "hint": hint,
                "newest": sets[-1],  # the newest rule set that has it
                "codes": listing,
            }
            message: str
            # the code once: "'MM' is a rule of uscf", but "'modified median' is MM, a rule of uscf"
            if text.strip().upper() == code:
                message = msg(
                    '{rule} is a rule of {sets}, not of {regulations}{hint} To use it, send "regulations": '
                    '"{newest}". Valid codes under {regulations}: {codes}',
                    **args,
                )
            else:
                message = msg(
                    '{rule} is {code}, a rule of {sets}, not of {regulations}{hint} To use it, send "regulations": '
                    '"{newest}". Valid codes under {regulations}: {codes}',
                    **args,
                )
        else:
            message = unknown_message(text, suggest(text, codes, own), regulations.value, codes)
        raise UnknownTiebreak([Issue(path, message)])
    return parse_rule(text, codes, path, own, other)


def check_rule_set(specs: list[RuleSpec], regulations: Regulations, root: str = "tiebreaks") -> None:
    """Every rule must belong to the rule set applied (specs built without `parse_spec`)."""
    codes = valid_codes(regulations)
    for i, spec in enumerate(specs):
        if spec.code not in codes:
            raise UnknownTiebreak(
                [
                    Issue(
                        (root, i),
                        msg(
                            "{spec} is a rule of {sets}, not of {regulations}; valid codes under {regulations}: {codes}",
                            spec=str(spec),
                            sets=", ".join(rule_sets_of(spec.code)),
                            regulations=regulations.value,
                            codes=", ".join(sorted(codes)),
                        ),
                    )
                ]
            )


@functools.cache
def _swiss_manager_forms() -> dict[str, tuple[int, str]]:
    forms: dict[str, tuple[int, str]] = {}
    for spec, number, parameters in swiss_manager.written_forms():
        forms.setdefault(parse_spec(spec, None).canonical, (number, parameters))
    return forms


def swiss_manager_number(spec: RuleSpec) -> tuple[int, str] | None:
    """The Swiss-Manager number and parameters that read as this individual-event rule (SPEC 3.13:
    a list given both ways), or None where Swiss-Manager has none."""
    return _swiss_manager_forms().get(spec.canonical)
