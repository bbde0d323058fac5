"""TRF-26 team records: a team event's TRF read into the engine's team model.

The player lines (001) and the tournament header are read by `trf.parse_trf`; this module
reads what makes the file a team event and builds the matches from both:

* 310 teams (and the old 013): pairing number, name, short name, match and game points,
  the players in board order, reserves last;
* 352 the home team's colour per board (its length is the team size); 362 match scoring
  (both layouts in use: `W  2.0    D  1.0 ...` as record 162, and `TW 2.0 TD 1.0 TL 0.0`);
* 192 the encoded tournament type (`FIDE_TEAM_GP_MP`: game points primary; `..._ROUNDROBIN`);
* 300 a line-up out of the default order, or with an unoccupied board (`0000`);
* 320 the pairing-allocated bye: its match and game points and the team of each round;
* 330 forfeited matches `+-` `-+` `--` — also when the absent team's boards are not written;
* 240 team byes F, H, Z (an odd round robin's idle team is a Z);
* 202/212 the rule list (212 keeps its leading PTS or PTS:GP);
* 801/802 and the match and game points of 310 only cross-check: a disagreement is a warning.

Boards: in every match a team's players sit in roster order (a reserve who plays moves up),
unless a 300 record gives the line-up; the players of both teams on a board must be each
other's opponents, or the file is refused with the line and the round.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from ..engine.model import ResultKind, RoundResult, Scoring, System
from ..engine.teams.model import (
    Board,
    BoardResult,
    Match,
    MatchForfeit,
    Score,
    Team,
    TeamAward,
    TeamBye,
    TeamMember,
    TeamScoring,
    TeamTournament,
)
from ..texts.message import msg
from .trf import (
    _AWARD_KIND,
    _AWARD_MATCH,
    _AWARD_POINTS,
    _AWARD_ROUND,
    award_target_columns,
    MAX_POINTS,
    FIRST_ROUND_OPPONENT,
    ROUND_WIDTH,
    Span,
    TrfDocument,
    TrfError,
    TrfWarning,
    decode_trf,
    parse_trf,
)

# Records of a team event read here (the rest of the file is read by trf.parse_trf).
TEAM_RECORDS = frozenset({"013", "310", "300", "320", "330", "240", "352", "362", "192", "202", "212", "801", "802"})
TEAM_TYPE_WORDS = re.compile(r"team", re.I)
_MATCH_SCORE_ITEM = re.compile(r"(TW|TD|TL|W|D|L)\s*(-?[0-9]+(?:\.[0-9]+)?)", re.I)
_FORFEITS = {
    "+-": MatchForfeit.HOME_WINS,
    "-+": MatchForfeit.AWAY_WINS,
    "--": MatchForfeit.DOUBLE,
    "10": MatchForfeit.HOME_WINS,
    "01": MatchForfeit.AWAY_WINS,
    "00": MatchForfeit.DOUBLE,
}
# 801/802 totals: far above any event the limits admit, far below what a float cannot hold
MAX_TOTAL_POINTS = 10**9
_INFORMATIVE = re.compile(r"^80[12]\s+(\d+)\s+\S+\s+(-?\d+(?:\.\d+)?)\s+(-?\d+(?:\.\d+)?)(?:\s|$)")
_BYES_240 = {"F": ResultKind.FULL_BYE, "H": ResultKind.HALF_BYE, "Z": ResultKind.ZERO_BYE}
PRESENT = "present"  # a "0000 - +" entry: a board (or a whole match) won by forfeit, nobody on the other side


class NotATeamEvent(TrfError):
    """The file has team records, but its pairings are not matches between teams (teammates meet,
    a team meets several teams in a round): an individual event with team groupings."""


@dataclass(slots=True)
class TeamTrfDocument:
    event: TeamTournament
    warnings: list[TrfWarning]
    tiebreaks: list[str]  # 212 (with its PTS) or 202
    encoding: str = "utf-8"


@dataclass(slots=True)
class _Line:
    number: int
    text: str


# What the reader passes between its steps.
_Entry = tuple[int, RoundResult | None]  # a player with an entry in a round: (player, result or None for PRESENT)
_Seat = tuple[int, int, RoundResult | None, int, RoundResult | None]  # board, team a's player and result, b's
_Lineups = dict[tuple[int, int], tuple[_Line, list[int]]]  # (round, team) -> 300's line and players
_Forfeits = list[tuple[int, int, int, MatchForfeit, _Line]]  # round, home, away, forfeit, 330's line
_Totals = dict[int, tuple[_Line, Fraction | None, Fraction | None]]  # team -> 310's line, match and game points


def _may_have_team_records(text: str) -> bool:
    """Some line starts with 310 or 013 (else the file is no team event: found without splitting it).
    A line after CR is looked for only in a text with a CR: each search reads the whole text."""
    if text.startswith(("310", "013", "\ufeff310", "\ufeff013")) or "\n310" in text or "\n013" in text:
        return True
    return "\r" in text and ("\r310" in text or "\r013" in text)


def is_team_trf(text: str) -> bool:
    """A TRF of a team event: it has team records 310, or the old 013 with a team tournament type (092/192)."""
    if not _may_have_team_records(text):
        return False
    records = {line[:3] for line in _lines(text)}
    if "310" in records:
        return True
    if "013" not in records:
        return False
    return any(line[:3] in ("092", "192") and TEAM_TYPE_WORDS.search(line[4:]) for line in _lines(text))


def _lines(text: str) -> list[str]:
    if text.startswith("\ufeff"):
        text = text[1:]
    return [raw.rstrip() for raw in re.split(r"\r\n|\r|\n", text)]


def read_team_trf(data: bytes | str) -> TeamTrfDocument:
    """Read a team TRF's bytes (encoding detected as for individual files) or text."""
    if isinstance(data, str):
        return parse_team_trf(data)
    text, encoding, warnings = decode_trf(data)
    document = parse_team_trf(text)
    document.warnings[:0] = warnings
    document.encoding = encoding
    return document


