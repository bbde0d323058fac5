"""The team tie-break catalogue: one entry per code a team event accepts.

The individual rules of C.07 6-9 are listed with the team computation (on the table of
their reference score, `:MP` or `:GP`); the team-only rules of C.07 12-13 beside them.
The rating rules (C.07 10) are accepted and always dropped with a warning: a team has
no rating of its own.
"""

from __future__ import annotations

import dataclasses

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..contributions import RuleOutcome
from ..errors import InvalidRequest, Issue, Path, UnknownTiebreak
from ..families import buchholz, direct_encounter, koya, progressive, sonneborn_berger
from .. import swiss_manager
from ..interop import TEAM_SPELLINGS, refused_rule
from ..model import Regulations
from ..registry import TIEBREAKS
from ...texts.message import Joined, msg
from ..rules import FIDE_ALIASES, RuleSpec, modifiers_text, parse_rule
from . import families as f

FIDE = frozenset({Regulations.FIDE_2026, Regulations.FIDE_2024})
TEAM_REGULATIONS = FIDE


@dataclass(frozen=True, slots=True)
class TeamRule:
    code: str
    name: str
    article: str  # C.07
    modifiers: frozenset[str]
    compute: Callable[..., RuleOutcome]
    description: str
    takes_score: bool = False  # accepts :MP / :GP (the reference score)
    team_only: bool = True  # no individual meaning
    needs_groups: bool = False
    rating_based: bool = False
    opponent_scores: bool = False  # the Buchholz family: not for round robins (note to C.07 8)
    lower_is_better: bool = False
    regulations: frozenset[Regulations] = FIDE
    dropped_why: str | None = None  # a rule with no team meaning: accepted, always dropped with this reason

    @property
    def citation(self) -> str:
        return f"C.07 {self.article}".strip()


def _on_score(code: str, name: str, article: str, compute: Callable[..., RuleOutcome], description: str) -> TeamRule:
    """A count or sum over the team's own results, on its reference score (`:MP` or `:GP`)."""
    return TeamRule(code, name, article, frozenset(), compute, description, takes_score=True, team_only=False)


def _from_individual(code: str, compute: Callable[..., RuleOutcome], description: str, **fields: Any) -> TeamRule:
    """An individual rule in a team event: its name, article and modifiers as the individual registry has them."""
    entry = TIEBREAKS[code]
    return TeamRule(code, entry.name, entry.article, entry.modifiers, compute, description, team_only=False, **fields)


def _individual(code: str, compute: Callable[..., RuleOutcome], description: str) -> TeamRule:
    """An individual rule of C.07 6-9 on a team's reference score."""
    entry = TIEBREAKS[code]
    return _from_individual(
        code,
        compute,
        description,
        takes_score=True,
        needs_groups=entry.needs_groups,
        opponent_scores=entry.opponent_scores,
        lower_is_better=entry.lower_is_better,
    )


def _no_team_meaning(code: str, description: str, why: str, rating_based: bool = False) -> TeamRule:
    """An individual rule a team event accepts and always drops, saying `why`."""
    return _from_individual(code, f.no_team_meaning, description, rating_based=rating_based, dropped_why=why)


