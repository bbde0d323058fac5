"""The `tiebreak` command line: the service's standings without a server, and the server.

    tiebreak standings FILE.trf|FILE.json|- [-t BH/C1 BH ...] [--format table|json|csv]
    tiebreak explain FILE -p ID [-t ...]
    tiebreak progression FILE [-t ...] [--csv]
    tiebreak batch PATHS... [-t ...] --out results.ndjson --jobs N
    tiebreak prizes STANDINGS_OR_TOURNAMENT --prizes prizes.json [-t ...] [--format text|json]
    tiebreak scenarios FILE --pairings last|PAIRINGS.json [--places N] [--players ID ...] [-t ...]
    tiebreak serve [--host H] [--port P]

A JSON file is a tournament (the API's `tournament`) or a whole standings request
(with `tournament` or `trf`); command-line options override the request's fields.
Errors go to stderr and the exit code is non-zero. See docs/cli.md.
"""

from __future__ import annotations

import argparse
import csv
import functools
import gc
import glob
import io
import os
import signal
import sys
import time
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from unicodedata import east_asian_width

import msgspec

from .usecases.progression import run_progression
from .usecases.standings import compute_plan, plan_standings
from .wire.progression import ProgressionRequest, ProgressionResponse
from .wire import schemas as s
from .wire import teams as schemas_teams
from .wire.decode import WireDecoder
from .wire.io import BatchResult
from .engine.errors import TiebreakError
from .texts.catalogue import LANGUAGES, current, enc_hook, render, supported
from .texts.message import ENGLISH, language, msg
from .formats.trf import TrfError, decode_trf, located_warning
from .version import __version__

REGULATIONS = typing.get_args(s.RegulationsName)


@functools.cache
def _decoder(type_) -> WireDecoder:
    """Made when a JSON file is first read: building a decoder is not every command's start-up."""
    return WireDecoder(type_)


@dataclass(frozen=True, slots=True)
class Options:
    """What the command line asks of every file (None: the file's own choice)."""

    tiebreaks: tuple[str, ...] | None = None
    regulations: str | None = None
    after_round: int | None = None
    unrated_rating: int | None = None
    seed: int | None = None
    explain: bool = True


STDIN = "-"  # a file argument of "-" is the standard input


def read_input(path: Path) -> bytes:
    return sys.stdin.buffer.read() if str(path) == STDIN else path.read_bytes()


def _is_json(path: Path, data: bytes) -> bool:
    """A `.json` file, or standard input that starts like a JSON object (else it is TRF)."""
    if str(path) == STDIN:
        return data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{")
    return path.suffix.lower() == ".json"


def load_request(path: Path, options: Options) -> tuple[s.StandingsRequest, list[s.WarningOut]]:
    """A standings request for one file (or "-": standard input), and the warnings reading its bytes gave."""
    data = read_input(path)
    fields: dict = {}
    warnings: list[s.WarningOut] = []
    if _is_json(path, data):
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        as_object = msgspec.json.decode(data)
        if isinstance(as_object, dict) and (
            "tournament" in as_object or "trf" in as_object or "team_tournament" in as_object
        ):
            fields = msgspec.structs.asdict(_decoder(s.StandingsRequest).decode(data))
        elif isinstance(as_object, dict) and "teams" in as_object:  # the API's `team_tournament` alone
            fields["team_tournament"] = msgspec.json.decode(data, type=schemas_teams.TeamTournament)
        else:
            fields["tournament"] = _decoder(s.Tournament).decode(data)
    else:
        text, _, trf_warnings = decode_trf(data)
        fields["trf"] = text
        warnings = [s.WarningOut(code=w.code, message=located_warning(w), rule=None) for w in trf_warnings]
    if options.tiebreaks is not None:
        fields["tiebreaks"] = list(options.tiebreaks)
    for name in ("regulations", "after_round", "unrated_rating", "seed"):
        if getattr(options, name) is not None:
            fields[name] = getattr(options, name)
    fields["explain"] = options.explain
    return s.StandingsRequest(**fields), warnings


def rank_file(path: Path, options: Options, encode_rows: bool = False) -> s.StandingsResponse:
    """The standings of one file; with `encode_rows`, its rows come as their JSON (msgspec.Raw),
    built as a compute worker builds them for the API (for lines written out, not read back)."""
    request, warnings = load_request(path, options)
    response = compute_plan(plan_standings(request), encode_rows=encode_rows)
    if warnings:
        response = msgspec.structs.replace(response, warnings=[*warnings, *response.warnings])
    return response


# ---------------------------------------------------------------- standings


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


NAME_WIDTH = 28


def shown_name(name: str) -> str:
    """A name for a table column: a long one is cut with a mark, never silently."""
    return name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "…"


def table_text(response: s.StandingsResponse) -> str:
    specs = [t.spec for t in response.tiebreaks]
    # decided_by separates a row from the NEXT one: "Decided by" read as if it placed the row itself
    header = [current(msg("Rank")), "Id", current(msg("Name")), current(msg("Pts")), *specs]
    header.append(current(msg("Ahead of next by")))
    rows = [
        [
            str(row.rank),
            str(row.id),
            shown_name(row.name),
            _number(row.points),
            *(_number(v) for v in row.values),
            row.decided_by or "",
        ]
        for row in response.standings
    ]
    widths = [max(map(_width, (r[i] for r in [header, *rows]))) for i in range(len(header))]
    lines = [
        "  ".join(cell + " " * (w - _width(cell)) for cell, w in zip(r, widths, strict=False)).rstrip()
        for r in [header, *rows]
    ]
    footer = [
        current(
            msg(
                "regulations: {regulations}, system: {system}", regulations=response.regulations, system=response.system
            )
        )
        + (current(msg(", after round {round}", round=response.after_round)) if response.after_round else "")
        + (current(msg(", lots drawn with seed {seed}", seed=response.seed)) if response.seed is not None else "")
    ]
    return "\n".join(lines + footer)


def _width(text: str) -> int:
    """Columns a text takes in a terminal: Chinese and Japanese characters take two."""
    return len(text) + sum(1 for ch in text if east_asian_width(ch) in "WF")


def print_warnings(response) -> None:
    """Warnings go to stderr in every format, so that stdout stays the table, CSV or JSON alone."""
    for w in response.warnings:
        print(
            current(msg("tiebreak: warning: {message}", message=w.message)) + (f" ({w.rule})" if w.rule else ""),
            file=sys.stderr,
        )


def csv_text(response: s.StandingsResponse) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["rank", "id", "name", "points", *(t.spec for t in response.tiebreaks), "decided_by"])
    for row in response.standings:
        writer.writerow(
            [
                row.rank,
                row.id,
                row.name,
                _number(row.points),
                *("" if v is None else f"{v:g}" for v in row.values),
                row.decided_by or "",
            ]
        )
    return out.getvalue()


