"""Between the team wire structs (schemas_teams) and the engine's team model and standings."""

from __future__ import annotations

import dataclasses

from fractions import Fraction
from typing import cast

import msgspec

from ..engine import model as m
from ..engine.errors import Path
from ..engine.rules import RuleSpec, build_rule
from ..engine.teams import model as tm
from ..engine.teams.registry import TEAM_TIEBREAKS, parse_team_rule, team_display_name
from ..engine.teams.standings import TeamStandings
from ..wire import schemas as s
from ..wire import teams as st
from ..engine.contributions import RuleOutcome
from .convert import exact, standings_to_wire, tiebreak_to_wire

ROOT = "team_tournament"
_BYES = {k.value: k for k in tm.TEAM_BYES}
_RESULTS = {r.value: r for r in tm.BoardResult}
_FORFEITS = {f.value: f for f in tm.MatchForfeit}


def team_tournament_from_wire(t: st.TeamTournament) -> tm.TeamTournament:
    scoring = tm.TeamScoring()
    if t.scoring is not None:
        fields = {}
        at: Path = (ROOT, "scoring")
        if t.scoring.match is not None:
            for name in ("win", "draw", "loss"):
                fields[f"match_{name}"] = exact(getattr(t.scoring.match, name), (*at, "match", name))
        if t.scoring.game is not None:
            for name in ("win", "draw", "loss"):
                fields[f"game_{name}"] = exact(getattr(t.scoring.game, name), (*at, "game", name))
        if t.scoring.pairing_bye is not None:
            fields["pab_match"] = exact(t.scoring.pairing_bye.match, (*at, "pairing_bye", "match"))
            if t.scoring.pairing_bye.game is not None:
                fields["pab_game"] = exact(t.scoring.pairing_bye.game, (*at, "pairing_bye", "game"))
        scoring = tm.TeamScoring(**fields)
    teams = tuple(
        tm.Team(
            team.id,
            team.name,
            team.short_name,
            tuple(tm.TeamMember(p.id, p.name, p.rating or None) for p in team.players),
        )
        for team in t.teams
    )
    matches = []
    for k, match in enumerate(t.matches):
        at = (ROOT, "matches", k)
        boards = tuple(
            tm.Board(
                b.board,
                b.white,
                b.black,
                _RESULTS[b.result] if b.result else None,
                None if b.points is None else _pair(b.points, (*at, "boards", j, "points")),
            )
            for j, b in enumerate(match.boards)
        )
        matches.append(
            tm.Match(
                match.round,
                match.home,
                match.away,
                boards,
                _FORFEITS[match.forfeit] if match.forfeit else None,
                None if match.game_points is None else _pair(match.game_points, (*at, "game_points")),
            )
        )
    byes = tuple(tm.TeamBye(b.round, b.team, _BYES[b.type]) for b in t.byes)
    return tm.TeamTournament(
        teams=teams,
        rounds=t.rounds,
        team_size=t.team_size,
        matches=tuple(matches),
        byes=byes,
        system=m.System(t.system) if t.system else None,
        scoring=scoring,
        board_colours=t.board_colours.upper() if t.board_colours else None,
        primary=tm.Score(t.primary_score) if t.primary_score else None,
        name=t.name,
        start_date=t.start_date,
    )


def _pair(values: list[float], path: Path) -> tuple[Fraction, Fraction]:
    return exact(values[0], (*path, 0)), exact(values[1], (*path, 1))


def _float(value: Fraction) -> float:
    return float(value)


