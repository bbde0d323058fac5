"""`tiebreak check PATHS...`: archived TRF files, their points and ranks as written against the
standings under the edition of each file's date, one NDJSON report per file as `POST /v1/check`
writes it."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import msgspec

from ..formats.trf import decode_trf
from ..texts.catalogue import current, json_encoder
from ..texts.message import msg
from ..usecases.requests import answer
from ..wire.io import CheckItem, CheckLine
from .batch import path_of
from .files import expand_paths, failure_text, file_problem, read_input
from .pool import chunk_size, in_processes
from .render import Progress

CHUNK = 8  # files per message to and from a worker process, at most


def check_file_line(job: tuple[int, str, dict]) -> bytes:
    """One archived file to one NDJSON line of `tiebreak check` (`id` is the path); a file that
    cannot be read or checked (a missing file, a bad byte after a BOM, a line the reader refuses)
    is its own line, named by its path."""
    index, path, options = job
    try:
        text = decode_trf(read_input(Path(path)))[0]
    except Exception as exc:  # noqa: BLE001 - one unreadable file must not stop the check of the rest
        line = CheckLine(index=index, id=path, status=400, result=None, error=file_problem(exc))  # docs/archives.md
        return json_encoder().encode(line) + b"\n"
    try:
        report = answer("check", CheckItem(trf=text, id=path, **options))
        line = CheckLine(index=index, id=path, status=200, result=report, error=None)
    except Exception as exc:  # noqa: BLE001 - one bad file must not stop the check of the rest
        problem = file_problem(exc)
        line = CheckLine(index=index, id=path, status=problem.status, result=None, error=problem)
    return json_encoder().encode(line) + b"\n"


class _ProblemItem(msgspec.Struct):
    path: str
    message: str


class _ProblemDetail(msgspec.Struct):
    detail: str
    errors: list[_ProblemItem] = []


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


def run(args: argparse.Namespace) -> int:
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
            chunk = chunk_size(len(jobs), args.jobs, CHUNK)
            _write_lines(in_processes(check_file_line, jobs, args.jobs, chunk, path_of), out, progress, counts, notes)
        else:
            _write_lines(map(check_file_line, jobs), out, progress, counts, notes)
    finally:
        if out is not sys.stdout.buffer:
            out.close()
    text = msg(
        "{files} files in {seconds} s, {consistent} consistent, {inconsistent} inconsistent, {unreadable} unreadable",
        files=len(jobs),
        seconds=round(time.perf_counter() - started, 2),
        **counts,
    )
    print("tiebreak check: " + current(text), file=sys.stderr)
    for note in notes:
        print(f"  {note}", file=sys.stderr)
    return 1 if counts["inconsistent"] or counts["unreadable"] else 0


def _write_lines(lines, out, progress: Progress, counts: dict[str, int], notes: list[str]) -> None:
    for line in lines:
        out.write(line)
        verdict = msgspec.json.decode(line, type=_CheckStatus)
        if verdict.result is None:
            counts["unreadable"] += 1
            notes.append(
                current(msg("unreadable: {file}: {problem}", file=verdict.id, problem=failure_text(verdict.error)))
            )
        else:
            counts[verdict.result.status] += 1
            if verdict.result.status == "inconsistent":
                notes.append(_disagreement(verdict.id, verdict.result.disagreements))
        progress.step(verdict.result is None or verdict.result.status != "consistent")


def _disagreement(file: str, disagreements: list[_CheckDisagreement]) -> str:
    first, more = disagreements[0], len(disagreements) - 1
    text = msg(
        "inconsistent: {file}: player {player} {field} {written} in the file, {computed} computed",
        file=file,
        player=first.player,
        field=first.field,
        written=str(first.file),
        computed=str(first.computed),
    )
    return current(text) + (current(msg(" (+{count} more)", count=more)) if more else "")
