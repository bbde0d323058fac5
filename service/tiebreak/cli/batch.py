"""`tiebreak batch PATHS...`: many files re-ranked into one NDJSON file, one line per file in the
shape of `POST /v1/standings/batch`'s, in worker processes with `--jobs N`."""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

from ..texts.catalogue import current, json_encoder
from ..texts.message import msg
from ..wire.io import BatchResult
from .files import Options, expand_paths, failure_text, file_problem, options_of, rank_file
from .pool import chunk_size, in_processes
from .render import Progress

CHUNK = 16  # files per message to and from a worker process, at most


def batch_line(index: int, path: str, options: Options) -> tuple[bytes, str | None]:
    """One file to one NDJSON line, the same shape as the HTTP batch's (`id` is the path), and
    what went wrong when the file could not be ranked (None when it was)."""
    try:
        result = rank_file(Path(path), options, encoded=True)
        line = BatchResult(index=index, id=path, status=200, result=result, error=None)
        failure = None
    except Exception as exc:  # noqa: BLE001 - a bad file is reported, the batch goes on
        problem = file_problem(exc)
        line = BatchResult(index=index, id=path, status=problem.status, result=None, error=problem)
        failure = failure_text(problem)
    return json_encoder().encode(line) + b"\n", failure


_options: Options | None = None  # what every file is ranked with, in a worker process (its initializer sets it)


def _set_options(options: Options) -> None:
    global _options
    _options = options


def _item(job: tuple[int, str]) -> tuple[bytes, str | None]:
    """One file of a batch in a worker process: its line, and its failure (None: ranked)."""
    assert _options is not None  # set by the worker's initializer, _set_options
    return batch_line(*job, _options)


def path_of(job: tuple) -> str:
    return job[1]


def _lines(paths: list[str], options: Options, jobs: int):
    """(line, failure) of every file, in order: in `jobs` worker processes, or here."""
    if jobs > 1 and len(paths) > 1:
        chunk = chunk_size(len(paths), jobs, CHUNK)
        yield from in_processes(_item, list(enumerate(paths)), jobs, chunk, path_of, _set_options, (options,))
    else:
        for index, path in enumerate(paths):
            yield batch_line(index, path, options)


def run(args: argparse.Namespace) -> int:
    paths = [str(p) for p in expand_paths(args.paths)]
    options = options_of(args, explain=args.explain)
    progress = Progress(len(paths), args.progress if args.progress is not None else sys.stderr.isatty())
    failures: list[tuple[str, str]] = []
    out = sys.stdout.buffer if args.out == "-" else open(args.out, "wb")
    # Everything imported so far lives as long as the command: out of the cyclic collector's
    # reach while the files are ranked, so that its collections stay short and, in forked
    # workers, leave the shared pages unwritten (copy-on-write).
    gc.freeze()
    started = time.perf_counter()
    try:
        for path, (line, failure) in zip(paths, _lines(paths, options, args.jobs), strict=False):
            out.write(line)
            if failure is not None:
                failures.append((path, failure))
            progress.step(failure is not None)
    finally:
        gc.unfreeze()  # as it was (`main` may run again in this process)
        if out is not sys.stdout.buffer:
            out.close()
    _summary(len(paths), failures, time.perf_counter() - started)
    return 1 if failures else 0


def _summary(files: int, failures: list[tuple[str, str]], elapsed: float) -> None:
    text = msg(
        "{files} files in {seconds} s ({rate} files/s), {ranked} ranked, {failed} failed",
        files=files,
        seconds=round(elapsed, 2),
        rate=round(files / max(elapsed, 1e-9)),
        ranked=files - len(failures),
        failed=len(failures),
    )
    print("tiebreak batch: " + current(text), file=sys.stderr)
    for path, message in failures:
        print("  " + current(msg("failed: {path}: {problem}", path=path, problem=message)), file=sys.stderr)
