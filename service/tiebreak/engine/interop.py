"""Rule names other programs write, read as the engine's rules (docs/interop.md).

TRF-26 (FIDE C.04 Annex 2, version 2026) records 202 and 212 carry "codes from Mandatory
Tie-Breaks": the acronyms of C.07, with C.07's modifiers (`BH/C1`, `BH:MP/C1/P`). Every C.07
rule of the registry is therefore written under its own code; US Chess rules have no TRF-26
acronym. The FIDE reference implementation (FIDE TEC TieBreakServer) lists, beside the C.07
acronyms, help functions a rule list may name; those that are not tie-breaks are refused with
the reason below.
"""

from __future__ import annotations

from .model import Regulations

# FIDE TEC TieBreakServer's tie-break list, "Help functions" and "Functions to check pairing":
# values that order nothing C.07 defines (a TRF's rank column) or that describe pairings, not
# standings. Its RND (a random number) is the registry's drawing of lots.
NOT_TIEBREAKS: dict[str, str] = {
    "SNO": "the start number as a help function of the FIDE reference implementation; C.07's rule for it is TPN",
    "RANK": "the rank column of the file itself, not a rule computed from the games",
    "VUR": "the count of voluntary unplayed rounds (C.07 16.5), an input to other rules, not a tie-break",
    "ABH": "the adjusted score for Buchholz (C.07 16.3), an input to BH, not a tie-break",
    "AFB": "the adjusted score for Fore Buchholz (C.07 16.3), an input to FB, not a tie-break",
    "NUM": "a pairing check (number of games played), not a tie-break",
    "COP": "a pairing check (colour preference), not a tie-break",
    "COD": "a pairing check (colour difference), not a tie-break",
    "CSQ": "a pairing check (colour sequence), not a tie-break",
    "ACC": "a pairing check (points with acceleration), not a tie-break",
    "FLT": "a pairing check (floats), not a tie-break",
    "RFP": "a pairing check (registered for the round), not a tie-break",
    "TOP": "a pairing check (top scorer), not a tie-break",
}


# Rules that are not C.07's: MAN's values come with the request (SPEC 3.12), not from a file's games.
NOT_C07 = frozenset({"MAN"})


def trf26_acronym(code: str, regulations: frozenset[Regulations]) -> str | None:
    """The acronym a TRF-26 record 202 writes for the rule: its C.07 code; none for US Chess rules
    and the rules C.07 does not define."""
    return None if regulations == {Regulations.USCF} or code in NOT_C07 else code


def not_a_tiebreak(spec: str) -> str | None:
    """Why `spec` (a rule of a TRF's 202/212) is refused, when its acronym is a help function."""
    return NOT_TIEBREAKS.get(spec.strip().split("/")[0].split(":")[0].upper())
