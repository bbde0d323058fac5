"""FIDE TRF writer: the engine's Tournament (and its standings) out as TRF text.

Player lines are TRF-16 (identical in TRF-26) with every field of the player section
(sex, title, name, rating, federation, FIDE ID, birth date), points and rank after
the tie-breaks; the header carries what the reader read (012 022 032 042 052 062 072
092 102 112 122 132, and the records kept verbatim) and the TRF-26 records 142
(rounds), 152 (initial colour), 162 (scoring, when not 1-½-0) and 202 (the rule
list), which older readers skip. What TRF cannot carry (a per-game points override,
a name longer than 33 characters, the client's `key`) is reported as a warning,
never dropped silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from ..engine.errors import InvalidRequest, Issue
from ..engine.model import Color, Player, ResultKind, RoundResult, Scoring, System, Tournament
from ..engine.standings import Standings
from .trf import (
    BIRTH_DATE,
    FEDERATION,
    FIDE_ID,
    FIRST_ROUND_OPPONENT,
    NAME,
    POINTS,
    RANK,
    RATING,
    SCORING_CODES,
    START_NUMBER,
    TITLE,
    TrfHeader,
    parse_trf,
)

MAX_START_NUMBER = 9999  # four columns (5-8)

_CODES_PLAYED = {  # (result, rated) -> code
    (ResultKind.WIN, True): "1",
    (ResultKind.DRAW, True): "=",
    (ResultKind.LOSS, True): "0",
    (ResultKind.WIN, False): "W",
    (ResultKind.DRAW, False): "D",
    (ResultKind.LOSS, False): "L",
}
_CODES_FORFEIT = {ResultKind.FORFEIT_WIN: "+", ResultKind.FORFEIT_LOSS: "-"}
_CODES_UNPAIRED = {
    ResultKind.PAIRING_BYE: "U",
    ResultKind.FULL_BYE: "F",
    ResultKind.HALF_BYE: "H",
    ResultKind.ZERO_BYE: "Z",
    ResultKind.ABSENT: "-",
}
_COLOUR_LETTERS = {Color.WHITE: "w", Color.BLACK: "b", None: "-"}
_SEX_LETTERS: dict[str | None, str] = {"m": "m", "f": "w"}  # TRF-26 writes w for women
_SYSTEM_NAMES = {System.SWISS: "Swiss System", System.ROUND_ROBIN: "Round Robin"}
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


@dataclass(slots=True)
class TrfOutput:
    text: str
    warnings: list[str]  # what the TRF could not carry
    rating_report_gaps: list[str] = field(default_factory=list)  # what a FIDE rating report needs and is not given


def standings_columns(standings: Standings) -> tuple[dict[int, Fraction], dict[int, int | None]]:
    """Points and rank per start number, as the standings computed them (after tie-breaks); an
    expelled player has no rank (the column is left blank)."""
    table = standings.table
    points = {table.ids[p]: Fraction(table.scores[p], table.scale) for p in range(len(table.ids))}
    ranks = {table.ids[row.player]: row.rank for row in standings.rows}
    return points, ranks


def _points_text(value: Fraction) -> str | None:
    """Format `11.5` in four columns: one decimal, two when needed; None if it does not fit."""
    text = f"{float(value):.1f}" if value * 2 == int(value * 2) else f"{float(value):.2f}"
    return text if len(text) <= POINTS.last - POINTS.first + 1 and Fraction(text) == value else None


def _awarded_text(scoring: Scoring, result: RoundResult) -> str | None:
    """Columns 14-17 of the record 299 that gives `result` its points: the points beyond its result code's."""
    if result.points is None:
        return None
    return _points_text(result.points - scoring.points_for(result.result))


def _awarded_records(tournament: Tournament) -> list[str]:
    """TRF-26 record 299 for each result whose points are not its code's: the difference awarded by the
    arbiter in its round (columns 14-17, round in 20-22, the player in 24-27), which the reader adds back."""
    lines = []
    for player in tournament.players:
        for result in player.results:
            points = _awarded_text(tournament.scoring, result)
            if points is not None and points.strip("-0.") != "":
                lines.append(f"299{'':10}{points:>4}{'':2}{result.round:>3} {player.id:>4}")
    return lines