def json_text(value) -> str:
    return msgspec.json.format(_line_encoder.encode(value).decode()) + "\n"


def standings(args: argparse.Namespace) -> int:
    response = rank_file(Path(args.file), _options(args, explain=args.format == "json"))
    print_warnings(response)
    if args.format == "json":
        sys.stdout.write(json_text(response))
    elif args.format == "csv":
        sys.stdout.write(csv_text(response))
    else:
        print(table_text(response))
    return 0


# ---------------------------------------------------------------- progression


def progression_request(request: s.StandingsRequest) -> ProgressionRequest:
    """The standings request of a file as a progression request (every round, no row choices)."""
    fields = msgspec.structs.asdict(request)
    for name in ("explain", "top", "offset", "player"):
        del fields[name]
    return ProgressionRequest(**fields)


def progression_table(response: ProgressionResponse) -> str:
    """A row per player in the final order, a column per round: the rank, the points in brackets."""
    header = ["Id", "Name", *(f"R{k}" for k in response.rounds)]
    rows = [
        [
            str(p.id),
            shown_name(p.name),
            *(f"{rank} ({_number(pts)})" for rank, pts in zip(p.ranks, p.points, strict=True)),
        ]
        for p in response.players
    ]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip() for r in [header, *rows]]
    rules = ", ".join(t.spec for t in response.tiebreaks) or "points only"
    footer = f"rank (points) after each round; regulations: {response.regulations}, rules: {rules}"
    if response.seed is not None:
        footer += f", lots drawn with seed {response.seed}"
    return "\n".join([*lines, footer])


def progression_csv(response: ProgressionResponse) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["id", "name", *(f"rank_{k}" for k in response.rounds), *(f"points_{k}" for k in response.rounds)])
    for p in response.players:
        writer.writerow([p.id, p.name, *p.ranks, *map(_number, p.points)])
    return out.getvalue()


def progression(args: argparse.Namespace) -> int:
    request, warnings = load_request(Path(args.file), _options(args, explain=False))
    response = run_progression(progression_request(request))
    print_warnings(msgspec.structs.replace(response, warnings=[*warnings, *response.warnings]))
    sys.stdout.write(progression_csv(response) if args.csv else progression_table(response) + "\n")
    return 0


# ---------------------------------------------------------------- explain


def explain_text(response: s.StandingsResponse, player_id: int) -> str:
    """One player's standing and every contribution, the way an arbiter checks it."""
    rows = {row.id: row for row in response.standings}
    row = rows[player_id]
    names = {r.id: r.name for r in response.standings}
    position = response.standings.index(row)
    scores = (
        msg(
            "{match} match points, {game} game points",
            match=row.match_points,
            game=row.game_points if row.game_points is not None else "-",
        )
        if row.match_points is not None
        else msg("{points} points", points=row.points)
    )  # a team event's row is a team
    lines = [
        current(
            msg(
                "{name} (id {id}): rank {rank} of {count}, {scores}",
                name=row.name or msg("Player"),
                id=row.id,
                rank=row.rank,
                count=len(response.standings),
                scores=scores,
            )
        ),
        current(
            msg(
                "regulations {regulations}, {system}",
                regulations=response.regulations,
                system=response.system.replace("_", " "),
            )
        )
        + (current(msg(", after round {round}", round=response.after_round)) if response.after_round else ""),
    ]
    if position + 1 < len(response.standings):
        following = response.standings[position + 1]
        lines.append(
            current(
                msg(
                    "ahead of {name} (id {id}) by {rule}",
                    name=following.name or str(following.id),
                    id=following.id,
                    rule=row.decided_by or msg("nothing: equal on every rule"),
                )
            )
        )
    for rule, value in zip(response.tiebreaks, row.values, strict=False):
        breakdown = (row.breakdown or {}).get(rule.spec)
        lines.append("")
        lines.append(
            f"{rule.spec}  {current(rule.name)} ({rule.article}) = {_number(value)}"
            + (current(msg("  (lower is better)")) if rule.lower_is_better else "")
        )
        if rule.dropped:
            lines.append(current(msg("  dropped: {reason}", reason=rule.dropped)))
        if breakdown is None:
            continue
        if breakdown.note:
            lines.append(f"  {current(breakdown.note)}")
        elif rule.code == "DE" and not breakdown.contributions:
            lines.append(
                current(msg("  not tied with anyone on the rules before it: no games between tied players to compare"))
            )
        for c in breakdown.contributions:
            lines.append("  " + _contribution_text(c, names))
    return "\n".join(lines)