def team_tournament_to_wire(t: tm.TeamTournament) -> st.TeamTournament:
    """The engine's team event as the JSON API's (TRF input, tests)."""
    s_ = t.scoring
    return st.TeamTournament(
        name=t.name,
        start_date=t.start_date,
        system=t.system.value if t.system else None,
        rounds=t.rounds,
        team_size=t.team_size,
        board_colours=t.board_colours,
        primary_score=t.primary.value if t.primary else None,
        scoring=st.TeamScoring(
            match=st.MatchScoring(win=_float(s_.match_win), draw=_float(s_.match_draw), loss=_float(s_.match_loss)),
            game=st.GameScoring(win=_float(s_.game_win), draw=_float(s_.game_draw), loss=_float(s_.game_loss)),
            pairing_bye=st.PairingByeScoring(match=_float(s_.pab_match), game=_float(s_.pab_game_points(t.team_size))),
        ),
        teams=[
            st.Team(
                id=team.id,
                name=team.name,
                short_name=team.short_name,
                players=[st.TeamPlayer(id=p.id, name=p.name, rating=p.rating) for p in team.players],
            )
            for team in t.teams
        ],
        matches=[
            st.TeamMatch(
                round=match.round,
                home=match.home,
                away=match.away,
                boards=[
                    st.TeamBoard(
                        board=b.board,
                        white=b.white,
                        black=b.black,
                        result=b.result.value if b.result else None,
                        points=None if b.points is None else [_float(v) for v in b.points],
                    )
                    for b in match.boards
                ],
                forfeit=match.forfeit.value if match.forfeit else None,
                game_points=None if match.game_points is None else [_float(v) for v in match.game_points],
            )
            for match in t.matches
        ],
        byes=[
            st.TeamBye(round=b.round, team=b.team, type=cast(st.TeamByeName, b.kind.value))  # one of TEAM_BYES
            for b in t.byes
        ],
    )


def team_rules_from_wire(items: list[str | s.RuleObject], regulations: m.Regulations | None = None) -> list[RuleSpec]:
    """A team event's rule list: team codes, individual codes on `:MP`/`:GP`."""
    specs = []
    for i, item in enumerate(items):
        path = ("tiebreaks", i)
        if isinstance(item, str):
            specs.append(parse_team_rule(item, regulations, path))
            continue
        named = parse_team_rule(item.rule_text, regulations, path)
        if item.modifiers is None or item.code is None:
            specs.append(named)
            continue
        mods = item.modifiers
        letters = [f"C{mods.cut}"] * bool(mods.cut) + [f"M{mods.median}"] * bool(mods.median)
        letters += [f"L{mods.limit}%"] * (mods.limit is not None) + ["P"] * mods.forfeits_played
        spec = build_rule(named.code, letters, TEAM_TIEBREAKS[named.code].modifiers, path, item.rule_text)
        specs.append(dataclasses.replace(spec, score=named.score, factor=named.factor, fore=named.fore))
    return specs


def match_scoring_to_wire(scoring: tm.TeamScoring) -> s.ScoringOut:
    """The response's `scoring` for a team event: the match points of each kind of round (a forfeited
    match counts as won or lost, a full-/half-/zero-point bye as a match won, drawn, lost)."""
    win, draw, loss = float(scoring.match_win), float(scoring.match_draw), float(scoring.match_loss)
    return s.ScoringOut(
        win=win,
        draw=draw,
        loss=loss,
        forfeit_win=win,
        forfeit_loss=loss,
        pairing_bye=float(scoring.pab_match),
        full_bye=win,
        half_bye=draw,
        zero_bye=loss,
        absent=loss,
    )


def team_tiebreak_to_wire(outcome: RuleOutcome) -> s.TiebreakOut:
    return tiebreak_to_wire(outcome, TEAM_TIEBREAKS, team_display_name)


def team_standings_to_wire(
    result: TeamStandings, explain: bool, top: int | None = None, player: int | list[int] | None = None
) -> s.StandingsResponse:
    """Rows are teams (`id` the team number) with their match and game points beside `points`
    (the primary score); the response says the team size and the primary score."""
    assert result.tables is not None  # the team engine's standings carry their tables
    response = standings_to_wire(result, explain, top, player, tiebreak_out=team_tiebreak_to_wire)
    mp, gp = result.tables.mp, result.tables.gp
    index = mp.index_of_id()
    rows = [
        msgspec.structs.replace(
            row, match_points=mp.scores[index[row.id]] / mp.scale, game_points=gp.scores[index[row.id]] / gp.scale
        )
        for row in response.standings
    ]
    return msgspec.structs.replace(
        response,
        standings=rows,
        scoring=match_scoring_to_wire(result.tables.event.scoring),
        team_size=result.tables.event.team_size,
        primary_score=result.primary.value,
    )
