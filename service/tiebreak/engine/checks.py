"""Rule-list checks: what an arbiter should know about the rule list and the request.

Each check returns warnings with the article they rest on. They never change a
number: the standings are computed as asked.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..texts.message import Joined, msg, msg_n
from .contributions import RuleOutcome
from .model import Regulations, ResultKind, System, Tournament
from .table import ABSENT, Table
from .registry import TIEBREAKS
from .rules import RuleSpec


@dataclass(frozen=True, slots=True)
class Warning:
    code: str
    message: str
    rule: str | None = None  # the regulation article


def _same_rule(spec: RuleSpec) -> RuleSpec:
    """Specs that compute the same values compare equal (KS and KS/L50 are one rule)."""
    if spec.code == "KS" and (spec.limit == 50 or spec.limit_steps == 0):
        return RuleSpec("KS", spec.cut, spec.median, None, spec.forfeits_played)
    return spec


def buchholz_in_round_robin(family: list[RuleSpec]) -> list[Warning]:
    """The Buchholz family's rules of a round robin's list, which the note to C.07 8 advises against."""
    if not family:
        return []
    rules = ", ".join(map(str, family))
    return [
        Warning(
            "buchholz-in-round-robin", msg("{rules} should not be used in a round robin", rules=rules), "C.07 8, note"
        )
    ]


def rule_list_checks(specs: list[RuleSpec], table: Table, regulations: Regulations) -> list[Warning]:
    """Checks of the rule list itself, before anything is computed."""
    warnings: list[Warning] = []
    fide = regulations is not Regulations.USCF
    if table.system is System.ROUND_ROBIN and fide:
        warnings += buchholz_in_round_robin([s for s in specs if TIEBREAKS[s.code].opponent_scores])
    seen: dict[RuleSpec, int] = {}
    article = "C.07 4.1" if fide else "US Chess 34E"
    for i, spec in enumerate(specs):
        same = _same_rule(spec)
        if spec.code == "PTS":
            warnings.append(
                Warning(
                    "redundant-tiebreak",
                    msg(
                        "tiebreaks[{index}] {spec}: the standings are ordered by points first, "
                        "so PTS cannot separate anyone",
                        index=i,
                        spec=str(spec),
                    ),
                    article,
                )
            )
        elif same in seen:
            warnings.append(
                Warning(
                    "duplicate-tiebreak",
                    msg(
                        "tiebreaks[{index}] {spec} repeats tiebreaks[{first}]: players it would separate were "
                        "already separated by the first one, so it cannot separate anyone",
                        index=i,
                        spec=str(spec),
                        first=seen[same],
                    ),
                    article,
                )
            )
        else:
            seen[same] = i
    return warnings


def last_round_with_results(table: Table) -> int:
    """The last round (1-based) in which anyone has a result other than absent; 0 if none."""
    rounds_with_results = (table.kind != ABSENT).any(axis=0)
    return int(np.flatnonzero(rounds_with_results)[-1]) + 1 if rounds_with_results.any() else 0


_HAS_OPPONENT = np.zeros(max(k.code for k in ResultKind) + 1, dtype=bool)  # a game, played or forfeited
_HAS_OPPONENT[[k.code for k in ResultKind if k.has_opponent]] = True
_PAIRING_BYE = ResultKind.PAIRING_BYE.code


def last_round_played(tournament: Tournament) -> int:
    """The last round in which any game has a result (played or forfeited); 0 if none.

    Byes alone do not make a round played: byes requested for later rounds are often
    entered in advance. This is the default `after_round` of a tournament in progress."""
    columns = tournament.result_columns()
    rounds = np.asarray(columns.round, dtype=np.int64)[_HAS_OPPONENT[np.asarray(columns.kind, dtype=np.int64)]]
    return int(rounds.max()) if rounds.size else 0


def after_round_default(tournament: Tournament) -> tuple[int | None, Warning | None]:
    """`after_round` for a request that gives none: the last round played when results stop
    before the last scheduled round (a tournament in progress), with a warning saying so."""
    last = int(last_round_played(tournament))
    if not 0 < last < tournament.rounds:
        return None, None
    return last, Warning(
        "after-round-defaulted",
        msg(
            "results reach round {last} of {rounds}: standings after round {last}, the rounds after it are "
            "not counted as absences; give after_round to choose another round",
            last=last,
            rounds=tournament.rounds,
        ),
    )


def round_checks(table: Table, after_round: int | None, regulations: Regulations) -> list[Warning]:
    """Rounds counted that nobody has a result for: every player is absent in them."""
    last = last_round_with_results(table)
    if last >= table.played_rounds:
        return []
    article = "US Chess 34E1" if regulations is Regulations.USCF else "C.07 16"
    missing = f"{last + 1}" if last + 1 == table.played_rounds else f"{last + 1}-{table.played_rounds}"
    if after_round is not None:
        return [
            Warning(
                "after-round-beyond-results",
                msg(
                    "after_round is {after_round} but the last round with results is {last}: round(s) "
                    "{missing} count as unplayed for every player",
                    after_round=after_round,
                    last=last,
                    missing=missing,
                ),
                article,
            )
        ]
    return [
        Warning(
            "rounds-without-results",
            msg(
                "no results for round(s) {missing} of {rounds}: they count as unplayed for every player; "
                "give after_round {last} for standings after the last round played",
                missing=missing,
                rounds=table.rounds,
                last=last,
            ),
            article,
        )
    ]


def _entries(tournament: Tournament) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Each entry's player (index) and round, and the players' start numbers: from the adapters'
    flat columns and roster when there are (no Player object made), else from the result objects."""
    columns = tournament.columns
    if columns is None:
        players = tournament.players
        counts = np.fromiter((len(p.results) for p in players), np.int64, len(players))
        rounds = np.fromiter((r.round for p in players for r in p.results), np.int64, int(counts.sum()))
    else:
        counts = np.asarray(columns.counts, dtype=np.int64)
        rounds = np.asarray(columns.round, dtype=np.int64)
    roster = tournament.roster
    ids = roster.ids if roster is not None else [p.id for p in tournament.players]
    return np.repeat(np.arange(len(counts), dtype=np.int64), counts), rounds, ids


