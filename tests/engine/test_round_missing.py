"""Issue 21 item 7: a round with no entry for both players of a game, while later rounds have
results, is counted as absent (C.07 16) and warned about as `round-missing`."""

from __future__ import annotations

from fractions import Fraction

from tiebreak.engine import compute_standings
from tiebreak.engine.model import Player, ResultKind, RoundResult, Tournament


def game(rnd: int, opponent: int, result: ResultKind) -> RoundResult:
    return RoundResult(round=rnd, opponent=opponent, result=result)


def forgotten_round_two() -> Tournament:
    # players 1 and 2 met in round 2 but the arbiter entered nothing for them; 3 and 4 did
    return Tournament(
        rounds=3,
        players=(
            Player(1, "Anna", results=(game(1, 3, ResultKind.WIN), game(3, 4, ResultKind.WIN))),
            Player(2, "Boris", results=(game(1, 4, ResultKind.WIN), game(3, 3, ResultKind.DRAW))),
            Player(
                3,
                "Chen",
                results=(game(1, 1, ResultKind.LOSS), game(2, 4, ResultKind.WIN), game(3, 2, ResultKind.DRAW)),
            ),
            Player(
                4,
                "Dana",
                results=(game(1, 2, ResultKind.LOSS), game(2, 3, ResultKind.LOSS), game(3, 1, ResultKind.LOSS)),
            ),
        ),
    )


def test_a_forgotten_round_is_warned_naming_the_players_and_the_round():
    standings = compute_standings(forgotten_round_two(), [], explain=False)
    missing = [w for w in standings.warnings if w.code == "round-missing"]
    assert len(missing) == 1
    assert missing[0].message.startswith("round 2 has no entry for player(s) 1, 2, who have results in later rounds")
    # still counted as absent (C.07 16): Anna 1 + 0 + 1 = 2, Boris 1 + 0 + 0.5 = 1.5
    table = standings.table
    points = {table.ids[p]: Fraction(table.scores[p], table.scale) for p in range(table.size)}
    assert (points[1], points[2]) == (2, Fraction(3, 2))


def test_a_withdrawal_and_a_lone_gap_are_not_warned():
    tournament = forgotten_round_two()
    # Anna and Dana without their round 3 game: Anna stopped after round 1, nothing follows her gap;
    # Boris alone misses round 2 before his round 3: no game can be missing with one player (a bye)
    anna = Player(1, "Anna", results=(game(1, 3, ResultKind.WIN),))
    dana = Player(4, "Dana", results=tournament.players[3].results[:2])
    tournament = Tournament(rounds=3, players=(anna, *tournament.players[1:3], dana))
    standings = compute_standings(tournament, [], explain=False)
    missing = [w for w in standings.warnings if w.code == "round-missing"]
    assert missing == []
