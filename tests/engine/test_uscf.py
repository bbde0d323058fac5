"""US Chess rule 34E tie-breaks, against the published worked examples and rule texts.

Sources (every expected figure is copied from them or worked out by hand from the
rule text they print, never produced by the code):
  [ESTIMA]  WinTD help, "Tie Breaker (US Chess Rules)", estima.com/chess/wintdhelp/topics/
            tiebreakersuschess.html: two 4-1 players whose opponents finished 0,3,3,4,5 (A)
            and 3,2,5,3,3 (B): "Player A's Solkoff tie-break is 0+3+3+4+5=15, Player B's is
            3+2+5+3+3=16"; plus scores drop the lowest, minus scores the highest, even scores
            both, two of each in nine or more rounds.
  [OCHESS]  Ohio Chess Association, "Tiebreaks" (from the US Chess Official Rules of Chess,
            7th ed.), ochess.org/tiebreaks, and the same 34E1-34E3 text at
            thechessrefinery.org/tiebreaks.html: "an opponent who won the first two games,
            lost the third, withdrew and did not play rounds four or five would have an
            adjusted score of 3 points (1+1+0+0.5+0.5 = 3)"; "If the player involved in the
            tie has any unplayed games, they count as opponents with adjusted scores of 0";
            an even score is exactly half the maximum possible score.
  [MCA]     Michigan Chess Association tie-break rules, michess.org/tie-break-rules (and the
            Renaissance Knights page with the same text): Cumulative "subtract one point for
            each one-point bye or forfeit win. Example: A player has a bye in round 1, wins in
            2, loses in 3, draws in 4, wins in 5. The cumulative tiebreak score is
            1 + 2 + 2 + 2 1/2 + 3 1/2 -1 = 10"; result between tied players ranks "according to
            plus or minus, not percentage (3-1 is 'plus two' and beats 1-0 which is 'plus
            one')"; Sonneborn-Berger "add the adjusted scores of each opponent defeated, plus
            half the adjusted scores of each opponent drawn".
  [ACE]     americanchess.net, "Tiebreaks Explained": win, loss, win, draw, loss gives running
            scores 1,1,2,2.5,2.5 and Cumulative 9; 1,2,2.5,2.5,2.5 gives 10.5.
  [HOLMES]  dhholmes.home.mindspring.com Wildcat Scholastic tie-breaks: W L W D gives
            1,1,2,2.5 = 6.5; W W D L gives 1,2,2.5,2.5 = 8; Cumulative of Opposition: the
            Cumulative of each opponent, added together.
  [KASHDAN] US Chess rule 34E7 as quoted in the libpairtwo wiki ("2.-Kashdan-tiebreak"):
            "4 tiebreak points for a win, 2 for a draw, 1 for a loss, and 0 for an unplayed
            game. Note that if players with no unplayed games tie, the one with fewer draws
            will come out ahead."
"""

from __future__ import annotations

import itertools

import pytest

from tiebreak.engine import Regulations, System
from tiebreak.engine.errors import UnknownTiebreak
from tiebreak.engine.registry import TIEBREAKS, parse_spec
from tests.builders import F, contributions, crosstable, ranks, standings, values

USCF = Regulations.USCF
_COMPLEMENT = {"1": "0", "0": "1", "=": "="}


def with_fillers(focal: dict[int, list[tuple[str, int | None, float | None]]], rounds: int, **kw):
    """A tournament built around the focal players' rows, the rest filled in.

    Each focal round is (token, opponent, opponent's final score): token "1", "0", "="
    is a game against `opponent` (an id ≥ 10) whose other games are won, drawn and lost
    against one-game filler players until they reach the final score; any other token
    ("F", "H", "U", "-") is taken as it is. Fillers play one game and are absent otherwise.
    """
    rows: dict[int, list[str]] = {pid: ["-"] * rounds for pid in focal}
    filler_ids = itertools.count(1000)
    opponents: dict[int, tuple[float, list[str]]] = {}
    for pid, row in focal.items():
        for r, (token, opp, final) in enumerate(row):
            if opp is None:
                rows[pid][r] = token
                continue
            rows[pid][r] = f"{opp}w{token}"
            opp_row = opponents.setdefault(opp, (final, ["."] * rounds))[1]
            opp_row[r] = f"{pid}b{_COMPLEMENT[token]}"
    for opp, (final, opp_row) in opponents.items():
        # the opponent's side of its games against focal players: "1b0" means it lost
        scored = sum(
            1.0 if cell.endswith("b1") else 0.5 if cell.endswith("b=") else 0.0 for cell in opp_row if cell != "."
        )
        need = final - scored
        for r in range(rounds):
            if opp_row[r] != ".":
                continue
            filler = next(filler_ids)
            if need >= 1:
                opp_row[r], result, need = f"{filler}w1", "0", need - 1
            elif need == 0.5:
                opp_row[r], result, need = f"{filler}w=", "=", 0
            else:
                opp_row[r], result = f"{filler}w0", "1"
            filler_row = ["-"] * rounds
            filler_row[r] = f"{opp}b{result}"
            rows[filler] = filler_row
        assert need == 0, f"opponent {opp} cannot reach {final}"
        rows[opp] = opp_row
    return crosstable(rows, rounds=rounds, **kw)


