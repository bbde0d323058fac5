"""Command line: `tiebreak serve` and `tiebreak standings FILE`.

    tiebreak standings tests/fixtures/conformance_fide/worked-a-alekhine-memorial.trf -t BH BH/C1 SB
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import msgspec

from .api import schemas as s
from .api.convert import rules_from_wire, standings_to_wire, tournament_from_wire
from .engine import Regulations, compute_standings
from .engine.errors import TiebreakError
from .formats.trf import TrfError, parse_trf


def _load(path: Path):
    text = path.read_text(encoding="utf-8-sig")
    if path.suffix.lower() == ".json":
        return tournament_from_wire(msgspec.json.decode(text, type=s.Tournament)), []
    document = parse_trf(text)
    return document.tournament, document.tiebreaks


def _table(response: s.StandingsResponse) -> str:
    specs = [t.spec for t in response.tiebreaks]
    header = ["Rank", "Id", "Name", "Pts", *specs, "Decided by"]
    rows = [
        [str(row.rank), str(row.id), row.name[:28], f"{row.points:g}",
         *("-" if v is None else f"{v:g}" for v in row.values), row.decided_by or ""]
        for row in response.standings
    ]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in [header, *rows]]
    footer = [f"regulations: {response.regulations}, system: {response.system}"]
    footer += [f"warning: {w.message}" for w in response.warnings]
    return "\n".join(lines + footer)


def standings(args: argparse.Namespace) -> int:
    tournament, trf_rules = _load(Path(args.file))
    specs = rules_from_wire(args.tiebreaks if args.tiebreaks is not None else trf_rules)
    regulations = None if args.regulations == "auto" else Regulations(args.regulations)
    result = compute_standings(tournament, specs, regulations, args.after_round, args.unrated_rating,
                               explain=args.format == "json")
    response = standings_to_wire(result, explain=args.format == "json")
    if args.format == "json":
        sys.stdout.write(msgspec.json.format(msgspec.json.encode(response).decode()) + "\n")
    else:
        print(_table(response))
    return 0


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    uvicorn.run("service.api.app:app", host=args.host, port=args.port, workers=args.workers)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tiebreak", description="Chess tie-break standings (FIDE C.07)")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("standings", help="rank a TRF or JSON tournament")
    p.add_argument("file")
    p.add_argument("-t", "--tiebreaks", nargs="*", help="rules in order, e.g. BH/C1 BH SB (default: the TRF's 202)")
    p.add_argument("--regulations", default="auto", choices=["auto", "fide-2026", "fide-2024"])
    p.add_argument("--after-round", type=int)
    p.add_argument("--unrated-rating", type=int)
    p.add_argument("--format", default="table", choices=["table", "json"])
    p.set_defaults(run=standings)

    p = sub.add_parser("serve", help="start the HTTP service")
    p.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    p.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    p.add_argument("--workers", type=int, default=int(os.environ.get("WORKERS", "1")))
    p.set_defaults(run=serve)

    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (TiebreakError, TrfError, msgspec.MsgspecError, OSError) as exc:
        print(f"tiebreak: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
