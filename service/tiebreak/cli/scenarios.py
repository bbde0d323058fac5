"""`tiebreak scenarios FILE --pairings ...`: what each player needs before the last round(s)
(POST /v1/scenarios), as sentences or the API's JSON.

`--assume` fixes results of open games, as the API's `assume` does: `12-34=1-0` (white's and
black's start numbers, a result), `7:12-34=1/2` to name the round, or a JSON file holding the
API's list (docs/cli.md)."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import msgspec

from ..formats.trf import decode_trf
from ..formats.trf_teams import is_team_trf
from ..texts.catalogue import current
from ..texts.message import msg
from ..usecases.requests import answer
from ..usecases.scenario_text import scenarios_text
from ..usecases.scenarios import file_request
from ..wire import schemas as s
from ..wire.limits import LIMITS, TooManyOpenGames
from ..wire.scenarios import Assumed, Pairing
from .files import decoder, is_json, read_input
from .render import json_text, print_warnings

# a result as an arbiter writes it -> the API's result (white's side first)
RESULTS = {
    "1-0": "white",
    "0-1": "black",
    "1/2": "draw",
    "1/2-1/2": "draw",
    "½": "draw",
    "½-½": "draw",
    "=": "draw",
    "white": "white",
    "draw": "draw",
    "black": "black",
}
GAME = re.compile(r"^(?:(\d+):)?(\d+)-(\d+)=(.+)$")


def parse_assume(items: list[str], pairings: list[Pairing]) -> list[Assumed]:
    """`--assume` values as the API's `assume`: each `[ROUND:]WHITE-BLACK=RESULT`, or a JSON file
    of that list. Without a round, the game is the one of `pairings` with that white and black."""
    assumed: list[Assumed] = []
    for item in items:
        found = GAME.match(item.strip())
        if found is None:
            if Path(item).is_file():
                assumed += msgspec.json.decode(Path(item).read_bytes(), type=list[Assumed])
                continue
            raise ValueError(
                current(msg("--assume {item}: write WHITE-BLACK=RESULT, e.g. 12-34=1-0, or a JSON file", item=item))
            )
        rnd, white, black, text = found.groups()
        result = RESULTS.get(text.strip().lower())
        if result is None:
            raise ValueError(current(msg("--assume {item}: the result is 1-0, 1/2 or 0-1", item=item)))
        rounds = [
            p.round
            for p in pairings
            if p.white == int(white) and p.black == int(black) and (rnd is None or p.round == int(rnd))
        ]
        if not rounds:
            raise ValueError(
                current(
                    msg(
                        "--assume {item}: no open game has white {white} and black {black}",
                        item=item,
                        white=white,
                        black=black,
                    )
                )
            )
        if len(rounds) > 1:
            raise ValueError(
                current(msg("--assume {item}: the game is paired in several rounds; write ROUND:{item}", item=item))
            )
        assumed.append(Assumed(round=rounds[0], white=int(white), black=int(black), result=result))  # type: ignore[arg-type]
    return assumed


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
    if args.preset is not None:
        if args.tiebreaks is not None:
            raise ValueError(current(msg("give -t or --preset, not both")))
        fields["preset"] = args.preset
    request, names, _ = file_request(tournament, text, pairings, args.tiebreaks, **fields)
    if args.preset is not None:  # the preset instead of the file's own list (record 202)
        request = msgspec.structs.replace(request, tiebreaks=None)
    team = text is not None and is_team_trf(text)
    if team:
        # a team event: the file itself, so that the server reads its teams and matches (decision 0231);
        # the pairings are the boards' games read above
        request = msgspec.structs.replace(request, tournament=None, trf=text, tiebreaks=args.tiebreaks)
    if args.assume:
        request = msgspec.structs.replace(request, assume=parse_assume(args.assume, request.pairings))
    try:
        # priced as the API prices it: 3^n outcomes of n open games outgrow any machine
        try:
            response = answer("scenarios", request, LIMITS, priced=True)
        except TooManyOpenGames as exc:
            if exc.path != "players" or request.players is not None or request.contenders_only or team:
                raise  # a team event reports every team asked about: its refusal is said as it is
            # every player is too long for the solver: those who can still reach the places on
            # points, as the page does; the others are said to be out of reach (decision 0300)
            request = msgspec.structs.replace(request, contenders_only=True)
            response = answer("scenarios", request, LIMITS, priced=True)
    except TooManyOpenGames as exc:
        # the service's advice names its fields; here the options that do the same
        advice = msg(
            "fix the results of some games with --assume WHITE-BLACK=RESULT (e.g. --assume 12-34=1-0), "
            "report fewer players with --players ID ... or ask about fewer places with --places N"
        )
        print(f"tiebreak: {current(exc.summary)}; {current(advice)}", file=sys.stderr)
        return 1
    print_warnings(response)
    sys.stdout.write(
        json_text(response) if args.format == "json" else scenarios_text(response, args.places, names) + "\n"
    )
    return 0