def uscf(tournament, *rules, **kw):
    return standings(tournament, *rules, regulations=USCF, **kw)


# --- [ESTIMA]: Solkoff, Median, Modified Median --------------------------------------------

A, B = 1, 2


@pytest.fixture(scope="module")
def estima():
    # Both players 4-1; each lost to the opponent who finished on 5.
    return with_fillers(
        {
            A: [("1", 11, 0), ("1", 12, 3), ("1", 13, 3), ("1", 14, 4), ("0", 15, 5)],
            B: [("1", 21, 3), ("1", 22, 2), ("0", 23, 5), ("1", 24, 3), ("1", 25, 3)],
        },
        rounds=5,
    )


def test_estima_solkoff(estima):
    # [ESTIMA]: "0+3+3+4+5=15", "3+2+5+3+3=16".
    solk = values(uscf(estima, "SOLK"), "SOLK")
    assert (solk[A], solk[B]) == (F(15), F(16))


def test_estima_modified_median_drops_the_lowest_for_a_plus_score(estima):
    # [ESTIMA] rule: plus score drops the lowest opponent: A 15 - 0 = 15, B 16 - 2 = 14.
    result = uscf(estima, "MM", "SOLK")
    mm = values(result, "MM")
    assert (mm[A], mm[B]) == (F(15), F(14))
    assert ranks(result)[A] < ranks(result)[B]  # Modified Median puts A first, Solkoff alone would not
    assert ranks(uscf(estima, "SOLK"))[B] < ranks(uscf(estima, "SOLK"))[A]


def test_estima_median_drops_highest_and_lowest(estima):
    # [ESTIMA] rule, Median: A 15 - 0 - 5 = 10; B 16 - 2 - 5 = 9.
    med = values(uscf(estima, "MED"), "MED")
    assert (med[A], med[B]) == (F(10), F(9))


def test_modified_median_breakdown_names_the_dropped_score(estima):
    rows = contributions(uscf(estima, "MM"), "MM", B)
    dropped = [c for c in rows if c.cut]
    assert [(c.opponent, c.value) for c in dropped] == [(22, 2)]  # 2 points
    assert "plus score" in dropped[0].cut_reason and "34E1" in dropped[0].cut_reason


def test_minus_and_even_scores():
    # [ESTIMA] rule: minus score drops the highest, even score (exactly half the maximum,
    # [OCHESS]) both. Both players' opponents finished on 1, 2, 3, 4 and 5.
    t = with_fillers(
        {
            1: [("1", 11, 1), ("0", 12, 2), ("0", 13, 3), ("0", 14, 4), ("0", 15, 5)],  # 1-4: minus
            2: [("1", 21, 1), ("1", 22, 2), ("0", 23, 3), ("0", 24, 5), ("=", 25, 4)],  # 2.5: even
        },
        rounds=5,
    )
    result = uscf(t, "MM", "SOLK", "MED")
    mm, solk, med = values(result, "MM"), values(result, "SOLK"), values(result, "MED")
    assert solk[1] == solk[2] == F(15)
    assert mm[1] == F(10)  # 15 - 5
    assert mm[2] == F(9)  # 15 - 1 - 5
    assert med[1] == med[2] == F(9)


def test_nine_rounds_drop_two():
    # [ESTIMA]: "two highest and two lowest for tournaments with nine or more rounds";
    # plus scores drop the two lowest. Opponents finished 1..9; the player is 7-2.
    row = [("1", 10 + s, s) for s in range(1, 8)] + [("0", 18, 8), ("0", 19, 9)]
    t = with_fillers({1: row}, rounds=9)
    result = uscf(t, "MM", "MED", "SOLK")
    assert values(result, "SOLK")[1] == F(45)
    assert values(result, "MM")[1] == F(42)  # 45 - 1 - 2
    assert values(result, "MED")[1] == F(25)  # 45 - 1 - 2 - 8 - 9


