"""The Python API: what the HTTP endpoints compute, called directly (docs/python.md).

A tournament is given as the API's JSON shape (a dict with `players`, or a team event's with
`teams`), as a wire struct (`tiebreak.wire.schemas.Tournament`, `tiebreak.wire.teams.TeamTournament`)
or as TRF text. Answers are the structs the API returns, made once (`msgspec.structs.asdict`,
`msgspec.json.encode` turn them into plain data or JSON): their texts are rendered in `lang` as
they enter the answer (`texts.catalogue.rendering`), with no JSON round trip. Errors are the ones the API maps to
its problems: `msgspec.ValidationError` (400: not the documented shape), the engine's
`TiebreakError` family and `TrfError` (422), `LimitExceeded`; `problem_of(exc)` gives the
problem the API would answer. Each goes through its use case as the API does
(usecases/requests.py: checked against `limits`, read, computed), without the API's gate: a
request is not priced, and nothing stops it but its own end.

Each function's docstring has an example, run by tests/test_python_api.py (doctest).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from .texts.catalogue import rendering
from .usecases.problems import problem_of
from .usecases.requests import answer
from .wire import schemas as s
from .wire import teams as st
from .wire.compare import CompareRequest, CompareResponse
from .wire.io import CheckItem, CheckReport, TrfConvertRequest, TrfConvertResponse
from .wire.limits import LIMITS, Limits
from .wire.prizes import PrizeRequest, PrizesResponse
from .wire.progression import ProgressionRequest, ProgressionResponse

__all__ = ["check", "compare", "distribute_prizes", "problem_of", "progression", "read_trf", "standings", "write_trf"]

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


def _decision_fields(
    ratings: Mapping[str, Any] | None,
    playoffs: Sequence[Sequence[int]],
    manual_values: Mapping[int, float] | None,
    tiebreak_changes: Sequence[Mapping[str, Any]],
) -> dict[str, Any]:
    """The arbiter's decisions as the request's fields (SPEC 3.12): `ratings` as the API's object
    (`{"source": "national", "per_round": True, "unrated": "estimated"}`), each play-off as its
    order of start numbers, MAN's values by start number, the changes of the rule list."""
    return {
        "ratings": dict(ratings) if ratings is not None else None,
        "playoffs": [{"order": list(order)} for order in playoffs],
        "manual_values": {str(k): v for k, v in manual_values.items()} if manual_values is not None else None,
        "tiebreak_changes": [dict(change) for change in tiebreak_changes],
    }


def standings(
    tournament: Tournament,
    rules: Rules | None = None,
    *,
    preset: str | None = None,
    regulations: str = "auto",
    after_round: int | None = None,
    unrated_rating: int | None = None,
    explain: bool = True,
    ratings: Mapping[str, Any] | None = None,
    playoffs: Sequence[Sequence[int]] = (),
    manual_values: Mapping[int, float] | None = None,
    tiebreak_changes: Sequence[Mapping[str, Any]] = (),
    top: int | None = None,
    player: int | list[int] | None = None,
    offset: int = 0,
    limits: Limits = LIMITS,
    lang: str = "en",
) -> s.StandingsResponse:
    """The standings of `POST /v1/standings`: ranked by points, then by each rule of `rules` (or of
    `preset`; a TRF's record 202 when neither is given), under `regulations`; the texts in `lang`
    (docs/languages.md).

    `tournament` is TRF text, the API's JSON shape (a dict) or a wire struct; `rules` the codes of
    `GET /v1/tiebreaks` (`"BH/C1"`, `{"code": "KS", "modifiers": {"limit": 50}}`); `top`, `offset`
    and `player` choose the rows returned, as the API's fields do.

    >>> import tiebreak
    >>> def game(round, opponent, result):
    ...     return {"round": round, "opponent": opponent, "result": result}
    >>> event = {"rounds": 3, "players": [
    ...     {"id": 1, "results": [game(1, 2, "win"), game(2, 3, "draw"), game(3, 4, "win")]},
    ...     {"id": 2, "results": [game(1, 1, "loss"), game(2, 4, "win"), game(3, 3, "draw")]},
    ...     {"id": 3, "results": [game(1, 4, "draw"), game(2, 1, "draw"), game(3, 2, "draw")]},
    ...     {"id": 4, "results": [game(1, 3, "draw"), game(2, 2, "loss"), game(3, 1, "loss")]}]}
    >>> result = tiebreak.standings(event, ["DE", "SB"])
    >>> [(row.rank, row.id, row.points) for row in result.standings]
    [(1, 1, 2.5), (2, 3, 1.5), (3, 2, 1.5), (4, 4, 0.5)]

    3 and 2 drew their game (DE equal); Sonneborn-Berger: 3 drew all three (2.5 + 1.5 + 0.5) / 2,
    2 beat 4 and drew 3 (0.5 + 1.5 / 2).

    >>> [row.values[1] for row in result.standings[1:3]], result.standings[1].decided_by
    ([2.25, 1.25], 'SB')
    """
    body = _request(
        s.StandingsRequest,
        {
            **_event_fields(tournament),
            "tiebreaks": list(rules) if rules else rules,
            "preset": preset,
            "regulations": regulations,
            "after_round": after_round,
            "unrated_rating": unrated_rating,
            **_decision_fields(ratings, playoffs, manual_values, tiebreak_changes),
            "explain": explain,
            "top": top,
            "player": player,
            "offset": offset,
        },
    )
    with rendering(lang):
        return answer("standings", body, limits)