def _clean(text: str, what: str, warnings: list[str]) -> str:
    cleaned = _CONTROL.sub(" ", text)
    if cleaned != text:
        warnings.append(f"{what}: control characters replaced by spaces")
    return cleaned


# Records the writer writes itself: a verbatim record (`trf_records`) may not be one of them.
WRITTEN_RECORDS = frozenset(
    {
        "001",
        "012",
        "022",
        "032",
        "042",
        "052",
        "062",
        "072",
        "082",
        "092",
        "102",
        "112",
        "122",
        "132",
        "142",
        "152",
        "162",
        "202",
        "212",
        "240",
    }
)
ROUND_DATE_COLUMN = FIRST_ROUND_OPPONENT.first  # 132: round 1's date in columns 92-99, then every 10


def _system_of(text: str) -> System | None:
    """The system a reader finds in a 092 (or 192) text: the writer keeps the two in step."""
    return parse_trf(f"092 {text}\n001    1\n").tournament.system if text else None


def write_trf(
    tournament: Tournament,
    points: dict[int, Fraction] | None = None,
    ranks: dict[int, int | None] | None = None,
    tiebreaks: list[str] | tuple[str, ...] = (),
    header: TrfHeader | None = None,
    tiebreak_changes: list[tuple[int, list[str]]] | tuple[tuple[int, list[str]], ...] = (),
    swiss_manager: list[tuple[str, tuple[int, str] | None]] | None = None,
) -> TrfOutput:
    """TRF text for `tournament`; `points` and `ranks` (by start number) fill columns 81-89.
    `tiebreak_changes`: (round, previous list) of each change of the list after the start, each
    written as a `###` comment line after 202 (TRF-26 has no record for it; SPEC 3.12).
    `swiss_manager`: each rule of 202 with its Swiss-Manager number and parameters (None: none),
    written as one `###` comment line after 202 (SPEC 3.13: the list both ways)."""
    warnings: list[str] = []
    header = header or TrfHeader()
    for i, player in enumerate(tournament.players):
        if player.id > MAX_START_NUMBER:
            raise InvalidRequest(
                [
                    Issue(
                        ("tournament", "players", i, "id"),
                        f"start number {player.id} does not fit TRF's four columns (1-9999)",
                    )
                ]
            )
    for i, record in enumerate(header.other_records):
        if record[:3] in WRITTEN_RECORDS:
            raise InvalidRequest(
                [
                    Issue(
                        ("tournament", "trf_records", i),
                        f"record {record[:3]} is written from the tournament's own fields; "
                        f"trf_records holds the others (172, 182, 192, 222, 250, 260, 352, 362, NRS)",
                    )
                ]
            )

    def text(value: str, what: str) -> str:
        return _clean(value, what, warnings)

    lines = []
    if tournament.name:
        lines.append(f"012 {text(tournament.name, 'tournament name')}")
    if header.city:
        lines.append(f"022 {text(header.city, 'city')}")
    if header.federation:
        lines.append(f"032 {text(header.federation, 'federation')}")
    if tournament.start_date:
        lines.append(f"042 {tournament.start_date:%Y/%m/%d}")
    end_date = header.end_date or tournament.end_date
    if end_date:
        lines.append(f"052 {end_date:%Y/%m/%d}")
    lines.append(f"062 {len(tournament.players)}")
    lines.append(f"072 {sum(1 for p in tournament.players if p.rating)}")
    lines += _type_record(tournament, header, warnings)
    if header.chief_arbiter:
        lines.append(f"102 {text(header.chief_arbiter, 'chief arbiter')}")
    lines += [f"112 {text(deputy, 'deputy arbiter')}" for deputy in header.deputy_arbiters]
    if header.time_control:
        lines.append(f"122 {text(header.time_control, 'time control')}")
    if header.round_dates:
        dates = "".join(f"{d:%y/%m/%d}  " if d else " " * 10 for d in header.round_dates)
        lines.append(("132" + " " * (ROUND_DATE_COLUMN - 4) + dates).rstrip())
    lines.append(f"142 {tournament.rounds}")
    if header.initial_colour:
        lines.append(f"152 {header.initial_colour.upper()}")
    if tournament.scoring != Scoring():
        lines.append(_scoring_record(tournament.scoring, warnings))
    if tiebreaks:
        lines.append(f"202 {', '.join(tiebreaks)}")
    if swiss_manager:
        pairs = [f"{rule} = {f'{n[0]} {n[1]}'.strip() if n else 'none'}" for rule, n in swiss_manager]
        lines.append(f"### Swiss-Manager tie-breaks: {'; '.join(pairs)}")
    for from_round, previous in tiebreak_changes:
        lines.append(f"### tiebreaks changed from round {from_round}; previous: {', '.join(previous)}")
    # Records are tagged, so their place does not matter to a reader: kept in the order given.
    lines += [text(r, f"record {r[:3]}") for r in header.other_records]
    lines += _national_records(tournament, header, warnings)
    lines += _awarded_records(tournament)
    for player in tournament.players:
        lines.append(_player_line(player, points, ranks, warnings, tournament.scoring))
    keys = sum(1 for p in tournament.players if p.key is not None)
    if keys:
        warnings.append(
            f"{keys} player key(s): TRF has no field for the client's key; match players by start number (columns 5-8)"
        )
    return TrfOutput("\n".join(lines) + "\n", warnings, rating_report_gaps(tournament, header))


