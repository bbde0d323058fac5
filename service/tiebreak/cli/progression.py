"""`tiebreak progression FILE`: each player's rank and points after every round."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import msgspec

from ..usecases.requests import answer
from ..wire import schemas as s
from ..wire.progression import ProgressionRequest
from .files import load_request, options_of
from .render import print_warnings, progression_csv, progression_table


def progression_request(request: s.StandingsRequest) -> ProgressionRequest:
    """The standings request of a file as a progression request (every round, no row choices)."""
    fields = msgspec.structs.asdict(request)
    for name in ("explain", "top", "offset", "player"):
        del fields[name]
    return ProgressionRequest(**fields)


def run(args: argparse.Namespace) -> int:
    request, warnings = load_request(Path(args.file), options_of(args, explain=False))
    response = answer("progression", progression_request(request))
    print_warnings(msgspec.structs.replace(response, warnings=[*warnings, *response.warnings]))
    sys.stdout.write(progression_csv(response) if args.csv else progression_table(response) + "\n")
    return 0