def progression(
    tournament: Tournament,
    rules: Rules | None = None,
    *,
    preset: str | None = None,
    regulations: str = "auto",
    after_round: int | None = None,
    unrated_rating: int | None = None,
    seed: int | None = None,
    ratings: Mapping[str, Any] | None = None,
    playoffs: Sequence[Sequence[int]] = (),
    manual_values: Mapping[int, float] | None = None,
    tiebreak_changes: Sequence[Mapping[str, Any]] = (),
    limits: Limits = LIMITS,
    lang: str = "en",
) -> ProgressionResponse:
    """`POST /v1/standings/progression`: every player's rank and points after each round 1 to
    `after_round` (default: the last played), each round ranked as `standings` with that round.

    The event of `standings`' example, round by round: after round 1, 3 and 4 drew their game and
    share 2nd (DE and SB equal); after round 2, 3 (SB 0.25 + 0.75) is ahead of 2 (SB 0.5), who had
    not met yet.

    >>> import tiebreak
    >>> def game(round, opponent, result):
    ...     return {"round": round, "opponent": opponent, "result": result}
    >>> event = {"rounds": 3, "players": [
    ...     {"id": 1, "results": [game(1, 2, "win"), game(2, 3, "draw"), game(3, 4, "win")]},
    ...     {"id": 2, "results": [game(1, 1, "loss"), game(2, 4, "win"), game(3, 3, "draw")]},
    ...     {"id": 3, "results": [game(1, 4, "draw"), game(2, 1, "draw"), game(3, 2, "draw")]},
    ...     {"id": 4, "results": [game(1, 3, "draw"), game(2, 2, "loss"), game(3, 1, "loss")]}]}
    >>> chart = tiebreak.progression(event, ["DE", "SB"])
    >>> sorted((player.id, player.ranks, player.points) for player in chart.players)
    [(1, [1, 1, 1], [1.0, 1.5, 2.5]), (2, [4, 3, 3], [0.0, 1.0, 1.5]), (3, [2, 2, 2], [0.5, 1.0, 1.5]), (4, [2, 4, 4], [0.5, 0.5, 0.5])]
    """
    body = _request(
        ProgressionRequest,
        {
            **_event_fields(tournament),
            "tiebreaks": list(rules) if rules else rules,
            "preset": preset,
            "regulations": regulations,
            "after_round": after_round,
            "unrated_rating": unrated_rating,
            **_decision_fields(ratings, playoffs, manual_values, tiebreak_changes),
            "seed": seed,
        },
    )
    with rendering(lang):
        return answer("progression", body, limits)


def compare(
    tournament: Tournament,
    lists: Mapping[str, Rules | str] | Sequence[Mapping[str, Any]],
    *,
    regulations: str = "auto",
    after_round: int | None = None,
    unrated_rating: int | None = None,
    explain: bool = True,
    ratings: Mapping[str, Any] | None = None,
    playoffs: Sequence[Sequence[int]] = (),
    manual_values: Mapping[int, float] | None = None,
    tiebreak_changes: Sequence[Mapping[str, Any]] = (),
    limits: Limits = LIMITS,
    lang: str = "en",
) -> CompareResponse:
    """`POST /v1/compare`: one event under several named rule lists. `lists` maps a name to its
    rules (or to a preset's name), or is the API's list of `{name, tiebreaks | preset, regulations}`.

    >>> import tiebreak
    >>> event = {"rounds": 1, "players": [
    ...     {"id": 1, "results": [{"round": 1, "opponent": 2, "result": "draw"}]},
    ...     {"id": 2, "results": [{"round": 1, "opponent": 1, "result": "draw"}]}]}
    >>> table = tiebreak.compare(event, {"Buchholz": ["BH"], "FIDE Swiss": "fide-swiss-traditional"})
    >>> [list.name for list in table.lists]
    ['Buchholz', 'FIDE Swiss']
    """
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
            **_decision_fields(ratings, playoffs, manual_values, tiebreak_changes),
            "explain": explain,
        },
    )
    with rendering(lang):
        return answer("compare", body, limits)