def _national_records(tournament: Tournament, header: TrfHeader, warnings: list[str]) -> list[str]:
    """An NRS record (TRF-26) for each national rating not already in a verbatim NRS record: the
    rating federation (the event's federation, else the player's) in columns 1-3, the starting rank
    in 5-8, the national rating in 49-52. Rating histories and expulsions have no TRF-26 record:
    said in the warnings (docs/decisions/0172)."""
    extra = tournament.ratings
    if extra is not None and extra.history:
        warnings.append(f"{len(extra.history)} rating history(ies): TRF-26 has no record for ratings by round")
    if tournament.expelled:
        warnings.append(f"{len(tournament.expelled)} expelled player(s): TRF-26 has no record for an expulsion")
    if extra is None or not extra.national:
        return []
    written = {int(r[4:8]) for r in header.other_records if r[4:8].strip().isdigit() and r[:3].isalpha()}
    out = []
    for player in tournament.players:
        rating = extra.national.get(player.id)
        if rating is None or player.id in written:
            continue
        federation = next((f for f in (header.federation, player.federation) if f and len(f) == 3), None)
        if federation is None or rating > 9999:
            warnings.append(f"player {player.id}: the national rating needs a 3-letter rating federation for NRS")
            continue
        out.append(f"{federation.upper()} {player.id:>4}" + " " * 40 + f"{rating:>4}")
    return out


def rating_report_gaps(tournament: Tournament, header: TrfHeader) -> list[str]:
    """What a FIDE rating report requires (TRF-26 column R) that the tournament does not give."""
    required = [
        ("name (012)", tournament.name),
        ("city (022)", header.city),
        ("federation (032)", header.federation),
        ("start_date (042)", tournament.start_date),
        ("end_date (052)", header.end_date),
        ("chief_arbiter (102)", header.chief_arbiter),
        ("round_dates (132)", header.round_dates),
    ]
    missing = [what for what, value in required if not value]
    without_id = sum(1 for p in tournament.players if p.fide_id is None)
    if without_id:
        missing.append(f"fide_id of {without_id} player(s) (columns 58-68)")
    return missing


