"""Tie-break rule specifications: parsed once at the edge, canonical afterwards.

String form `CODE[/MOD]...`, e.g. `BH/C1`, `BH/M2`, `KS/L40`, `DE/P`, `SB/C1`.
Modifiers: `Cn` cut the n least significant values, `Mn` median (cut n at each
end), `L+n`/`L-n` Koya limit moved by n half points from 50 % (C.07 14.5; `Ln` with n
from 1 to 9 the same), `L0`, `Ln` with n from 10, or `Ln%`, the limit in percent (an alias),
`P` forfeits count as played games, `R` (Koya) an odd round robin's maximum over every round,
`W` (DE) the rest after a 6.3 placement keep the whole group's games.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..texts.message import Joined, msg, msg_n
from .errors import Issue, Path, UnknownTiebreak, InvalidRequest

MAX_CUT = 10  # more would cut away whole tournaments; bounded so bad input stays cheap
MAX_FACTOR = 1000  # SSSC /K: a normalising factor, far above any event's


@dataclass(frozen=True, slots=True)
class RuleSpec:
    code: str
    cut: int = 0
    median: int = 0
    limit: int | None = None  # Koya limit, percent of the maximum score
    forfeits_played: bool = False
    score: str | None = None  # teams: "MP" or "GP", the reference score (None: the event's primary score)
    factor: int | None = None  # SSSC /K: the normalising factor (None: computed, C.07 13.4)
    fore: bool = False  # SSSC /F: Fore Buchholz instead of Buchholz
    limit_steps: int | None = None  # Koya limit, half points above (below, negative) 50 % (C.07 14.5)
    all_rounds: bool = False  # KS /R: an odd round robin's maximum over every round, idle ones too
    whole_group: bool = False  # DE /W: after a 6.3 placement the rest keep the whole group's games
    # Spelled once when the spec is made: a call reads it a few dozen times (keys, labels, outcomes).
    _canonical: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_canonical", self._spelled())

    @property
    def canonical(self) -> str:
        return self._canonical

    def _spelled(self) -> str:
        text = self.code
        if self.score:
            text += f":{self.score}"
        if self.cut:
            text += f"/C{self.cut}"
        if self.median:
            text += f"/M{self.median}"
        if self.limit is not None:
            # a bare 1..9 would read as half points
            text += f"/L{self.limit}" if not 0 < self.limit < FIRST_PERCENT_LIMIT else f"/L{self.limit}%"
        if self.limit_steps is not None:
            text += f"/L{self.limit_steps:+d}"
        if self.factor is not None:
            text += f"/K{self.factor}"
        if self.forfeits_played:
            text += "/P"
        if self.fore:
            text += "/F"
        if self.all_rounds:
            text += "/R"
        if self.whole_group:
            text += "/W"
        return text

    def __str__(self) -> str:
        return self.canonical


# Common spellings of whole specs, matched after lower-casing and squeezing blanks.
# One table per family of rule sets: the same word names different rules ("Cumulative"
# is C.07 7.5's progressive score under FIDE, US Chess 34E3 under uscf).
FIDE_ALIASES = {
    "buchholz": "BH",
    "buchholz cut 1": "BH/C1",
    "buchholz cut-1": "BH/C1",
    "buchholz cut 2": "BH/C2",
    "buchholz cut-2": "BH/C2",
    "median buchholz": "BH/M1",
    "median-1": "BH/M1",
    "median 1": "BH/M1",
    "median-2": "BH/M2",
    "median 2": "BH/M2",
    "sonneborn-berger": "SB",
    "sonneborn berger": "SB",
    "progressive": "PS",
    "progressive score": "PS",
    "cumulative": "PS",  # C.07 7.5: the progressive (cumulative) score
    "cumulative score": "PS",
    "direct encounter": "DE",
    "koya": "KS",
    "fore buchholz": "FB",
    "rep": "GE",
    "points": "PTS",
    "number of wins": "WIN",
    "most wins": "WIN",
    "games with black": "BPG",
    "average rating of opponents": "ARO",
    "performance rating": "TPR",
}

USCF_ALIASES = {
    "modified median": "MM",  # US Chess 34E1
    "modified-median": "MM",
    "median": "MED",  # US Chess 34E1, the unmodified Median
    "harkness": "MED",
    "median (harkness)": "MED",
    "solkoff": "SOLK",  # US Chess 34E2
    "cumulative": "CUM",  # US Chess 34E3
    "cumulative score": "CUM",
    "result between tied players": "RBT",  # US Chess 34E4
    "head to head": "RBT",
    "head-to-head": "RBT",
    "most blacks": "BLK",  # US Chess 34E5
    "kashdan": "KASH",  # US Chess 34E7
    "sonneborn-berger": "SBUS",  # US Chess 34E8
    "sonneborn berger": "SBUS",
    "cumulative of opposition": "OCUM",  # US Chess 34E9
    "opposition cumulative": "OCUM",
    "opponents cumulative": "OCUM",
    "opponents' cumulative": "OCUM",
    "average rating of opposition": "AROUS",  # US Chess 34E10
    "opposition performance": "OPERF",  # US Chess 34E11
}

_SPEC = re.compile(r"^([A-Z]+)(?::(MP|GP))?((?:/[A-Z][0-9]*|/L[+-][0-9]+|/L[0-9]+%)*)$")  # code, team score, modifiers
_GLUED = re.compile(r"^(BH|FB|SB|ARO|PS)(C|M)([0-9]+)$")  # BHC1, ARO C1 squeezed
_DASHED = re.compile(r"^([A-Z]+)-([CMLP][0-9]*|L[+-][0-9]+|L[0-9]+%)$")  # BH-C1, KS-L40
# One grammar for a rule name followed by a modifier in words: "BH Cut 1", "SB cut-1",
# "Buchholz C1", "Buchholz Median 2", "Koya limit 40"; the name is a code or an alias.
_WORDED = re.compile(r"^(?P<name>[^/]+?)(?:\s+|\s*-\s*)(?P<mod>cut|median|limit|c|m|l)[\s-]*(?P<n>[0-9]+)$")
_MODIFIER_WORDS = {"cut": "C", "c": "C", "median": "M", "m": "M", "limit": "L", "l": "L"}
# "Koya 40": a number right after Koya's name is its limit.
_KOYA_NUMBER = re.compile(r"^(?P<name>koya|ks|koya system)(?:\s+|\s*-\s*)(?P<n>[0-9]+)$")


def normalise(text: str, aliases: dict[str, str] = FIDE_ALIASES, fallback: dict[str, str] | None = USCF_ALIASES) -> str:
    """The spec string a user's spelling stands for: an alias of `aliases`, else of
    `fallback` (the other rule sets' names, so that the error can say whose rule it is),
    else the text upper-cased with the glued and dashed forms (BHC1, BH-C1) restored."""
    squeezed = " ".join(text.strip().split())
    key = squeezed.lower()
    alias = aliases.get(key) or (fallback or {}).get(key)
    if alias:
        return alias
    upper = squeezed.upper().replace(" ", "")
    if (m := _DASHED.match(upper)) and m[2][1:2] in ("+", "-"):
        return f"{m[1]}/{m[2]}"  # KS-L-1: the sign is the limit's, not a separator of words
    if worded := _worded(key, aliases, fallback):
        return worded
    if m := _GLUED.match(upper):
        return f"{m[1]}/{m[2]}{m[3]}"
    if m := _DASHED.match(upper):
        return f"{m[1]}/{m[2]}"
    return upper


def _worded(key: str, aliases: dict[str, str], fallback: dict[str, str] | None) -> str | None:
    """A name and a modifier in words ("bh cut 1", "buchholz c1", "koya 40") as a spec, else None."""
    m = _KOYA_NUMBER.match(key)
    letter = "L" if m else None
    if m is None:
        m = _WORDED.match(key)
        if m is None:
            return None
        letter = _MODIFIER_WORDS[m["mod"]]
    name = m["name"].strip()
    base = aliases.get(name) or (fallback or {}).get(name)
    if base is None:
        if not re.fullmatch(r"[a-z]+", name):
            return None
        base = name.upper()
    return f"{base}/{letter}{m['n']}"


def suggest(text: str, valid_codes: Collection[str], aliases: dict[str, str] = FIDE_ALIASES) -> str | None:
    """The spec a misspelt rule most likely means (a code or an alias close to it), or None."""
    key = " ".join(text.strip().split()).lower()
    names = {code.lower(): code for code in valid_codes}
    names.update({alias: spec for alias, spec in aliases.items() if spec.split("/")[0] in valid_codes})
    head = re.split(r"[\s/-]", key, maxsplit=1)[0]
    for candidate in (key, head):
        close = difflib.get_close_matches(candidate, list(names), n=1, cutoff=0.75)
        if close:
            found: str = names[close[0]]
            return found
    return None


def unknown_message(text: str, guess: str | None, regulations: str | None, codes: Iterable[str]) -> str:
    """ "unknown tie-break 'X'; did you mean 'BH'? Valid codes: ..." (the guess only when there is one;
    the rule set, when the codes are those of one)."""
    listing = ", ".join(sorted(codes))
    if regulations is None:
        if guess:
            return msg(
                "unknown tie-break {rule}; did you mean {guess}? Valid codes: {codes}",
                rule=repr(text),
                guess=repr(guess),
                codes=listing,
            )
        return msg("unknown tie-break {rule}; valid codes: {codes}", rule=repr(text), codes=listing)
    if guess:
        return msg(
            "unknown tie-break {rule}; did you mean {guess}? Valid codes under {regulations}: {codes}",
            rule=repr(text),
            guess=repr(guess),
            regulations=regulations,
            codes=listing,
        )
    return msg(
        "unknown tie-break {rule}; valid codes under {regulations}: {codes}",
        rule=repr(text),
        regulations=regulations,
        codes=listing,
    )


def code_of(norm: str) -> str | None:
    """The code of a normalised spec, or None when it is not of the spec form."""
    m = _SPEC.match(norm)
    return m[1] if m else None


def parse_rule(
    text: str,
    valid_codes: dict[str, frozenset[str]],
    path: Path = (),
    aliases: dict[str, str] = FIDE_ALIASES,
    fallback: dict[str, str] | None = USCF_ALIASES,
    scores: bool = False,
) -> RuleSpec:
    """Parse a rule spec string. `valid_codes` maps each code to the modifier letters it takes;
    `scores`: the event is a team event, where `:MP`/`:GP` name the reference score."""
    norm = normalise(text, aliases, fallback)
    m = _SPEC.match(norm)
    if not m or m[1] not in valid_codes:
        raise UnknownTiebreak(
            [Issue(path, unknown_message(text, suggest(text, valid_codes, aliases), None, valid_codes))]
        )
    code = m[1]
    if m[2] and not scores:
        raise InvalidRequest(
            [
                Issue(
                    path,
                    msg(
                        "{rule}: :{score} names a team score (match or game points); this is not a team event",
                        rule=repr(text),
                        score=m[2],
                    ),
                )
            ]
        )
    mods = [part for part in m[3].split("/") if part]
    spec = build_rule(code, mods, valid_codes[code], path, text)
    return spec if not m[2] else dataclasses.replace(spec, score=m[2])


def build_rule(code: str, modifiers: list[str], allowed: frozenset[str], path: Path, original: str) -> RuleSpec:
    """The spec of `code` with its modifiers, read one by one; a later one of the same
    letter replaces an earlier one. `original` is the rule as written, for the messages."""
    fields: dict[str, Any] = {}
    for mod in modifiers:
        fields.update(_modifier(code, mod, allowed, path, original))
    if fields.get("cut") and fields.get("median"):
        raise InvalidRequest([Issue(path, msg("{rule}: use either Cut or Median, not both", rule=repr(original)))])
    return RuleSpec(code, **fields)


# Modifiers that are a letter alone: P forfeits as played, F Fore Buchholz in SSSC (C.07 13.4),
# R Koya's maximum over every round, W DE's whole group.
_FLAGS = {"P": "forfeits_played", "F": "fore", "R": "all_rounds", "W": "whole_group"}


def _modifier(code: str, mod: str, allowed: frozenset[str], path: Path, original: str) -> dict[str, Any]:
    """The RuleSpec fields one modifier sets: a flag, a Koya limit (L), SSSC's factor (K), a cut (C) or median (M)."""
    letter, digits = mod[0], mod[1:]
    rule = repr(original)
    if letter not in allowed:
        allowed_text = ", ".join(sorted(allowed)) or "none"
        text = msg(
            "{rule}: {code} does not take modifier {letter} (allowed: {allowed})",
            rule=rule,
            code=code,
            letter=letter,
            allowed=allowed_text,
        )
        raise InvalidRequest([Issue(path, text)])
    if letter in _FLAGS:
        if digits:
            raise InvalidRequest(
                [Issue(path, msg("{rule}: modifier {letter} takes no number", rule=rule, letter=letter))]
            )
        return {_FLAGS[letter]: True}
    if letter == "L":
        limit, limit_steps = _koya_limit(digits, path, original)
        return {"limit": limit, "limit_steps": limit_steps}
    if not digits:
        text = msg("{rule}: modifier {letter} needs a number, e.g. {letter}1", rule=rule, letter=letter)
        raise InvalidRequest([Issue(path, text)])
    n = int(digits)
    if letter == "K":  # SSSC's normalising factor (C.07 13.4)
        if not 1 <= n <= MAX_FACTOR:
            text = msg("{rule}: K{number} out of range 1..{max_factor}", rule=rule, number=n, max_factor=MAX_FACTOR)
            raise InvalidRequest([Issue(path, text)])
        return {"factor": n}
    if not 1 <= n <= MAX_CUT:
        text = msg(
            "{rule}: {letter}{number} out of range 1..{max_cut}", rule=rule, letter=letter, number=n, max_cut=MAX_CUT
        )
        raise InvalidRequest([Issue(path, text)])
    return {"cut": n} if letter == "C" else {"median": n}


# Unsigned 1..9 are half points as the checklist writes them; 0 and from 10 up, percentages (the alias).
FIRST_PERCENT_LIMIT = 10
MAX_LIMIT_STEPS = 400  # two hundred points either way: beyond any event, bounded so bad input stays cheap


def _koya_limit(digits: str, path: Path, original: str) -> tuple[int | None, int | None]:
    """(percent, half-point steps) of a Koya `L` modifier: `L+1`, `L-2`, `L1` move the 50 % limit
    by half points (C.07 14.5); `L0`, `L40` and `L40%` are the limit in percent (decision 0059)."""
    m = re.fullmatch(r"([+-]?)([0-9]+)(%?)", digits)
    if m is None:
        raise InvalidRequest(
            [
                Issue(
                    path,
                    msg("{rule}: modifier L needs a number, e.g. L+1 or L-1 (half points)", rule=repr(original)),
                )
            ]
        )
    sign, n, percent = m[1], int(m[2]), m[3]
    if percent or (not sign and not 0 < n < FIRST_PERCENT_LIMIT):
        if not 0 <= n <= 100:
            raise InvalidRequest(
                [Issue(path, msg("{rule}: a Koya limit in percent must be 0..100", rule=repr(original)))]
            )
        return n, None
    if n > MAX_LIMIT_STEPS:
        raise InvalidRequest(
            [
                Issue(
                    path,
                    msg(
                        "{rule}: a Koya limit moves at most {max_limit_steps} half points from 50 %",
                        rule=repr(original),
                        max_limit_steps=MAX_LIMIT_STEPS,
                    ),
                )
            ]
        )
    return None, -n if sign == "-" else n


def modifiers_text(spec: RuleSpec) -> Joined:
    """The modifiers of a spec in words, as a rule's display name ends: " Cut-1", ", forfeits as played"
    (Cut-n and Median-n are notation, the same in every language)."""
    parts: list[str] = []
    if spec.cut:
        parts.append(f" Cut-{spec.cut}")
    if spec.median:
        parts.append(f" Median-{spec.median}")
    if spec.limit is not None:
        parts.append(msg(" (limit {limit} %)", limit=spec.limit))
    if spec.limit_steps:
        steps = abs(spec.limit_steps)
        if spec.limit_steps > 0:
            parts.append(msg_n(" (limit {n} half point above 50 %)", " (limit {n} half points above 50 %)", steps))
        else:
            parts.append(msg_n(" (limit {n} half point below 50 %)", " (limit {n} half points below 50 %)", steps))
    if spec.factor is not None:
        parts.append(msg(", factor {factor}", factor=str(spec.factor)))
    if spec.all_rounds:
        parts.append(msg(", maximum over all rounds"))
    if spec.whole_group:
        parts.append(msg(", the whole group's games"))
    if spec.forfeits_played:
        parts.append(msg(", forfeits as played"))
    if spec.fore:
        parts.append(msg(", Fore Buchholz"))
    return Joined(*parts)
