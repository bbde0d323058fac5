"""Swiss-Manager's tie-break numbers, read as C.07 rules (SPEC 3.13, docs/interop.md, decision 0178).

Swiss-Manager and the Chess-Results upload name a tie-break by number with up to seven
comma-separated parameters (`84` with `0,0,1,P,-,0,1`). The numbering and the parameters' order
are those its author publishes for the upload interface (shared/interop/swiss-manager-tiebreaks.md).
A number is read as the C.07 rule it is, parameters included, or refused with the reason: a
parameter with no C.07 counterpart is never dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..texts.message import Joined, msg
from .errors import InvalidRequest, Issue, Path
from .model import Regulations

INDIVIDUAL = frozenset({"SS", "RR"})  # single Swiss, single round robin
TEAM = frozenset({"TRR", "TS"})  # team round robin, team Swiss


@dataclass(frozen=True, slots=True)
class Reading:
    """What a number with its parameters is: a C.07 spec, and what the event must be for it to be exact."""

    spec: str
    match_points: tuple[int, int, int] | None = None  # the match scoring its match points assume (win, draw, loss)
    primary: str | None = None  # "MP" or "GP": the primary score it ranks on first
    regulations: Regulations | None = None  # the C.07 edition its parameters name


class _Refused(Exception):
    """A number or parameter with no exact C.07 counterpart; `reason` says why."""

    def __init__(self, reason: str):
        self.reason = reason


# The table: number -> (label as Swiss-Manager prints it, status, where it is offered).
# Status: H historical, A old (hidden by default), N the C.07 (2024) set, S other programs, B board lists.
TABLE: dict[int, tuple[str, str, tuple[str, ...]]] = {
    1: ("points (game-points)", "", ("SS", "RR", "TRR", "TS")),
    2: ("Buchholz Tie-Breaks (all Results)", "H", ("SS",)),
    3: ("Buchholz Tie-Breaks (without one result)", "H", ("SS",)),
    4: ("Buchholz Tie-Breaks (without two results=middle Tie-Breaks)", "H", ("SS",)),
    5: ("Manually input (after Tie-Break matches)", "", ("SS", "RR")),
    6: ("Manually input (after Tie-Break matches)", "", ("TRR", "TS")),
    7: ("Sonneborn-Berger-Tie-Break (with real points)", "A", ("TRR", "TS")),
    8: ("Fide Tie-Break", "A", ("SS",)),
    9: ("Fide Tie-Break (fine)", "A", ("SS",)),
    10: ("rating average of the opponents", "H", ("SS",)),
    11: ("Direct Encounter (The results of the players in the same point group)", "", ("SS", "RR")),
    12: ("The greater number of victories", "", ("SS", "RR")),
    13: ("Matchpoints (2 for wins, 1 for Draws, 0 for Losses)", "", ("TRR", "TS")),
    14: ("The results of the teams in then same point group according to Matchpoints", "", ("TRR",)),
    15: ("Board Tie-Breaks of the whole tournament", "A", ("TRR", "TS")),
    16: ("Buchholz Tie-Breaks (sum of team-points of the opponents and own points)", "A", ("TS",)),
    17: ("Buchholz Tie-Breaks (with the real points)", "H", ("SS",)),
    18: ("Carasaxa Tie-Breaks", "H", ("SS",)),
    19: ("Sonneborn-Berger Tie-Break (with modified points, analogous to Buchholz Tie-Break)", "H", ("SS",)),
    20: ("rating average of the opponents (without one result)", "H", ("SS",)),
    21: ("Performance", "H", ("SS",)),
    22: ("Buchholz Tie-Breaks (sum of team-points of the opponents)", "A", ("TS",)),
    23: ("Sum of the ratings of the opponents (whithout one result)", "", ("SS", "RR")),
    24: ("The BSV-Board-Tie-Break", "A", ("TRR", "TS")),
    25: ("Sum of Buchholz-Tie-Breaks (all Results)", "", ("SS",)),
    26: ("For imported tournaments (Tie-break 1)", "H", ("SS",)),
    27: ("For imported tournaments (Tie-break 2)", "H", ("SS",)),
    28: ("Buchholz-Tie-Breaks (all Results (special))", "H", ("SS",)),
    29: ("Buchholz-Tie-Breaks (without two results=middle Tie-Breaks (special))", "H", ("SS",)),
    30: ("Buchholz-Tie-Breaks (all Results with real points)", "H", ("SS",)),
    31: ("Buchholz-Tie-Breaks (without two results with real points)", "H", ("SS",)),
    32: ("For imported tournaments (Tie-break 3)", "H", ("SS",)),
    33: ("Fide Tie-Break (no points for dropped players)", "H", ("SS",)),
    34: ("Buchholz-Tie-Breaks (without two results=middle Tie-Breaks)", "A", ("TS",)),
    35: ("FIDE-Sonneborn-Berger-Tie-Break", "A", ("TRR", "TS")),
    36: ("rating average of the opponents (variabel with parameters)", "A", ("SS",)),
    37: ("Buchholz Tie-Breaks (variabel with parameter)", "A", ("SS", "TS")),
    38: ("points (game-points) + 1 point for each won match.", "A", ("TRR", "TS")),
    39: ("points (3 for wins, 2 for Draws, 1 for Losses, 0 for Losses forfeit)", "", ("TRR",)),
    40: ("Matchpoints (3 for wins, 1 for Draws, 0 for Losses)", "", ("TRR", "TS")),
    41: ("Better result (Victory or Draw) against player with the lowest starting rank", "", ("RR",)),
    42: ("points (normal points + points from the qualifying rounds)", "", ("TRR", "TS")),
    43: ("Play-off points", "A", ("SS", "RR")),
    44: ("Matchpoints (variabel)", "", ("TRR", "TS")),
    45: ("Koya Tie-Break", "A", ("RR",)),
    46: ("Points (game-points) + Matchpoints (3 for wins, 1 for Draws, 0 for Losses)", "", ("TRR", "TS")),
    47: ("Points (variabel)", "", ("TRR", "TS")),
    48: ("Sum of Matchpoints (variabel)", "", ("TS",)),
    49: ("Sum Matchpoints (2,1,0) without lowest result (Olympiad)", "", ("TS",)),
    50: ("Olympiad-Sonneborn-Berger-Tie-Break", "", ("TS",)),
    51: ("ECU-Tie-Break", "", ()),
    52: ("Sonneborn-Berger-Tie-Break variable", "A", ("SS", "RR")),
    53: ("Most black", "A", ("SS", "RR")),
    54: ("Recursive Ratingperformance", "", ("SS", "RR")),
    55: ("Average Recursive Ratingperformance", "", ("SS", "RR")),
    56: ("Sum Matchpoints (2,1,0) without lowest result (Olympiad Khanty-Mansiysk)", "", ("TS",)),
    57: ("Olympiad-Sonneborn-Berger-Tie-Break without lowest result (Khanty-Mansiysk)", "", ("TS",)),
    58: ("Rtg Sum (without lowest rtg) or Progressive Score (Youth WCC)", "", ("SS",)),
    59: ("Rating Performance without two results (EM 2011)", "", ("SS", "RR")),
    60: ("Performance (variable with parameter)", "", ("SS", "RR")),
    61: ("Arranz System (Win:1 / Draw: 0.6 black, 0.4 white, lost: 0)", "", ("SS", "RR")),
    62: ("Games ascending (Less is better)", "B", ()),
    63: ("Percent", "B", ()),
    64: ("Board", "B", ()),
    65: ("Games descending (More is better)", "B", ()),
    66: ("Ranking of their teams", "B", ()),
    67: ("Sonneborn-Berger-Tie-Break (analog [57] but with all results)", "", ("TS",)),
    68: ("The greater number of victories (variable)", "", ("SS", "RR")),
    69: ("Koya Tie-Break (fine)", "", ("RR",)),
    70: ("Sum Buchholz-Tie Break variable", "", ("SS",)),
    71: ("Berlin Tie Break", "", ("TRR", "TS")),
    72: ("Rating-difference", "S", ()),
    73: ("Schmuljan Tie Break", "S", ()),
    74: ("Olympiad-Sonneborn-Berger-Tie-Break without lowest result (Chennai)", "", ("TRR", "TS")),
    75: ("Olympiad-Sum of Adjusted matchpoints without lowest result (Chennai)", "", ("TRR", "TS")),
    76: ("Special Gamepoints for white and black", "", ("SS", "RR", "TRR", "TS")),
    77: ("Average of Opponents' Buchholz (AOB)", "N", ("SS", "RR", "TRR", "TS")),
    78: ("Board Count (BC)", "N", ("TRR", "TS")),
    79: ("Rounds Elected to Play", "N", ("SS", "RR")),
    80: ("Average Rating of Opponents (ARO)", "N", ("SS", "RR")),
    81: ("Direct Encounter (DE)", "N", ("SS", "RR")),
    82: ("Extended Sonneborn-Berger for teams (ESB)", "N", ("TRR", "TS")),
    83: ("Extended Direct Encounter for teams (EDE)", "N", ("TRR", "TS")),
    84: ("Buchholz Tie-Break Variable (2023)", "N", ("SS", "TRR", "TS")),
    85: ("Sonneborn Berger Tie-Break Variable (2023)", "N", ("SS", "RR")),
    86: ("FIDE Tiebreak (Progressive Score)", "N", ("SS", "RR", "TRR", "TS")),
    87: ("Koya System (KS)", "N", ("SS", "RR", "TRR", "TS")),
    88: ("Performance Tie-Breaks (TPR, APRO, PTP, APPO)", "N", ("SS", "RR")),
    89: ("Top Board Results TBR", "N", ("TRR", "TS")),
    90: ("Bottom Board Elimination (BBE)", "N", ("TRR", "TS")),
    91: ("Scores and Schedule Strength Combination (SSSC)", "N", ("TRR", "TS")),
    92: ("Kashdan", "S", ()),
}


# ---- the parameters, as the table names them -------------------------------------------------


class _Parameters:
    """The comma-separated parameters of one number, read by position; absent ones take their default."""

    def __init__(self, number: int, text: str, names: tuple[str, ...]):
        values = [part.strip().upper() for part in text.split(",")] if text.strip() else []
        if len(values) > len(names):
            raise _Refused(
                msg(
                    "Swiss-Manager {number}: {given} parameters given, it takes {most} ({names})",
                    number=number,
                    given=len(values),
                    most=len(names),
                    names=", ".join(names) or "-",
                )
            )
        self.number_of, self.names, self.values = number, names, values

    def get(self, position: int, allowed: tuple[str, ...], default: str) -> str:
        """The value at `position` (0-based), one of `allowed` (an empty value is the default)."""
        value = self.values[position] if position < len(self.values) and self.values[position] else default
        if value not in allowed:
            raise _Refused(
                msg(
                    "Swiss-Manager {number}: parameter {position} ({name}) is {value}; it takes {allowed}",
                    number=self.number_of,
                    position=position + 1,
                    name=self.names[position],
                    value=repr(value),
                    allowed=", ".join(allowed),
                )
            )
        return value

    def number(self, position: int, high: int, default: int) -> int:
        """A whole number 0..`high` at `position` (empty: `default`)."""
        value = self.values[position] if position < len(self.values) and self.values[position] else str(default)
        if not (value.isascii() and value.isdigit()) or int(value) > high:
            raise _Refused(
                msg(
                    "Swiss-Manager {number}: parameter {position} ({name}) is {value}; it takes a whole number from "
                    "0 to {high}",
                    number=self.number_of,
                    position=position + 1,
                    name=self.names[position],
                    value=repr(value),
                    high=high,
                )
            )
        return int(value)

    def count(self, position: int) -> int:
        """A number of results discarded (0..9)."""
        return self.number(position, 9, 0)

    def no_counterpart(self, position: int, why: str) -> _Refused:
        return _Refused(
            msg(
                "Swiss-Manager {number} with {name} {value} has no C.07 counterpart: {why}",
                number=self.number_of,
                name=self.names[position],
                value=repr(self.values[position]),
                why=why,
            )
        )


MAX_RATING = 4000  # a minimum rating beyond any rating list is a mistyped parameter
_NO_STRONGEST = msg(
    "C.07 14 drops the least significant contributions (Cut) or as many at both ends (Median), never the "
    "strongest alone"
)
_FLAG = ("-", "P", "0", "1")  # "- or P": forfeits counted as played; 0 and 1 as some uploads write it


def _cuts(p: _Parameters, strongest: int, weakest: int, median: bool = True) -> str:
    """C.07 14.1-14.2: Cut-n drops the n weakest, Median-n the n weakest and the n strongest."""
    s, w = p.count(strongest), p.count(weakest)
    if s == 0:
        return f"/C{w}" if w else ""
    if s == w and median:
        return f"/M{w}"
    raise p.no_counterpart(strongest, _NO_STRONGEST)


def _played(p: _Parameters, position: int) -> str:
    return "/P" if p.get(position, _FLAG, "-") in ("P", "1") else ""


def _score(p: _Parameters, position: int, team: bool) -> str:
    """Type 0 game points, 1 match points: the reference score `:GP`/`:MP` of a team event."""
    kind = p.get(position, ("0", "1"), "0")
    if not team:
        if kind == "1":
            raise p.no_counterpart(position, msg("match points are a team event's score; this is an individual event"))
        return ""
    return ":MP" if kind == "1" else ":GP"


def _match_calc(p: _Parameters, position: int) -> tuple[int, int, int]:
    return (3, 1, 0) if p.get(position, ("0", "1"), "0") == "1" else (2, 1, 0)


# ---- one reader per number with a C.07 counterpart ---------------------------------------------

Reader = Callable[[int, str, bool], Reading]


def _plain(individual: str, team: str | None = None) -> Reader:
    """A number that takes no parameter: one code (its team form where it has one)."""

    def read(number: int, text: str, is_team: bool) -> Reading:
        _Parameters(number, text, ())
        return Reading(team if is_team and team else individual)

    return read


def _match_points(win: int) -> Reader:
    def read(number: int, text: str, is_team: bool) -> Reading:
        _Parameters(number, text, ())
        return Reading("PTS:MP", match_points=(win, 1, 0))  # C.07 7.1 on the event's match points

    return read


def _aob(number: int, text: str, team: bool) -> Reading:
    p = _Parameters(number, text, ("- or F",))
    if p.get(0, ("-", "F"), "-") == "F":
        raise p.no_counterpart(0, msg("C.07 8.4 averages the opponents' Buchholz, not their Fore Buchholz"))
    return Reading("AOB")


def _aro(number: int, text: str, team: bool) -> Reading:
    p = _Parameters(
        number, text, ("minimum rating", "discarded strongest results", "discarded weakest results", "unplayed games")
    )
    if p.number(0, MAX_RATING, 0):
        raise p.no_counterpart(
            0, msg("C.07 10 sets no minimum rating for opponents (the request's `unrated_rating` rates unrated ones)")
        )
    cuts = _cuts(p, 1, 2)
    if p.get(3, ("0", "1"), "0") == "1":
        raise p.no_counterpart(3, msg("C.07 10.1 averages the opponents met over the board only"))
    return Reading("ARO" + cuts)


def _de(number: int, text: str, team: bool) -> Reading:
    p = _Parameters(number, text, ("- or P",))
    return Reading("DE" + _played(p, 0))  # C.07 6, P: forfeits as played


_ESB_TYPES = {"0": "EMMSB", "1": "EMGSB", "2": "EGMSB", "3": "EGGSB"}


def _esb(number: int, text: str, team: bool) -> Reading:
    p = _Parameters(
        number, text, ("type", "discarded strongest results", "discarded weakest results", "- or P", "MP calc")
    )
    code = _ESB_TYPES[p.get(0, tuple(_ESB_TYPES), "1")]
    cuts = _cuts(p, 1, 2, median=False)
    spec = code + cuts + _played(p, 3)
    return Reading(spec, match_points=_match_calc(p, 4) if "M" in code[1:3] else None)  # C.07 13.2


def _ede(number: int, text: str, team: bool) -> Reading:
    p = _Parameters(number, text, ("GP or MP", "- or P"))
    primary = p.get(0, ("MP", "GP"), "MP")
    return Reading("EDE" + _played(p, 1), primary=primary)  # C.07 13.3, from the primary score


def _bh(number: int, text: str, team: bool) -> Reading:
    p = _Parameters(
        number,
        text,
        (
            "type",
            "discarded strongest results",
            "discarded weakest results",
            "- or P",
            "Fore Buchholz",
            "MP calc",
            "valid from 1.2.2026",
        ),
    )
    score = _score(p, 0, team)
    cuts = _cuts(p, 1, 2)
    played = _played(p, 3)
    code = "FB" if p.get(4, ("-", "F", "0", "1"), "-") in ("F", "1") else "BH"  # C.07 8.3 Fore Buchholz
    calc = _match_calc(p, 5) if score == ":MP" else None
    valid = p.get(6, ("0", "1", "-"), "-")
    editions = {"1": Regulations.FIDE_2026, "0": Regulations.FIDE_2024}
    return Reading(code + score + cuts + played, match_points=calc, regulations=editions.get(valid))


def _sb(number: int, text: str, team: bool) -> Reading:
    p = _Parameters(number, text, ("0", "discarded strongest results", "discarded weakest results", "- or P"))
    p.get(0, ("0",), "0")
    return Reading("SB" + _cuts(p, 1, 2) + _played(p, 3))  # C.07 9.1


def _ps(number: int, text: str, team: bool) -> Reading:
    p = _Parameters(number, text, ("type", "discarded strongest results"))
    score = _score(p, 0, team)
    if p.count(1):
        raise p.no_counterpart(
            1,
            msg(
                "C.07 7.5's cut removes the first rounds' running scores, and the table names this parameter the "
                "strongest results discarded"
            ),
        )
    return Reading("PS" + score, match_points=None)


def _ks(number: int, text: str, team: bool) -> Reading:
    p = _Parameters(number, text, ("type", "limit in %"))
    score = _score(p, 0, team)
    limit = p.number(1, 100, 50)
    return Reading("KS" + score + ("" if limit == 50 else f"/L{limit}%"))  # C.07 9.2, 14.5


_PERFORMANCE = {"0": "TPR", "1": "APRO", "2": "PTP", "3": "APPO"}


def _performance(number: int, text: str, team: bool) -> Reading:
    p = _Parameters(number, text, ("type", "minimum rating"))
    code = _PERFORMANCE[p.get(0, tuple(_PERFORMANCE), "0")]
    if p.number(1, MAX_RATING, 0):
        raise p.no_counterpart(
            1, msg("C.07 10 sets no minimum rating for opponents (the request's `unrated_rating` rates unrated ones)")
        )
    return Reading(code)


def _sssc(number: int, text: str, team: bool) -> Reading:
    p = _Parameters(number, text, ("GP or MP", "- or P"))
    primary = p.get(0, ("MP", "GP"), "MP")
    return Reading("SSSC" + _played(p, 1), primary=primary)  # C.07 13.4


_WINS = {"0": "WIN", "1": "WON", "2": "BWG", "3": "BPG"}


def _wins(number: int, text: str, team: bool) -> Reading:
    p = _Parameters(number, text, ("type", "- or P"))
    code = _WINS[p.get(0, tuple(_WINS), "0")]
    if p.get(1, _FLAG, "-") in ("P", "1"):
        raise p.no_counterpart(1, msg("C.07 7.2-7.4 count wins and games with black with no P modifier"))
    return Reading(code)


READERS: dict[int, Reader] = {
    1: _plain("PTS", "PTS:GP"),  # C.07 7.1, game points
    13: _match_points(2),
    40: _match_points(3),
    68: _wins,
    77: _aob,
    78: _plain("BC"),
    79: _plain("GE"),  # C.07 7.6, REP in the reference implementation
    80: _aro,
    81: _de,
    82: _esb,
    83: _ede,
    84: _bh,
    85: _sb,
    86: _ps,
    87: _ks,
    88: _performance,
    89: _plain("TBR"),
    90: _plain("BBE"),
    91: _sssc,
}

# ---- the others: why each is refused -------------------------------------------------------------

HISTORICAL, PRE_2024, NOT_C07, OTHER_PROGRAM, BOARD_LIST, MANUAL, PLAY_OFF, IMPORTED, VARIABLE, OLYMPIAD = (
    "historical",
    "pre-2024",
    "not-c07",
    "other-program",
    "board-list",
    "manual",
    "play-off",
    "imported",
    "variable",
    "olympiad",
)

# number -> (kind of refusal, the number to use instead or None)
REFUSED: dict[int, tuple[str, int | None]] = {
    2: (HISTORICAL, 84),
    3: (HISTORICAL, 84),
    4: (HISTORICAL, 84),
    5: (MANUAL, None),
    6: (MANUAL, None),
    7: (PRE_2024, 82),
    8: (PRE_2024, None),
    9: (PRE_2024, None),
    10: (HISTORICAL, 80),
    11: (PRE_2024, 81),
    12: (PRE_2024, 68),
    14: (PRE_2024, 83),
    15: (PRE_2024, 1),
    16: (PRE_2024, 84),
    17: (HISTORICAL, 84),
    18: (HISTORICAL, None),
    19: (HISTORICAL, 85),
    20: (HISTORICAL, 80),
    21: (HISTORICAL, 88),
    22: (PRE_2024, 84),
    23: (NOT_C07, None),
    24: (NOT_C07, None),
    25: (NOT_C07, None),
    26: (IMPORTED, None),
    27: (IMPORTED, None),
    28: (HISTORICAL, 84),
    29: (HISTORICAL, 84),
    30: (HISTORICAL, 84),
    31: (HISTORICAL, 84),
    32: (IMPORTED, None),
    33: (HISTORICAL, None),
    34: (PRE_2024, 84),
    35: (PRE_2024, 82),
    36: (VARIABLE, 80),
    37: (VARIABLE, 84),
    38: (NOT_C07, None),
    39: (NOT_C07, None),
    41: (NOT_C07, None),
    42: (NOT_C07, None),
    43: (PLAY_OFF, None),
    44: (VARIABLE, 13),
    45: (PRE_2024, 87),
    46: (NOT_C07, None),
    47: (VARIABLE, 1),
    48: (VARIABLE, None),
    49: (OLYMPIAD, None),
    50: (OLYMPIAD, None),
    51: (NOT_C07, None),
    52: (VARIABLE, 85),
    53: (PRE_2024, 68),
    54: (NOT_C07, None),
    55: (NOT_C07, None),
    56: (OLYMPIAD, None),
    57: (OLYMPIAD, None),
    58: (NOT_C07, None),
    59: (NOT_C07, None),
    60: (VARIABLE, 88),
    61: (NOT_C07, None),
    62: (BOARD_LIST, None),
    63: (BOARD_LIST, None),
    64: (BOARD_LIST, None),
    65: (BOARD_LIST, None),
    66: (BOARD_LIST, None),
    67: (OLYMPIAD, None),
    69: (PRE_2024, 87),
    70: (VARIABLE, None),
    71: (NOT_C07, None),
    72: (OTHER_PROGRAM, None),
    73: (OTHER_PROGRAM, None),
    74: (OLYMPIAD, None),
    75: (OLYMPIAD, None),
    76: (NOT_C07, None),
    92: (OTHER_PROGRAM, None),
}


def refusal(number: int) -> str:
    """Why a number of REFUSED is not read (the same text the 422 gives)."""
    kind, instead = REFUSED[number]
    label = TABLE[number][0]
    args = {"number": number, "label": label}
    texts = {
        HISTORICAL: msg(
            "Swiss-Manager {number} ({label}) is a historical rule Swiss-Manager no longer offers; its published "
            "description does not say how it counts unplayed rounds, so it has no exact C.07 counterpart",
            **args,
        ),
        PRE_2024: msg(
            "Swiss-Manager {number} ({label}) predates C.07 (2024), and its published description does not say "
            "which C.07 rule it computes or how it counts unplayed rounds",
            **args,
        ),
        NOT_C07: msg("Swiss-Manager {number} ({label}) is not a rule of C.07", **args),
        OTHER_PROGRAM: msg(
            "Swiss-Manager {number} ({label}) is a rule of Swiss-Chess or another program, not of C.07", **args
        ),
        BOARD_LIST: msg(
            "Swiss-Manager {number} ({label}) orders a board or player list of a team event, not the event's standings",
            **args,
        ),
        MANUAL: msg(
            "Swiss-Manager {number} ({label}) is an order the arbiter types in after tie-break games, not a rule "
            "computed from the games",
            **args,
        ),
        PLAY_OFF: msg(
            "Swiss-Manager {number} ({label}) is the score of play-off games, which are not part of the event's rounds",
            **args,
        ),
        IMPORTED: msg(
            "Swiss-Manager {number} ({label}) holds a value imported from another program's file, not a rule "
            "computed from the games",
            **args,
        ),
        VARIABLE: msg(
            "Swiss-Manager {number} ({label}) takes parameters whose meaning the published table does not give",
            **args,
        ),
        OLYMPIAD: msg(
            "Swiss-Manager {number} ({label}) is a rule of a Chess Olympiad's own regulations, which count the "
            "cut and unplayed matches their own way; it is not a C.07 rule",
            **args,
        ),
    }
    if instead is None:
        return texts[kind]
    return Joined(
        texts[kind], msg("; use number {instead} ({label_instead})", instead=instead, label_instead=TABLE[instead][0])
    )


# "SM84:0,0,1,P,-,0,1", "sm 80", "SM-13": the string form of the command line and the rules box.
STRING_FORM = re.compile(r"^\s*SM\s*-?\s*([0-9]{1,3})\s*(?::\s*(.*?))?\s*$", re.IGNORECASE)


def string_form(text: str) -> tuple[int, str] | None:
    """(number, parameters) of a rule written `SM<number>[:<parameters>]`, else None."""
    m = STRING_FORM.match(text)
    return (int(m[1]), m[2] or "") if m else None


def read_number(number: int, parameters: str, team: bool, path: Path = ()) -> Reading:
    """The C.07 rule Swiss-Manager's `number` with `parameters` is; a 422 saying why when it has none."""
    entry = TABLE.get(number)
    if entry is None:
        raise InvalidRequest(
            [
                Issue(
                    path,
                    msg(
                        "Swiss-Manager has no tie-break number {number}; its numbers are 1 to {last}",
                        number=number,
                        last=max(TABLE),
                    ),
                )
            ]
        )
    label, _, use = entry
    reader = READERS.get(number)
    if reader is None:
        raise InvalidRequest([Issue(path, refusal(number))])
    if not set(use) & (TEAM if team else INDIVIDUAL):
        text = (
            msg(
                "Swiss-Manager {number} ({label}) ranks individual events; this is a team event",
                number=number,
                label=label,
            )
            if team
            else msg(
                "Swiss-Manager {number} ({label}) ranks team events; this is an individual event",
                number=number,
                label=label,
            )
        )
        raise InvalidRequest([Issue(path, text)])
    try:
        return reader(number, parameters, team)
    except _Refused as refused:
        raise InvalidRequest([Issue(path, refused.reason)]) from None


