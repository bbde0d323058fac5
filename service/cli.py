"""The `tiebreak` command line: the service's standings without a server, and the server.

    tiebreak standings FILE.trf|FILE.json [-t BH/C1 BH ...] [--format table|json|csv]
    tiebreak explain FILE -p ID [-t ...]
    tiebreak batch PATHS... [-t ...] --out results.ndjson --jobs N
    tiebreak serve [--host H] [--port P]

A JSON file is a tournament (the API's `tournament`) or a whole standings request
(with `tournament` or `trf`); command-line options override the request's fields.
Errors go to stderr and the exit code is non-zero. See docs/cli.md.
"""

from __future__ import annotations

import argparse
import csv
import glob
import io
import multiprocessing
import os
import sys
import time
import typing
from dataclasses import dataclass
from pathlib import Path

import msgspec

from .api import schemas as s
from .api.pipeline import run_standings
from .api.schemas_io import BatchResult
from .engine.errors import TiebreakError
from .formats.trf import TrfError, decode_trf

REGULATIONS = typing.get_args(s.RegulationsName)
_request_decoder = msgspec.json.Decoder(s.StandingsRequest)
_tournament_decoder = msgspec.json.Decoder(s.Tournament)


@dataclass(frozen=True, slots=True)
class Options:
    """What the command line asks of every file (None: the file's own choice)."""

    tiebreaks: tuple[str, ...] | None = None
    regulations: str | None = None
    after_round: int | None = None
    unrated_rating: int | None = None
    explain: bool = True


def load_request(path: Path, options: Options) -> tuple[s.StandingsRequest, list[s.WarningOut]]:
    """A standings request for one file, and the warnings reading its bytes gave (encoding)."""
    data = path.read_bytes()
    fields: dict = {}
    warnings: list[s.WarningOut] = []
    if path.suffix.lower() == ".json":
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        as_object = msgspec.json.decode(data)
        if isinstance(as_object, dict) and ("tournament" in as_object or "trf" in as_object):
            fields = msgspec.structs.asdict(_request_decoder.decode(data))
        else:
            fields["tournament"] = _tournament_decoder.decode(data)
    else:
        text, _, trf_warnings = decode_trf(data)
        fields["trf"] = text
        warnings = [s.WarningOut(code="trf-line-ignored", message=f"line {w.line}, column {w.column}: {w.message}",
                                 rule=None) for w in trf_warnings]
    if options.tiebreaks is not None:
        fields["tiebreaks"] = list(options.tiebreaks)
    for name in ("regulations", "after_round", "unrated_rating"):
        if getattr(options, name) is not None:
            fields[name] = getattr(options, name)
    fields["explain"] = options.explain
    return s.StandingsRequest(**fields), warnings


def rank_file(path: Path, options: Options) -> s.StandingsResponse:
    request, warnings = load_request(path, options)
    response = run_standings(request)
    if warnings:
        response = msgspec.structs.replace(response, warnings=[*warnings, *response.warnings])
    return response


# ---------------------------------------------------------------- standings

def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


def table_text(response: s.StandingsResponse) -> str:
    specs = [t.spec for t in response.tiebreaks]
    header = ["Rank", "Id", "Name", "Pts", *specs, "Decided by"]
    rows = [[str(row.rank), str(row.id), row.name[:28], _number(row.points),
             *(_number(v) for v in row.values), row.decided_by or ""] for row in response.standings]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in [header, *rows]]
    footer = [f"regulations: {response.regulations}, system: {response.system}"
              + (f", after round {response.after_round}" if response.after_round else "")]
    footer += [f"warning: {w.message}" for w in response.warnings]
    return "\n".join(lines + footer)


def csv_text(response: s.StandingsResponse) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["rank", "id", "name", "points", *(t.spec for t in response.tiebreaks), "decided_by"])
    for row in response.standings:
        writer.writerow([row.rank, row.id, row.name, _number(row.points),
                         *("" if v is None else f"{v:g}" for v in row.values), row.decided_by or ""])
    return out.getvalue()


def json_text(value) -> str:
    return msgspec.json.format(msgspec.json.encode(value).decode()) + "\n"


def standings(args: argparse.Namespace) -> int:
    response = rank_file(Path(args.file), _options(args, explain=args.format == "json"))
    if args.format == "json":
        sys.stdout.write(json_text(response))
    elif args.format == "csv":
        sys.stdout.write(csv_text(response))
    else:
        print(table_text(response))
    return 0


# ---------------------------------------------------------------- explain