def parse_team_trf(text: str) -> TeamTrfDocument:
    """Read a team event's TRF text. Raises TrfError (line, column) for what cannot be read."""
    lines = _lines(text)
    team_lines: dict[str, list[_Line]] = {}
    individual: list[str] = []
    present: set[tuple[int, int]] = set()  # (start number, round) of "0000 - +" entries
    for number, line in enumerate(lines, start=1):
        record = line[:3]
        if record in TEAM_RECORDS or record == "299":  # a team file's 299 names teams, not players
            team_lines.setdefault(record, []).append(_Line(number, line))
            individual.append("###")  # keeps the line numbers of trf.parse_trf's errors
        elif record == "001":
            individual.append(_mark_present(line, number, present))
        else:
            individual.append(line)
    document = parse_trf("\n".join(individual))
    player_line = {
        int(line[4:8]): number
        for number, line in enumerate(lines, start=1)
        if line[:3] == "001" and line[4:8].strip().isdigit()
    }
    return _Reader(document, team_lines, present, player_line).read()


def _mark_present(line: str, number: int, present: set[tuple[int, int]]) -> str:
    """A "0000 - +" round block (individual TRF has no code for a forfeit won with nobody paired)
    becomes "0000 - F" for the player-line reader, and is remembered here."""
    start = line[4:8].strip()
    first = FIRST_ROUND_OPPONENT.first - 1
    rnd = 0
    chars = list(line)
    while first + 7 < len(line) + 1:
        rnd += 1
        block = line[first : first + 8].ljust(8)
        if block[0:4].strip() in ("", "0", "0000") and block[7] == "+":
            if not start.isdigit():
                raise TrfError(number, 5, msg("start number {start} is not a number", start=repr(start)))
            present.add((int(start), rnd))
            chars[first + 7] = "F"
        first += ROUND_WIDTH
    return "".join(chars)


def _number_or_blank_at(line: _Line, first: int, last: int, what: str) -> int | None:
    if not line.text[first - 1 : last].strip():
        return None
    return _number_at(line, first, last, what)


def _number_at(line: _Line, first: int, last: int, what: str, low: int = 0) -> int:
    text = line.text[first - 1 : last].strip()
    if not text.isdigit():
        raise TrfError(
            line.number,
            first,
            msg(
                "record {record}: {what} must be a whole number, found {text}",
                record=line.text[:3],
                what=what,
                text=repr(text),
            ),
        )
    value = int(text)
    if value < low:
        raise TrfError(
            line.number,
            first,
            msg(
                "record {record}: {what} must be at least {low}, found {value}",
                record=line.text[:3],
                what=what,
                low=low,
                value=value,
            ),
        )
    return value


def _points_at(line: _Line, first: int, last: int, what: str) -> Fraction | None:
    text = line.text[first - 1 : last].strip()
    if not text:
        return None
    try:
        return Fraction(Decimal(text))
    except (InvalidOperation, ValueError):
        raise TrfError(
            line.number,
            first,
            msg("record {record}: {what} {text} is not a number", record=line.text[:3], what=what, text=repr(text)),
        ) from None