def _type_record(tournament: Tournament, header: TrfHeader, warnings: list[str]) -> list[str]:
    """092: the text read from a TRF when it still names the tournament's system, else the system's name."""
    if header.tournament_type:
        if tournament.system is None or _system_of(header.tournament_type) is tournament.system:
            return [f"092 {_clean(header.tournament_type, 'tournament type', warnings)}"]
        warnings.append(
            f"tournament_type {header.tournament_type!r} does not name the system "
            f"{tournament.system.value}: wrote {_SYSTEM_NAMES[tournament.system]!r}"
        )
        return [f"092 {_SYSTEM_NAMES[tournament.system]}"]
    encoded = " ".join(r[4:].replace("_", " ") for r in header.other_records if r.startswith("192"))
    if tournament.system and _system_of(encoded) is not tournament.system:
        return [f"092 {_SYSTEM_NAMES[tournament.system]}"]
    return []


def _scoring_record(scoring: Scoring, warnings: list[str]) -> str:
    """162 (TRF-26): one letter per group of results that share a value."""
    items = []
    for code, names in SCORING_CODES.items():
        if not names:
            continue
        values = {getattr(scoring, name) for name in names}
        if len(values) > 1:
            warnings.append(f"scoring: record 162 gives {', '.join(names)} one value ({code}); wrote {names[0]}'s")
        value = getattr(scoring, names[0])
        text = f"{float(value):.1f}" if value * 2 == int(value * 2) else f"{float(value):.2f}"
        if Fraction(text) != value:
            warnings.append(f"scoring: {names[0]} = {float(value)} written as {text}")
        items.append(f"{code}{text:>4}")
    return "162  " + "    ".join(items)


def _player_line(
    player: Player,
    points: dict[int, Fraction] | None,
    ranks: dict[int, int | None] | None,
    warnings: list[str],
    tournament_scoring: Scoring,
) -> str:
    name = _clean(player.name, f"player {player.id} name", warnings)
    width = NAME.last - NAME.first + 1
    if len(name) > width:
        warnings.append(f"player {player.id}: name cut to {width} characters")
        name = name[:width]
    points_text = ""
    if points is not None and player.id in points:
        points_text = _points_text(points[player.id]) or ""
        if not points_text:
            warnings.append(f"player {player.id}: points {float(points[player.id])} do not fit columns 81-84")
    rank = ranks.get(player.id) if ranks else None
    birth = player.birth_date or ""
    birth = birth.replace("-", "/") if len(birth) == 10 else (f"{birth}/00/00" if birth else "")
    line = (
        f"001 {player.id:>{START_NUMBER.last - START_NUMBER.first + 1}} "
        f"{_SEX_LETTERS.get(player.sex, ' ')}{player.title or '':>{TITLE.last - TITLE.first + 1}} "
        f"{name:<{width}} {player.rating or '':>{RATING.last - RATING.first + 1}} "
        f"{player.federation or '':<{FEDERATION.last - FEDERATION.first + 1}} "
        f"{player.fide_id or '':>{FIDE_ID.last - FIDE_ID.first + 1}} "
        f"{birth:<{BIRTH_DATE.last - BIRTH_DATE.first + 1}} "
        f"{points_text:>4} {'' if rank is None else rank:>{RANK.last - RANK.first + 1}}  "
    )
    assert len(line) == FIRST_ROUND_OPPONENT.first - 1
    by_round = {r.round: r for r in player.results}
    blocks = []
    for rnd in range(1, max(by_round, default=0) + 1):
        result = by_round.get(rnd)
        if result is None:
            blocks.append(" " * 10)
            continue
        if result.points is not None and _awarded_text(tournament_scoring, result) is None:
            warnings.append(
                f"player {player.id}, round {rnd}: the points override ({float(result.points)}) "
                f"cannot be written in TRF; the result code {result.result.value} stands"
            )
        kind = result.result
        if kind.has_opponent:
            code = _CODES_PLAYED.get((kind, result.rated)) or _CODES_FORFEIT[kind]
            blocks.append(f"{result.opponent:>4} {_COLOUR_LETTERS[result.color]} {code}  ")
        else:
            blocks.append(f"0000 - {_CODES_UNPAIRED[kind]}  ")
    return (line + "".join(blocks)).rstrip()