# --- [OCHESS]: adjusted scores and the player's own unplayed games ---------------------------

P, X, Z = 1, 2, 3


@pytest.fixture(scope="module")
def unplayed():
    # X won rounds 1-2, lost round 3 (to P), withdrew: adjusted 1+1+0+0.5+0.5 = 3 ([OCHESS]).
    # P: half-point bye, forfeit win against Z, beat X, then beat and drew two one-game fillers.
    return crosstable(
        {
            P: "H 3-+ 2w1 4w1 5w=",
            X: "6w1 7b1 1b0 - -",
            Z: "- 1-- - - -",
            4: "- - - 1b0 -",
            5: "- - - - 1b=",
            6: "2b0 - - - -",
            7: "- 2w0 - - -",
        },
        rounds=5,
    )


def test_opponent_adjusted_score_counts_unplayed_games_as_draws(unplayed):
    result = uscf(unplayed, "SOLK")
    rows = {c.round: c for c in contributions(result, "SOLK", P)}
    assert rows[3].value == 3  # X's adjusted score 3 ([OCHESS])
    assert "adjusted score 3" in rows[3].note


def test_own_unplayed_games_count_as_opponents_with_adjusted_score_zero(unplayed):
    # [OCHESS]: P's bye (round 1) and forfeit win (round 2) count as opponents with adjusted 0.
    # The fillers 4 and 5 played one game and missed four rounds: adjusted 0 + 4 × 0.5 = 2 and
    # 0.5 + 4 × 0.5 = 2.5. Solkoff = 0 + 0 + 3 + 2 + 2.5 = 7.5.
    result = uscf(unplayed, "SOLK")
    rows = {c.round: c for c in contributions(result, "SOLK", P)}
    assert (rows[1].value, rows[2].value) == (0, 0)
    assert rows[1].kind == rows[2].kind == "unplayed"
    assert values(result, "SOLK")[P] == F("7.5")


def test_sonneborn_berger_on_adjusted_scores(unplayed):
    # [MCA]: adjusted scores of the opponents beaten plus half those drawn: X 3 + filler 4's 2
    # + half of filler 5's 2.5 = 6.25; the forfeit win adds nothing (an opponent of adjusted 0).
    assert values(uscf(unplayed, "SBUS"), "SBUS")[P] == F("6.25")


# --- [MCA], [ACE], [HOLMES]: Cumulative and Cumulative of opposition --------------------------


def solo(row: str, rounds: int | None = None):
    """Player 1 with the given results against one-game fillers (tokens W L D, or F H U -)."""
    focal = [
        ({"W": "1", "L": "0", "D": "="}[t], 10 + r, 0.0 if t == "W" else 1.0 if t == "L" else 0.5)
        if t in "WLD"
        else (t, None, None)
        for r, t in enumerate(row.split())
    ]
    return with_fillers({1: focal}, rounds=rounds or len(focal))


@pytest.mark.parametrize(
    "row, expected",
    [
        ("F W L D W", "10"),  # [MCA]: 1 + 2 + 2 + 2.5 + 3.5 - 1 = 10 (a one-point bye in round 1)
        ("W L W D L", "9"),  # [ACE]: 1,1,2,2.5,2.5
        ("W W D L L", "10.5"),  # [ACE]: 1,2,2.5,2.5,2.5
        ("W L W D", "6.5"),  # [HOLMES]
        ("W W D L", "8"),  # [HOLMES]
    ],
)
def test_cumulative_published_examples(row, expected):
    assert values(uscf(solo(row), "CUM"), "CUM")[1] == F(expected)


def test_cumulative_half_point_bye_is_not_subtracted(unplayed):
    # [MCA] subtracts for "each one-point bye or forfeit win" only. P: running 0.5, 1.5, 2.5,
    # 3.5, 4 = 12, minus 1 for the forfeit win in round 2 = 11.
    result = uscf(unplayed, "CUM")
    assert values(result, "CUM")[P] == F(11)
    assert [c.kind for c in contributions(result, "CUM", P)].count("unplayed_win") == 1


def test_cumulative_of_opposition(unplayed):
    # [HOLMES]: the opponents' Cumulative, added. X: 1, 2, 2, 2, 2 = 9; filler 4: 0,0,0,0,0 = 0;
    # filler 5: 0,0,0,0,0.5 = 0.5; the bye and the forfeit win add nothing. 9 + 0 + 0.5 = 9.5.
    assert values(uscf(unplayed, "OCUM"), "OCUM")[P] == F("9.5")


