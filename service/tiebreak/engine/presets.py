"""Named rule lists (SPEC 3.6): a convenience for organisers, each with its origin.

FIDE publishes no default order (C.07 4.1: the organiser chooses and announces the
list before the tournament), so no preset is, or is called, "the FIDE default".
US Chess does name a default order: the first four systems players expect unless
another order was posted (rule 34E, "uscf-default").
"""

from __future__ import annotations

from dataclasses import dataclass

from ..texts.message import msg
from .errors import Issue, Path, UnknownTiebreak
from .model import Regulations
from .registry import FIDE, USCF, parse_spec
from .rules import RuleSpec


@dataclass(frozen=True, slots=True)
class Preset:
    name: str
    rules: tuple[str, ...]  # canonical specs
    origin: str
    description: str
    regulations: frozenset[Regulations]

    def specs(self, regulations: Regulations) -> list[RuleSpec]:
        return [parse_spec(rule, regulations, ("preset",)) for rule in self.rules]


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset(
            "fide-swiss-traditional",
            ("BH/C1", "BH"),
            msg(
                "custom of large FIDE-rated Swiss opens (C.07 lists the rules; the order is the organiser's, C.07 4.1)"
            ),
            msg("Buchholz Cut-1, then Buchholz."),
            FIDE,
        ),
        Preset(
            "club-swiss-5-7",
            ("BH/C1", "BH", "SB"),
            msg("custom of club Swiss tournaments of five to seven rounds"),
            msg("Buchholz Cut-1, Buchholz, then Sonneborn-Berger."),
            FIDE,
        ),
        Preset(
            "weekend-open",
            ("BH/C1", "BH/C2", "SB"),
            msg("custom of weekend opens, where late entries and byes make the lowest opponents least telling"),
            msg("Buchholz Cut-1, Buchholz Cut-2, then Sonneborn-Berger."),
            FIDE,
        ),
        Preset(
            "round-robin",
            ("DE", "SB", "KS", "WIN"),
            msg("custom of round robins, where the Buchholz family must not be used (C.07 8, note)"),
            msg("Direct encounter, Sonneborn-Berger, Koya, number of wins."),
            FIDE,
        ),
        Preset(
            "uscf-default",
            ("MM", "SOLK", "CUM", "OCUM"),
            msg("US Chess rule 34 default: the order players expect unless another was posted (34E)"),
            msg("Modified Median, Solkoff, Cumulative, Cumulative of opposition."),
            USCF,
        ),
        Preset(
            "school",
            ("WIN", "DE"),
            msg("custom of school and junior events: simple rules that children can check themselves"),
            msg("Number of wins, then direct encounter."),
            FIDE,
        ),
    )
}


def preset(name: str, path: Path = ("preset",)) -> Preset:
    try:
        return PRESETS[name]
    except KeyError:
        raise UnknownTiebreak(
            [Issue(path, msg("unknown preset {name}; presets: {presets}", name=repr(name), presets=", ".join(PRESETS)))]
        ) from None


def preset_specs(name: str, regulations: Regulations, path: Path = ("preset",)) -> list[RuleSpec]:
    """The preset's rule list under a rule set; a 400 when the preset is not for it."""
    chosen = preset(name, path)
    if regulations not in chosen.regulations:
        sets = ", ".join(sorted(r.value for r in chosen.regulations))
        raise UnknownTiebreak(
            [
                Issue(
                    path,
                    (
                        f"preset {name!r} is a rule list for {sets}, not for {regulations.value}; presets for "
                        f"{regulations.value}: {', '.join(p.name for p in PRESETS.values() if regulations in p.regulations)}"
                    ),
                )
            ]
        )
    return chosen.specs(regulations)
