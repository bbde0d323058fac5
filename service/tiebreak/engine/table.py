"""The participant table: one row of integer columns per participant, built once per request.

Per participant and round (numpy arrays of shape players × rounds counted):
opponent index (-1 for none), points in units of 1/`scale`, result kind (ResultKind.code)
and colour (0 none, 1 white, 2 black). Points are integers in units of 1/`scale`, the
least common denominator of every point value in play (2 for the usual 1-½-0), so half
and quarter points never drift. Every rule is a pass over these columns.

The table is validated while it is built: a crosstable that contradicts itself (A
played B but B did not play A) is refused with the place of each contradiction.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..texts.message import msg
from .errors import InconsistentCrosstable, Issue, InvalidRequest, Path
from .model import COMPLEMENT, ResultColumns, ResultKind, Scoring, System, Tournament

NO_OPPONENT = -1
KINDS: tuple[ResultKind, ...] = tuple(ResultKind)  # by code
WHITE, BLACK = 1, 2
COLOR_NAMES = {WHITE: "w", BLACK: "b"}
MAX_ISSUES = 100  # a hostile table is refused with the first hundred contradictions


def _kind_mask(test: Callable[[ResultKind], bool]) -> np.ndarray:
    return np.array([bool(test(k)) for k in KINDS])


# Lookups by kind code, used as IS_PLAYED[table.kind] -> a boolean matrix.
IS_PLAYED = _kind_mask(lambda k: k.is_played)
HAS_OPPONENT = _kind_mask(lambda k: k.has_opponent)
IS_VUR = _kind_mask(lambda k: k.is_voluntary_unplayed)  # C.07 16.2
COUNTS_AS_WIN = _kind_mask(lambda k: k.counts_as_win)
# Complementary pairs: OK[kind of one side, kind of the other].
COMPLEMENTARY = np.zeros((len(KINDS), len(KINDS)), dtype=bool)
for _kind, _others in COMPLEMENT.items():
    for _other in _others:
        COMPLEMENTARY[_kind.code, _other.code] = True
_COMPLEMENTARY_FLAT = COMPLEMENTARY.ravel()  # [kind of one side × len(KINDS) + kind of the other]

WIN, DRAW, LOSS = ResultKind.WIN.code, ResultKind.DRAW.code, ResultKind.LOSS.code
FORFEIT_WIN, FORFEIT_LOSS = ResultKind.FORFEIT_WIN.code, ResultKind.FORFEIT_LOSS.code
PAIRING_BYE, FULL_BYE = ResultKind.PAIRING_BYE.code, ResultKind.FULL_BYE.code
HALF_BYE, ZERO_BYE, ABSENT = ResultKind.HALF_BYE.code, ResultKind.ZERO_BYE.code, ResultKind.ABSENT.code


@dataclass(slots=True, eq=False)
class Table:
    """Rounds 1..`played_rounds` of every participant, indexed by position in `ids`."""

    ids: list[int]
    names: list[str]
    ratings: list[int | None]
    rounds: int  # scheduled rounds of the tournament
    played_rounds: int  # rounds the standings cover (all, or `after_round`)
    system: System
    system_inferred: bool
    scale: int  # points are integers in units of 1/scale
    win: int
    draw: int
    opp: np.ndarray  # int64 (players, rounds counted): opponent index or NO_OPPONENT
    kind: np.ndarray  # int8: ResultKind.code
    color: np.ndarray  # int8: 0 none, 1 white, 2 black
    pts: np.ndarray  # int64: points scored in the round, in units
    score: np.ndarray  # int64 (players,): the total after `played_rounds`
    scores: list[int]  # the same totals as Python ints

    @property
    def size(self) -> int:
        return len(self.ids)

    def index_of_id(self) -> dict[int, int]:
        """Start number -> table index."""
        return {pid: p for p, pid in enumerate(self.ids)}

    def kind_of(self, p: int, r: int) -> ResultKind:
        return KINDS[int(self.kind[p, r])]

    def with_last_round_drawn(self) -> Table:
        """The table with every pairing of the last round scored as a draw (C.07 8.3, Fore Buchholz)."""
        kind, pts = self.kind.copy(), self.pts.copy()
        last = self.played_rounds - 1
        paired = HAS_OPPONENT[kind[:, last]]
        kind[paired, last] = DRAW
        pts[paired, last] = self.draw
        score = pts.sum(axis=1)
        return Table(
            self.ids,
            self.names,
            self.ratings,
            self.rounds,
            self.played_rounds,
            self.system,
            self.system_inferred,
            self.scale,
            self.win,
            self.draw,
            self.opp,
            kind,
            self.color,
            pts,
            score,
            score.tolist(),
        )


def infer_system(n: int, rounds: int, player: np.ndarray, opponent: np.ndarray) -> System:
    """A round robin when every player met every other and the rounds fit a whole number of cycles.

    Used only when the request does not say; the response echoes that it was inferred.
    `player`, `opponent`: indices of both sides of every result with an opponent.
    """
    if n < 2:
        return System.SWISS
    rounds_single = n - 1 if n % 2 == 0 else n
    if rounds % rounds_single:
        return System.SWISS
    met = np.unique(player * n + opponent)
    per_player = np.bincount(met // n, minlength=n)
    return System.ROUND_ROBIN if bool((per_player == n - 1).all()) else System.SWISS


def build_table(tournament: Tournament, after_round: int | None = None) -> Table:
    """Validate the tournament and lay it out as columns; raise on any contradiction."""
    rounds = tournament.rounds
    check_after_round(after_round, rounds)
    played_rounds = after_round or rounds
    players, roster = tournament.players, tournament.roster
    ids = roster.ids if roster is not None else [p.id for p in players]
    id_array = np.array(ids, dtype=np.int64)
    _check_ids(id_array)
    cols = tournament.result_columns()
    entries = _Entries.of(cols, id_array, rounds)
    _check_entries(entries, ids, id_array, rounds)
    grid = _Grid.of(entries, len(ids), rounds)
    has_points = np.zeros(len(entries.rnd) + 1, dtype=bool)  # the last slot stands for "no entry"
    if cols.points:
        has_points[np.fromiter(cols.points.keys(), dtype=np.int64)] = True
    _check_pairings(ids, grid.kind, grid.opp, grid.color, grid.entry, has_points, entries.where)
    scale, units, pts = _points(tournament.scoring, cols.points, entries, grid.kind[:, :played_rounds])
    score = pts.sum(axis=1)
    system = tournament.system
    if system is None:
        paired = np.flatnonzero(grid.opp.ravel() != NO_OPPONENT)
        system = infer_system(len(ids), rounds, paired // rounds, grid.opp.ravel()[paired])
    return Table(
        ids=ids,
        names=roster.names if roster is not None else [p.name for p in players],
        ratings=roster.ratings if roster is not None else [p.rating or None for p in players],
        rounds=rounds,
        played_rounds=played_rounds,
        system=system,
        system_inferred=tournament.system is None,
        scale=scale,
        win=int(units[WIN]),
        draw=int(units[DRAW]),
        opp=np.ascontiguousarray(grid.opp[:, :played_rounds]),
        kind=np.ascontiguousarray(grid.kind[:, :played_rounds]),
        color=np.ascontiguousarray(grid.color[:, :played_rounds]),
        pts=pts,
        score=score,
        scores=score.tolist(),
    )


def check_after_round(after_round: int | None, rounds: int) -> None:
    """`after_round` counts rounds 1 to itself: one of the rounds scheduled."""
    if after_round is not None and not 1 <= after_round <= rounds:
        raise InvalidRequest(
            [Issue(("after_round",), msg("after_round must be between 1 and {rounds}", rounds=rounds))]
        )


@dataclass(slots=True, eq=False)
class _Entries:
    """Every result as given, player after player (flat columns), with its owner and cell."""

    owner: np.ndarray  # player index of every result
    rnd: np.ndarray
    kind: np.ndarray
    opponent_id: np.ndarray  # as given: a start number, 0 for none
    opponent: np.ndarray  # its table index, NO_OPPONENT when unknown
    known: np.ndarray
    color: np.ndarray
    cell: np.ndarray  # owner × rounds + round - 1: the result's place in the grid
    where: _Locator

    @classmethod
    def of(cls, cols: ResultColumns, ids: np.ndarray, rounds: int) -> _Entries:
        n = len(ids)
        counts = np.asarray(cols.counts, dtype=np.int64)
        owner = np.repeat(np.arange(n, dtype=np.int64), counts)
        offsets = np.concatenate(([0], np.cumsum(counts)[:-1])) if n else np.zeros(0, dtype=np.int64)
        rnd = np.asarray(cols.round, dtype=np.int64)
        opponent_id = np.asarray(cols.opponent, dtype=np.int64)
        opponent, known = _indices_of(ids, opponent_id)
        return cls(
            owner,
            rnd,
            np.asarray(cols.kind, dtype=np.int8),
            opponent_id,
            opponent,
            known,
            np.asarray(cols.color, dtype=np.int8),
            owner * rounds + (rnd - 1),
            _Locator(owner, offsets),
        )


def _check_entries(entries: _Entries, ids: list[int], id_array: np.ndarray, rounds: int) -> None:
    """Every result on its own: a round scheduled, one result per round, an opponent and a colour
    exactly where the result has a game."""
    e, n, where = entries, len(ids), entries.where
    bad_round = (e.rnd < 1) | (e.rnd > rounds)
    duplicate = np.zeros(len(e.rnd), dtype=bool)
    in_range = np.flatnonzero(~bad_round)
    if len(in_range) and bool((np.bincount(e.cell[in_range], minlength=n * rounds) > 1).any()):
        # rare: find the later entries of each repeated cell (the first one filed stays)
        by_cell = in_range[np.argsort(e.cell[in_range], kind="stable")]
        repeated = e.cell[by_cell][1:] == e.cell[by_cell][:-1]
        duplicate[by_cell[1:][repeated]] = True
    needs = HAS_OPPONENT[e.kind]
    own_id = e.opponent_id == id_array[e.owner] if n else False
    shape_bad = (
        ~bad_round
        & ~duplicate
        & ((needs & ((e.opponent_id == 0) | own_id | ~e.known)) | (~needs & ((e.opponent_id != 0) | (e.color != 0))))
    )
    issues: list[tuple[int, int, Issue]] = []
    for i in np.flatnonzero(bad_round)[:MAX_ISSUES]:
        text = msg("round {round} outside 1..{rounds}", round=int(e.rnd[i]), rounds=rounds)
        issues.append((int(i), 0, Issue(where(i, "round"), text)))
    for i in np.flatnonzero(duplicate)[:MAX_ISSUES]:
        text = msg("player {player} has two results for round {round}", player=ids[e.owner[i]], round=int(e.rnd[i]))
        issues.append((int(i), 0, Issue(where(i, "round"), text)))
    for i in np.flatnonzero(shape_bad)[:MAX_ISSUES]:
        found = _shape_issues(
            ids,
            int(e.owner[i]),
            KINDS[e.kind[i]],
            int(e.opponent_id[i]),
            int(e.color[i]),
            bool(e.known[i]),
            where,
            int(i),
        )
        issues += [(int(i), order_in_entry, issue) for order_in_entry, issue in enumerate(found)]
    _raise_sorted(issues)


@dataclass(slots=True, eq=False)
class _Grid:
    """Every scheduled round of every player (players × rounds): kind, opponent, colour, and the
    flat index of the result filed there (-1: none, an absence)."""

    kind: np.ndarray
    opp: np.ndarray
    color: np.ndarray
    entry: np.ndarray

    @classmethod
    def of(cls, entries: _Entries, n: int, rounds: int) -> _Grid:
        total, cell = n * rounds, entries.cell
        kind = np.full(total, ABSENT, dtype=np.int8)
        opp = np.full(total, NO_OPPONENT, dtype=np.int64)
        color = np.zeros(total, dtype=np.int8)
        entry = np.full(total, -1, dtype=np.int64)
        kind[cell] = entries.kind
        opp[cell] = entries.opponent
        color[cell] = entries.color
        entry[cell] = np.arange(len(cell))
        return cls(kind.reshape(n, rounds), opp.reshape(n, rounds), color.reshape(n, rounds), entry.reshape(n, rounds))


def _points(
    scoring: Scoring, given: Mapping[int, Fraction], entries: _Entries, kind: np.ndarray
) -> tuple[int, np.ndarray, np.ndarray]:
    """The scale, the points of each result kind in its units, and the points of each cell counted:
    the scoring's, or the arbiter's `points` where a result gives them (they decide the scale too)."""
    scale, units = _scoring_units(scoring)
    if given:
        for v in given.values():
            scale = math.lcm(scale, Fraction(v).denominator)
        units = np.array([int(v * scale) for v in _scoring_values(scoring)], dtype=np.int64)
    pts = units[kind]
    for flat, value in given.items():
        p, r = int(entries.owner[flat]), int(entries.rnd[flat]) - 1
        if r < kind.shape[1]:
            pts[p, r] = int(Fraction(value) * scale)
    return scale, units, pts


def _scoring_values(scoring: Scoring) -> tuple[Fraction, ...]:
    return tuple(v if type(v) is Fraction else Fraction(v) for v in map(scoring.points_for, KINDS))


_SCORING_UNITS: dict[tuple[tuple[int, int], ...], tuple[int, np.ndarray]] = {}


def _scoring_units(scoring: Scoring) -> tuple[int, np.ndarray]:
    """The smallest scale that makes every result's points whole, and the points of each result
    kind in those units: computed once per scoring (batches rank thousands of small events),
    remembered under the numerators and denominators (hashing Fractions costs more than that)."""
    values = _scoring_values(scoring)
    key = tuple((v.numerator, v.denominator) for v in values)
    found = _SCORING_UNITS.get(key)
    if found is None:
        scale = math.lcm(1, *(v.denominator for v in values))
        units = np.array([int(v * scale) for v in values], dtype=np.int64)
        units.flags.writeable = False  # shared by every table of this scoring
        if len(_SCORING_UNITS) < 256:  # the scorings come from clients: keep a bounded few
            _SCORING_UNITS[key] = (scale, units)
        found = (scale, units)
    return found


def _indices_of(ids: np.ndarray, wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The table index of each wanted id (NO_OPPONENT where unknown), and which are known.

    Start numbers are usually dense (1..n): then a lookup array answers each in one step;
    otherwise a binary search in the sorted ids.
    """
    n = len(ids)
    if not n or not len(wanted):
        return np.full(len(wanted), NO_OPPONENT, dtype=np.int64), np.zeros(len(wanted), dtype=bool)
    top = int(ids.max())
    if int(ids.min()) >= 0 and top <= 8 * n + 1024:
        lookup = np.full(top + 2, NO_OPPONENT, dtype=np.int64)
        lookup[ids[::-1]] = np.arange(n - 1, -1, -1)  # with duplicate ids (refused later) the first wins
        inside = (wanted >= 0) & (wanted <= top)
        index = np.where(inside, lookup[np.where(inside, wanted, top + 1)], NO_OPPONENT)
        return index, index != NO_OPPONENT
    order = np.argsort(ids, kind="stable")
    sorted_ids = ids[order]
    slot = np.minimum(np.searchsorted(sorted_ids, wanted), n - 1)
    known = sorted_ids[slot] == wanted
    return np.where(known, order[slot], NO_OPPONENT), known


