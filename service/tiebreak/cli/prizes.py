"""`tiebreak prizes FILE --prizes PRIZES.json`: who receives what, with the reason for every share."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import msgspec

from ..usecases.requests import answer
from ..wire.prizes import PrizeRequest, StandingRow
from .files import Options, load_request, options_of
from .render import json_text, print_warnings, prizes_text


def load_prize_request(standings_path: Path, prizes_path: Path, options: Options):
    """A POST /v1/prizes body: the standings from the first file (rows in final order, a
    standings response, or a tournament/TRF/standings request ranked first), the prizes,
    categories and rules from the second."""
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


def run(args: argparse.Namespace) -> int:
    body = load_prize_request(Path(args.file), Path(args.prizes), options_of(args, explain=False))
    response = answer("prizes", body)
    print_warnings(response)
    if args.format == "json":
        sys.stdout.write(json_text(response))
    else:
        print(prizes_text(response))
    return 0
