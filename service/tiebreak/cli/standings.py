"""`tiebreak standings FILE`: the standings as a table, CSV or the API's JSON."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .files import options_of, rank_file
from .render import csv_text, json_text, print_warnings, table_text


def run(args: argparse.Namespace) -> int:
    as_json = args.format == "json"
    # JSON: the rows as the API encodes them, breakdowns and all (the same bytes, indented)
    response = rank_file(Path(args.file), options_of(args, explain=as_json), encoded=as_json)
    print_warnings(response)
    if as_json:
        sys.stdout.write(json_text(response))
    elif args.format == "csv":
        sys.stdout.write(csv_text(response))
    else:
        print(table_text(response))
    return 0