class _Locator:
    """The request path of a flat result entry: ("players", i, "results", j, field)."""

    def __init__(self, owner: np.ndarray, offsets: np.ndarray) -> None:
        self.owner, self.offsets = owner, offsets

    def __call__(self, flat: int | np.integer[Any], field: str) -> Path:
        i = int(self.owner[flat])
        return ("players", i, "results", int(flat - self.offsets[i]), field)


def _check_ids(ids: np.ndarray) -> None:
    order = np.argsort(ids, kind="stable")
    later = order[1:][ids[order][1:] == ids[order][:-1]]
    if len(later):
        raise InconsistentCrosstable(
            [
                Issue(("players", int(i), "id"), msg("duplicate player id {id}", id=int(ids[i])))
                for i in sorted(later.tolist())[:MAX_ISSUES]
            ]
        )


def _shape_issues(
    ids: list[int], p: int, kind: ResultKind, opponent: int, color: int, known: bool, where: _Locator, flat: int
) -> Iterator[Issue]:
    if kind.has_opponent:
        if opponent == 0:
            yield Issue(where(flat, "opponent"), msg("result {result} needs an opponent", result=repr(kind.value)))
        elif opponent == ids[p]:
            yield Issue(where(flat, "opponent"), msg("player {player} is paired against themself", player=ids[p]))
        elif not known:
            yield Issue(
                where(flat, "opponent"),
                msg("opponent {opponent} is not a player of this tournament", opponent=opponent),
            )
        return
    if opponent != 0:
        yield Issue(
            where(flat, "opponent"),
            msg("result {result} has no opponent, but {opponent} is given", result=repr(kind.value), opponent=opponent),
        )
    if color != 0:
        yield Issue(where(flat, "color"), msg("result {result} has no game, so no colour", result=repr(kind.value)))


