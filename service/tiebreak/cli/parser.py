"""The command line's arguments: one function per command, the rule options they share, and the
help texts in the language of the command line.

A rule list may come before the file (`-t BH/C1 BH FILE`): it ends where a file begins
(`files.looks_like_a_file`), as an arbiter reads it (docs/cli.md).
"""

from __future__ import annotations

import argparse
import copy
import os
import typing
from collections.abc import Mapping

from ..texts.catalogue import LANGUAGES, current, supported
from ..texts.message import ENGLISH, msg
from ..version import __version__
from ..wire import schemas as s
from .files import looks_like_a_file

REGULATIONS = typing.get_args(s.RegulationsName)
FILE_HELP = msg(
    "a TRF file (TRF-16/TRF-26), a .json tournament or standings request, or - for standard input "
    "(JSON when it starts with {{, else TRF)"
)
PATHS_HELP = msg("files, folders (their .trf and .trfx files), glob patterns, or - for one file on standard input")
LANG_HELP = msg("the language of the texts (default: the locale, LC_ALL, LC_MESSAGES or LANG; else English)")
PROGRESS_HELP = msg("progress bar on stderr (default: when stderr is a terminal)")
JOBS_HELP = msg("worker processes (default 1)")


class RulesThenFiles(argparse.Action):
    """`-t RULE ...`: the rules, up to the first value that is a file (`-t BH/C1 BH FILE`), which
    `Command` gives back to the command's file arguments."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        values = list(values or [])
        at = next((i for i, value in enumerate(values) if looks_like_a_file(value)), len(values))
        setattr(namespace, self.dest, values[:at])
        namespace.files_after_rules = values[at:]


class _Usage(argparse.HelpFormatter):
    """A command's file arguments shown as it needs them (`file`, `PATH [PATH ...]`), though
    argparse takes them as optional so that `Command` can find them after the rules."""

    def _format_args(self, action: argparse.Action, default_metavar: str) -> str:
        if not action.option_strings and action.nargs in ("?", "*"):
            action = copy.copy(action)
            action.nargs = None if action.nargs == "?" else "+"
        return super()._format_args(action, default_metavar)


class Command(argparse.ArgumentParser):
    """A command's parser: the files a rule list ran into are the command's file arguments."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", _Usage)
        super().__init__(*args, **kwargs)

    def parse_known_args(self, args=None, namespace=None):
        namespace, extras = super().parse_known_args(args, namespace)
        files = vars(namespace).pop("files_after_rules", [])
        if hasattr(namespace, "paths"):  # batch, check: any number of files
            namespace.paths = [*namespace.paths, *files]
            if not namespace.paths:
                self.error("the following arguments are required: PATH")
        elif hasattr(namespace, "file"):
            if namespace.file is None and len(files) == 1:
                namespace.file = files[0]
            else:
                extras += files
            if namespace.file is None:
                self.error(f"the following arguments are required: {self._file_metavar()}")
        return namespace, extras

    def _file_metavar(self) -> str:
        action = next(a for a in self._actions if a.dest == "file")
        return str(action.metavar or action.dest)


def _file(p: argparse.ArgumentParser, metavar: str | None = None, help: str = FILE_HELP) -> None:
    """The command's one file; optional to argparse, so that it may follow the rule list (`Command`)."""
    p.add_argument("file", nargs="?", metavar=metavar, help=help)


def _paths(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="*", metavar="PATH", help=PATHS_HELP)


def _rules(p: argparse.ArgumentParser, help: str) -> None:
    p.add_argument("-t", "--tiebreaks", nargs="*", metavar="RULE", action=RulesThenFiles, help=help)


def _unrated(text: str) -> str | int:
    """`drop`, `estimated` or a rating (0 allowed)."""
    if text in ("drop", "estimated"):
        return text
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(msg("drop, estimated or a rating, not {text}", text=repr(text))) from None
    if value < 0:
        raise argparse.ArgumentTypeError(msg("a rating is 0 or more"))
    return value


def _rating_options(p: argparse.ArgumentParser) -> None:
    """The request's `ratings` policy (SPEC 3.12)."""
    p.add_argument(
        "--ratings-source",
        choices=["fide", "national", "fide-else-national", "national-else-fide", "highest", "lowest"],
        help=msg("the rating the rating-based rules read (default: fide)"),
    )
    p.add_argument(
        "--per-round-ratings",
        action="store_true",
        default=None,
        help=msg("each game counts the opponent's rating in force in its round (rating_history)"),
    )
    p.add_argument(
        "--unrated",
        type=_unrated,
        metavar="drop|estimated|R",
        help=msg("unrated players: rating rules dropped (default), their estimated_rating, or rating R"),
    )