def read_trf(text: str, limits: Limits = LIMITS, lang: str = "en") -> TrfConvertResponse:
    """`POST /v1/trf` with `trf`: the JSON tournament (and team event) of TRF text, with the reader's
    located warnings; `.tournament` can be given back to `standings`.

    >>> import tiebreak
    >>> trf = tiebreak.write_trf({"name": "Club", "rounds": 1, "players": [
    ...     {"id": 1, "name": "Ann", "results": [{"round": 1, "opponent": 2, "color": "w", "result": "win"}]},
    ...     {"id": 2, "name": "Bob", "results": [{"round": 1, "opponent": 1, "color": "b", "result": "loss"}]}]})
    >>> event = tiebreak.read_trf(trf).tournament
    >>> [(player.id, player.name) for player in event.players]
    [(1, 'Ann'), (2, 'Bob')]
    """
    with rendering(lang):
        return answer("trf", TrfConvertRequest(trf=text), limits)


def write_trf(
    tournament: Mapping[str, Any] | s.Tournament | st.TeamTournament,
    rules: Rules | None = None,
    *,
    regulations: str = "auto",
    limits: Limits = LIMITS,
) -> str:
    """`POST /v1/trf` with `tournament`: the event as TRF-26 text, points and ranks by `rules`.

    >>> import tiebreak
    >>> trf = tiebreak.write_trf({"name": "Club", "rounds": 1, "players": [
    ...     {"id": 1, "name": "Ann", "results": [{"round": 1, "result": "pairing_bye"}]}]})
    >>> trf.splitlines()[0]
    '012 Club'
    """
    body = _request(
        TrfConvertRequest,
        {**_event_fields(tournament), "tiebreaks": list(rules) if rules else None, "regulations": regulations},
    )
    return answer("trf", body, limits).trf or ""


def distribute_prizes(
    request: Mapping[str, Any] | PrizeRequest, *, limits: Limits = LIMITS, lang: str = "en"
) -> PrizesResponse:
    """`POST /v1/prizes`: who receives what. `request` is the endpoint's body (a dict or a
    `PrizeRequest`): final `standings` or a `standings_request` computed first, `categories`,
    `prizes` and `rules` (docs/prizes.md). Amounts are decimal strings, paid exactly. (Not
    `tiebreak.prizes`: that name is the package that distributes.)

    >>> import tiebreak
    >>> paid = tiebreak.distribute_prizes({
    ...     "standings": [{"id": 1, "points": 2.0}, {"id": 2, "points": 1.5}, {"id": 3, "points": 1.5}],
    ...     "prizes": [{"id": "1", "amount": "100"}, {"id": "2", "amount": "60"}, {"id": "3", "amount": "40"}],
    ...     "rules": {"sharing": "pool"}})
    >>> [(player.id, player.total) for player in paid.players]
    [(1, '100.00'), (2, '50.00'), (3, '50.00')]
    """
    body = request if isinstance(request, PrizeRequest) else msgspec.convert(dict(request), PrizeRequest)
    with rendering(lang):
        return answer("prizes", body, limits)


def check(
    trf: str,
    rules: Rules | None = None,
    *,
    regulations: str = "auto-historic",
    participants: str = "auto",
    lang: str = "en",
) -> CheckReport:
    """`POST /v1/check` for one file: the points and rank columns of an archived TRF against the
    standings computed under its own rule list (record 202/212, or `rules`) and the edition in
    force at its date.

    >>> import tiebreak
    >>> trf = tiebreak.write_trf({"name": "Club", "rounds": 1, "players": [
    ...     {"id": 1, "name": "Ann", "results": [{"round": 1, "opponent": 2, "color": "w", "result": "win"}]},
    ...     {"id": 2, "name": "Bob", "results": [{"round": 1, "opponent": 1, "color": "b", "result": "loss"}]}]})
    >>> report = tiebreak.check(trf)
    >>> report.status, report.compared
    ('consistent', ['points', 'rank'])
    """
    item = _request(
        CheckItem,
        {
            "trf": trf,
            "tiebreaks": list(rules) if rules else None,
            "regulations": regulations,
            "participants": participants,
        },
    )
    with rendering(lang):
        return answer("check", item)  # unchecked, as it takes no limits