def _check_pairings(
    ids: list[int],
    kind: np.ndarray,
    opp: np.ndarray,
    color: np.ndarray,
    entry: np.ndarray,
    has_points: np.ndarray,
    where: _Locator,
) -> None:
    """Each pairing seen from both sides: the same opponents, complementary results, colours."""
    faults = _pairing_faults(kind, opp, color, entry, has_points)
    if faults is None:
        return
    bad_cells, mismatch, clash, unusual = faults
    p, r = np.divmod(bad_cells, opp.shape[1])
    q = opp.ravel()[bad_cells]
    issues: list[tuple[tuple[int, int], int, Issue]] = []
    for k in range(min(len(bad_cells), MAX_ISSUES)):
        i, rr, j = int(p[k]), int(r[k]), int(q[k])
        mine = int(entry[i, rr])
        if mismatch[k]:
            issues.append(((i, rr), 0, _mismatch(ids, kind, opp, entry, i, j, rr, where(mine, "opponent"))))
            continue
        theirs = int(entry[j, rr])
        if clash[k]:
            text = msg(
                "players {player} and {opponent} both have colour {colour} in round {round}",
                player=ids[i],
                opponent=ids[j],
                colour=repr(COLOR_NAMES[int(color[i, rr])]),
                round=rr + 1,
            )
            issues.append(((i, rr), 0, Issue(where(theirs, "color"), text)))
        if unusual[k]:
            missing = mine if not has_points[mine] else theirs
            unpaired = (
                f"round {rr + 1}: {KINDS[kind[i, rr]].value!r} for {ids[i]} against {KINDS[kind[j, rr]].value!r} "
                f"for {ids[j]} is not complementary; give 'points' on both entries for an unusual result"
            )
            issues.append(((i, rr), 1, Issue(where(missing, "result"), unpaired)))
    _raise_sorted(issues)