# --- [KASHDAN] ---------------------------------------------------------------------------------


def test_kashdan_fewer_draws_ahead():
    # Three players on 2/4: 1 won two and lost two (4 + 4 + 1 + 1 = 10), 2 drew four (2 × 4 = 8),
    # 3 had a full-point bye, a win and two losses (0 + 4 + 1 + 1 = 6).
    t = crosstable(
        {
            1: "5w1 6b1 7w0 8b0",
            2: "9w= 10b= 11w= 12b=",
            3: "F 13w1 14b0 15w0",
            5: "1b0 - - -",
            6: "- 1w0 - -",
            7: "- - 1b1 -",
            8: "- - - 1w1",
            9: "2b= - - -",
            10: "- 2w= - -",
            11: "- - 2b= -",
            12: "- - - 2w=",
            13: "- 3b0 - -",
            14: "- - 3w1 -",
            15: "- - - 3b1",
        },
        rounds=4,
    )
    result = uscf(t, "KASH")
    kash = values(result, "KASH")
    assert (kash[1], kash[2], kash[3]) == (10, 8, 6)
    assert ranks(result)[1] < ranks(result)[2] < ranks(result)[3]


# --- [MCA]: result between tied players ------------------------------------------------------


def test_result_between_tied_players_plus_or_minus_not_percentage():
    # Five players tied on 3/5. A (1) beat C, D, E and lost to B: 3-1, "plus two"; B (2) beat A:
    # 1-0, "plus one"; [MCA]: plus two beats plus one although B won their game.
    t = crosstable(
        {
            1: "2w0 3b1 4w1 5b1 20w0",
            2: "1b1 21w1 22b1 23w0 24b0",
            3: "25w1 1w0 26b1 27w1 28b0",
            4: "29w1 30b1 1b0 31w1 32b0",
            5: "33w1 34b1 35w1 1w0 36b0",
            20: "- - - - 1b1",
            21: "- 2b0 - - -",
            22: "- - 2w0 - -",
            23: "- - - 2b1 -",
            24: "- - - - 2w1",
            25: "3b0 - - - -",
            26: "- - 3w0 - -",
            27: "- - - 3b0 -",
            28: "- - - - 3w1",
            29: "4b0 - - - -",
            30: "- 4w0 - - -",
            31: "- - - 4b0 -",
            32: "- - - - 4w1",
            33: "5b0 - - - -",
            34: "- 5w0 - - -",
            35: "- - 5b0 - -",
            36: "- - - - 5w1",
        },
        rounds=5,
    )
    result = uscf(t, "RBT")
    rbt = values(result, "RBT")
    assert (rbt[1], rbt[2], rbt[3], rbt[4], rbt[5]) == (2, 1, -1, -1, -1)
    r = ranks(result)
    assert (r[1], r[2], r[3], r[4], r[5]) == (1, 2, 3, 3, 3)


def test_most_blacks_counts_games_played_only():
    t = crosstable({1: "2b1 3b0 4-+", 2: "1w0 - -", 3: "- 1w1 -", 4: "- - 1--"}, rounds=3)
    assert values(uscf(t, "BLK"), "BLK")[1] == 2  # the forfeit is no game played with black


# --- rating-based ------------------------------------------------------------------------------


def test_opposition_performance_rule_of_400():
    # The US Chess performance: the opposition's average + 400 × (wins − losses) / games.
    # Player 1 (1500) beat 2 (1700) and drew 3 (1600); each sat out one round with a bye.
    # 2 lost to 1 and beat 3: (1500 + 1600) / 2 + 400 × 0 / 2 = 1550;
    # 3 lost to 2 and drew 1: (1700 + 1500) / 2 + 400 × (0 - 1) / 2 = 1400.
    # 1's opposition performance: (1550 + 1400) / 2 = 1475; average rating of opposition 1650.
    t = crosstable({1: "2w1 U 3b=", 2: "1b0 3w1 U", 3: "U 2b0 1w="}, rounds=3, ratings={1: 1500, 2: 1700, 3: 1600})
    result = uscf(t, "OPERF", "AROUS")
    assert values(result, "OPERF")[1] == 1475
    assert values(result, "AROUS")[1] == 1650


def test_rating_rules_dropped_with_unrated_players_cite_us_chess():
    t = crosstable({1: "2w1", 2: "1b0"}, rounds=1, ratings={1: 1500})
    result = uscf(t, "AROUS")
    assert result.outcomes[0].dropped_reason
    assert [w.rule for w in result.warnings if w.code == "rating-tiebreak-dropped"] == ["US Chess 34E10"]


