"""What the commands read: a file (or standard input) as a standings request, the files and
folders of a batch, and the options every file is ranked with."""

from __future__ import annotations

import argparse
import functools
import glob
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import msgspec

from ..formats.trf import decode_trf, located_warning
from ..texts.catalogue import current
from ..texts.message import msg
from ..usecases.requests import answer
from ..wire import schemas as s
from ..wire import teams as schemas_teams
from ..wire.decode import WireDecoder

STDIN = "-"  # a file argument of "-" is the standard input
TRF_SUFFIXES = (".trf", ".trfx")  # .trfx: Vega's export


@functools.cache
def decoder(type_) -> WireDecoder:
    """Made when a JSON file is first read: building a decoder is not every command's start-up."""
    return WireDecoder(type_)


@dataclass(frozen=True, slots=True)
class Options:
    """What the command line asks of every file (None: the file's own choice)."""

    tiebreaks: tuple[str, ...] | None = None
    regulations: str | None = None
    after_round: int | None = None
    unrated_rating: int | None = None
    seed: int | None = None
    explain: bool = True
    # --ratings-source, --per-round-ratings, --unrated: over the file's own `ratings`, field by field
    ratings: tuple[tuple[str, object], ...] = ()


def options_of(args: argparse.Namespace, explain: bool) -> Options:
    return Options(
        tiebreaks=tuple(args.tiebreaks) if args.tiebreaks is not None else None,
        regulations=args.regulations,
        after_round=args.after_round,
        unrated_rating=args.unrated_rating,
        seed=args.seed,
        explain=explain,
        ratings=tuple(
            (field, value)
            for field, option in (
                ("source", "ratings_source"),
                ("per_round", "per_round_ratings"),
                ("unrated", "unrated"),
            )
            if (value := getattr(args, option, None)) is not None
        ),
    )


def read_input(path: Path) -> bytes:
    return sys.stdin.buffer.read() if str(path) == STDIN else path.read_bytes()


def is_json(path: Path, data: bytes) -> bool:
    """A `.json` file, or standard input that starts like a JSON object (else it is TRF)."""
    if str(path) == STDIN:
        return data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{")
    return path.suffix.lower() == ".json"


def load_request(path: Path, options: Options) -> tuple[s.StandingsRequest, list[s.WarningOut]]:
    """A standings request for one file (or "-": standard input), and the warnings reading its bytes gave."""
    data = read_input(path)
    fields: dict = {}
    warnings: list[s.WarningOut] = []
    if is_json(path, data):
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        as_object = msgspec.json.decode(data)
        if isinstance(as_object, dict) and (
            "tournament" in as_object or "trf" in as_object or "team_tournament" in as_object
        ):
            fields = msgspec.structs.asdict(decoder(s.StandingsRequest).decode(data))
        elif isinstance(as_object, dict) and "teams" in as_object:  # the API's `team_tournament` alone
            fields["team_tournament"] = msgspec.json.decode(data, type=schemas_teams.TeamTournament)
        else:
            fields["tournament"] = decoder(s.Tournament).decode(data)
    else:
        text, _, trf_warnings = decode_trf(data)
        fields["trf"] = text
        warnings = [s.WarningOut(code=w.code, message=located_warning(w), rule=None) for w in trf_warnings]
    if options.tiebreaks is not None:
        fields["tiebreaks"] = list(options.tiebreaks)
    for name in ("regulations", "after_round", "unrated_rating", "seed"):
        if getattr(options, name) is not None:
            fields[name] = getattr(options, name)
    if options.ratings:
        given = fields.get("ratings")
        policy = msgspec.structs.asdict(given) if given is not None else {}
        fields["ratings"] = s.RatingsPolicy(**{**policy, **dict(options.ratings)})
    fields["explain"] = options.explain
    return s.StandingsRequest(**fields), warnings


def rank_file(path: Path, options: Options, encoded: bool = False) -> s.StandingsResponse:
    """The standings of one file, through the standings use case as the API computes them; with
    `encoded`, its rows come as their JSON (msgspec.Raw), for lines written out, not read back."""
    request, warnings = load_request(path, options)
    response = answer("standings", request, encoded=encoded)
    if warnings:  # what reading the file's bytes gave (the API reads text: it has none of these)
        response = msgspec.structs.replace(response, warnings=[*warnings, *response.warnings])
    return response


def trf_files_under(folder: str) -> list[str]:
    """The *.trf and *.trfx (Vega) files under a folder, recursively, in the order of their paths' parts (what
    sorting Path objects gives). os.scandir reads each entry's type with the directory (no
    stat per file, as Path.rglob makes); links to folders are not
    followed, as rglob does not."""
    found = []
    pending = [folder]
    while pending:
        with os.scandir(pending.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
                elif entry.name.lower().endswith(TRF_SUFFIXES) and entry.is_file():
                    found.append(entry.path)
    return sorted(found, key=lambda p: p.split(os.sep))


def expand_paths(patterns: list[str]) -> list[Path]:
    """Files, folders (their *.trf and *.trfx files, recursively) and glob patterns, in a stable order."""
    found: list[Path] = []
    for pattern in patterns:
        path = Path(pattern)
        if pattern == STDIN:
            found.append(path)
        elif path.is_dir():
            found += [Path(p) for p in trf_files_under(pattern)]
        elif path.exists():
            found.append(path)
        else:
            matches = sorted(Path(m) for m in glob.glob(pattern, recursive=True))
            if not matches:
                raise FileNotFoundError(f"no file matches {pattern!r}")
            found += [m for m in matches if m.is_file()]
    return found


# Written like a rule: a code, a team rule's score (`:MP`), modifiers (`/C1`, `/L50%`).
_RULE_SHAPE = re.compile(r"[A-Za-z][A-Za-z0-9]*(:[A-Za-z]+)?(/[A-Za-z0-9%]+)*")


def looks_like_a_file(value: str) -> bool:
    """What `-t A B FILE` ends its rule list at: `-`, a name ending in .trf, .trfx or .json, a
    glob pattern, or a file or folder that exists and is not written like a rule (`events/`,
    `./BH`; a folder `BH` next to the command is not taken for the rule BH)."""
    return (
        value == STDIN
        or value.lower().endswith((*TRF_SUFFIXES, ".json"))
        or any(ch in value for ch in "*?[")
        or (os.path.exists(value) and not _RULE_SHAPE.fullmatch(value))
    )


def file_problem(exc: Exception) -> s.Problem:
    """The problem+json body the service would answer; a file that cannot be read is a 400 too."""
    from ..usecases.problems import problem_of

    if isinstance(exc, (OSError, UnicodeError)):
        return s.Problem(
            type="about:blank", title="Bad Request", status=400, detail=f"cannot read the file: {exc}", errors=[]
        )
    return problem_of(exc)


def failure_text(error) -> str:
    """The problem's detail, and its first error's path and message (where in the file, and what)."""
    if not error.errors:
        return error.detail
    first = error.errors[0]
    more = current(msg(" (+{count} more)", count=len(error.errors) - 1)) if len(error.errors) > 1 else ""
    return f"{error.detail} -- {first.path or 'body'}: {first.message}{more}"