def _rule_options(p: argparse.ArgumentParser) -> None:
    _rules(
        p,
        msg(
            "rules in order, e.g. BH/C1 BH SB, or Swiss-Manager numbers such as SM84:0,0,1,P,-,0,1 (default: the "
            "file's own list, TRF record 202)"
        ),
    )
    p.add_argument(
        "--regulations", choices=REGULATIONS, help=msg("rule set (default: the file's, else auto: by the start date)")
    )
    p.add_argument(
        "--after-round",
        type=int,
        metavar="N",
        help=msg("standings after round N (default: the last round with a game result)"),
    )
    p.add_argument("--unrated-rating", type=int, metavar="R", help=msg("rating that unrated players count as"))
    _rating_options(p)
    p.add_argument(
        "--seed",
        type=int,
        metavar="N",
        help=msg("seed of the drawing of lots (rule RND): the same seed, the same draw (default: drawn and printed)"),
    )


def _progress(p: argparse.ArgumentParser) -> None:
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None, help=PROGRESS_HELP)


def _standings(sub) -> None:
    p = sub.add_parser("standings", help=msg("rank a TRF or JSON tournament"))
    _file(p)
    _rule_options(p)
    p.add_argument(
        "--format",
        default="table",
        choices=["table", "json", "csv"],
        help=msg("table (default), json (the API's response, with breakdowns) or csv; warnings go to stderr"),
    )


def _explain(sub) -> None:
    p = sub.add_parser("explain", help=msg("one player's breakdown, rule by rule"))
    _file(p)
    p.add_argument("-p", "--player", type=int, required=True, metavar="ID", help=msg("the player's start number"))
    _rule_options(p)


def _progression(sub) -> None:
    p = sub.add_parser("progression", help=msg("each player's rank and points after every round"))
    _file(p)
    _rule_options(p)
    p.add_argument("--csv", action="store_true", help=msg("CSV (rank_1.., points_1..) instead of the table"))


def _batch(sub) -> None:
    p = sub.add_parser("batch", help=msg("re-rank many files into one NDJSON file"))
    _paths(p)
    _rule_options(p)
    p.add_argument("--out", default="-", help=msg("NDJSON output file (default: stdout)"))
    p.add_argument("--jobs", type=int, default=1, metavar="N", help=JOBS_HELP)
    p.add_argument(
        "--explain",
        action=argparse.BooleanOptionalAction,
        default=True,
        help=msg("every player's breakdown in the lines (default, as in the API; --no-explain: without)"),
    )
    _progress(p)


def _check(sub) -> None:
    p = sub.add_parser(
        "check",
        help=msg(
            "check archived TRF files: points and ranks as written against the standings under the edition of each file's date"
        ),
    )
    _paths(p)
    p.add_argument("--out", default="-", help=msg("NDJSON output file, one report per file (default: stdout)"))
    p.add_argument("--jobs", type=int, default=1, metavar="N", help=JOBS_HELP)
    _rules(p, msg("rules to rank by instead of each file's own list (202/212), e.g. BH/C1 BH SB"))
    p.add_argument(
        "--regulations",
        choices=REGULATIONS,
        default="auto-historic",
        help=msg("rule set (default auto-historic: the edition in force at each file's date)"),
    )
    p.add_argument(
        "--participants",
        choices=["auto", "players"],
        default="auto",
        help=msg("auto (default): a team file is checked by team (records 310); players: by player"),
    )
    _progress(p)


def _prizes(sub) -> None:
    p = sub.add_parser("prizes", help=msg("prize money for tied players, with the reason for every share"))
    _file(
        p,
        "STANDINGS_OR_TOURNAMENT",
        msg("final standings (.json rows or a standings response) or a TRF/JSON tournament to rank first"),
    )
    p.add_argument(
        "--prizes",
        required=True,
        metavar="PRIZES.json",
        help=msg("categories, prizes (or prize_groups) and rules, as in POST /v1/prizes"),
    )
    _rule_options(p)
    p.add_argument(
        "--format",
        default="text",
        choices=["text", "json"],
        help=msg("text (default: each player's shares and why) or json (the API's response)"),
    )