def _pairing_faults(
    kind: np.ndarray, opp: np.ndarray, color: np.ndarray, entry: np.ndarray, has_points: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """The flat cells whose pairing the other side does not confirm (mismatch), whose colours clash,
    or whose results are not complementary without `points` on both entries; None when all agree.

    Works on the flattened grid: each paired cell and the cell of its opponent in the same
    round, gathered once.
    """
    n, rounds = opp.shape
    paired = opp != NO_OPPONENT
    if not paired.any():
        return None
    flat_opp, flat_kind, flat_color = opp.ravel(), kind.ravel(), color.ravel()
    # Every cell against the cell of its opponent in the same round (an unpaired cell against
    # itself, then masked out): whole-grid passes, no list of cells to build first.
    row = np.arange(n, dtype=opp.dtype)[:, None]
    q = np.where(paired, opp, row)
    other = (q * rounds + np.arange(rounds)).ravel()
    mismatch = paired & (flat_opp[other].reshape(n, rounds) != row)
    first = paired & (row < q) & ~mismatch
    clash = first & (color != 0) & (color == flat_color[other].reshape(n, rounds))
    # an unusual result needs `points` on both entries (an arbiter's decision must be explicit)
    unusual = first & ~_COMPLEMENTARY_FLAT[kind.astype(np.intp) * len(KINDS) + flat_kind[other].reshape(n, rounds)]
    if has_points[:-1].any():
        flat_entry = entry.ravel()
        unusual &= ~(has_points[entry] & has_points[flat_entry[other]].reshape(n, rounds))
    bad_cells = np.flatnonzero((mismatch | clash | unusual).ravel())
    if not len(bad_cells):
        return None
    return bad_cells, mismatch.ravel()[bad_cells], clash.ravel()[bad_cells], unusual.ravel()[bad_cells]


def _mismatch(
    ids: list[int], kind: np.ndarray, opp: np.ndarray, entry: np.ndarray, i: int, j: int, rr: int, path: Path
) -> Issue:
    """Player i names j as the opponent of round rr, and j's entry of that round says otherwise."""
    said = (
        msg("opponent {opponent}", opponent=ids[opp[j, rr]])
        if opp[j, rr] != NO_OPPONENT
        else msg("nothing")
        if entry[j, rr] < 0
        else repr(KINDS[kind[j, rr]].value)
    )
    return Issue(
        path,
        msg(
            "player {player} played {opponent} in round {round}, but player {opponent} has {said} in that round",
            player=ids[i],
            opponent=ids[j],
            round=rr + 1,
            said=said,
        ),
    )


def _raise_sorted(issues: list[tuple[Any, int, Issue]]) -> None:
    if issues:
        issues.sort(key=lambda item: (item[0], item[1]))
        raise InconsistentCrosstable([issue for *_, issue in issues[:MAX_ISSUES]])


# The name the rest of the code base knows the builder by.
build_crosstable = build_table