def missing_round_checks(tournament: Tournament, after_round: int | None, regulations: Regulations) -> list[Warning]:
    """Rounds two or more players have no entry for while a later round has one: counted as absent,
    but more likely a game the arbiter forgot to enter than a withdrawal. A lone gap is the odd
    player's unwritten bye of a round robin, not a game. One warning per such round."""
    last = after_round if after_round is not None else tournament.rounds
    owners, rounds, ids = _entries(tournament)
    kept = (rounds >= 1) & (rounds <= last)
    entered = np.zeros((len(ids), last + 1), dtype=bool)
    entered[owners[kept], rounds[kept]] = True
    latest = np.where(entered.any(axis=1), last - np.argmax(entered[:, ::-1], axis=1), 0)
    gaps = ~entered & (np.arange(last + 1) < latest[:, None])
    gaps[:, 0] = False  # there is no round 0
    missing_by_round = {
        int(rnd): [ids[p] for p in np.flatnonzero(gaps[:, rnd]).tolist()]
        for rnd in np.flatnonzero(gaps.sum(axis=0) >= 2)
    }
    article = "US Chess 34E1" if regulations is Regulations.USCF else "C.07 16"
    return [
        Warning(
            "round-missing",
            msg(
                "round {round} has no entry for player(s) {players}, who have results in later rounds: "
                "counted as absent; give the round's result if it was played",
                round=rnd,
                players=", ".join(map(str, sorted(ids))),
            ),
            article,
        )
        for rnd, ids in sorted(missing_by_round.items())
        if len(ids) >= 2
    ]


def group_checks(outcomes: list[RuleOutcome], table: Table) -> list[Warning]:
    """Informational: tie groups that DE (or US Chess RBT) could not separate because
    their members did not all meet; one warning per rule, naming every group."""
    warnings: list[Warning] = []
    for outcome in outcomes:
        if not outcome.unresolved:
            continue
        entry = TIEBREAKS[outcome.spec.code]
        # One warning per rule, every group in it: a large Swiss has many such groups.
        groups = sorted((sorted(table.ids[p] for p in group) for group in outcome.unresolved), key=lambda g: g[0])
        listing = Joined(*(part for k, ids in enumerate(groups) for part in ("; " if k else "", _players(ids))))
        warnings.append(
            Warning(
                "direct-encounter-not-applicable",
                msg_n(
                    "{spec}: {n} tie group did not all meet, and the games they did play do not separate "
                    "them; the next rule decides: {groups}",
                    "{spec}: {n} tie groups did not all meet, and the games they did play do not separate "
                    "them; the next rule decides: {groups}",
                    len(groups),
                    spec=str(outcome.spec),
                    groups=listing,
                ),
                entry.citation,
            )
        )
    return warnings


# Rules whose value is a list of per-round contributions that a Cut or Median shortens.
def _players(ids: list[int]) -> str:
    return msg("players {players}", players=", ".join(map(str, ids)))


_PER_ROUND = frozenset({"BH", "FB", "SB", "ARO", "PS"})


def modifier_checks(specs: list[RuleSpec], played_rounds: int) -> list[Warning]:
    """A Cut or Median that removes as many values as there are rounds leaves nothing to compare."""
    warnings = []
    for i, spec in enumerate(specs):
        removed = spec.cut + 2 * spec.median
        if spec.code in _PER_ROUND and removed and removed >= played_rounds:
            warnings.append(
                Warning(
                    "cut-removes-every-round",
                    msg(
                        "tiebreaks[{index}] {spec} removes {removed} value(s) but the standings cover "
                        "{rounds} round(s): every player's value is 0, so it separates nobody",
                        index=i,
                        spec=str(spec),
                        removed=removed,
                        rounds=played_rounds,
                    ),
                    "C.07 14",
                )
            )
    return warnings


def pairing_bye_checks(tournament: Tournament, played_rounds: int) -> list[Warning]:
    """More than one pairing-allocated bye in a round: a pairing gives at most one (an odd player out),
    so the others are most likely full- or half-point byes entered as the wrong kind."""
    columns = tournament.result_columns()
    rounds = np.asarray(columns.round, dtype=np.int64)
    byes = np.flatnonzero((np.asarray(columns.kind) == _PAIRING_BYE) & (rounds <= played_rounds))
    per_round: dict[int, list[int]] = {}
    if byes.size:
        owners = np.searchsorted(np.cumsum(np.asarray(columns.counts, dtype=np.int64)), byes, side="right")
        for flat, owner in zip(byes.tolist(), owners.tolist(), strict=True):
            per_round.setdefault(int(rounds[flat]), []).append(tournament.players[owner].id)
    return [
        Warning(
            "several-pairing-byes",
            msg(
                "round {round} has {count} pairing-allocated byes (players {players}); a pairing gives at most "
                "one, so the others are probably full_bye or half_bye (which count differently in 16.2)",
                round=rnd,
                count=len(ids),
                players=", ".join(map(str, sorted(ids))),
            ),
            "C.07 16.2",
        )
        for rnd, ids in sorted(per_round.items())
        if len(ids) > 1
    ]
