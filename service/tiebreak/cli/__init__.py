"""The `tiebreak` command line: the service's use cases without a server, and the server.

    tiebreak standings FILE.trf|FILE.json|- [-t BH/C1 BH ...] [--format table|json|csv]
    tiebreak explain FILE -p ID [-t ...]
    tiebreak progression FILE [-t ...] [--csv]
    tiebreak batch PATHS... [-t ...] --out results.ndjson --jobs N
    tiebreak check PATHS... [-t ...] [--regulations R] [--out check.ndjson] [--jobs N]
    tiebreak prizes STANDINGS_OR_TOURNAMENT --prizes prizes.json [-t ...] [--format text|json]
    tiebreak scenarios FILE --pairings last|PAIRINGS.json [--places N] [--players ID ...] [-t ...]
    tiebreak serve [--host H] [--port P]

A JSON file is a tournament (the API's `tournament`) or a whole standings request
(with `tournament` or `trf`); command-line options override the request's fields.
Errors go to stderr and the exit code is non-zero. See docs/cli.md.

One module per command (`run(args)`, imported when the command runs: a command's start-up
loads only what it needs); parser.py the arguments, files.py what the commands read,
render.py what they print, pool.py their worker processes. Each command goes through the
service's use cases (usecases/requests.py) as the HTTP API does, without its gate.
"""

from __future__ import annotations

import importlib
import os
import sys

import msgspec

from ..engine.errors import TiebreakError
from ..formats.trf import TrfError
from ..texts import catalogue
from ..texts.message import language, msg
from . import parser as arguments

__all__ = ["main"]

# The exit status of a command killed by SIGPIPE, which is what `| head` does to cat or grep.
CLOSED_PIPE = 128 + 13


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit status. Nothing it sets outlives it (the language, the
    environment, the collector's frozen objects), so that it may run again in the same process."""
    argv = sys.argv[1:] if argv is None else argv
    with language(arguments.language_of(argv)):
        args = arguments.parser().parse_args(argv)
    lang = args.lang or arguments.locale_language(os.environ)
    if getattr(args, "jobs", 1) < 1:
        with language(lang):
            print("tiebreak: " + catalogue.current(msg("--jobs must be at least 1")), file=sys.stderr)
        return 2
    try:
        with language(lang):
            return importlib.import_module(f"{__name__}.{args.command}").run(args)
    except BrokenPipeError:
        # The reader went away (`tiebreak standings x.trf | head`): stop quietly. Point stdout at
        # /dev/null so that the interpreter's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return CLOSED_PIPE
    except TrfError as exc:
        where = msg("line {line}, column {column}: {message}", line=exc.line, column=exc.column, message=exc.message)
        print(f"tiebreak: {getattr(args, 'file', '')}: {catalogue.render(where, lang)}", file=sys.stderr)
    except (TiebreakError, msgspec.MsgspecError, OSError, LookupError, ValueError) as exc:
        print(f"tiebreak: {exc}", file=sys.stderr)
    except Exception as exc:  # noqa: BLE001 - e.g. a limit of the service; never a traceback
        print(f"tiebreak: {type(exc).__name__}: {exc}", file=sys.stderr)
    return 1