def spec_of(text: str, team: bool, regulations: Regulations | None, path: Path = ()) -> str | None:
    """The C.07 spec a rule string `SM<number>:<parameters>` stands for (a 422 when it has none), or
    None for a rule string of another form."""
    numbered = string_form(text)
    if numbered is None:
        return None
    reading = read_number(*numbered, team=team, path=path)
    check_edition(reading, numbered[0], regulations, path)
    return reading.spec


def check_edition(reading: Reading, number: int, regulations: Regulations | None, path: Path = ()) -> None:
    """84's last parameter names the C.07 edition (1: valid from 1 February 2026); it must be the one applied."""
    if reading.regulations is None or regulations is None or reading.regulations is regulations:
        return
    raise InvalidRequest(
        [
            Issue(
                path,
                msg(
                    "Swiss-Manager {number}: its last parameter asks for the rules of {wanted}; the request is ranked "
                    'under {regulations}: send "regulations": "{wanted}"',
                    number=number,
                    wanted=reading.regulations.value,
                    regulations=regulations.value,
                ),
            )
        ]
    )


def numbers_of(spec: str) -> list[tuple[int, str]]:
    """The (number, parameters) that read as `spec`, for GET /v1/tiebreaks: the C.07 set's numbers."""
    return [pair for pair in _CANONICAL_NUMBERS if pair[0] in READERS and _reads_as(pair, spec)]