def _scenarios(sub) -> None:
    p = sub.add_parser("scenarios", help=msg("before the last round: what each player needs for each place"))
    _file(p)
    p.add_argument(
        "--pairings",
        required=True,
        metavar="last|PAIRINGS.json",
        help=msg(
            "`last`: the file's last round, its results dropped and its pairings kept; or a JSON list of pairings as in POST /v1/scenarios"
        ),
    )
    p.add_argument("--places", type=int, default=1, metavar="N", help=msg("the places that matter (default 1)"))
    p.add_argument("--players", type=int, nargs="*", metavar="ID", help=msg("report only these start numbers"))
    p.add_argument(
        "--assume",
        nargs="+",
        action="extend",
        metavar="WHITE-BLACK=RESULT",
        help=msg(
            "fix the results of open games: 12-34=1-0, 12-34=1/2 or 12-34=0-1 by start numbers (7:12-34=1-0 names the round), or a JSON file as the API's `assume`"
        ),
    )
    _rules(p, msg("rules in order (default: the file's own)"))
    p.add_argument(
        "--preset", metavar="NAME", help=msg("a named rule list of GET /v1/presets (team-swiss …), instead of -t")
    )
    p.add_argument("--regulations", choices=REGULATIONS, help=msg("rule set (default: auto, by the start date)"))
    p.add_argument("--unrated-rating", type=int, metavar="R", help=msg("rating that unrated players count as"))
    p.add_argument("--format", default="text", choices=["text", "json"], help=msg("text (default: sentences) or json"))


def _serve(sub) -> None:
    p = sub.add_parser("serve", help=msg("start the HTTP service"))
    p.add_argument(
        "--host",
        default=os.environ.get("HOST", "127.0.0.1"),
        help=msg("address to listen on (default: $HOST, else 127.0.0.1)"),
    )
    p.add_argument(
        "--port", type=int, default=int(os.environ.get("PORT", "8000")), help=msg("port (default: $PORT, else 8000)")
    )
    p.add_argument(
        "--workers",
        type=int,
        default=None,  # read when the server starts (cli/serve.py): a bad $WORKERS fails `serve` alone
        help=msg("worker processes (default: $WORKERS, else 1)"),
    )
    p.add_argument(
        "--admin-port",
        type=int,
        default=None,
        metavar="PORT",
        help=msg(
            "serve /metrics and the API description only on this port (TIEBREAK_ADMIN_PORT); the other limits and timeouts are environment variables (docs/operations.md)"
        ),
    )


COMMANDS = {
    "standings": _standings,
    "explain": _explain,
    "progression": _progression,
    "batch": _batch,
    "check": _check,
    "prizes": _prizes,
    "scenarios": _scenarios,
    "serve": _serve,
}


def parser() -> argparse.ArgumentParser:
    """The whole command line, its help in the language being made (built anew by each `main`)."""
    root = argparse.ArgumentParser(prog="tiebreak", description=msg("Chess tie-break standings (FIDE C.07)"))
    root.add_argument("--lang", choices=sorted(LANGUAGES), help=LANG_HELP)
    root.add_argument(
        "--version",
        action="version",
        version=f"tiebreak {__version__}",
        help=msg("the service version (as GET /v1/version) and exit"),
    )
    sub = root.add_subparsers(dest="command", required=True, parser_class=Command)
    for add in COMMANDS.values():
        add(sub)
    for command in sub.choices.values():  # after the command too: `tiebreak explain x.trf -p 3 --lang ru`
        command.add_argument("--lang", choices=sorted(LANGUAGES), default=argparse.SUPPRESS, help=LANG_HELP)
    render_help(root)
    return root


def render_help(command: argparse.ArgumentParser) -> None:
    """The help texts in the language of the command line (argparse prints them as they are)."""
    if command.description is not None:
        command.description = current(command.description)
    for action in command._actions:
        if action.help is not None:
            action.help = current(action.help)
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:  # the commands' one-line help in `tiebreak --help`
                if choice.help is not None:
                    choice.help = current(choice.help)
            for sub in action.choices.values():
                render_help(sub)


def language_of(argv: list[str]) -> str:
    """The language before the arguments are parsed (so that --help is in it): --lang, else the locale."""
    for i, arg in enumerate(argv):
        value = (
            arg.split("=", 1)[1]
            if arg.startswith("--lang=")
            else argv[i + 1]
            if arg == "--lang" and i + 1 < len(argv)
            else None
        )
        if value in LANGUAGES:
            return value
    return locale_language(os.environ)


def locale_language(environ: Mapping[str, str]) -> str:
    """The language the locale names (POSIX order: LC_ALL, then LC_MESSAGES, then LANG):
    "ru_RU.UTF-8" is Russian; C, POSIX or a language we do not have is English."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            tag = value.split(".", 1)[0].split("@", 1)[0].replace("_", "-")
            return supported(tag) or ENGLISH
    return ENGLISH
