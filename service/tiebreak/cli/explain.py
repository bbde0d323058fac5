"""`tiebreak explain FILE -p ID`: one player's standing and every contribution, rule by rule."""

from __future__ import annotations

import argparse
from pathlib import Path

from .files import options_of, rank_file
from .render import explain_text, print_warnings


def run(args: argparse.Namespace) -> int:
    response = rank_file(Path(args.file), options_of(args, explain=True))
    if not any(row.id == args.player for row in response.standings):
        raise LookupError(f"no player with id {args.player} in {args.file}")
    print_warnings(response)
    print(explain_text(response, args.player))
    return 0
