"""`tiebreak scenarios FILE --pairings ...`: what each player needs before the last round(s)
(POST /v1/scenarios), as sentences or the API's JSON."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import msgspec

from ..formats.trf import decode_trf
from ..usecases.requests import answer
from ..usecases.scenario_text import scenarios_text
from ..usecases.scenarios import file_request
from ..wire import schemas as s
from ..wire.limits import LIMITS
from ..wire.scenarios import Pairing
from .files import decoder, is_json, read_input
from .render import json_text, print_warnings


def run(args: argparse.Namespace) -> int:
    path = Path(args.file)
    data = read_input(path)
    tournament, text = (
        (decoder(s.Tournament).decode(data), None) if is_json(path, data) else (None, decode_trf(data)[0])
    )
    pairings = (
        None if args.pairings == "last" else msgspec.json.decode(Path(args.pairings).read_bytes(), type=list[Pairing])
    )
    fields = {"places": args.places, "players": args.players, "unrated_rating": args.unrated_rating}
    if args.regulations is not None:
        fields["regulations"] = args.regulations
    request, names, _ = file_request(tournament, text, pairings, args.tiebreaks, **fields)
    # priced as the API prices it: 3^n outcomes of n open games outgrow any machine
    response = answer("scenarios", request, LIMITS, priced=True)
    print_warnings(response)
    sys.stdout.write(
        json_text(response) if args.format == "json" else scenarios_text(response, args.places, names) + "\n"
    )
    return 0