def _contribution_text(c: s.ContributionOut, names: dict[int, str]) -> str:
    where = f"round {c.round:>2}" if c.round is not None else " " * 8
    if c.opponent is not None:
        what = f"{c.kind} vs {c.opponent} {names.get(c.opponent, '')}".rstrip()
    else:
        what = c.kind + (f" ({c.unplayed})" if c.unplayed else "")
    text = f"{where}  {what:<32} {_number(c.value):>7}"
    if c.result is not None:  # Sonneborn-Berger: the two factors, as the JSON carries them
        score = c.counted_score if c.counted_score is not None else c.opponent_score
        text += current(
            msg(
                "  = {score} x {result} (opponent's score x own result)",
                score=_number(score),
                result=_number(c.result),
            )
        )
    elif c.kind == "encounter":
        text += current(msg("  scored in the game between them (C.07 6)"))
    if c.note:
        text += f"  {current(c.note)}"
    if c.cut:
        text += current(msg("  [cut: {reason}]", reason=c.cut_reason))
    return text.rstrip()


def explain(args: argparse.Namespace) -> int:
    response = rank_file(Path(args.file), _options(args, explain=True))
    if not any(row.id == args.player for row in response.standings):
        raise LookupError(f"no player with id {args.player} in {args.file}")
    print_warnings(response)
    print(explain_text(response, args.player))
    return 0


# ---------------------------------------------------------------- batch