def _reads_as(pair: tuple[int, str], spec: str) -> bool:
    number, parameters = pair
    for team in (False, True):
        use = TEAM if team else INDIVIDUAL
        if set(TABLE[number][2]) & use:
            try:
                if READERS[number](number, parameters, team).spec.split(":")[0] == spec:
                    return True
            except _Refused:
                continue
    return False


# One written form per C.07 code (the plain rule): what GET /v1/tiebreaks shows.
_CANONICAL_NUMBERS: tuple[tuple[int, str], ...] = (
    (1, ""),
    (13, ""),
    (40, ""),
    (68, "0"),
    (68, "1"),
    (68, "2"),
    (68, "3"),
    (77, "-"),
    (78, ""),
    (79, ""),
    (80, "0,0,0,0"),
    (81, "-"),
    (82, "0,0,0,-,0"),
    (82, "1,0,0,-,0"),
    (82, "2,0,0,-,0"),
    (82, "3,0,0,-,0"),
    (83, "MP,-"),
    (84, "0,0,0,-,-"),
    (84, "0,0,0,-,F"),
    (85, "0,0,0,-"),
    (86, "0,0"),
    (87, "0,50"),
    (88, "0,0"),
    (88, "1,0"),
    (88, "2,0"),
    (88, "3,0"),
    (89, ""),
    (90, ""),
    (91, "MP,-"),
)


