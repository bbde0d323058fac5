"""Standings of a team event: the entry point, the rule-list checks, the presets.

The same fold as for individuals (`ranking.rank`): the primary score first, then each
rule in order, the group rules inside the groups the earlier rules leave.
"""

from __future__ import annotations

import dataclasses

from collections.abc import Collection
from dataclasses import dataclass

from ..checks import Warning, buchholz_in_round_robin, round_checks
from ..contributions import Contribution, Explanation, RuleOutcome
from ..errors import Issue, UnknownTiebreak
from ..model import FIDE_2026_START, Regulations, System
from ..ranking import rank
from ..rules import RuleSpec
from ..standings import Standings, _rows, cyclic_gc_paused
from .build import TeamTables, build_team_tables
from .context import TeamContext
from .model import Score, TeamTournament
from .registry import KNOCKOUT_RULES, TEAM_REGULATIONS, TEAM_TIEBREAKS, check_team_rule_set
from ...texts.message import msg

__all__ = ["TeamStandings", "compute_team_standings", "primary_score", "resolve_team_regulations"]

# The individual families name a round's contribution by what a player had; a team had a match.
TEAM_KINDS = {"game": "match", "forfeit": "forfeited_match"}


@dataclass(slots=True)
class TeamStandings(Standings):
    """Standings whose rows are teams; `table` is the primary score's table."""

    tables: TeamTables | None = None
    primary: Score = Score.MP

    def _built(self, rows: list[int]) -> list[Explanation]:
        built = Standings._built(self, rows)
        for explained in built:
            for row in explained.contributions:
                for c in row:
                    c.kind = TEAM_KINDS.get(c.kind, c.kind)
        return built


def primary_score(event: TeamTournament, specs: list[RuleSpec]) -> Score:
    """The event's primary score: as declared (TRF 192, `primary_score`), else `PTS:GP` leading
    the rule list makes it game points, else match points (C.07 11)."""
    if event.primary is not None:
        return event.primary
    if specs and specs[0].code == "PTS" and specs[0].score == "GP":
        return Score.GP
    return Score.MP


def resolve_team_regulations(requested: Regulations | None, event: TeamTournament) -> Regulations:
    """`None` is `auto`: fide-2026 unless the start date is known and before 1 March 2026."""
    if requested is None:
        if event.start_date is not None and event.start_date < FIDE_2026_START:
            return Regulations.FIDE_2024
        return Regulations.FIDE_2026
    if requested not in TEAM_REGULATIONS:
        raise UnknownTiebreak(
            [
                Issue(
                    ("regulations",),
                    msg(
                        "team events are ranked under fide-2026 or fide-2024 (C.07), not {requested}",
                        requested=requested.value,
                    ),
                )
            ]
        )
    return requested


def team_rule_list_checks(specs: list[RuleSpec], ctx: TeamContext) -> list[Warning]:
    """What an arbiter of a team event should know about the rule list; changes no number."""
    warnings: list[Warning] = []
    if ctx.table.system is System.ROUND_ROBIN:
        warnings += buchholz_in_round_robin([s for s in specs if TEAM_TIEBREAKS[s.code].opponent_scores])
    if ctx.table.system is System.SWISS:
        warnings += _knockout_in_swiss([s for s in specs if s.code in KNOCKOUT_RULES])
    warnings += _dropped(specs)
    warnings += _repeated(specs, ctx)
    return warnings


def _knockout_in_swiss(knockout: list[RuleSpec]) -> list[Warning]:
    """The board rules of a Swiss's list: C.07 12 made them for knock-out matches, 13.3 chains them after EDE."""
    if not knockout:
        return []
    return [
        Warning(
            "knockout-tiebreak-in-swiss",
            msg(
                "{rules} compare boards, which suits knock-out matches and round robins; "
                "in a Swiss use them inside an EDE chain (EDEC, EDET, EDEB, EDEBT, EDEBB)",
                rules=", ".join(map(str, knockout)),
            ),
            "C.07 12, 13.3",
        )
    ]


