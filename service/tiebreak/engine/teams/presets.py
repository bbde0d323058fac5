"""Named rule lists for team events, each with its origin (FIDE publishes no default order, C.07 4.1)."""

from __future__ import annotations

from ...texts.message import msg
from ..errors import Issue, Path, UnknownTiebreak
from ..model import Regulations
from ..presets import Preset
from ..rules import RuleSpec
from .registry import FIDE, parse_team_rule

TEAM_PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        # Decision 0179: the Olympiad's order in C.07's rules, not the Olympiad regulations' own
        # computation, so the preset does not carry the Olympiad's name.
        Preset(
            "team-swiss-emgsb",
            ("PTS", "EMGSB/C1", "MPvGP", "BH:MP/C1"),
            msg(
                "C.07's rules in the order of the Chess Olympiad's tie-breaks (its Sonneborn-Berger without the lowest "
                "result, game points, the opponents' match points without the lowest); the Olympiad regulations "
                "compute their own versions, which count the cut and unplayed matches their own way, so this is not "
                "the Olympiad's ranking"
            ),
            msg("Match points; EMGSB Cut-1; game points; Buchholz on match points Cut-1."),
            FIDE,
        ),
        Preset(
            "team-swiss",
            ("PTS", "MPvGP", "BH:MP/C1", "EMGSB"),
            msg(
                "custom of team Swiss events ranked on match points: game points first, then the opposition's "
                "strength on match points"
            ),
            msg("Match points; game points; Buchholz on match points Cut-1; EMGSB."),
            FIDE,
        ),
        Preset(
            "team-round-robin",
            ("PTS", "MPvGP", "EDE", "EGGSB"),
            msg("custom of team round robins, where the Buchholz family must not be used (C.07 8, note)"),
            msg("Match points; game points; extended direct encounter; Sonneborn-Berger on game points."),
            FIDE,
        ),
    )
}


# Presets renamed because their name claimed a regulation they do not compute.
RENAMED = {"olympiad": "team-swiss-emgsb"}


def team_preset_specs(name: str, regulations: Regulations, path: Path = ("preset",)) -> list[RuleSpec]:
    """A team preset's rule list; a 400 naming the team presets for any other name."""
    chosen = TEAM_PRESETS.get(name)
    if name in RENAMED:
        raise UnknownTiebreak(
            [
                Issue(
                    path,
                    msg(
                        "preset {name} is now {new}: it is C.07's rules in the Chess Olympiad's order, not the "
                        "Olympiad regulations' own tie-breaks (decision 0179)",
                        name=repr(name),
                        new=repr(RENAMED[name]),
                    ),
                )
            ]
        )
    if chosen is None:
        raise UnknownTiebreak(
            [
                Issue(
                    path,
                    msg(
                        "unknown preset {name} for a team event; team presets: {presets}",
                        name=repr(name),
                        presets=", ".join(TEAM_PRESETS),
                    ),
                )
            ]
        )
    return [parse_team_rule(rule, regulations, path) for rule in chosen.rules]