class _Reader:
    def __init__(
        self,
        document: TrfDocument,
        team_lines: dict[str, list[_Line]],
        present: set[tuple[int, int]],
        player_line: dict[int, int],
    ):
        self.document = document
        self.lines = team_lines
        self.present = present  # (player, round) of "0000 - +"
        self.warnings: list[TrfWarning] = list(document.warnings)
        self.players = {p.id: p for p in document.tournament.players}
        self.player_line = player_line  # start number -> line number

    def warn(self, line: int, column: int, message: str) -> None:
        self.warnings.append(TrfWarning(line, column, message))

    # ---------------------------------------------------------------- the header records

    def read(self) -> TeamTrfDocument:
        tournament = self.document.tournament
        teams, totals = self._teams()
        team_of = {member.id: team.id for team in teams for member in team.players}
        colours = self._colours()
        team_size = len(colours) if colours else self._widest_lineup(team_of)
        system, primary = self._type(tournament.system)
        scoring = self._scoring(tournament.scoring)
        lineups = self._lineups(teams)
        forfeits = self._forfeits(teams)
        listed_byes, pab = self._byes(teams)
        if pab is not None:
            scoring = replace(scoring, pab_match=pab[0], pab_game=pab[1])
        last_listed = max([r for r, *_ in forfeits] + [b.round for b, _ in listed_byes] + [0])
        rounds = max(tournament.rounds, last_listed)
        matches, byes = self._matches(teams, team_of, team_size, colours, lineups, forfeits, listed_byes, rounds)
        event = TeamTournament(
            teams=tuple(teams),
            rounds=rounds,
            team_size=team_size,
            matches=tuple(matches),
            byes=tuple(byes),
            system=system,
            scoring=scoring,
            board_colours=colours,
            primary=primary,
            name=tournament.name,
            start_date=tournament.start_date,
        )
        awards = self._awards({team.id for team in teams}, rounds)
        if awards:
            event = replace(event, awards=tuple(awards))
        self._cross_check(event, totals)
        return TeamTrfDocument(event, self.warnings, self._tiebreaks())

    def _awards(self, teams: set[int], rounds: int) -> list[TeamAward]:
        """TRF-26 299 in a team file: match points (columns 8-11) and game points (14-17) the arbiter
        awards in a round (20-22; blank or 000: every round) to the teams named from column 24, four
        columns every five (none or 0000: every team). Column 5 (a result assigned) is reported."""
        awards = []
        for line in self.lines.get("299", []):
            text = line.text
            if _AWARD_KIND.of(text).strip():
                self.warn(
                    line.number,
                    _AWARD_KIND.first,
                    msg("record 299 with a result assigned (column 5) is not applied; match and game points are"),
                )
                continue
            points = [self._award_points(line, span) for span in (_AWARD_MATCH, _AWARD_POINTS)]
            round_text = _AWARD_ROUND.of(text).strip()
            rnd = (
                _number_at(line, _AWARD_ROUND.first, _AWARD_ROUND.last, msg("round"), low=1)
                if round_text.strip("0")
                else None
            )
            if rnd is not None and rnd > rounds:
                raise TrfError(
                    line.number,
                    _AWARD_ROUND.first,
                    msg("record 299: round {round} is past the event's {rounds} rounds", round=rnd, rounds=rounds),
                )
            named = []
            for column in award_target_columns(text):
                team = _number_at(line, column, column + 3, msg("team pairing number"), low=1)
                if team not in teams:
                    raise TrfError(line.number, column, msg("record 299: no team has pairing number {team}", team=team))
                named.append(team)
            for team in named or sorted(teams):
                for r in [rnd] if rnd is not None else range(1, rounds + 1):
                    awards.append(TeamAward(r, team, points[0], points[1]))
            self.warnings.append(
                TrfWarning(
                    line.number,
                    _AWARD_POINTS.first,
                    msg(
                        "record 299: {mp} match points and {gp} game points awarded by the arbiter to {teams} in "
                        "{rounds}; counted in the scores (TRF-26)",
                        mp=float(points[0]),
                        gp=float(points[1]),
                        teams=", ".join(map(str, named)) if named else msg("every team"),
                        rounds=msg("round {round}", round=rnd) if rnd is not None else msg("every round"),
                    ),
                    "trf-points-awarded",
                )
            )
        return awards

    def _award_points(self, line: _Line, span: Span) -> Fraction:
        text = span.of(line.text).strip()
        if not text:
            return Fraction(0)
        try:
            return Fraction(Decimal(text))
        except (InvalidOperation, ValueError):
            raise TrfError(
                line.number, span.first, msg("record 299: points {text} are not a number", text=repr(text))
            ) from None

    def _teams(self) -> tuple[list[Team], _Totals]:
        records_310 = self.lines.get("310")
        old = records_310 is None
        records = self.lines.get("013", []) if records_310 is None else records_310
        if not old and "013" in self.lines:
            self.warn(
                self.lines["013"][0].number,
                1,
                msg("records 013 ignored: the file has the records 310 that replace them"),
            )
        teams: list[Team] = []
        seen_ids: dict[int, int] = {}
        seen_players: dict[int, tuple[int, int]] = {}
        totals: _Totals = {}
        for k, line in enumerate(records):
            if old:  # 013: name 5-36, players from 37, every 5 columns
                team_id, name, short, first = k + 1, line.text[4:36].strip(), "", 37
            else:  # 310: number 5-7, name 9-40, short name 42-46, MP 55-60, GP 62-67, rank 69-71, players from 74
                team_id = _number_at(line, 5, 7, msg("team pairing number"), low=1)
                name, short, first = line.text[8:40].strip(), line.text[41:46].strip(), 74
                totals[team_id] = (
                    line,
                    _points_at(line, 55, 60, msg("match points")),
                    _points_at(line, 62, 67, msg("game points")),
                )
            if team_id in seen_ids:
                raise TrfError(
                    line.number,
                    5,
                    msg("team {team_id} already defined on line {line}", team_id=team_id, line=seen_ids[team_id]),
                )
            seen_ids[team_id] = line.number
            members = []
            column = first
            while column <= len(line.text):
                pid = _number_or_blank_at(line, column, column + 3, "player")
                if pid:
                    if pid not in self.players:
                        raise TrfError(
                            line.number,
                            column,
                            msg("team {team_id}: no player has start number {pid}", team_id=team_id, pid=pid),
                        )
                    if pid in seen_players:
                        other, other_line = seen_players[pid]
                        raise TrfError(
                            line.number,
                            column,
                            msg(
                                "player {pid} is on team {team_id} and on team {other} (line {other_line})",
                                pid=pid,
                                team_id=team_id,
                                other=other,
                                other_line=other_line,
                            ),
                        )
                    seen_players[pid] = (team_id, line.number)
                    player = self.players[pid]
                    members.append(TeamMember(pid, player.name, player.rating))
                column += 5
            teams.append(Team(team_id, name, short, tuple(members)))
        if not teams:
            raise TrfError(1, 1, msg("no team records (310 or 013) found"))
        for pid, player in self.players.items():
            if pid not in seen_players and any(r.opponent for r in player.results):
                raise NotATeamEvent(
                    self._line_of(pid), 1, msg("player {pid} has games but is on no team (records 310)", pid=pid)
                )
        return teams, totals

    def _colours(self) -> str | None:
        line = self._last("352")
        if line is None:
            return None
        colours = line.text[4:].strip().upper()
        if not colours or set(colours) - set("WB"):
            raise TrfError(
                line.number,
                5,
                msg("record 352: the colour sequence {colours} is not made of W and B", colours=repr(colours)),
            )
        return colours

    def _widest_lineup(self, team_of: dict[int, int]) -> int:
        """Without 352: the most boards a team used in a round."""
        widest = 1
        rounds: dict[tuple[int, int], int] = {}
        for player in self.players.values():
            for result in player.results:
                if result.opponent or (player.id, result.round) in self.present:
                    key = (team_of.get(player.id, 0), result.round)
                    rounds[key] = rounds.get(key, 0) + 1
                    widest = max(widest, rounds[key])
        return widest

    def _type(self, system: System | None) -> tuple[System | None, Score | None]:
        line = self._last("192")
        primary = None
        if line is not None:
            code = line.text[4:].strip().upper()
            if "ROUNDROBIN" in code:
                system = System.ROUND_ROBIN
            elif "SWISS" in code or code.startswith("FIDE_TEAM"):
                system = system or System.SWISS
            # FIDE_TEAM_MP_GP, FIDE_TEAM_TYPEA_GP_MP, FIDE_TEAM_MP_BAKU, CUSTOM_TEAM_SWISS_GP, ...
            first = re.search(r"_(MP|GP)(?:_|$)", code)
            if first:
                primary = Score(first[1])
        return system, primary

    def _scoring(self, game: Scoring) -> TeamScoring:
        scoring = TeamScoring(game_win=game.win, game_draw=game.draw, game_loss=game.loss)
        line = self._last("362")
        if line is None:
            return scoring
        body = line.text[4:]
        fields = {}
        position = 0
        for m in _MATCH_SCORE_ITEM.finditer(body):
            if body[position : m.start()].strip():
                raise TrfError(
                    line.number,
                    5 + position,
                    msg("record 362: cannot read {text}", text=repr(body[position : m.start()].strip())),
                )
            position = m.end()
            code = m[1].upper().lstrip("T")
            value = Fraction(Decimal(m[2]))
            if not 0 <= value <= MAX_POINTS:  # as 162 does: a huge number would overflow the team tables
                raise TrfError(
                    line.number,
                    5 + m.start(2),
                    msg(
                        "record 362: match points {points} out of range 0-{max_points}",
                        points=m[2],
                        max_points=MAX_POINTS,
                    ),
                )
            fields[{"W": "match_win", "D": "match_draw", "L": "match_loss"}[code]] = value
        if body[position:].strip():
            raise TrfError(
                line.number,
                5 + position,
                msg(
                    "record 362: cannot read {text} (TW, TD, TL with their match points)",
                    text=repr(body[position:].strip()),
                ),
            )
        return replace(scoring, **fields)

    def _lineups(self, teams: list[Team]) -> _Lineups:
        """300: (round, team) -> the line-up, 0 for an unoccupied board."""
        ids = {t.id for t in teams}
        lineups = {}
        for line in self.lines.get("300", []):
            rnd = _number_at(line, 5, 7, "round", low=1)
            team = _number_at(line, 9, 11, "team", low=1)
            if team not in ids:
                self.warn(line.number, 9, msg("record 300: no team has pairing number {team}; skipped", team=team))
                continue
            players = []
            column = 17
            while column <= len(line.text):
                players.append(_number_or_blank_at(line, column, column + 3, "player") or 0)
                column += 5
            lineups[(rnd, team)] = (line, players)
        return lineups

    def _forfeits(self, teams: list[Team]) -> _Forfeits:
        """330: (round, home, away, forfeit, line)."""
        ids = {t.id for t in teams}
        out = []
        for line in self.lines.get("330", []):
            code = line.text[4:6].upper()
            if code not in _FORFEITS:
                raise TrfError(
                    line.number, 5, msg("record 330: forfeit type {code} is not +-, -+ or --", code=repr(code))
                )
            rnd = _number_at(line, 8, 10, "round", low=1)
            home = _number_at(line, 12, 14, "team", low=1)
            away = _number_at(line, 16, 18, "team", low=1)
            unknown = [(team, column) for team, column in ((home, 12), (away, 16)) if team not in ids]
            if unknown:
                self.warn(
                    line.number,
                    unknown[0][1],
                    msg("record 330: no team has pairing number {team}; skipped", team=unknown[0][0]),
                )
                continue
            out.append((rnd, home, away, _FORFEITS[code], line))
        return out

    def _byes(self, teams: list[Team]) -> tuple[list[tuple[TeamBye, _Line]], tuple[Fraction, Fraction] | None]:
        """The byes of 320 and 240 with their lines; a team number nobody has is skipped with a warning."""
        ids = {t.id for t in teams}
        byes: list[tuple[TeamBye, _Line]] = []
        pab: tuple[Fraction, Fraction] | None = None
        for line in self.lines.get("320", []):
            match_points, game_points = (
                _points_at(line, 5, 8, msg("match points")),
                _points_at(line, 10, 13, msg("game points")),
            )
            if match_points is None or game_points is None:
                raise TrfError(
                    line.number,
                    5,
                    msg("record 320: the PAB's match points (5-8) and game points (10-13) must be given"),
                )
            values = (match_points, game_points)
            if pab is not None and values != pab:
                self.warn(
                    line.number, 5, msg("record 320: PAB values differ from the first 320 record's; those are used")
                )
            pab = pab or values
            column, rnd = 15, 0
            while column <= len(line.text):
                rnd += 1
                team = _number_or_blank_at(line, column, column + 2, "team")
                if team:
                    if team not in ids:
                        self.warn(
                            line.number,
                            column,
                            msg("record 320: no team has pairing number {team}; skipped", team=team),
                        )
                    else:
                        byes.append((TeamBye(rnd, team, ResultKind.PAIRING_BYE), line))
                column += 4
        for line in self.lines.get("240", []):
            kind = line.text[4:5].upper()
            if kind not in _BYES_240:
                raise TrfError(line.number, 5, msg("record 240: bye type {kind} is not F, H or Z", kind=repr(kind)))
            rnd = _number_at(line, 7, 9, "round", low=1)
            rest = line.text[10:]
            if not rest.strip():
                raise TrfError(line.number, 11, msg("record 240 names no team"))
            for m in re.finditer(r"\S+", rest):
                column = 11 + m.start()
                if not m[0].isdigit() or int(m[0]) not in ids:
                    self.warn(
                        line.number, column, msg("record 240: no team has pairing number {team}; skipped", team=m[0])
                    )
                    continue
                byes.append((TeamBye(rnd, int(m[0]), _BYES_240[kind]), line))
        return byes, pab

    def _tiebreaks(self) -> list[str]:
        for record in ("212", "202"):
            line = self._last(record)
            if line is not None:
                value = line.text[4:].strip()
                parts = re.split(r"[,;]", value) if re.search(r"[,;]", value) else value.split()
                return [p.strip() for p in parts if p.strip()]
        return []

    def _last(self, record: str) -> _Line | None:
        found = self.lines.get(record)
        return found[-1] if found else None

    # ---------------------------------------------------------------- the matches

    def _entries(self, team: Team, rnd: int) -> list[_Entry]:
        """The team's players with an entry in the round, roster order: (player, result or None for PRESENT)."""
        out: list[_Entry] = []
        for member in team.players:
            if (member.id, rnd) in self.present:
                out.append((member.id, None))
                continue
            result = next((r for r in self.players[member.id].results if r.round == rnd), None)
            if result is not None:
                out.append((member.id, result))
        return out

    def _matches(
        self,
        teams: list[Team],
        team_of: dict[int, int],
        team_size: int,
        colours: str | None,
        lineups: _Lineups,
        forfeits: _Forfeits,
        byes: list[tuple[TeamBye, _Line]],
        rounds: int,
    ) -> tuple[list[Match], list[TeamBye]]:
        """The matches of every round, and the byes that agree with them (a record that contradicts
        the player lines is skipped with a warning: the 001 lines are the results).

        Per round: the teams the player lines pair, then the whole-match forfeits (330) of teams
        without games, the matches of boards, the matches won on every board by forfeit with nobody
        opposite (the opponent named by 300), and the byes of teams still unpaired."""
        by_id = {t.id: t for t in teams}
        matches: list[Match] = []
        kept_byes: list[TeamBye] = []
        for rnd in range(1, rounds + 1):
            entries = {t.id: self._entries(t, rnd) for t in teams}
            linked = self._linked_teams(rnd, entries, team_of)
            paired: set[int] = set()
            matches += self._forfeited_matches(rnd, forfeits, linked, paired)
            done: set[frozenset[int]] = set()
            for team_id in sorted(linked):
                other = next(iter(linked[team_id]))
                if frozenset((team_id, other)) in done:
                    continue
                done.add(frozenset((team_id, other)))
                matches.append(self._match(rnd, by_id[team_id], by_id[other], entries, team_size, colours, lineups))
                paired |= {team_id, other}
            for team_id, items in entries.items():
                if team_id in paired or not any(result is None for _, result in items):
                    continue
                other = self._unopposed_match_opponent(rnd, team_id, items, lineups, by_id, paired)
                matches.append(self._match(rnd, by_id[team_id], by_id[other], entries, team_size, colours, lineups))
                paired |= {team_id, other}
            kept_byes += self._unpaired_byes(rnd, byes, paired)
        return matches, kept_byes

    def _linked_teams(self, rnd: int, entries: dict[int, list[_Entry]], team_of: dict[int, int]) -> dict[int, set[int]]:
        """The teams each team's players meet in the round: one other team, or the file is no team event."""
        linked: dict[int, set[int]] = {}
        for team_id, items in entries.items():
            for pid, result in items:
                if result is not None and result.opponent:
                    linked.setdefault(team_id, set()).add(self._opponent_team(rnd, team_id, pid, result, team_of))
        for team_id, others in linked.items():
            if len(others) > 1:
                pid = next(pid for pid, r in entries[team_id] if r is not None and r.opponent)
                raise NotATeamEvent(
                    self._line_of(pid),
                    self._column(rnd),
                    msg(
                        "round {rnd}: the players of team {team_id} meet players of teams {others}",
                        rnd=rnd,
                        team_id=team_id,
                        others=", ".join(map(str, sorted(others))),
                    ),
                )
        return linked

    def _opponent_team(self, rnd: int, team_id: int, pid: int, result: RoundResult, team_of: dict[int, int]) -> int:
        """The team of a player's opponent, who must be on another team and name the player back."""
        opponent = result.opponent
        assert opponent  # the caller reads only results with an opponent
        other = team_of.get(opponent)
        if other is None or other == team_id:
            raise NotATeamEvent(
                self._line_of(pid),
                self._column(rnd),
                msg(
                    "round {rnd}: player {pid} (team {team_id}) is paired with player {opponent}, who is {where}",
                    rnd=rnd,
                    pid=pid,
                    team_id=team_id,
                    opponent=opponent,
                    where=msg("on the same team") if other else msg("on no team"),
                ),
            )
        back = next((r for r in self.players[opponent].results if r.round == rnd), None)
        if back is None or back.opponent != pid:
            said = (
                msg("player {opponent}", opponent=back.opponent)
                if back is not None and back.opponent
                else msg("no game")
                if back is None
                else back.result.value
            )
            raise TrfError(
                self._line_of(pid),
                self._column(rnd),
                msg(
                    "round {rnd}: player {pid} is paired with player {opponent}, whose line says {said} in that round",
                    rnd=rnd,
                    pid=pid,
                    opponent=opponent,
                    said=said,
                ),
            )
        return other

    def _forfeited_matches(
        self, rnd: int, forfeits: _Forfeits, linked: dict[int, set[int]], paired: set[int]
    ) -> list[Match]:
        """The round's whole-match forfeits (330) between teams without games or another match."""
        matches = []
        for r, home, away, forfeit, line in forfeits:
            if r != rnd:
                continue
            if home in linked or away in linked or home in paired or away in paired:
                self.warn(
                    line.number,
                    1,
                    msg(
                        "record 330 skipped: teams {home} and {away} have games (or another match) in round {rnd}",
                        home=home,
                        away=away,
                        rnd=rnd,
                    ),
                )
                continue
            paired |= {home, away}
            matches.append(Match(rnd, home, away, forfeit=forfeit))
        return matches

    def _unopposed_match_opponent(
        self,
        rnd: int,
        team_id: int,
        items: list[_Entry],
        lineups: _Lineups,
        by_id: dict[int, Team],
        paired: set[int],
    ) -> int:
        """Boards won by forfeit with nobody opposite and no game: the opponent a 300 line-up names."""
        named = [
            (line, key)
            for key, (line, _) in lineups.items()
            if key[0] == rnd and team_id in (key[1], _number_at(line, 13, 15, msg("scheduled opponent"), low=1))
        ]
        for line, (_, team) in named:
            candidate = _number_at(line, 13, 15, msg("scheduled opponent"), low=1) if team == team_id else team
            if candidate in by_id and candidate not in paired:
                return candidate
        pid = next(pid for pid, r in items if r is None)
        raise TrfError(
            self._line_of(pid),
            self._column(rnd),
            msg(
                "round {rnd}: players of team {team_id} won by forfeit (0000 - +) but no record 330 or 300 names the opponent",
                rnd=rnd,
                team_id=team_id,
            ),
        )

    def _unpaired_byes(self, rnd: int, byes: list[tuple[TeamBye, _Line]], paired: set[int]) -> list[TeamBye]:
        """The round's byes of teams without a match or an earlier bye in it."""
        kept = []
        for bye, line in byes:
            if bye.round != rnd:
                continue
            if bye.team in paired:
                self.warn(
                    line.number,
                    1,
                    msg(
                        "record {record}: team {team} already has a match or a bye in round {rnd}; this bye is skipped",
                        record=line.text[:3],
                        team=bye.team,
                        rnd=rnd,
                    ),
                )
                continue
            paired.add(bye.team)
            kept.append(bye)
        return kept

    def _match(
        self,
        rnd: int,
        team_a: Team,
        team_b: Team,
        entries: dict[int, list[_Entry]],
        team_size: int,
        colours: str | None,
        lineups: _Lineups,
    ) -> Match:
        sides: list[tuple[list[int], dict[int, RoundResult | None]]] = []
        for team in (team_a, team_b):
            results = dict(entries[team.id])
            given = lineups.get((rnd, team.id))
            if given is not None and any(pid and pid not in results for pid in given[1]):
                missing = next(pid for pid in given[1] if pid and pid not in results)
                self.warn(
                    given[0].number,
                    17,
                    msg("record 300 skipped: player {missing} has no game in round {rnd}", missing=missing, rnd=rnd),
                )
                given = None
            if given is not None:
                lineup = given[1]
            else:  # roster order: a reserve who plays moves up
                lineup = [pid for pid, result in entries[team.id] if result is None or result.opponent]
            sides.append((lineup, results))
        (la, ra), (lb, rb) = sides
        boards = max(len(la), len(lb))
        if boards > team_size:
            raise TrfError(
                self._line_of(la[0] if la else lb[0]),
                self._column(rnd),
                msg(
                    "round {rnd}: teams {team_a} and {team_b} play on {boards} boards, more than the team size {team_size} (record 352)",
                    rnd=rnd,
                    team_a=team_a.id,
                    team_b=team_b.id,
                    boards=boards,
                    team_size=team_size,
                ),
            )
        seats: list[_Seat] = []
        for b in range(boards):
            pa = la[b] if b < len(la) else 0
            pb = lb[b] if b < len(lb) else 0
            a, bb = (ra.get(pa) if pa else None), (rb.get(pb) if pb else None)
            for player, result, partner in ((pa, a, pb), (pb, bb, pa)):
                if not player:
                    continue
                paired_with = result.opponent if result is not None else 0
                if (paired_with or 0) != partner:
                    return self._match_by_pairings(rnd, team_a, team_b, la, ra, lb, rb, team_size, colours, player)
            seats.append((b + 1, pa, a, pb, bb))
        return self._match_from_seats(rnd, team_a, team_b, seats, colours)

    def _match_from_seats(self, rnd: int, team_a: Team, team_b: Team, seats: list[_Seat], colours: str | None) -> Match:
        home_is_a = self._home_is_first(seats, colours)
        home, away = (team_a, team_b) if home_is_a else (team_b, team_a)
        out = []
        for number, pa, a, pb, bb in seats:
            colour_a = a.color.value if a is not None and a.color else None
            colour_b = bb.color.value if bb is not None and bb.color else None
            if colour_a:
                a_white = colour_a == "w"
            elif colour_b:
                a_white = colour_b != "w"
            else:  # nobody's colour is written (an empty seat facing a forfeit): the home colour of the board
                home_white = (colours[number - 1] if colours else "WB"[(number - 1) % 2]) == "W"
                a_white = home_white == home_is_a
            white, wr, black, br = (pa, a, pb, bb) if a_white else (pb, bb, pa, a)
            board = _board(number, white or None, black or None, wr, br)
            if board is None:  # a game played against an empty seat: the line-ups (300) are shorter than the games
                player = pa or pb
                raise TrfError(
                    self._line_of(player),
                    self._column(rnd),
                    msg(
                        "round {rnd}, teams {team_a} and {team_b}: player {player} has a game on board {number} but the other line-up (record 300) has nobody there: it is shorter than the games played",
                        rnd=rnd,
                        team_a=team_a.id,
                        team_b=team_b.id,
                        player=player,
                        number=number,
                    ),
                )
            out.append(board)
        return Match(rnd, home.id, away.id, tuple(out))

    def _match_by_pairings(
        self,
        rnd: int,
        team_a: Team,
        team_b: Team,
        la: list[int],
        ra: dict[int, RoundResult | None],
        lb: list[int],
        rb: dict[int, RoundResult | None],
        team_size: int,
        colours: str | None,
        culprit: int,
    ) -> Match:
        """Boards when the line-ups are not in roster order and no 300 record says so: team a's players
        in its order, each facing the player it is paired with; the other side's unpaired players
        (a board won against an empty seat) after them."""
        self.warn(
            self._line_of(culprit),
            self._column(rnd),
            (
                msg(
                    "round {rnd}: the players of teams {team_a} and {team_b} do not face each other board by board in roster order and no record 300 gives the line-up; boards taken in team {team_a}'s order",
                    rnd=rnd,
                    team_a=team_a.id,
                    team_b=team_b.id,
                )
            ),
        )
        seats: list[_Seat] = []
        placed_b = set()
        for pa in la:
            a = ra.get(pa)
            pb = a.opponent if a is not None and a.opponent else 0
            if pb and pb not in rb:
                raise TrfError(
                    self._line_of(pa),
                    self._column(rnd),
                    msg(
                        "round {rnd}: player {pa} is paired with {pb}, who has no entry in that round",
                        rnd=rnd,
                        pa=pa,
                        pb=pb,
                    ),
                )
            placed_b.add(pb)
            seats.append((len(seats) + 1, pa, a, pb, rb.get(pb) if pb else None))
        for pb in lb:
            if pb not in placed_b:
                seats.append((len(seats) + 1, 0, None, pb, rb.get(pb)))
        if len(seats) > team_size:
            raise TrfError(
                self._line_of(culprit),
                self._column(rnd),
                (
                    msg(
                        "round {rnd}: teams {team_a} and {team_b} play on {seats} boards, more than the team size {team_size}; give the line-ups with record 300",
                        rnd=rnd,
                        team_a=team_a.id,
                        team_b=team_b.id,
                        seats=len(seats),
                        team_size=team_size,
                    )
                ),
            )
        return self._match_from_seats(rnd, team_a, team_b, seats, colours)

    @staticmethod
    def _home_is_first(seats: list[_Seat], colours: str | None) -> bool:
        """Whether the first team is the home team: the one whose colours follow 352 (without 352:
        the one with white on the first board whose colour is written)."""
        for number, _pa, a, _pb, bb in seats:
            for result, is_a in ((a, True), (bb, False)):
                if result is not None and result.color is not None:
                    home_colour = (colours[number - 1] if colours else "WB"[(number - 1) % 2]).lower()
                    return (result.color.value == home_colour) == is_a
        return True

    def _line_of(self, player: int) -> int:
        return self.player_line.get(player, 1)

    @staticmethod
    def _column(rnd: int) -> int:
        return FIRST_ROUND_OPPONENT.first + (rnd - 1) * ROUND_WIDTH

    # ---------------------------------------------------------------- cross-checks

    def _cross_check(self, event: TeamTournament, totals: _Totals) -> None:
        """310's match and game points, 801/802: a warning where they disagree with the results."""
        from ..engine.teams.build import build_team_tables

        tables = build_team_tables(event)
        index = {tid: i for i, tid in enumerate(tables.mp.ids)}
        scale = tables.mp.scale

        def check(line: _Line, team: int, mp: Fraction | None, gp: Fraction | None, what: str) -> None:
            if team not in index:
                self.warn(
                    line.number,
                    5,
                    msg("record {record}: no team has pairing number {team}", record=line.text[:3], team=team),
                )
                return
            p = index[team]
            mine_mp, mine_gp = Fraction(tables.mp.scores[p], scale), Fraction(tables.gp.scores[p], scale)
            if mp is not None and mp != mine_mp:
                self.warn(
                    line.number,
                    1,
                    msg(
                        "record {record}: team {team} has {mp} match points {what}, the results give {mine_mp}",
                        record=line.text[:3],
                        team=team,
                        mp=float(mp),
                        what=what,
                        mine_mp=float(mine_mp),
                    ),
                )
            if gp is not None and gp != mine_gp:
                self.warn(
                    line.number,
                    1,
                    msg(
                        "record {record}: team {team} has {gp} game points {what}, the results give {mine_gp}",
                        record=line.text[:3],
                        team=team,
                        gp=float(gp),
                        what=what,
                        mine_gp=float(mine_gp),
                    ),
                )

        for team, (line, mp, gp) in totals.items():
            check(line, team, mp, gp, msg("in columns 55-67"))
        for record in ("801", "802"):
            for line in self.lines.get(record, []):
                # team number, nickname, match points, game points: read as fields, whose widths vary
                # between the programs that write them (801 per round: opponent, colour, board results)
                m = _INFORMATIVE.match(line.text)
                if m is None:
                    self.warn(
                        line.number,
                        5,
                        msg(
                            "record {record} not read: expected the team number, its nickname, match points and game points",
                            record=record,
                        ),
                    )
                    continue
                mp, gp = Fraction(Decimal(m[2])), Fraction(Decimal(m[3]))
                if not (abs(mp) <= MAX_TOTAL_POINTS and abs(gp) <= MAX_TOTAL_POINTS):
                    # informative only, but a total no event can reach is a corrupt record, not a mismatch
                    raise TrfError(
                        line.number,
                        m.start(2 if abs(mp) > MAX_TOTAL_POINTS else 3) + 1,
                        msg(
                            "record {record}: points out of range 0-{max_total_points}",
                            record=record,
                            max_total_points=MAX_TOTAL_POINTS,
                        ),
                    )
                check(line, int(m[1]), mp, gp, msg("in record {record}", record=record))