def _trf_files_under(folder: str) -> list[str]:
    """The *.trf and *.trfx (Vega) files under a folder, recursively, in the order of their paths' parts (what
    sorting Path objects gives). os.scandir reads each entry's type with the directory (no
    stat per file, as Path.rglob makes); links to folders are not
    followed, as rglob does not."""
    found = []
    pending = [folder]
    while pending:
        with os.scandir(pending.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
                elif entry.name.lower().endswith((".trf", ".trfx")) and entry.is_file():
                    found.append(entry.path)
    return sorted(found, key=lambda p: p.split(os.sep))


def expand_paths(patterns: list[str]) -> list[Path]:
    """Files, folders (their *.trf and *.trfx files, recursively) and glob patterns, in a stable order."""
    found: list[Path] = []
    for pattern in patterns:
        path = Path(pattern)
        if pattern == STDIN:
            found.append(path)
        elif path.is_dir():
            found += [Path(p) for p in _trf_files_under(pattern)]
        elif path.exists():
            found.append(path)
        else:
            matches = sorted(Path(m) for m in glob.glob(pattern, recursive=True))
            if not matches:
                raise FileNotFoundError(f"no file matches {pattern!r}")
            found += [m for m in matches if m.is_file()]
    return found


def _problem(exc: Exception) -> s.Problem:
    """The problem+json body the service would answer; a file that cannot be read is a 400 too."""
    from .usecases.problems import problem_of

    if isinstance(exc, (OSError, UnicodeError)):
        return s.Problem(
            type="about:blank", title="Bad Request", status=400, detail=f"cannot read the file: {exc}", errors=[]
        )
    return problem_of(exc)


def batch_line(index: int, path: str, options: Options) -> tuple[bytes, str | None]:
    """One file to one NDJSON line, the same shape as the HTTP batch's (`id` is the path), and
    what went wrong when the file could not be ranked (None when it was)."""
    try:
        result = rank_file(Path(path), options, encode_rows=True)
        line = BatchResult(index=index, id=path, status=200, result=result, error=None)
        failure = None
    except Exception as exc:  # noqa: BLE001 - a bad file is reported, the batch goes on
        problem = _problem(exc)
        line = BatchResult(index=index, id=path, status=problem.status, result=None, error=problem)
        failure = _failure_text(problem)
    return _line_encoder.encode(line) + b"\n", failure


_line_encoder = msgspec.json.Encoder(enc_hook=enc_hook)
_batch_options: Options | None = None  # what every file of a worker process's batch is ranked with


def _set_batch_options(options: Options) -> None:
    global _batch_options
    _batch_options = options


def _batch_item(job: tuple[int, str]) -> tuple[bytes, str | None]:
    """One file of a batch in a worker process: its line, and its failure (None: ranked)."""
    assert _batch_options is not None  # set by the worker's initializer, _set_batch_options
    return batch_line(*job, _batch_options)


def _path_of(job: tuple) -> str:
    return job[1]


# ---------------------------------------------------------------- worker processes

BATCH_CHUNK = 16  # files per message to and from a worker process, at most


def chunk_size(count: int, jobs: int, largest: int) -> int:
    """Items per message: at most `largest` (the output keeps flowing), and at least four
    messages per worker, so that the workers share the last ones and finish close together."""
    return max(1, min(largest, count // (jobs * 4)))


class WorkerDied(RuntimeError):
    """A worker process ended without answering (killed, out of memory): the run stops."""


_slots = None  # worker processes: the item each one is on (-1: none), by slot
_slot = -1
_work = None


def _start_worker(slots, taken, work, initializer, initargs) -> None:
    global _slots, _slot, _work
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C: the parent stops the run
    with taken.get_lock():
        _slot, taken.value = taken.value, taken.value + 1
    _slots, _work = slots, work

    def stopped(signum, frame) -> None:
        """When one worker died, the pool stops the others with SIGTERM: their items are not the lost one."""
        slots[_slot] = -1
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, stopped)
    if initializer is not None:
        initializer(*initargs)


def _tracked(index: int, item):
    assert _slots is not None and _work is not None  # set by _start_worker, before any item
    _slots[_slot] = index
    result = _work(item)
    _slots[_slot] = -1
    return result


def in_processes(work, items: list, jobs: int, chunksize: int, name_of, initializer=None, initargs=()):
    """`work(item)` for every item in `jobs` worker processes (concurrent.futures'
    ProcessPoolExecutor, forked where the system can: the workers start with what the command
    has imported), yielded in the items' order as they come.

    A worker that dies ends the run with WorkerDied naming its item (`name_of(item)`), instead
    of waiting for it: each worker notes the item it is on in shared memory, and the others,
    which the pool then stops with SIGTERM, clear theirs as they go."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    jobs = max(1, min(jobs, len(items)))
    slots = context.Array("q", [-1] * jobs, lock=False)
    taken = context.Value("i", 0)
    pool = ProcessPoolExecutor(jobs, context, _start_worker, (slots, taken, work, initializer, initargs))
    done = 0
    try:
        for result in pool.map(_tracked, range(len(items)), items, chunksize=chunksize):
            yield result
            done += 1
    except BrokenProcessPool:
        pool.shutdown(wait=True)  # every worker gone: the stopped ones have cleared their slots
        lost = [index for index in slots if index >= 0] or [done]
        raise WorkerDied(
            current(
                msg(
                    "a worker process died (killed, or out of memory) while working on {name} (item {item} of "
                    "{count}); the run stopped after {done} results, in order",
                    name=name_of(items[lost[0]]),
                    item=lost[0] + 1,
                    count=len(items),
                    done=done,
                )
            )
        ) from None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # an error or Ctrl-C: only the running chunks finish


class Progress:
    """A one-line progress bar on stderr (only when stderr is a terminal, unless forced)."""

    def __init__(self, total: int, enabled: bool):
        self.total, self.enabled, self.done, self.failed = total, enabled, 0, 0
        self.started = time.perf_counter()

    def step(self, failed: bool) -> None:
        self.done += 1
        self.failed += failed
        if self.enabled and (self.done == self.total or self.done % max(1, self.total // 200) == 0):
            width = 30
            filled = width * self.done // max(1, self.total)
            rate = self.done / max(time.perf_counter() - self.started, 1e-9)
            sys.stderr.write(
                f"\r[{'#' * filled}{'.' * (width - filled)}] "
                + current(
                    msg(
                        "{done}/{total} files, {failed} failed, {rate} files/s",
                        done=self.done,
                        total=self.total,
                        failed=self.failed,
                        rate=round(rate),
                    )
                )
            )
            if self.done == self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()


def batch(args: argparse.Namespace) -> int:
    paths = [str(p) for p in expand_paths(args.paths)]
    options = _options(args, explain=args.explain)
    progress = Progress(len(paths), args.progress if args.progress is not None else sys.stderr.isatty())
    failures: list[tuple[str, str]] = []
    out = sys.stdout.buffer if args.out == "-" else open(args.out, "wb")
    # Everything imported so far lives as long as the command: out of the cyclic collector's
    # reach while the files are ranked, so that its collections stay short and, in forked
    # workers, leave the shared pages unwritten (copy-on-write).
    gc.freeze()
    started = time.perf_counter()
    try:
        if args.jobs > 1 and len(paths) > 1:
            lines = in_processes(
                _batch_item,
                list(enumerate(paths)),
                args.jobs,
                chunk_size(len(paths), args.jobs, BATCH_CHUNK),
                _path_of,
                _set_batch_options,
                (options,),
            )
            for path, (line, failure) in zip(paths, lines, strict=False):
                out.write(line)
                _note(path, failure, failures, progress)
        else:
            for index, path in enumerate(paths):
                line, failure = batch_line(index, path, options)
                out.write(line)
                _note(path, failure, failures, progress)
    finally:
        gc.unfreeze()  # as it was (`main` may run in a longer-lived process)
        if out is not sys.stdout.buffer:
            out.close()
    elapsed = time.perf_counter() - started
    print(
        "tiebreak batch: "
        + current(
            msg(
                "{files} files in {seconds} s ({rate} files/s), {ranked} ranked, {failed} failed",
                files=len(paths),
                seconds=round(elapsed, 2),
                rate=round(len(paths) / max(elapsed, 1e-9)),
                ranked=len(paths) - len(failures),
                failed=len(failures),
            )
        ),
        file=sys.stderr,
    )
    for path, message in failures:
        print("  " + current(msg("failed: {path}: {problem}", path=path, problem=message)), file=sys.stderr)
    return 1 if failures else 0


def _note(path: str, failure: str | None, failures: list[tuple[str, str]], progress: Progress) -> None:
    if failure is not None:
        failures.append((path, failure))
    progress.step(failure is not None)


def _failure_text(error) -> str:
    """The problem's detail, and its first error's path and message (where in the file, and what)."""
    if not error.errors:
        return error.detail
    first = error.errors[0]
    more = current(msg(" (+{count} more)", count=len(error.errors) - 1)) if len(error.errors) > 1 else ""
    return f"{error.detail} -- {first.path or 'body'}: {first.message}{more}"


class _ProblemItem(msgspec.Struct):
    path: str
    message: str


class _ProblemDetail(msgspec.Struct):
    detail: str
    errors: list[_ProblemItem] = []


# ---------------------------------------------------------------- check

CHECK_CHUNK = 8  # files per message to and from a worker process, at most


def check_file_line(job: tuple[int, str, dict]) -> bytes:
    """One archived file to one NDJSON line of `tiebreak check` (`id` is the path); a file that
    cannot be read (a missing file, a bad byte after a BOM) is its own line, named by its path."""
    from .usecases.check import check_line

    index, path, options = job
    try:
        text = decode_trf(read_input(Path(path)))[0]
    except Exception as exc:  # noqa: BLE001 - one unreadable file must not stop the check of the rest
        from .wire.io import CheckLine

        return (
            _line_encoder.encode(CheckLine(index=index, id=path, status=400, result=None, error=_problem(exc))) + b"\n"
        )
    return check_line(index, path, text, _problem, options)


class _CheckDisagreement(msgspec.Struct):
    player: int
    field: str
    file: str
    computed: str


class _CheckReportView(msgspec.Struct):
    status: str
    disagreements: list[_CheckDisagreement] = []


class _CheckStatus(msgspec.Struct):
    id: str
    status: int
    result: _CheckReportView | None = None
    error: _ProblemDetail | None = None


def check(args: argparse.Namespace) -> int:
    """Check archived TRF files: points and ranks as written against what the service computes
    under the edition of each file's date (`auto-historic`)."""
    paths = expand_paths(args.paths)
    options = {
        "participants": args.participants,
        "tiebreaks": list(args.tiebreaks) if args.tiebreaks is not None else None,
        "regulations": args.regulations,
    }
    jobs = [(i, str(p), options) for i, p in enumerate(paths)]
    progress = Progress(len(jobs), args.progress if args.progress is not None else sys.stderr.isatty())
    out = sys.stdout.buffer if args.out == "-" else open(args.out, "wb")
    counts = {"consistent": 0, "inconsistent": 0, "unreadable": 0}
    notes: list[str] = []
    started = time.perf_counter()
    try:
        if args.jobs > 1 and len(jobs) > 1:
            lines = in_processes(
                check_file_line, jobs, args.jobs, chunk_size(len(jobs), args.jobs, CHECK_CHUNK), _path_of
            )
            _write_check_lines(lines, out, progress, counts, notes)
        else:
            _write_check_lines(map(check_file_line, jobs), out, progress, counts, notes)
    finally:
        if out is not sys.stdout.buffer:
            out.close()
    elapsed = time.perf_counter() - started
    print(
        "tiebreak check: "
        + current(
            msg(
                "{files} files in {seconds} s, {consistent} consistent, {inconsistent} inconsistent, "
                "{unreadable} unreadable",
                files=len(jobs),
                seconds=round(elapsed, 2),
                consistent=counts["consistent"],
                inconsistent=counts["inconsistent"],
                unreadable=counts["unreadable"],
            )
        ),
        file=sys.stderr,
    )
    for note in notes:
        print(f"  {note}", file=sys.stderr)
    return 1 if counts["inconsistent"] or counts["unreadable"] else 0


def _write_check_lines(lines, out, progress: Progress, counts: dict[str, int], notes: list[str]) -> None:
    for line in lines:
        out.write(line)
        verdict = msgspec.json.decode(line, type=_CheckStatus)
        if verdict.result is None:
            counts["unreadable"] += 1
            notes.append(
                current(msg("unreadable: {file}: {problem}", file=verdict.id, problem=_failure_text(verdict.error)))
            )
        else:
            counts[verdict.result.status] += 1
            if verdict.result.status == "inconsistent":
                first = verdict.result.disagreements[0]
                more = len(verdict.result.disagreements) - 1
                text = msg(
                    "inconsistent: {file}: player {player} {field} {written} in the file, {computed} computed",
                    file=verdict.id,
                    player=first.player,
                    field=first.field,
                    written=str(first.file),
                    computed=str(first.computed),
                )
                notes.append(current(text) + (current(msg(" (+{count} more)", count=more)) if more else ""))
        progress.step(verdict.result is None or verdict.result.status != "consistent")


# ---------------------------------------------------------------- prizes


def load_prize_request(standings_path: Path, prizes_path: Path, options: Options):
    """A POST /v1/prizes body: the standings from the first file (rows in final order, a
    standings response, or a tournament/TRF/standings request ranked first), the prizes,
    categories and rules from the second."""
    from .wire.prizes import PrizeRequest, StandingRow

    prize_part = msgspec.json.decode(prizes_path.read_bytes().removeprefix(b"\xef\xbb\xbf"))
    if not isinstance(prize_part, dict):
        raise ValueError(f"{prizes_path}: expected an object with `prizes` (or `prize_groups`), `categories`, `rules`")
    if "standings" in prize_part or "standings_request" in prize_part:
        raise ValueError(f"{prizes_path}: the standings come from {standings_path}, not from the prizes file")
    body = dict(prize_part)
    data = standings_path.read_bytes().removeprefix(b"\xef\xbb\xbf")
    as_object = msgspec.json.decode(data) if standings_path.suffix.lower() == ".json" else None
    rows = (
        as_object
        if isinstance(as_object, list)
        else (as_object.get("standings") if isinstance(as_object, dict) else None)
    )
    if rows is not None:
        # rows of a prize request, or of a standings response (its values and breakdowns are not needed)
        fields = StandingRow.__struct_fields__
        body["standings"] = [
            {k: v for k, v in row.items() if k in fields} if isinstance(row, dict) else row for row in rows
        ]
    else:
        request, _ = load_request(standings_path, options)
        body["standings_request"] = msgspec.to_builtins(msgspec.structs.replace(request, explain=False))
    return msgspec.json.decode(msgspec.json.encode(body), type=PrizeRequest)


def prizes_text(response) -> str:
    """Who gets what, with the reason, the way an organiser reads it out."""
    unit = f"{response.currency} " if response.currency else ""
    computed = response.computed_standings
    paid = msg(
        "Prizes: {paid} paid of {announced} announced",
        paid=unit + str(response.total_paid),
        announced=str(response.total_announced),
    )
    if computed:
        under = (
            msg(
                "standings computed under {regulations}: {rules}",
                regulations=computed.regulations,
                rules=", ".join(computed.tiebreaks),
            )
            if computed.tiebreaks
            else msg("standings computed under {regulations}", regulations=computed.regulations)
        )
        paid = msg("{prizes} ({standings})", prizes=paid, standings=under)
    lines = [current(paid)]
    header = ["Id", current(msg("Name")), current(msg("Pts")), current(msg("Total")), current(msg("Items"))]
    rows = [[str(p.id), shown_name(p.name), _number(p.points), p.total, ", ".join(p.items)] for p in response.players]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines += [""] + [
        "  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=False)).rstrip() for r in [header, *rows]
    ]
    lines += ["", current(msg("Why:"))]
    for p in response.players:
        for share in p.prizes:
            lines.append(
                f"  {p.name or current(msg('Player'))} ({p.id}): {share.share}"
                + (f" + {', '.join(share.items)}" if share.items else "")
                + f" - {current(share.why)}"
            )
    if response.unawarded:
        lines += ["", current(msg("Unawarded:"))]
        lines += [f"  {u.name or u.prize} ({u.category}, {u.amount}): {current(u.reason)}" for u in response.unawarded]
    return "\n".join(lines)


def prizes(args: argparse.Namespace) -> int:
    from .usecases.prizes import run_prizes

    body = load_prize_request(Path(args.file), Path(args.prizes), _options(args, explain=False))
    response = run_prizes(body)
    print_warnings(response)
    if args.format == "json":
        sys.stdout.write(json_text(response))
    else:
        print(prizes_text(response))
    return 0


# ---------------------------------------------------------------- scenarios


def scenarios(args: argparse.Namespace) -> int:
    """What each player needs before the last round(s) (POST /v1/scenarios), as sentences."""
    from .usecases.scenario_text import scenarios_text
    from .usecases.scenarios import file_request, run_scenarios
    from .wire.limits import LIMITS
    from .wire.scenarios import Pairing

    path = Path(args.file)
    data = read_input(path)
    tournament, text = (
        (_decoder(s.Tournament).decode(data), None) if _is_json(path, data) else (None, decode_trf(data)[0])
    )
    pairings = (
        None if args.pairings == "last" else msgspec.json.decode(Path(args.pairings).read_bytes(), type=list[Pairing])
    )
    fields = {"places": args.places, "players": args.players, "unrated_rating": args.unrated_rating}
    if args.regulations is not None:
        fields["regulations"] = args.regulations
    request, names, _ = file_request(tournament, text, pairings, args.tiebreaks, **fields)
    answer = run_scenarios(request, LIMITS)
    print_warnings(answer)
    sys.stdout.write(json_text(answer) if args.format == "json" else scenarios_text(answer, args.places, names) + "\n")
    return 0


# ---------------------------------------------------------------- serve


def serve(args: argparse.Namespace) -> int:
    from .http.server import run  # JSON logs, graceful shutdown, metrics over workers, connection guards

    if args.admin_port is not None:
        os.environ["TIEBREAK_ADMIN_PORT"] = str(args.admin_port)  # read by the app and the server
    run(args.host, args.port, args.workers)
    return 0


# ---------------------------------------------------------------- arguments


def _options(args: argparse.Namespace, explain: bool) -> Options:
    return Options(
        tiebreaks=tuple(args.tiebreaks) if args.tiebreaks is not None else None,
        regulations=args.regulations,
        after_round=args.after_round,
        unrated_rating=args.unrated_rating,
        seed=args.seed,
        explain=explain,
    )


FILE_HELP = msg(
    "a TRF file (TRF-16/TRF-26), a .json tournament or standings request, or - for standard input "
    "(JSON when it starts with {{, else TRF)"
)


def _rule_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "-t",
        "--tiebreaks",
        nargs="*",
        metavar="RULE",
        help=msg("rules in order, e.g. BH/C1 BH SB (default: the file's own list, TRF record 202)"),
    )
    p.add_argument(
        "--regulations", choices=REGULATIONS, help=msg("rule set (default: the file's, else auto: by the start date)")
    )
    p.add_argument(
        "--after-round",
        type=int,
        metavar="N",
        help=msg("standings after round N (default: the last round with a game result)"),
    )
    p.add_argument("--unrated-rating", type=int, metavar="R", help=msg("rating that unrated players count as"))
    p.add_argument(
        "--seed",
        type=int,
        metavar="N",
        help=msg("seed of the drawing of lots (rule RND): the same seed, the same draw (default: drawn and printed)"),
    )


LANG_HELP = msg("the language of the texts (default: the locale, LC_ALL, LC_MESSAGES or LANG; else English)")


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="tiebreak", description=msg("Chess tie-break standings (FIDE C.07)"))
    root.add_argument(
        "--lang",
        choices=sorted(LANGUAGES),
        help=LANG_HELP,
    )
    root.add_argument(
        "--version",
        action="version",
        version=f"tiebreak {__version__}",
        help=msg("the service version (as GET /v1/version) and exit"),
    )
    sub = root.add_subparsers(dest="command", required=True)

    p = sub.add_parser("standings", help=msg("rank a TRF or JSON tournament"))
    p.add_argument("file", help=FILE_HELP)
    _rule_options(p)
    p.add_argument(
        "--format",
        default="table",
        choices=["table", "json", "csv"],
        help=msg("table (default), json (the API's response, with breakdowns) or csv; warnings go to stderr"),
    )
    p.set_defaults(run=standings)

    p = sub.add_parser("explain", help=msg("one player's breakdown, rule by rule"))
    p.add_argument("file", help=FILE_HELP)
    p.add_argument("-p", "--player", type=int, required=True, metavar="ID", help=msg("the player's start number"))
    _rule_options(p)
    p.set_defaults(run=explain)

    p = sub.add_parser("progression", help=msg("each player's rank and points after every round"))
    p.add_argument("file", help=FILE_HELP)
    _rule_options(p)
    p.add_argument("--csv", action="store_true", help=msg("CSV (rank_1.., points_1..) instead of the table"))
    p.set_defaults(run=progression)

    p = sub.add_parser("batch", help=msg("re-rank many files into one NDJSON file"))
    p.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help=msg("files, folders (their .trf and .trfx files), glob patterns, or - for one file on standard input"),
    )
    _rule_options(p)
    p.add_argument("--out", default="-", help=msg("NDJSON output file (default: stdout)"))
    p.add_argument("--jobs", type=int, default=1, metavar="N", help=msg("worker processes (default 1)"))
    p.add_argument(
        "--explain",
        action=argparse.BooleanOptionalAction,
        default=True,
        help=msg("every player's breakdown in the lines (default, as in the API; --no-explain: without)"),
    )
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=msg("progress bar on stderr (default: when stderr is a terminal)"),
    )
    p.set_defaults(run=batch)

    p = sub.add_parser(
        "check",
        help=msg(
            "check archived TRF files: points and ranks as written against the standings under the edition of each file's date"
        ),
    )
    p.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help=msg("files, folders (their .trf and .trfx files), glob patterns, or - for one file on standard input"),
    )
    p.add_argument("--out", default="-", help=msg("NDJSON output file, one report per file (default: stdout)"))
    p.add_argument("--jobs", type=int, default=1, metavar="N", help=msg("worker processes (default 1)"))
    p.add_argument(
        "-t",
        "--tiebreaks",
        nargs="*",
        metavar="RULE",
        help=msg("rules to rank by instead of each file's own list (202/212), e.g. BH/C1 BH SB"),
    )
    p.add_argument(
        "--regulations",
        choices=REGULATIONS,
        default="auto-historic",
        help=msg("rule set (default auto-historic: the edition in force at each file's date)"),
    )
    p.add_argument(
        "--participants",
        choices=["auto", "players"],
        default="auto",
        help=msg("auto (default): a team file is checked by team (records 310); players: by player"),
    )
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=msg("progress bar on stderr (default: when stderr is a terminal)"),
    )
    p.set_defaults(run=check)

    p = sub.add_parser("prizes", help=msg("prize money for tied players, with the reason for every share"))
    p.add_argument(
        "file",
        metavar="STANDINGS_OR_TOURNAMENT",
        help=msg("final standings (.json rows or a standings response) or a TRF/JSON tournament to rank first"),
    )
    p.add_argument(
        "--prizes",
        required=True,
        metavar="PRIZES.json",
        help=msg("categories, prizes (or prize_groups) and rules, as in POST /v1/prizes"),
    )
    _rule_options(p)
    p.add_argument(
        "--format",
        default="text",
        choices=["text", "json"],
        help=msg("text (default: each player's shares and why) or json (the API's response)"),
    )
    p.set_defaults(run=prizes)

    p = sub.add_parser("scenarios", help=msg("before the last round: what each player needs for each place"))
    p.add_argument("file", help=FILE_HELP)
    p.add_argument(
        "--pairings",
        required=True,
        metavar="last|PAIRINGS.json",
        help=msg(
            "`last`: the file's last round, its results dropped and its pairings kept; or a JSON list of pairings as in POST /v1/scenarios"
        ),
    )
    p.add_argument("--places", type=int, default=1, metavar="N", help=msg("the places that matter (default 1)"))
    p.add_argument("--players", type=int, nargs="*", metavar="ID", help=msg("report only these start numbers"))
    p.add_argument("-t", "--tiebreaks", nargs="*", metavar="RULE", help=msg("rules in order (default: the file's own)"))
    p.add_argument("--regulations", choices=REGULATIONS, help=msg("rule set (default: auto, by the start date)"))
    p.add_argument("--unrated-rating", type=int, metavar="R", help=msg("rating that unrated players count as"))
    p.add_argument("--format", default="text", choices=["text", "json"], help=msg("text (default: sentences) or json"))
    p.set_defaults(run=scenarios)

    p = sub.add_parser("serve", help=msg("start the HTTP service"))
    p.add_argument(
        "--host",
        default=os.environ.get("HOST", "127.0.0.1"),
        help=msg("address to listen on (default: $HOST, else 127.0.0.1)"),
    )
    p.add_argument(
        "--port", type=int, default=int(os.environ.get("PORT", "8000")), help=msg("port (default: $PORT, else 8000)")
    )
    p.add_argument(
        "--workers",
        type=int,
        default=int(os.environ.get("WORKERS", "1")),
        help=msg("worker processes (default: $WORKERS, else 1)"),
    )
    p.add_argument(
        "--admin-port",
        type=int,
        default=None,
        metavar="PORT",
        help=msg(
            "serve /metrics and the API description only on this port (TIEBREAK_ADMIN_PORT); the other limits and timeouts are environment variables (docs/operations.md)"
        ),
    )
    p.set_defaults(run=serve)
    for command in sub.choices.values():  # after the command too: `tiebreak explain x.trf -p 3 --lang ru`
        command.add_argument("--lang", choices=sorted(LANGUAGES), default=argparse.SUPPRESS, help=LANG_HELP)
    _render_help(root)
    return root


