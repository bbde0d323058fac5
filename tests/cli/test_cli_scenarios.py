"""`tiebreak scenarios`: the sentences for an event worked by hand, and a real event's last round
reopened from the file itself, the same answer as POST /v1/scenarios."""

from __future__ import annotations

import json
import re

import pytest

from tiebreak.http.scenarios import EXAMPLE
from tiebreak.usecases.scenarios import file_request
from testkit.conformance import REALWORLD
from testkit.synthetic import swiss_wire
from tests.command import ROOT, tiebreak

REAL = ROOT.parent / "shared" / "conformance" / "realworld-trf" / "gelendzhik-2016-sds-classic.trf"


def test_the_sentences_of_the_worked_example(tmp_path):
    """Kira beat Hugo, Ana beat Kira; round 3 Kira-Bo and Hugo-Ana, direct encounter (see
    tests/api/test_scenarios_examples.py for why)."""
    (tmp_path / "t.json").write_text(json.dumps(EXAMPLE["tournament"]))
    (tmp_path / "p.json").write_text(json.dumps(EXAMPLE["pairings"]))
    done = tiebreak("scenarios", tmp_path / "t.json", "--pairings", tmp_path / "p.json", "-t", "DE")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("9 outcomes of 2 open games examined; ")
    assert lines[1:] == [
        "Kira: best rank 1, worst rank 4",
        "  Kira finishes 1st if Kira wins and Hugo beats Ana.",
        "Hugo: best rank 1, worst rank 3",
        "  Hugo finishes 1st if Hugo wins.",
        "Ana: best rank 1, worst rank 2",
        "  Ana finishes 1st if Kira beats Bo, or Ana does not lose.",
        "Bo: best rank 2, worst rank 4",
        "  Bo cannot finish 1st.",
    ]


def test_the_sentences_in_russian(tmp_path):
    # The same answer as above, through the catalogue (texts/locale/ru.po): a game of others is
    # written "в партии БЕЛЫЕ — ЧЁРНЫЕ побеждает …", so that names need no declension.
    (tmp_path / "t.json").write_text(json.dumps(EXAMPLE["tournament"]))
    (tmp_path / "p.json").write_text(json.dumps(EXAMPLE["pairings"]))
    done = tiebreak("scenarios", tmp_path / "t.json", "--pairings", tmp_path / "p.json", "-t", "DE", "--lang", "ru")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("рассмотрено исходов 2 несыгранных партий: 9; ")
    assert lines[1:3] == [
        "Kira: лучшее место 1, худшее место 4",
        "  Kira занимает 1-е место, если Kira выигрывает и в партии Hugo — Ana побеждает Hugo.",
    ]
    assert lines[-1] == "  Bo не может занять 1-е место."