def explain_text(response: s.StandingsResponse, player_id: int) -> str:
    """One player's standing and every contribution, the way an arbiter checks it."""
    rows = {row.id: row for row in response.standings}
    row = rows[player_id]
    names = {r.id: r.name for r in response.standings}
    position = response.standings.index(row)
    lines = [f"{row.name or 'Player'} (id {row.id}): rank {row.rank} of {len(response.standings)}, "
             f"{_number(row.points)} points",
             f"regulations {response.regulations}, {response.system.replace('_', ' ')}"
             + (f", after round {response.after_round}" if response.after_round else "")]
    if position + 1 < len(response.standings):
        following = response.standings[position + 1]
        lines.append(f"ahead of {following.name or following.id} (id {following.id}) by "
                     + (row.decided_by or "nothing: equal on every rule"))
    for rule, value in zip(response.tiebreaks, row.values):
        breakdown = (row.breakdown or {}).get(rule.spec)
        lines.append("")
        lines.append(f"{rule.spec}  {rule.name} ({rule.article}) = {_number(value)}"
                     + ("  (lower is better)" if rule.lower_is_better else ""))
        if rule.dropped:
            lines.append(f"  dropped: {rule.dropped}")
        if breakdown is None:
            continue
        if breakdown.note:
            lines.append(f"  {breakdown.note}")
        for c in breakdown.contributions:
            lines.append("  " + _contribution_text(c, names))
    warnings = [f"warning: {w.message}" + (f" ({w.rule})" if w.rule else "") for w in response.warnings]
    return "\n".join(lines + ([""] + warnings if warnings else []))


def _contribution_text(c: s.ContributionOut, names: dict[int, str]) -> str:
    where = f"round {c.round:>2}" if c.round is not None else " " * 8
    if c.opponent is not None:
        what = f"{c.kind} vs {c.opponent} {names.get(c.opponent, '')}".rstrip()
    else:
        what = c.kind + (f" ({c.unplayed})" if c.unplayed else "")
    text = f"{where}  {what:<32} {_number(c.value):>7}"
    if c.note:
        text += f"  {c.note}"
    if c.cut:
        text += f"  [cut: {c.cut_reason}]"
    return text.rstrip()


def explain(args: argparse.Namespace) -> int:
    response = rank_file(Path(args.file), _options(args, explain=True))
    if not any(row.id == args.player for row in response.standings):
        raise LookupError(f"no player with id {args.player} in {args.file}")
    print(explain_text(response, args.player))
    return 0


# ---------------------------------------------------------------- batch

def expand_paths(patterns: list[str]) -> list[Path]:
    """Files, folders (their *.trf files, recursively) and glob patterns, in a stable order."""
    found: list[Path] = []
    for pattern in patterns:
        path = Path(pattern)
        if path.is_dir():
            found += sorted(p for p in path.rglob("*") if p.suffix.lower() == ".trf" and p.is_file())
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
    from .api.batch import problem_of

    if isinstance(exc, (OSError, UnicodeError)):
        return s.Problem(type="about:blank", title="Bad Request", status=400, detail=f"cannot read the file: {exc}",
                         errors=[])
    return problem_of(None, exc)


def batch_line(job: tuple[int, str, Options]) -> bytes:
    """One file to one NDJSON line, the same shape as the HTTP batch's (`id` is the path)."""
    index, path, options = job
    try:
        result = rank_file(Path(path), options)
        line = BatchResult(index=index, id=path, status=200, result=result, error=None)
    except Exception as exc:  # noqa: BLE001 - a bad file is reported, the batch goes on
        problem = _problem(exc)
        line = BatchResult(index=index, id=path, status=problem.status, result=None, error=problem)
    return msgspec.json.encode(line) + b"\n"


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
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} files, "
                             f"{self.failed} failed, {rate:.0f} files/s")
            if self.done == self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()


def batch(args: argparse.Namespace) -> int:
    paths = expand_paths(args.paths)
    options = _options(args, explain=args.explain)
    jobs = [(i, str(p), options) for i, p in enumerate(paths)]
    progress = Progress(len(jobs), args.progress if args.progress is not None else sys.stderr.isatty())
    failures: list[tuple[str, str]] = []
    out = sys.stdout.buffer if args.out == "-" else open(args.out, "wb")
    started = time.perf_counter()
    try:
        if args.jobs > 1 and len(jobs) > 1:
            with multiprocessing.get_context("fork" if os.name == "posix" else "spawn").Pool(args.jobs) as pool:
                _write_lines(pool.imap(batch_line, jobs, chunksize=8), out, progress, failures)
        else:
            _write_lines(map(batch_line, jobs), out, progress, failures)
    finally:
        if out is not sys.stdout.buffer:
            out.close()
    elapsed = time.perf_counter() - started
    print(f"tiebreak batch: {len(jobs)} files in {elapsed:.2f} s ({len(jobs) / max(elapsed, 1e-9):.0f} files/s), "
          f"{len(jobs) - len(failures)} ranked, {len(failures)} failed", file=sys.stderr)
    for path, message in failures:
        print(f"  failed: {path}: {message}", file=sys.stderr)
    return 1 if failures else 0