def _render_help(command: argparse.ArgumentParser) -> None:
    """The help texts in the language of the command line (argparse prints them as they are)."""
    if command.description is not None:
        command.description = current(command.description)
    for action in command._actions:
        if action.help is not None:
            action.help = current(action.help)
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:  # the commands' one-line help in `tiebreak --help`
                if choice.help is not None:
                    choice.help = current(choice.help)
            for sub in action.choices.values():
                _render_help(sub)


def _language_of(argv: list[str]) -> str:
    """The language before the arguments are parsed (so that --help is in it): --lang, else the locale."""
    for i, arg in enumerate(argv):
        value = (
            arg.split("=", 1)[1]
            if arg.startswith("--lang=")
            else argv[i + 1]
            if arg == "--lang" and i + 1 < len(argv)
            else None
        )
        if value in LANGUAGES:
            return value
    return locale_language(os.environ)


def locale_language(environ: Mapping[str, str]) -> str:
    """The language the locale names (POSIX order: LC_ALL, then LC_MESSAGES, then LANG):
    "ru_RU.UTF-8" is Russian; C, POSIX or a language we do not have is English."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            tag = value.split(".", 1)[0].split("@", 1)[0].replace("_", "-")
            return supported(tag) or ENGLISH
    return ENGLISH


# The exit status of a command killed by SIGPIPE, which is what `| head` does to cat or grep.
CLOSED_PIPE = 128 + 13


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    with language(_language_of(argv)):
        args = parser().parse_args(argv)
    if getattr(args, "jobs", 1) < 1:
        with language(args.lang or locale_language(os.environ)):
            print("tiebreak: " + current(msg("--jobs must be at least 1")), file=sys.stderr)
        return 2
    try:
        with language(args.lang or locale_language(os.environ)):
            return args.run(args)
    except BrokenPipeError:
        # The reader went away (`tiebreak standings x.trf | head`): stop quietly. Point stdout at
        # /dev/null so that the interpreter's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return CLOSED_PIPE
    except TrfError as exc:
        where = msg("line {line}, column {column}: {message}", line=exc.line, column=exc.column, message=exc.message)
        text = render(where, args.lang or locale_language(os.environ))
        print(f"tiebreak: {getattr(args, 'file', '')}: {text}", file=sys.stderr)
    except (TiebreakError, msgspec.MsgspecError, OSError, LookupError, ValueError) as exc:
        print(f"tiebreak: {exc}", file=sys.stderr)
    except Exception as exc:  # noqa: BLE001 - e.g. a limit of the service; never a traceback
        print(f"tiebreak: {type(exc).__name__}: {exc}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