# --- codes, aliases and rule sets --------------------------------------------------------------


@pytest.mark.parametrize(
    "text, spec",
    [
        ("Modified Median", "MM"),
        ("modified median", "MM"),
        ("Harkness", "MED"),
        ("Median", "MED"),
        ("Solkoff", "SOLK"),
        ("SOLKOFF", "SOLK"),
        ("Cumulative", "CUM"),
        ("cumulative of opposition", "OCUM"),
        ("Kashdan", "KASH"),
        ("Sonneborn-Berger", "SBUS"),
        ("most blacks", "BLK"),
        ("mm", "MM"),
    ],
)
def test_uscf_aliases(text, spec):
    assert parse_spec(text, USCF).canonical == spec


@pytest.mark.parametrize(
    "text, spec",
    [
        ("Cumulative", "PS"),
        ("Sonneborn-Berger", "SB"),
        ("BH-C1", "BH/C1"),
        ("Buchholz Cut 1", "BH/C1"),
        ("bhc1", "BH/C1"),
        ("Median-1", "BH/M1"),
    ],
)
def test_fide_aliases(text, spec):
    assert parse_spec(text, Regulations.FIDE_2026).canonical == spec


def test_a_rule_of_another_rule_set_names_both_and_the_valid_codes():
    with pytest.raises(UnknownTiebreak) as caught:
        parse_spec("Solkoff", Regulations.FIDE_2026)
    message = caught.value.issues[0].message
    assert "SOLK" in message and "uscf" in message and "fide-2026" in message and "BH" in message
    with pytest.raises(UnknownTiebreak) as caught:
        parse_spec("BH/C1", USCF)
    message = caught.value.issues[0].message
    assert "not of uscf" in message and "MM" in message


def test_every_uscf_code_has_an_article_of_rule_34():
    for code in ("MM", "MED", "SOLK", "CUM", "OCUM", "KASH", "SBUS", "BLK", "RBT", "AROUS", "OPERF"):
        entry = TIEBREAKS[code]
        assert entry.regulations == {USCF} and entry.citation.startswith("US Chess 34E")


# --- round robins: the idle round of an odd field is not a game ---------------------------


def five_player_round_robin():
    """Berger pairings for 5 (one idle round each, written as a zero-point bye). Scores by hand:
    1: 2½, 2: 1½, 3: 2, 4: 2, 5: 2. Nobody has an unplayed game but the idle round."""
    return crosstable(
        {
            1: "Z   2w1 3b= 4w1 5b0",
            2: "5w1 1b0 Z   3w0 4b=",
            3: "4w= 5b0 1w= 2b1 Z",
            4: "3b= Z   5w1 1b0 2w=",
            5: "2b0 3w1 4b0 Z   1w1",
        },
        system=System.ROUND_ROBIN,
    )


def test_the_idle_round_of_an_odd_round_robin_is_not_a_game():
    result = standings(five_player_round_robin(), "SOLK", "MED", "MM", "SBUS", regulations=USCF)
    got = {rule: values(result, rule)[1] for rule in ("SOLK", "MED", "MM", "SBUS")}
    # Opponents 2, 3, 4, 5 on 1½, 2, 2, 2 — no ½ for anyone's idle round, no 0 for 1's own.
    # Median (under 9 rounds): 1½ and one 2 dropped. Modified Median: 2½ of 4 is a plus
    # score, the lowest dropped. SB: beat 2 (1½) + drew 3 (2 × ½) + beat 4 (2) = 4½.
    assert got == {"SOLK": F("7.5"), "MED": F(4), "MM": F(6), "SBUS": F("4.5")}
    assert all(c.round != 1 for c in contributions(result, "SOLK", 1))


def test_a_uscf_code_under_fide_names_itself_once_and_says_how_to_use_it():
    # issue 21 item 9: the code once, a full stop, and the field to send
    with pytest.raises(UnknownTiebreak) as caught:
        parse_spec("MM", Regulations.FIDE_2026)
    message = caught.value.issues[0].message
    assert message.startswith(
        '\'MM\' is a rule of uscf, not of fide-2026. To use it, send "regulations": "uscf". '
        "Valid codes under fide-2026: "
    )
    with pytest.raises(UnknownTiebreak) as caught:
        parse_spec("Solkoff", Regulations.FIDE_2026)
    assert caught.value.issues[0].message.startswith(
        "'Solkoff' is SOLK, a rule of uscf, not of fide-2026; did you mean"
    )
    assert 'To use it, send "regulations": "uscf".' in caught.value.issues[0].message