def _board(
    number: int, white: int | None, black: int | None, wr: RoundResult | None, br: RoundResult | None
) -> Board | None:
    """A board from the two players' entries (None: nobody, or a PRESENT entry); None when a game
    was played against an empty seat, which no board result describes."""

    def code(player: int | None, result: RoundResult | None) -> str | None:
        if not player:
            return None
        if result is None:
            return "+"
        return {
            ResultKind.WIN: "1",
            ResultKind.DRAW: "=",
            ResultKind.LOSS: "0",
            ResultKind.FORFEIT_WIN: "+",
            ResultKind.FORFEIT_LOSS: "-",
        }.get(result.result, "-")

    w, b = code(white, wr), code(black, br)
    results = {
        ("1", "0"): BoardResult.WHITE_WINS,
        ("0", "1"): BoardResult.BLACK_WINS,
        ("=", "="): BoardResult.DRAW,
        ("+", "-"): BoardResult.WHITE_FORFEIT_WIN,
        ("-", "+"): BoardResult.BLACK_FORFEIT_WIN,
        ("-", "-"): BoardResult.DOUBLE_FORFEIT,
        ("+", None): BoardResult.WHITE_FORFEIT_WIN,
        (None, "+"): BoardResult.BLACK_FORFEIT_WIN,
        ("-", None): BoardResult.DOUBLE_FORFEIT,
        (None, "-"): BoardResult.DOUBLE_FORFEIT,
        (None, None): BoardResult.DOUBLE_FORFEIT,
    }
    result = results.get((w, b))
    if result is not None:
        return Board(number, white, black, result)
    # an arbiter's decision (0-0, ½-0): each side's own points (the empty seats a reader meets are above)
    if w is None or b is None:
        return None
    value = {"1": Fraction(1), "=": Fraction(1, 2), "0": Fraction(0), "+": Fraction(1), "-": Fraction(0)}
    return Board(number, white, black, None, (value[w], value[b]))