def test_a_real_event_with_its_last_round_reopened():
    if not REAL.exists():
        pytest.skip(f"{REAL} is not on this machine")
    args = ["scenarios", REAL, "--pairings", "last", "-t", "BH/C1", "BH", "SB", "--places", "3"]
    done = tiebreak(*args, "--format", "json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["outcomes"] == 3 ** len(answer["open_games"]) and len(answer["players"]) == 13
    assert {g["round"] for g in answer["open_games"]} == {7}  # the file's last round, reopened
    text = tiebreak(*args)
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert sum(line.startswith(tuple(f"{p['name']}: best rank" for p in answer["players"])) for line in lines) == 13


def test_the_real_event_in_the_docs_is_what_the_command_prints():
    """docs/scenarios.md quotes the command's output for the real event: every line it shows whole
    (one is shortened there, and marked so) is a line the command prints today."""
    if not REAL.exists():
        pytest.skip(f"{REAL} is not on this machine")
    docs = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    section = docs.split("## A real event: Gelendzhik 2016", 1)[1]
    block = [line[4:] for line in section.splitlines() if line.startswith("    ")]
    command, shown = block[0].split(), block[1:]
    assert command[:2] == ["tiebreak", "scenarios"] and len(shown) > 10
    done = tiebreak("scenarios", REAL, *command[3:])
    assert done.returncode == 0, done.stderr
    printed = set(done.stdout.splitlines())
    whole = [line for line in shown if "(shortened here)" not in line]
    assert len(whole) == len(shown) - 1
    assert [line for line in whole if line not in printed] == []


def _example_files(tmp_path):
    (tmp_path / "t.json").write_text(json.dumps(EXAMPLE["tournament"]))
    (tmp_path / "p.json").write_text(json.dumps(EXAMPLE["pairings"]))
    return tmp_path / "t.json", tmp_path / "p.json"


def test_assume_fixes_a_result_by_start_numbers(tmp_path):
    """The worked example with Hugo (2) beating Ana (3) fixed. By hand, from the sentences above:
    Kira needed her win and Hugo's, so now her win alone; Hugo needed his win, so now nothing; Ana
    needed Kira to beat Bo or not to lose, and she lost: Kira beating Bo alone."""
    tournament, pairings = _example_files(tmp_path)
    done = tiebreak("scenarios", tournament, "--pairings", pairings, "-t", "DE", "--assume", "2-3=1-0")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("3 outcomes of 1 open games examined; ")
    sentences = [line.strip() for line in lines[1:] if line.startswith("  ")]
    assert sentences == [
        "Kira finishes 1st if Kira wins.",
        "Hugo finishes 1st whatever the results.",
        "Ana finishes 1st if Kira beats Bo.",
        "Bo cannot finish 1st.",
    ]


def test_assume_is_the_api_assume(tmp_path):
    """`R:W-B=RESULT`, `W-B=RESULT` and a JSON file of the API's list give the endpoint's own answer."""
    from litestar.testing import TestClient

    from tiebreak.http.app import app

    tournament, pairings = _example_files(tmp_path)
    listed = [
        {"round": 3, "white": 1, "black": 4, "result": "draw"},
        {"round": 3, "white": 2, "black": 3, "result": "black"},
    ]
    (tmp_path / "a.json").write_text(json.dumps(listed))
    with TestClient(app) as client:
        expected = client.post("/v1/scenarios", json={**EXAMPLE, "assume": listed}).json()
    for assume in (["3:1-4=1/2", "2-3=0-1"], ["1-4=½-½", "2-3=0-1"], [tmp_path / "a.json"]):
        done = tiebreak(
            "scenarios", tournament, "--pairings", pairings, "-t", "DE", "--format", "json", "--assume", *assume
        )
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["players"] == expected["players"]
        assert json.loads(done.stdout)["outcomes"] == 1


@pytest.mark.parametrize(
    ("assume", "said"),
    [
        ("4-1=1-0", "no open game has white 4 and black 1"),
        ("1-4=2-0", "the result is 1-0, 1/2 or 0-1"),
        ("1-4", "write WHITE-BLACK=RESULT"),
    ],
)
def test_a_wrong_assume_is_said_plainly(tmp_path, assume, said):
    tournament, pairings = _example_files(tmp_path)
    done = tiebreak("scenarios", tournament, "--pairings", pairings, "-t", "DE", "--assume", assume)
    assert done.returncode == 1 and done.stdout == ""
    assert said in done.stderr and "Traceback" not in done.stderr


def test_too_many_open_games_names_the_options_the_command_has():
    """San Viator's last round reopened: 56 open games. The advice names --assume and --players (the
    command's options), not the API's fields nor the service's limit names."""
    san_viator = REALWORLD / "san-viator-madrid-2018.trf"
    if not san_viator.exists():
        pytest.skip(f"{san_viator} is not on this machine")
    # DE is outside the solver's model (decision 0220): the 56 games go to enumeration, refused
    done = tiebreak("scenarios", san_viator, "--pairings", "last", "--places", "10", "-t", "DE", "BH")
    assert done.returncode == 1 and done.stdout == ""
    assert "56 games are open" in done.stderr
    assert "--assume 12-34=1-0" in done.stderr and "--players" in done.stderr
    assert "`assume`" not in done.stderr and "max_cost_s" not in done.stderr and "TIEBREAK_" not in done.stderr


def test_places_and_assume_on_a_real_event():
    """Gelendzhik's last round with three of its six games fixed: 27 outcomes, and --places 3 gives each
    reported player's places up to 3 only."""
    if not REAL.exists():
        pytest.skip(f"{REAL} is not on this machine")
    args = ["scenarios", REAL, "--pairings", "last", "-t", "BH/C1", "BH", "SB", "--places", "3"]
    done = tiebreak(*args, "--assume", "2-7=1-0", "4-1=1/2", "6-3=0-1", "--format", "json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["outcomes"] == 27
    assert [(g["white"], g["black"]) for g in answer["open_games"]] == [(10, 11), (12, 5), (13, 9)]
    assert all(p["place"] <= 3 for player in answer["players"] for p in player["places"])


def test_a_team_event_in_sentences(tmp_path):
    """The small team event of tests/api/test_team_scenarios.py, worked by hand there: the rows are
    teams, each board read from white's side (a team is no player of the game)."""
    from tests.api.test_team_scenarios import OPEN, SMALL

    (tmp_path / "teams.trf").write_text(SMALL)
    (tmp_path / "p.json").write_text(json.dumps(OPEN))
    done = tiebreak("scenarios", tmp_path / "teams.trf", "--pairings", tmp_path / "p.json", "--preset", "team-swiss")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("9 outcomes of 2 open games examined; ")
    assert "  Beta cannot finish 1st." in lines and "  Delta cannot finish 1st." in lines
    alpha = next(line for line in lines if line.startswith("  Alpha finishes 1st if "))
    terms = set(alpha.removeprefix("  Alpha finishes 1st if ").removesuffix(".").split(", or "))
    assert terms == {"Ann beats Eve", "Bea beats Fay", "Eve does not beat Ann and Fay does not beat Bea"}


def test_the_crete_cup_with_its_last_round_reopened(tmp_path):
    """A real team file: `--pairings last` reopens its 40 boards, which the team solver answers (an
    example per place, as --assume takes it); with the file's results of all but five assumed
    (--assume FILE) every outcome is enumerated."""
    crete = REALWORLD / "crete-team-cup-2024.trf"
    if not crete.exists():
        pytest.skip(f"{crete} is not on this machine")
    args = ["scenarios", crete, "--pairings", "last", "--preset", "team-swiss", "--places", "3"]
    solved = tiebreak(*args)
    assert solved.returncode == 0, solved.stderr
    assert "40 open games (3^40 outcomes) answered by the solver" in solved.stdout
    assert "can finish in the top 3, for example: " in solved.stdout
    _, _, played = file_request(None, crete.read_text(encoding="utf-8"), None, None)
    assume = [{"round": a.round, "white": a.white, "black": a.black, "result": a.result} for a in played[5:]]
    (tmp_path / "assume.json").write_text(json.dumps(assume))
    done = tiebreak(*args, "--assume", tmp_path / "assume.json", "--format", "json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert (
        answer["entrants"] == "teams" and len(answer["open_games"]) == 6
    )  # five, and 41-74 (a double forfeit: no result)
    assert answer["method"] == "enumeration"
    assert sorted(p["id"] for p in answer["players"]) == list(range(1, 16))


def test_a_team_file_past_the_bound_is_said_with_the_commands_options():
    """Under a 2 s bound every team of Grandmommy's cup is too long for the solver: the command says
    so about teams and boards, with its own options, and does not ask again for the contenders
    (`contenders_only` is for individual events: a team file would refuse it)."""
    grandmommy = REALWORLD / "grandmommys-cup-echecs.trf"
    if not grandmommy.exists():
        pytest.skip(f"{grandmommy} is not on this machine")
    args = ["scenarios", grandmommy, "--pairings", "last", "--preset", "team-swiss-emgsb", "--places", "10"]
    done = tiebreak(*args, env={"TIEBREAK_MAX_COST_S": "2"}, installed=True)  # the bound is read at start-up
    assert done.returncode == 1, done.stdout
    assert "answering 50 teams with 44 boards open would take the solver about" in done.stderr, done.stderr
    assert "--players ID" in done.stderr and "contenders_only" not in done.stderr


def test_preset_or_rules_not_both(tmp_path):
    tournament, pairings = _example_files(tmp_path)
    done = tiebreak("scenarios", tournament, "--pairings", pairings, "-t", "DE", "--preset", "fide-swiss-traditional")
    assert done.returncode == 1 and "give -t or --preset, not both" in done.stderr


SCORE = {"white": "1-0", "draw": "1/2", "black": "0-1"}  # as --assume takes them


def test_a_solver_answer_in_sentences(tmp_path):
    """30 boards open (3^30 outcomes): the solver answers, and the text says what it can (a place
    possible, with an outcome reaching it written as --assume takes it), and why the list of what
    each place takes is left out. Each example is checked by posting it (tests/api/test_scenarios_solver.py)."""
    tournament = swiss_wire(60, 5, seed=2)
    tournament["rounds"] = 6
    pairings = [{"round": 6, "white": i, "black": i + 1} for i in range(1, 61, 2)]
    (tmp_path / "t.json").write_text(json.dumps(tournament))
    (tmp_path / "p.json").write_text(json.dumps(pairings))
    args = ["scenarios", tmp_path / "t.json", "--pairings", tmp_path / "p.json", "-t", "WIN", "PS", "--places", "3"]
    args += ["--players", "1", "60"]
    answer = json.loads(tiebreak(*args, "--format", "json").stdout)
    assert answer["method"] == "solver"
    done = tiebreak(*args)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("30 open games (205891132094649 outcomes) answered by the solver")
    if any(p["needs"] is None for player in answer["players"] for p in player["places"]):
        assert "; what each place takes is left out: not listed" in lines[0]
    for player in answer["players"]:
        block = lines[lines.index(next(x for x in lines if x.startswith(player["name"] + ": best rank"))) :]
        for place in player["places"]:
            said = " ".join(f"{g['white']}-{g['black']}={SCORE[g['result']]}" for g in place["example"])
            if place["certain"]:
                assert f"  {player['name']} finishes in the top {place['place']} whatever the results." in block
                break
            where = "1st" if place["place"] == 1 else f"in the top {place['place']}"
            if place["needs"] is not None:  # listed where it stays small (decision 0266): as enumeration says it
                finishes = "finishes 1st" if place["place"] == 1 else f"finishes in the top {place['place']}"
                assert any(x.startswith(f"  {player['name']} {finishes} if ") for x in block)
                continue
            assert f"  {player['name']} can finish {where}, for example: {said}." in block
        if not player["places"]:
            assert f"  {player['name']} cannot finish in the top 3." in block
    assert len(answer["players"]) == 2
    ru = tiebreak(*args, "--lang", "ru")
    assert ru.returncode == 0 and "ответ дал решатель" in ru.stdout.splitlines()[0], ru.stderr


OWN_WORDS = {
    "certain": "certain",
    "possible": "possible",
    "impossible": "out of reach",
    "undecided": "not settled in time",
}


def test_a_solver_answer_says_what_the_players_own_result_makes_of_each_place(tmp_path):
    """40 boards open: past 2^53 outcomes, the JSON says null and the text 3^40; under each place
    a player can reach, what winning, drawing or losing their own game makes of it (by_own_result),
    said again only when it changes from the place before."""
    tournament = swiss_wire(80, 5, seed=3)
    tournament["rounds"] = 6
    pairings = [{"round": 6, "white": i, "black": i + 1} for i in range(1, 81, 2)]
    (tmp_path / "t.json").write_text(json.dumps(tournament))
    (tmp_path / "p.json").write_text(json.dumps(pairings))
    args = ["scenarios", tmp_path / "t.json", "--pairings", tmp_path / "p.json", "-t", "WIN", "PS", "--places", "5"]
    args += ["--players", *map(str, range(1, 81, 5))]
    answer = json.loads(tiebreak(*args, "--format", "json").stdout)
    assert answer["method"] == "solver" and answer["outcomes"] is None
    done = tiebreak(*args)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("40 open games (3^40 outcomes) answered by the solver")
    shown = 0
    for player in answer["players"]:
        start = lines.index(next(x for x in lines if x.startswith(player["name"] + ": best rank")))
        block = lines[start + 1 :]
        block = block[: next((i for i, x in enumerate(block) if not x.startswith("  ")), len(block))]
        expected, said = [], None
        for place in player["places"]:
            if place["certain"]:
                break
            own = place["by_own_result"]
            if own is not None and own != said:
                words = {k: OWN_WORDS[v] for k, v in own.items()}
                expected.append(
                    f"    if {player['name']} wins: {words['win']}; draws: {words['draw']}; loses: {words['loss']}"
                )
                said = own
        assert [x for x in block if x.startswith("    ")] == expected, player["id"]
        shown += len(expected)
    assert shown  # some player's own result was said


def test_san_viator_with_the_commands_defaults_and_its_contenders():
    """San Viator's last round reopened (56 games), the command's defaults (the file's own rules: none,
    so points; --places 1): the solver answers every player, in the API's sentences. With BH/C1 BH SB
    every player is past the bound: the command asks for the contenders as the page does (decision
    0300), says so, and says each other player cannot finish 1st."""
    san_viator = REALWORLD / "san-viator-madrid-2018.trf"
    if not san_viator.exists():
        pytest.skip(f"{san_viator} is not on this machine")
    answer = json.loads(tiebreak("scenarios", san_viator, "--pairings", "last", "--format", "json").stdout)
    assert answer["method"] == "solver" and answer["out_of_reach"] == [] and len(answer["players"]) == 137
    done = tiebreak("scenarios", san_viator, "--pairings", "last")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("56 open games (3^56 outcomes) answered by the solver")
    for player in answer["players"]:
        assert f"{player['name']}: best rank {player['best_rank']}, worst rank {player['worst_rank']}" in lines
        if not player["places"]:
            assert f"  {player['name']} cannot finish 1st." in lines

    args = ["scenarios", san_viator, "--pairings", "last", "-t", "BH/C1", "BH", "SB"]
    answer = json.loads(tiebreak(*args, "--format", "json").stdout)
    kept, left = answer["players"], answer["out_of_reach"]
    assert left and len(kept) + len(left) == 137
    done = tiebreak(*args)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1] == (
        "Answering every player would take too long: answered for the players who can still reach the places"
        f" on points ({len(kept)}); the others ({len(left)}) cannot reach them whatever the results."
    )
    assert all(f"{p['name']}: best rank {p['best_rank']}, worst rank {p['worst_rank']}" in lines for p in kept)
    _, names, _ = file_request(None, san_viator.read_text(encoding="utf-8", errors="replace"), None)
    assert lines[-len(left) :] == [f"{names[pid]} cannot finish 1st." for pid in left]


def test_when_even_the_contenders_are_too_many_the_command_says_how_long_and_what_narrows_it():
    """Karl-Mala (284 players, 138 open), BH/C1 BH SB: every player and then its contenders for 1st are
    past the solver's bound; the command says how many players, how long against what bound, and its
    own options, never the API's fields or a limit's name (exit code 1)."""
    karl_mala = REALWORLD / "karl-mala-2005-sharly.trf"
    if not karl_mala.exists():
        pytest.skip(f"{karl_mala} is not on this machine")
    done = tiebreak("scenarios", karl_mala, "--pairings", "last", "-t", "BH/C1", "BH", "SB")
    assert done.returncode == 1 and done.stdout == ""
    said = done.stderr.splitlines()[-1]
    assert re.fullmatch(
        r"tiebreak: answering \d+ players with 138 games open would take the solver about \d+ s, more than the"
        r" 10 s a request may take; fix the results of some games with --assume .+ or ask about fewer places"
        r" with --places N",
        said,
    ), said
    assert "`" not in said and "max_cost_s" not in said and "contenders_only" not in said
