"""The arbiter's decisions the ranking applies: expelled players, play-offs, and the warnings a
changed rule list or a long event with rating rules call for (SPEC 3.12)."""

from __future__ import annotations

import numpy as np

from ..texts.message import msg
from .checks import Warning
from .decisions import Decisions
from .errors import InvalidRequest, Issue
from .model import Tournament
from .registry import TIEBREAKS
from .rules import RuleSpec
from .table import HAS_OPPONENT, Table

LONG_EVENT_DAYS = 30  # the checklist advises against rating-based rules in events longer than this


def expelled_rows(table: Table, tournament: Tournament) -> np.ndarray | None:
    """Per player, 1 for an expelled one (ranked after everyone, with no rank), else 0; None when no
    one is. An expelled player is in the crosstable as one who withdrew after the round given
    (C.07 16: the rounds after are unplayed, for them and for their opponents' rules), so a game
    after that round contradicts the request."""
    if not tournament.expelled:
        return None
    at = table.index_of_id()
    flags = np.zeros(table.size, dtype=np.int64)
    issues = []
    for pid, last in tournament.expelled.items():
        p = at[pid]
        flags[p] = 1
        later = np.flatnonzero(HAS_OPPONENT[table.kind[p, last:]]).tolist()
        if later:
            issues.append(
                Issue(
                    ("tournament", "players", p, "expelled_after_round"),
                    msg(
                        "player {id} was expelled after round {round} but has a game in round {later}",
                        id=pid,
                        round=last,
                        later=last + later[0] + 1,
                    ),
                )
            )
    if issues:
        raise InvalidRequest(issues)
    return flags


def playoff_key(table: Table, decisions: Decisions, expelled: np.ndarray | None) -> np.ndarray | None:
    """The sort key of the play-offs (C.07 3), applied after points and before every tie-break:
    each play-off's participants in its order, ahead of the players tied with them who did not
    play it off (a play-off decides the top places of a tie, C.07 3.1.1-3.1.2); 0 for everyone
    else. The participants must be tied on points."""
    if not decisions.playoffs:
        return None
    at = table.index_of_id()
    key = np.zeros(table.size, dtype=np.int64)
    issues: list[Issue] = []
    seen: set[int] = set()
    for k, order in enumerate(decisions.playoffs):
        path = ("playoffs", k, "order")
        unknown = [pid for pid in order if pid not in at]
        repeated = [pid for pid in order if pid in seen or order.count(pid) > 1]
        seen.update(order)
        if unknown or repeated or len(order) < 2:
            issues.append(
                Issue(
                    path,
                    msg("a play-off names two or more players of the event, each once")
                    if not unknown
                    else msg("no player has start number {id}", id=unknown[0]),
                )
            )
            continue
        rows = [at[pid] for pid in order]
        if len({table.scores[p] for p in rows}) > 1:
            issues.append(Issue(path, msg("the players of a play-off must be tied on points (C.07 3)")))
            continue
        if expelled is not None and expelled[rows].any():
            issues.append(Issue(path, msg("an expelled player cannot take part in a play-off")))
            continue
        for i, p in enumerate(rows):
            key[p] = i - len(rows)  # smaller sorts first: the winner most negative
    if issues:
        raise InvalidRequest(issues)
    return key


def decision_warnings(tournament: Tournament, specs: list[RuleSpec], decisions: Decisions) -> list[Warning]:
    """What the checklist asks a program to tell the arbiter: a rule list changed after the start
    (C.07 4.1.1: the list is published before the start) and rating rules in a long event."""
    warnings = []
    for change in decisions.tiebreak_changes:
        warnings.append(
            Warning(
                "tiebreaks-changed",
                msg(
                    "the tie-break list was changed from round {round} on (before: {previous}); it should be "
                    "published before the start",
                    round=change.from_round,
                    previous=", ".join(change.previous) or "-",
                ),
                "C.07 4.1.1",
            )
        )
    start, end = tournament.start_date, tournament.end_date
    rating_rules = [spec for spec in specs if TIEBREAKS[spec.code].rating_based]
    if start is not None and end is not None and (end - start).days > LONG_EVENT_DAYS and rating_rules:
        warnings.append(
            Warning(
                "long-event-rating-tiebreaks",
                msg(
                    "the event lasts {days} days (more than {limit}): rating-based rules ({rules}) are advised "
                    "against; ratings.per_round counts each game with the rating in force in its round",
                    days=(end - start).days,
                    limit=LONG_EVENT_DAYS,
                    rules=", ".join(map(str, rating_rules)),
                ),
                "C.02 VCL4THP.13",
            )
        )
    return warnings