def _dropped(specs: list[RuleSpec]) -> list[Warning]:
    """Rules a team event accepts but cannot use: the rating rules (C.07 10), then the others with no team meaning."""
    warnings = []
    rating = [s for s in specs if TEAM_TIEBREAKS[s.code].rating_based]
    if rating:
        warnings.append(
            Warning(
                "rating-tiebreak-dropped",
                msg("{rules} dropped: rating-based rules have no team meaning", rules=", ".join(map(str, rating))),
                "C.07 10",
            )
        )
    other = [s for s in specs if TEAM_TIEBREAKS[s.code].dropped_why and not TEAM_TIEBREAKS[s.code].rating_based]
    if other:
        warnings.append(
            Warning(
                "tiebreak-not-for-teams",
                msg(
                    "{rules} dropped: {why}",
                    rules=", ".join(map(str, other)),
                    why=TEAM_TIEBREAKS[other[0].code].dropped_why,
                ),
                TEAM_TIEBREAKS[other[0].code].citation,
            )
        )
    return warnings


def _repeated(specs: list[RuleSpec], ctx: TeamContext) -> list[Warning]:
    """Rules that cannot separate anyone (C.07 4.1): PTS on the primary score after the first place, a rule given twice."""
    warnings = []
    seen: dict[RuleSpec, int] = {}
    for i, spec in enumerate(specs):
        same = dataclasses.replace(
            spec, score=ctx.score_of(spec).value if TEAM_TIEBREAKS[spec.code].takes_score else None
        )
        if spec.code == "PTS" and ctx.score_of(spec) is ctx.primary and i > 0:
            warnings.append(
                Warning(
                    "redundant-tiebreak",
                    msg(
                        "tiebreaks[{index}] {spec}: the standings are ordered by the primary score ({primary}) first, "
                        "so it cannot separate anyone",
                        index=i,
                        spec=str(spec),
                        primary=ctx.primary.value,
                    ),
                    "C.07 4.1",
                )
            )
        elif same in seen and spec.code != "PTS":
            warnings.append(
                Warning(
                    "duplicate-tiebreak",
                    msg(
                        "tiebreaks[{index}] {spec} repeats tiebreaks[{first}], so it cannot separate anyone",
                        index=i,
                        spec=str(spec),
                        first=seen[same],
                    ),
                    "C.07 4.1",
                )
            )
        else:
            seen.setdefault(same, i)
    return warnings


def _group_checks(outcomes: list[RuleOutcome], ctx: TeamContext) -> list[Warning]:
    table = ctx.table
    warnings = []
    for outcome in outcomes:
        for group in outcome.unresolved or []:
            ids = ", ".join(str(table.ids[p]) for p in sorted(group, key=table.ids.__getitem__))
            warnings.append(
                Warning(
                    "direct-encounter-not-applicable",
                    msg(
                        "{spec}: teams {teams} are tied but did not all meet, and the matches they did play do not "
                        "separate them; the next rule decides",
                        spec=str(outcome.spec),
                        teams=ids,
                    ),
                    TEAM_TIEBREAKS[outcome.spec.code].citation,
                )
            )
    return warnings


def compute_team_standings(
    event: TeamTournament,
    specs: list[RuleSpec],
    regulations: Regulations | None = None,
    after_round: int | None = None,
    explain: bool | Collection[int] = True,
    contribution: type = Contribution,
) -> TeamStandings:
    """Rank the teams by the primary score and then the rules in order.

    `explain` as for `compute_standings`: True every team's breakdown, False none, a
    collection of team ids only theirs.
    """
    with cyclic_gc_paused():
        applied = resolve_team_regulations(regulations, event)
        check_team_rule_set(specs)
        tables = build_team_tables(event, after_round)
        primary = primary_score(event, specs)
        ctx = TeamContext.of(tables, applied, primary, contribution)
        warnings = [Warning(code, message, None) for code, message in tables.warnings]
        warnings += team_rule_list_checks(specs, ctx)
        warnings += round_checks(ctx.table, after_round, applied)
        dropped = {s: TEAM_TIEBREAKS[s.code].dropped_why for s in specs if TEAM_TIEBREAKS[s.code].dropped_why}
        order, starts, keys, outcomes = rank(ctx, specs, dropped, TEAM_TIEBREAKS)
        warnings += _group_checks(outcomes, ctx)
        rows = _rows(ctx.table, order, starts, keys, outcomes)
        if primary is Score.GP:
            for row in rows:
                if row.decided_by == "PTS":
                    row.decided_by = "PTS:GP"
        standings = TeamStandings(ctx.table, applied, specs, outcomes, rows, warnings, tables=tables, primary=primary)
        if explain is True:
            standings.keep(range(ctx.table.size))
        elif explain is not False:
            wanted = set(explain)
            standings.keep(p for p, tid in enumerate(ctx.table.ids) if tid in wanted)
        return standings