_ENTRIES = (
    _on_score(
        "PTS",
        msg("Points"),
        "7.1",
        f.points,
        msg(
            "The team's score: match points, or game points with `:GP`. A rule list led by `PTS:GP` makes "
            "game points the primary score."
        ),
    ),
    TeamRule(
        "MPvGP",
        msg("Secondary score"),
        "13.1",
        frozenset(),
        f.secondary_score,
        msg("Game points when match points are primary, match points when game points are."),
    ),
    *(
        _individual(code, f.on_reference(compute), description)
        for code, compute, description in (
            (
                "BH",
                buchholz.buchholz,
                msg(
                    "Sum of the opponents' scores on the reference score (`:MP` match points, `:GP` game points; default the primary score), with a dummy opponent for each own unplayed round (16.4)."
                ),
            ),
            (
                "FB",
                buchholz.fore_buchholz,
                msg(
                    "Buchholz as if every match of the last round had been drawn on the reference score (`:MP` match points, `:GP` game points; default the primary score)."
                ),
            ),
            (
                "AOB",
                buchholz.average_of_opponents_buchholz,
                msg(
                    "Mean Buchholz of the opponents met over the board on the reference score (`:MP` match points, `:GP` game points; default the primary score), to two decimals."
                ),
            ),
            (
                "SB",
                sonneborn_berger.sonneborn_berger,
                msg(
                    "Sonneborn-Berger on the reference score (`:MP` match points, `:GP` game points; default the primary score): SB:MP is EMMSB, SB:GP is EGGSB."
                ),
            ),
            (
                "PS",
                progressive.progressive,
                msg(
                    "Progressive score on the reference score (`:MP` match points, `:GP` game points; default the primary score)."
                ),
            ),
            (
                "KS",
                koya.koya,
                msg(
                    "Koya on the reference score (`:MP` match points, `:GP` game points; default the primary score): points scored against teams on at least the limit (50 %) of the maximum."
                ),
            ),
            (
                "DE",
                direct_encounter.direct_encounter,
                msg(
                    "Direct encounter on the primary score (or `:MP`/`:GP`) inside the group tied on all earlier "
                    "rules; 0 when it does not separate."
                ),
            ),
        )
    ),
    _on_score(
        "WIN",
        msg("Number of matches won"),
        "7.2",
        f.matches_won,
        msg(
            "Matches that brought the match points of a win, played or not (forfeit win, full-point bye; "
            "the pairing-allocated bye only when worth a win)."
        ),
    ),
    _on_score(
        "WON",
        msg("Matches won over the board"),
        "7.3",
        f.matches_won_played,
        msg("Matches won over the board."),
    ),
    _on_score(
        "GE",
        msg("Matches elected to play"),
        "7.6",
        f.games_elected,
        msg(
            "Matches played plus rounds scored without play that the team did not decline (PAB, forfeit win, "
            "full-point bye)."
        ),
    ),
    _on_score(
        "STD",
        msg("Standard points"),
        "7.7",
        f.standard_points,
        msg("Per match 1 won, ½ drawn, 0 lost, by its match points."),
    ),
    TeamRule(
        "TPN",
        msg("Team pairing number"),
        "",
        frozenset(),
        f.pairing_number,
        msg("The team pairing number: a last resort that always separates."),
        team_only=False,
        lower_is_better=True,
    ),
    *(
        TeamRule(code, name, "13.2", frozenset("CP"), f.extended_sonneborn_berger, description)
        for code, name, description in (
            (
                "ESB",
                msg("Extended Sonneborn-Berger"),
                msg("EMGSB when match points are primary, EGMSB when game points are."),
            ),
            (
                "EMMSB",
                msg("Extended Sonneborn-Berger (MP × MP)"),
                msg("Per opponent its match points × the match points scored against it; SB:MP."),
            ),
            (
                "EMGSB",
                msg("Extended Sonneborn-Berger (MP × GP)"),
                msg(
                    "Per opponent its match points × the game points scored against it (the Olympiad's "
                    "'Sonneborn-Berger'). Cuts remove the opponent with the lowest total first (14.1.2)."
                ),
            ),
            (
                "EGMSB",
                msg("Extended Sonneborn-Berger (GP × MP)"),
                msg("Per opponent its game points × the match points scored against it."),
            ),
            (
                "EGGSB",
                msg("Extended Sonneborn-Berger (GP × GP)"),
                msg("Per opponent its game points × the game points scored against it; SB:GP."),
            ),
        )
    ),
    *(
        TeamRule(
            code,
            name,
            "13.3",
            frozenset("P") if code == "EDE" else frozenset(),
            f.extended_direct_encounter,
            description,
            needs_groups=True,
            lower_is_better=True,
        )
        for code, name, description in (
            (
                "EDE",
                msg("Extended direct encounter"),
                msg(
                    "Inside the group tied on all earlier rules: the matches between them on the primary score, then "
                    "on the secondary, until neither separates more; the place in the group, 0 when it separates no one."
                ),
            ),
            (
                "EDEC",
                msg("Extended direct encounter, then board count"),
                msg("EDE, then for exactly two teams still tied the board count of their match(es)."),
            ),
            (
                "EDET",
                msg("Extended direct encounter, then top-board result"),
                msg("EDE, then for exactly two teams still tied the top-board result of their match(es)."),
            ),
            (
                "EDEB",
                msg("Extended direct encounter, then bottom-board elimination"),
                msg("EDE, then for exactly two teams still tied bottom-board elimination in their match(es)."),
            ),
            (
                "EDEBT",
                msg("Extended direct encounter, then board count and top-board result"),
                msg(
                    "EDE, then for exactly two teams still tied board count, then top-board result, of their match(es)."
                ),
            ),
            (
                "EDEBB",
                msg("Extended direct encounter, then board count and bottom-board elimination"),
                msg(
                    "EDE, then for exactly two teams still tied board count, then bottom-board elimination, of their "
                    "match(es)."
                ),
            ),
        )
    ),
    TeamRule(
        "SSSC",
        msg("Score-strength combination"),
        "13.4",
        frozenset("KPF"),
        f.score_strength,
        msg(
            "Secondary score + Buchholz on the primary score ÷ the normalising factor (the highest primary "
            "score achievable ÷ the highest secondary score of one match, rounded down; `/K<n>` sets it), to two "
            "decimals; `/P` forfeits as played, `/F` Fore Buchholz."
        ),
        opponent_scores=True,
    ),
    TeamRule(
        "BC",
        msg("Board count"),
        "12.1",
        frozenset(),
        f.board_count,
        msg(
            "Σ board number × game points on that board over the event (with equal game points, the points made "
            "on higher boards count less). A knock-out rule: in a Swiss use it inside an EDE chain (EDEC, EDEBT, "
            "EDEBB)."
        ),
        lower_is_better=True,
    ),
    TeamRule(
        "TBR",
        msg("Top-board result"),
        "12.2",
        frozenset(),
        f.board_elimination,
        msg(
            "Inside the group tied on all earlier rules: game points on board 1 over the event, then board 2, ...; "
            "the place in the group."
        ),
        needs_groups=True,
        lower_is_better=True,
    ),
    TeamRule(
        "BBE",
        msg("Bottom-board elimination"),
        "12.3",
        frozenset(),
        f.board_elimination,
        msg(
            "Inside the group tied on all earlier rules: game points on all boards but the last, then all but the "
            "last two, ...; the place in the group."
        ),
        needs_groups=True,
        lower_is_better=True,
    ),
    *(
        _no_team_meaning(
            code,
            msg("A rating rule: no team meaning; always dropped with a warning."),
            msg("rating-based rules have no team meaning (C.07 10)"),
            rating_based=True,
        )
        # C.07 10: the rating rules of the FIDE editions, as the individual registry marks them
        for code, entry in TIEBREAKS.items()
        if entry.rating_based and entry.regulations & FIDE
    ),
    *(
        _no_team_meaning(
            code,
            msg("Colours belong to the boards, not to a team: no team meaning; always dropped with a warning."),
            msg("colours belong to the boards, not to a team"),
        )
        for code in ("BPG", "BWG")
    ),
)