def _write_lines(lines, out, progress: Progress, failures: list[tuple[str, str]]) -> None:
    for line in lines:
        out.write(line)
        result = msgspec.json.decode(line, type=_BatchStatus)
        failed = result.status != 200
        if failed:
            failures.append((result.id, result.error.detail))
        progress.step(failed)


class _ProblemDetail(msgspec.Struct):
    detail: str


class _BatchStatus(msgspec.Struct):
    id: str
    status: int
    error: _ProblemDetail | None


# ---------------------------------------------------------------- serve

def serve(args: argparse.Namespace) -> int:
    from .api.ops import run_server  # JSON logs, graceful shutdown, metrics over workers, connection guards

    if args.admin_port is not None:
        os.environ["TIEBREAK_ADMIN_PORT"] = str(args.admin_port)  # read by the app and the server
    run_server(args.host, args.port, args.workers)
    return 0


# ---------------------------------------------------------------- arguments

def _options(args: argparse.Namespace, explain: bool) -> Options:
    return Options(
        tiebreaks=tuple(args.tiebreaks) if args.tiebreaks is not None else None,
        regulations=args.regulations,
        after_round=args.after_round,
        unrated_rating=args.unrated_rating,
        explain=explain,
    )


def _rule_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("-t", "--tiebreaks", nargs="*", metavar="RULE",
                   help="rules in order, e.g. BH/C1 BH SB (default: the file's own list, TRF record 202)")
    p.add_argument("--regulations", choices=REGULATIONS, help="default: the file's, else auto")
    p.add_argument("--after-round", type=int, metavar="N", help="standings after round N")
    p.add_argument("--unrated-rating", type=int, metavar="R", help="rating that unrated players count as")


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="tiebreak", description="Chess tie-break standings (FIDE C.07)")
    sub = root.add_subparsers(dest="command", required=True)

    p = sub.add_parser("standings", help="rank a TRF or JSON tournament")
    p.add_argument("file")
    _rule_options(p)
    p.add_argument("--format", default="table", choices=["table", "json", "csv"])
    p.set_defaults(run=standings)

    p = sub.add_parser("explain", help="one player's breakdown, rule by rule")
    p.add_argument("file")
    p.add_argument("-p", "--player", type=int, required=True, metavar="ID", help="the player's start number")
    _rule_options(p)
    p.set_defaults(run=explain)

    p = sub.add_parser("batch", help="re-rank many files into one NDJSON file")
    p.add_argument("paths", nargs="+", metavar="PATH", help="files, folders (their .trf files) or glob patterns")
    _rule_options(p)
    p.add_argument("--out", default="-", help="NDJSON output file (default: stdout)")
    p.add_argument("--jobs", type=int, default=1, metavar="N", help="worker processes (default 1)")
    p.add_argument("--explain", action="store_true", help="include every player's breakdown")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress bar on stderr (default: when stderr is a terminal)")
    p.set_defaults(run=batch)

    p = sub.add_parser("serve", help="start the HTTP service")
    p.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    p.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    p.add_argument("--workers", type=int, default=int(os.environ.get("WORKERS", "1")))
    p.add_argument("--admin-port", type=int, default=None, metavar="PORT",
                   help="serve /metrics and the API description only on this port (TIEBREAK_ADMIN_PORT); "
                        "the other limits and timeouts are environment variables (docs/operations.md)")
    p.set_defaults(run=serve)
    return root


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if getattr(args, "jobs", 1) < 1:
        print("tiebreak: --jobs must be at least 1", file=sys.stderr)
        return 2
    try:
        return args.run(args)
    except TrfError as exc:
        print(f"tiebreak: {getattr(args, 'file', '')}: {exc}", file=sys.stderr)
    except (TiebreakError, msgspec.MsgspecError, OSError, LookupError, ValueError) as exc:
        print(f"tiebreak: {exc}", file=sys.stderr)
    except Exception as exc:  # noqa: BLE001 - e.g. a limit of the service; never a traceback
        print(f"tiebreak: {type(exc).__name__}: {exc}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