# ---- the other way: a C.07 rule as Swiss-Manager writes it (SPEC 3.13) -------------------------

_COUNTS = tuple(str(n) for n in range(10))
_FLAGS = ("-", "P")
# The parameters tried per number, defaults first (so the first reading of a rule is its plainest
# form); every other parameter at the value that reads as C.07 (no minimum rating, 2/1/0 match
# calc, no edition named).
_WRITTEN: dict[int, tuple[tuple[str, ...], ...]] = {
    1: (),
    68: (("0", "1", "2", "3"),),
    77: (("-",),),
    78: (),
    79: (),
    80: (("0",), _COUNTS, _COUNTS, ("0",)),
    81: (_FLAGS,),
    82: (("0", "1", "2", "3"), ("0",), _COUNTS, _FLAGS, ("0",)),
    84: (("0",), _COUNTS, _COUNTS, _FLAGS, ("-", "F"), ("0",), ("-",)),
    85: (("0",), _COUNTS, _COUNTS, _FLAGS),
    86: (("0",), ("0",)),
    87: (("0",), tuple(str(n) for n in range(101))),
    88: (("0", "1", "2", "3"), ("0",)),
    89: (),
    90: (),
}


def written_forms() -> list[tuple[str, int, str]]:
    """(C.07 spec as the reader gives it, number, parameters) of every individual-event rule
    Swiss-Manager numbers exactly, plainest parameters first."""
    import itertools

    found = []
    for number, grid in _WRITTEN.items():
        if not set(TABLE[number][2]) & INDIVIDUAL:
            continue
        for values in itertools.product(*grid):
            parameters = ",".join(values)
            try:
                reading = READERS[number](number, parameters, False)
            except _Refused:
                continue
            found.append((reading.spec, number, parameters))
    return found