TEAM_TIEBREAKS: dict[str, TeamRule] = {t.code: t for t in _ENTRIES}
KNOCKOUT_RULES = frozenset({"BC", "TBR", "BBE"})

# Spellings of team rules (matched after lower-casing), beside the individual ones.
TEAM_ALIASES = {
    **FIDE_ALIASES,
    "match points": "PTS:MP",
    "game points": "PTS:GP",
    "mpvgp": "MPVGP",
    "board count": "BC",
    "top board result": "TBR",
    "top-board result": "TBR",
    "bottom board elimination": "BBE",
    "bottom-board elimination": "BBE",
    "extended sonneborn-berger": "ESB",
    "extended sonneborn berger": "ESB",
    "extended direct encounter": "EDE",
    "olympiad sonneborn-berger": "EMGSB",
    "olympiad sonneborn berger": "EMGSB",
    **{name.lower(): spec for name, spec in TEAM_SPELLINGS.items()},  # the FIDE reference's MPTS, GPTS, EDGE
}
# The codes as the parser sees them (upper case); MPvGP is echoed with its lower-case v.
_PARSE_CODES = {("MPVGP" if t.code == "MPvGP" else t.code): t.modifiers for t in _ENTRIES}


def team_aliases(code: str) -> list[str]:
    """The spellings that name this rule without modifiers or reference score."""
    return sorted(
        alias for alias, spec in TEAM_ALIASES.items() if spec in (code, code.upper()) and alias != code.lower()
    )


def parse_team_rule(text: str, regulations: Regulations | None, path: Path = ()) -> RuleSpec:
    """A rule string of a team event: a team code or an individual one, `:MP`/`:GP` where it takes one."""
    if regulations is not None and regulations not in TEAM_REGULATIONS:
        raise UnknownTiebreak(
            [Issue(("regulations",), f"team events are ranked under fide-2026 or fide-2024, not {regulations.value}")]
        )
    if (numbered := swiss_manager.spec_of(text, True, regulations, path)) is not None:
        return parse_team_rule(numbered, regulations, path)
    if (refused := refused_rule(text, team=True)) is not None:
        raise UnknownTiebreak([Issue(path, refused)])
    head, slash, rest = text.strip().partition("/")
    if head.upper() in TEAM_SPELLINGS:  # the reference's MPTS/C1: PTS:MP/C1
        text = TEAM_SPELLINGS[head.upper()] + slash + rest
    try:
        spec = parse_rule(text, _PARSE_CODES, path, TEAM_ALIASES, None, scores=True)
    except UnknownTiebreak:
        raise UnknownTiebreak(
            [
                Issue(
                    path,
                    f"unknown team tie-break {text!r}; valid codes for team events: "
                    f"{', '.join(sorted(TEAM_TIEBREAKS))}",
                )
            ]
        ) from None
    if spec.code == "MPVGP":
        spec = dataclasses.replace(spec, code="MPvGP")
    entry = TEAM_TIEBREAKS[spec.code]
    if spec.score and not entry.takes_score:
        raise InvalidRequest([Issue(path, f"{text!r}: {spec.code} takes no reference score (:MP or :GP)")])
    return spec


def check_team_rule_set(specs: list[RuleSpec], root: str = "tiebreaks") -> None:
    """Every rule must be a team rule (specs built without `parse_team_rule`, e.g. presets)."""
    for i, spec in enumerate(specs):
        if spec.code not in TEAM_TIEBREAKS:
            raise UnknownTiebreak(
                [
                    Issue(
                        (root, i),
                        (f"{spec} is not a rule for team events; valid codes: {', '.join(sorted(TEAM_TIEBREAKS))}"),
                    )
                ]
            )


def team_display_name(spec: RuleSpec) -> str:
    name = TEAM_TIEBREAKS[spec.code].name
    if spec.score:
        return Joined(
            name, msg(" (match points)") if spec.score == "MP" else msg(" (game points)"), modifiers_text(spec)
        )
    return Joined(name, modifiers_text(spec))
