"""Rule names other programs write, read as the engine's rules (docs/interop.md).

TRF-26 (FIDE C.04 Annex 2, version 2026) records 202 and 212 carry "codes from Mandatory
Tie-Breaks": the acronyms of C.07, with C.07's modifiers (`BH/C1`, `BH:MP/C1/P`). Every C.07
rule of the registry is therefore written under its own code; US Chess rules have no TRF-26
acronym. The FIDE reference implementation (FIDE TEC TieBreakServer) lists, beside the C.07
acronyms, help functions a rule list may name; those that are not tie-breaks are refused with
the reason below.
"""

from __future__ import annotations

from ..texts.message import msg
from .model import Regulations

# FIDE TEC TieBreakServer's tie-break list, "Help functions" and "Functions to check pairing":
# values that order nothing C.07 defines (a TRF's rank column) or that describe pairings, not
# standings. Its RND (a random number) is the registry's drawing of lots.
NOT_TIEBREAKS: dict[str, str] = {
    "SNO": msg("the start number as a help function of the FIDE reference implementation; C.07's rule for it is TPN"),
    "RANK": msg("the rank column of the file itself, not a rule computed from the games"),
    "VUR": msg("the count of voluntary unplayed rounds (C.07 16.5), an input to other rules, not a tie-break"),
    "ABH": msg("the adjusted score for Buchholz (C.07 16.3), an input to BH, not a tie-break"),
    "AFB": msg("the adjusted score for Fore Buchholz (C.07 16.3), an input to FB, not a tie-break"),
    "NUM": msg("a pairing check (number of games played), not a tie-break"),
    "COP": msg("a pairing check (colour preference), not a tie-break"),
    "COD": msg("a pairing check (colour difference), not a tie-break"),
    "CSQ": msg("a pairing check (colour sequence), not a tie-break"),
    "ACC": msg("a pairing check (points with acceleration), not a tie-break"),
    "FLT": msg("a pairing check (floats), not a tie-break"),
    "RFP": msg("a pairing check (registered for the round), not a tie-break"),
    "TOP": msg("a pairing check (top scorer), not a tie-break"),
    "DF": msg(
        "an earlier direct-encounter function of the FIDE reference implementation, kept beside its DE; "
        "C.07 6's direct encounter is DE"
    ),
}


def trf26_acronym(code: str, regulations: frozenset[Regulations]) -> str | None:
    """The acronym a TRF-26 record 202 writes for the rule: its C.07 code; none for US Chess rules."""
    return None if regulations == {Regulations.USCF} else code


def not_a_tiebreak(spec: str) -> str | None:
    """Why `spec` (a rule of a TRF's 202/212) is refused, when its acronym is a help function."""
    return NOT_TIEBREAKS.get(spec.strip().split("/")[0].split(":")[0].upper())


# The reference's spellings of team rules (its parse_tiebreak): MPTS and GPTS are PTS on match
# and game points, EDGE its extended direct encounter. Aliases in team events.
TEAM_SPELLINGS = {"MPTS": "PTS:MP", "GPTS": "PTS:GP", "EDGE": "EDE"}


def refused_rule(text: str, team: bool) -> str | None:
    """Why a rule list may not name `text`: a help function of the reference, or (in an individual
    event) the reference's name of a team rule; None for anything else."""
    code = text.strip().split("/")[0].split(":")[0].upper()
    why = NOT_TIEBREAKS.get(code)
    if why is not None:
        return msg("{rule} is not a tie-break: {why}", rule=repr(text), why=why)
    if not team and code in TEAM_SPELLINGS:
        return msg(
            "{rule} is the FIDE reference implementation's name for {spec}, a rule of team events; this is an "
            "individual event",
            rule=repr(text),
            spec=TEAM_SPELLINGS[code],
        )
    return None
