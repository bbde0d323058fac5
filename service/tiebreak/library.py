"""The Python API: what the HTTP endpoints compute, called directly (docs/python.md).

A tournament is given as the API's JSON shape (a dict with `players`, or a team event's with
`teams`), as a wire struct (`tiebreak.wire.schemas.Tournament`, `tiebreak.wire.teams.TeamTournament`)
or as TRF text. Answers are the structs the API returns (`msgspec.structs.asdict`,
`msgspec.json.encode` turn them into plain data or JSON). Errors are the ones the API maps to
its problems: `msgspec.ValidationError` (400: not the documented shape), the engine's
`TiebreakError` family and `TrfError` (422), `LimitExceeded`; `problem_of(exc)` gives the
problem the API would answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

import msgspec

from .texts.catalogue import enc_hook
from .texts.message import language
from .usecases.compare import run_compare
from .usecases.problems import problem_of
from .usecases.standings import run_standings
from .usecases.trf import read_to_wire, write_from_wire
from .wire import schemas as s
from .wire import teams as st
from .wire.compare import CompareRequest, CompareResponse
from .wire.io import TrfConvertRequest, TrfConvertResponse
from .wire.limits import LIMITS, Limits, check_standings

__all__ = ["compare", "problem_of", "read_trf", "standings", "write_trf"]

Tournament = str | Mapping[str, Any] | s.Tournament | st.TeamTournament
Rules = Sequence[str | Mapping[str, Any]]


def _event_fields(tournament: Tournament) -> dict[str, Any]:
    """The request field that carries the event: `trf`, `tournament` or `team_tournament`."""
    if isinstance(tournament, str):
        return {"trf": tournament}
    if isinstance(tournament, (s.Tournament, st.TeamTournament)):
        tournament = msgspec.to_builtins(tournament)
    if not isinstance(tournament, Mapping):
        raise TypeError(
            "a tournament is TRF text, a dict of the API's JSON shape or a wire struct, "
            f"not {type(tournament).__name__}"
        )
    return {"team_tournament" if "teams" in tournament else "tournament": dict(tournament)}


def _request(kind: type, fields: dict[str, Any]) -> Any:
    """The request struct, validated as the HTTP API validates a body (strict types, the schema's bounds)."""
    return msgspec.convert({k: v for k, v in fields.items() if v is not None}, kind)


def standings(
    tournament: Tournament,
    rules: Rules | None = None,
    *,
    preset: str | None = None,
    regulations: str = "auto",
    after_round: int | None = None,
    unrated_rating: int | None = None,
    explain: bool = True,
    top: int | None = None,
    player: int | list[int] | None = None,
    offset: int = 0,
    limits: Limits = LIMITS,
    lang: str = "en",
) -> s.StandingsResponse:
    """The standings of `POST /v1/standings`: ranked by points, then by each rule of `rules` (or of
    `preset`; a TRF's record 202 when neither is given), under `regulations`; the texts in `lang`
    (docs/languages.md)."""
    body = _request(
        s.StandingsRequest,
        {
            **_event_fields(tournament),
            "tiebreaks": list(rules) if rules else rules,
            "preset": preset,
            "regulations": regulations,
            "after_round": after_round,
            "unrated_rating": unrated_rating,
            "explain": explain,
            "top": top,
            "player": player,
            "offset": offset,
        },
    )
    check_standings(body, limits)
    with language(lang):
        return _plain(run_standings(body, limits))


def compare(
    tournament: Tournament,
    lists: Mapping[str, Rules | str] | Sequence[Mapping[str, Any]],
    *,
    regulations: str = "auto",
    after_round: int | None = None,
    unrated_rating: int | None = None,
    explain: bool = True,
    limits: Limits = LIMITS,
    lang: str = "en",
) -> CompareResponse:
    """`POST /v1/compare`: one event under several named rule lists. `lists` maps a name to its
    rules (or to a preset's name), or is the API's list of `{name, tiebreaks | preset, regulations}`."""
    if isinstance(lists, Mapping):
        lists = [
            {"name": name, **({"preset": rules} if isinstance(rules, str) else {"tiebreaks": list(rules)})}
            for name, rules in lists.items()
        ]
    body = _request(
        CompareRequest,
        {
            **_event_fields(tournament),
            "lists": list(lists),
            "regulations": regulations,
            "after_round": after_round,
            "unrated_rating": unrated_rating,
            "explain": explain,
        },
    )
    with language(lang):
        return _plain(run_compare(body, limits))


_encoder = msgspec.json.Encoder(enc_hook=enc_hook)
Answer = TypeVar("Answer")


def _plain(answer: Answer) -> Answer:
    """The answer with its texts as plain strings in the language being made, so that
    `msgspec.json.encode` and `asdict` treat it as any struct."""
    return msgspec.json.decode(_encoder.encode(answer), type=type(answer))


def read_trf(text: str, limits: Limits = LIMITS) -> TrfConvertResponse:
    """`POST /v1/trf` with `trf`: the JSON tournament (and team event) of TRF text, with the reader's
    located warnings; `.tournament` can be given back to `standings`."""
    return read_to_wire(text, limits)


def write_trf(
    tournament: Mapping[str, Any] | s.Tournament | st.TeamTournament,
    rules: Rules | None = None,
    *,
    regulations: str = "auto",
    limits: Limits = LIMITS,
) -> str:
    """`POST /v1/trf` with `tournament`: the event as TRF-26 text, points and ranks by `rules`."""
    body = _request(
        TrfConvertRequest,
        {**_event_fields(tournament), "tiebreaks": list(rules) if rules else None, "regulations": regulations},
    )
    return write_from_wire(body, limits).trf or ""
