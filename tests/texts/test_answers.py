"""Answers in the reader's language (SPEC 3.10): a real event with a bye, forfeits, a cut and
a direct-encounter group, asked in each language; a 422 in each; the numbers never change."""

import json
import re
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from litestar.testing import TestClient

from tiebreak.http.app import app
from tiebreak.usecases.convert import tournament_to_wire
from tests.builders import crosstable
from tests.formats.trf_lines import player, trf
from tests.strategies import swiss_tournaments
from tests.profiles import examples

CLIENT = TestClient(app)
# Anna is the guides' worked bye example: 4½/5, four wins and a half-point bye in round 3, in a
# five-round event, so her dummy opponent is her own 4½ capped at ½ × 5 = 2½ (16.4.2) and
# Cut-1 removes that dummy first (16.5). Boris and Chen tie on 2½; Boris beat Chen (DE).
# Dana is absent in the last round (16.3); Emil lost by forfeit and had a pairing bye.
EVENT = crosstable(
    {
        1: "2w1 3b1 H   4w1 5b1",
        2: "1b0 5w1 4b0 6w= 3w1",
        3: "4w= 1w0 6w1 5b1 2b0",
        4: "3b= 6w= 2w1 1b0 -",
        5: "6w- 2b0 U   3w0 1w0",
        6: "5b+ 4b= 3b0 2b= F",
    },
    names={1: "Anna", 2: "Boris", 3: "Chen", 4: "Dana", 5: "Emil", 6: "Fatima"},
)
TOURNAMENT = msgspec.to_builtins(tournament_to_wire(EVENT))
BODY = {"tournament": TOURNAMENT, "tiebreaks": ["DE", "BH/C1", "SB"]}
# The script each language is written in: a translated text has at least one letter of it.
SCRIPTS = {
    "ru": re.compile(r"[а-яё]", re.I),
    "pl": re.compile(r"[ąćęłńóśźż]|\b(w|z|na|nie|przeciwnik|punkty|runda|partii|oczekiwano|otrzymano)\b", re.I),
    "zh": re.compile(r"[\u4e00-\u9fff]"),
    "ja": re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]"),
}
# English words that a translated text never contains (notation such as Cut-1 aside).
ENGLISH = re.compile(
    r"\b(the|of|and|score|scores|round|rounds|opponent|opponents|counted|player|games?|draws?|value|place)\b", re.I
)
TEXT_FIELDS = {"note", "cut_reason", "message", "title", "detail", "dropped"}


def _texts(value, into: list[str], key: str = "") -> list[str]:
    """Every human-readable text of an answer: notes, cut reasons, messages, rule names."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "name" and key == "tiebreaks":
                into.append(v)
            _texts(v, into, k if isinstance(v, (dict, list)) else "")
            if isinstance(v, str) and k in TEXT_FIELDS:
                into.append(v)
    elif isinstance(value, list):
        for v in value:
            _texts(v, into, key)
    return into


def _numbers(value):
    """The answer without its texts: what a program reads, which no language may change."""
    if isinstance(value, dict):
        return {
            k: _numbers(v)
            for k, v in value.items()
            if not (k in TEXT_FIELDS or (k == "name" and isinstance(v, str) and v not in NAMES))
        }
    if isinstance(value, list):
        return [_numbers(v) for v in value]
    return value


NAMES = {"Anna", "Boris", "Chen", "Dana", "Emil", "Fatima"}


def _ask(path: str, body, lang: str | None):
    headers = {"Accept-Language": lang} if lang else {}
    return CLIENT.post(path, json=body, headers=headers)


def test_the_event_has_what_the_languages_are_tested_on():
    english = _ask("/v1/standings", BODY, None).json()
    anna = english["standings"][0]
    assert anna["name"] == "Anna" and anna["points"] == 4.5
    dummy = next(c for c in anna["breakdown"]["BH/C1"]["contributions"] if c["kind"] == "dummy")
    assert dummy["note"] == "own score 4.5 capped at 2.5 (16.4.2)"
    assert dummy["cut_reason"] == "unplayed rounds are cut first (16.5)"
    # Boris 2½ + Chen 2½ + Dana 2½ (her 2 and ½ for the closing absence, 16.3) + Emil 1; the dummy cut
    assert anna["breakdown"]["BH/C1"]["value"] == 8.5
    boris = next(r for r in english["standings"] if r["name"] == "Boris")
    assert boris["breakdown"]["DE"]["note"].startswith("place 1: 1 in the games between 2, 3")
    texts = " ".join(_texts(english, []))
    assert "16.3" in texts and "16.4.2" in texts  # a closing absence and a capped bye


@pytest.mark.parametrize("lang", ["ru", "pl", "zh", "ja"])
def test_standings_in_each_language(lang):
    response = _ask("/v1/standings", BODY, lang)
    assert response.status_code == 200
    assert response.headers["content-language"] == lang
    assert "accept-language" in response.headers["vary"].lower()
    answer = response.json()
    texts = _texts(answer, [])
    assert len(texts) > 10
    for text in texts:
        bare = re.sub(r"(Cut|Median)-\d+|US Chess|C\.0\d|Buchholz|Sonneborn-Berger|[A-Z]{2,}\S*", "", text)
        assert not ENGLISH.search(bare), (lang, text)
        assert SCRIPTS[lang].search(text) or not re.search(r"[A-Za-z]{3,}", bare), (lang, text)
    # the rule names are the catalogue's
    names = [t["name"] for t in answer["tiebreaks"]]
    assert (
        names
        == {
            "ru": ["Личная встреча", "Бухгольц Cut-1", "Зоннеборн–Бергер"],
            "pl": ["Bezpośredni pojedynek", "Buchholz Cut-1", "Sonneborn-Berger"],
            "zh": ["直接对局", "布赫霍尔兹分 Cut-1", "索伯分"],
            "ja": ["直接対決", "ブフホルツ Cut-1", "ゾンネボルン・ベルガー"],
        }[lang]
    )
    # ...and the codes, specs, paths and numbers are the English answer's
    assert _numbers(answer) == _numbers(_ask("/v1/standings", BODY, "en").json())


def test_the_worked_bye_example_in_each_language():
    """The closing note: the seeds' worked bye example, Anna's dummy opponent, in every language."""
    notes = {}
    for lang in ["en", "ru", "pl", "zh", "ja"]:
        anna = _ask("/v1/standings", BODY, lang).json()["standings"][0]
        dummy = next(c for c in anna["breakdown"]["BH/C1"]["contributions"] if c["kind"] == "dummy")
        notes[lang] = (dummy["note"], dummy["cut_reason"], dummy["cut_code"], dummy["reason_code"], dummy["value"])
    assert notes == {
        "en": ("own score 4.5 capped at 2.5 (16.4.2)", "unplayed rounds are cut first (16.5)", *notes["en"][2:]),
        "ru": ("собственные очки 4,5, ограничено до 2,5 (16.4.2)", "несыгранные туры отбрасываются первыми (16.5)", *notes["en"][2:]),
        "pl": ("własne punkty 4,5 ograniczone do 2,5 (16.4.2)", "nierozegrane rundy są odrzucane jako pierwsze (16.5)", *notes["en"][2:]),
        "zh": ("本人得分 4.5，以 2.5 为上限（16.4.2）", "未下的轮次最先去掉（16.5）", *notes["en"][2:]),
        "ja": ("自分の得点 4.5 を 2.5 で頭打ち（16.4.2）", "未対局のラウンドが最初にカットされます（16.5）", *notes["en"][2:]),
    }  # fmt: skip
    assert notes["en"][2:] == ("vur-cut-first", "dummy-capped-at-half", 2.5)


@pytest.mark.parametrize(
    ("lang", "title", "words"),
    [
        ("ru", "Невозможно обработать", "неизвестный тай-брейк"),
        ("pl", "Nie można przetworzyć", "nieznana punktacja pomocnicza"),
        ("zh", "无法处理的内容", "未知的破同分"),
        ("ja", "処理できない内容", "不明なタイブレーク"),
    ],
)
def test_a_422_in_each_language(lang, title, words):
    response = _ask("/v1/standings", {"tournament": TOURNAMENT, "tiebreaks": ["BH", "XYZ"]}, lang)
    assert response.status_code == 422
    assert response.headers["content-language"] == lang
    problem = response.json()
    assert problem["title"] == title
    assert words in problem["detail"]
    assert problem["errors"][0]["path"] == "tiebreaks[1]"  # paths never change
    assert words in problem["errors"][0]["message"] and "'XYZ'" in problem["errors"][0]["message"]


@pytest.mark.parametrize("lang", ["ru", "pl", "zh", "ja"])
def test_a_400_says_the_schema_error_in_the_language(lang):
    response = _ask("/v1/standings", {"tournament": {"rounds": "five", "players": []}}, lang)
    assert response.status_code == 400
    problem = response.json()
    assert SCRIPTS[lang].search(problem["title"]) and SCRIPTS[lang].search(problem["detail"])
    assert SCRIPTS[lang].search(problem["errors"][0]["message"])
    assert "`int`" in problem["errors"][0]["message"]


def test_an_unsupported_language_falls_back_to_english():
    response = _ask("/v1/standings", BODY, "de-DE, fr;q=0.8")
    assert response.headers["content-language"] == "en"
    assert response.json()["tiebreaks"][1]["name"] == "Buchholz Cut-1"


def test_the_catalogue_has_an_etag_per_language():
    tags = {}
    for lang in ["en", "ru", "pl", "zh", "ja"]:
        response = CLIENT.get("/v1/tiebreaks", headers={"Accept-Language": lang})
        assert response.status_code == 200 and response.headers["content-language"] == lang
        tags[lang] = response.headers["etag"]
        entry = next(e for e in response.json() if e["code"] == "DE")
        assert entry["code"] == "DE" and entry["article"] == "C.07 6"
        if lang == "ru":
            assert entry["name"] == "Личная встреча" and "группы" in entry["description"]
        again = CLIENT.get("/v1/tiebreaks", headers={"Accept-Language": lang, "If-None-Match": tags[lang]})
        assert again.status_code == 304
    assert len(set(tags.values())) == 5
    presets = CLIENT.get("/v1/presets", headers={"Accept-Language": "ja"})
    assert presets.headers["content-language"] == "ja"
    school = next(p for p in presets.json() if p["name"] == "school")
    assert school["tiebreaks"] == ["WIN", "DE"] and school["description"] == "勝ち数、次に直接対決。"
    # a copy in one language is not current for another
    other = CLIENT.get("/v1/tiebreaks", headers={"Accept-Language": "ja", "If-None-Match": tags["ru"]})
    assert other.status_code == 200


@pytest.mark.parametrize("lang", ["ru", "zh"])
def test_compare_and_batch_lines_in_the_language(lang):
    compare = _ask("/v1/compare", {"tournament": TOURNAMENT, "lists": [{"name": "a", "tiebreaks": ["BH/C1"]}]}, lang)
    assert compare.status_code == 200 and compare.headers["content-language"] == lang
    assert SCRIPTS[lang].search(json.dumps(compare.json(), ensure_ascii=False))
    lines = CLIENT.post(
        "/v1/standings/batch",
        content="\n".join(json.dumps(item) for item in [BODY, {"tournament": TOURNAMENT, "tiebreaks": ["XYZ"]}]),
        headers={"Accept-Language": lang, "content-type": "application/x-ndjson"},
    )
    assert lines.status_code == 200 and lines.headers["content-language"] == lang
    first, second = (json.loads(line) for line in lines.text.splitlines())
    assert first["result"]["tiebreaks"][0]["name"] == _ask("/v1/standings", BODY, lang).json()["tiebreaks"][0]["name"]
    assert second["status"] == 422 and SCRIPTS[lang].search(second["error"]["detail"])


@settings(max_examples=examples(25), deadline=None, suppress_health_check=list(HealthCheck))
@given(drawn=swiss_tournaments(max_players=10, max_rounds=7))
def test_the_numbers_of_an_answer_are_the_same_in_every_language(drawn):
    body = {
        "tournament": msgspec.to_builtins(tournament_to_wire(drawn.tournament)),
        "tiebreaks": ["BH/C1", "DE", "SB", "PS/C1", "ARO"],
        "after_round": drawn.tournament.rounds,
    }
    answers = {lang: _ask("/v1/standings", body, lang) for lang in ["en", "ru", "pl", "zh", "ja"]}
    english = answers["en"].json()
    for lang, response in answers.items():
        assert response.status_code == 200
        assert _numbers(response.json()) == _numbers(english), lang


def test_the_middleware_refuses_in_the_language():
    """A refusal made before the request is read (a compressed body) is in the language too."""
    response = CLIENT.post(
        "/v1/standings",
        content=b"\x1f\x8b",
        headers={"Accept-Language": "ja", "content-type": "application/json", "content-encoding": "gzip"},
    )
    assert response.status_code == 415 and response.headers["content-language"] == "ja"
    problem = response.json()
    assert problem["title"] == "サポートされていないメディアタイプ"
    assert problem["errors"] == [{"path": "header:Content-Encoding", "message": "identity のみ受け付けます"}]


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("ru", "строка 2, столбец 109: тур 2: 2 пары без результата (пусто или '*'): считаются несыгранными"),
        ("pl", "wiersz 2, kolumna 109: runda 2: 2 pary bez wyniku (puste lub '*'): liczone jako nierozegrane"),
        ("zh", "第 2 行第 109 列：第 2 轮：2 对没有结果（空白或 '*'）：按未下计"),
    ],
)
def test_the_trf_reader_warns_in_the_language(lang, expected):
    text = trf(
        "142 3",
        player(1, "A", rounds=[(2, "w", "1"), (3, "b", "*")]),
        player(2, "B", rounds=[(1, "b", "0"), (0, "-", "U")]),
        player(3, "C", rounds=[(0, "-", "U"), (1, "w", "*")]),
    )
    response = _ask("/v1/trf", {"trf": text}, lang)
    assert response.status_code == 200 and response.headers["content-language"] == lang
    [warning] = [w for w in response.json()["warnings"] if w["code"] == "trf-not-played"]
    assert warning["message"] == expected


# ---- the reach of "no English left": team events, TRF errors, 413s, check, the whole catalogue ----

TEAM_BODY = {
    k: v
    for k, v in json.loads(
        (Path(__file__).resolve().parents[1] / "fixtures/conformance_fide_team/tworked-0001.input.json").read_text()
    ).items()
    if k in ("team_tournament", "tiebreaks", "regulations", "after_round")
}
# Team notes and warnings on a fixture that has every board rule and an EDE chain.
TEAM_RULES = ["PTS", "MPvGP", "EDEBT", "EMGSB/C1", "BH:MP", "SSSC", "BC", "TBR", "BBE", "ARO"]
# Written the same in every language: notation, codes, field names and values in backticks,
# limit names and their variables, quoted values from the input.
_NEUTRAL = re.compile(
    r"(Cut|Median)-\d+|US Chess|C\.0\d|Buchholz|Sonneborn-Berger|Fore Buchholz|`[^`]*`|'[^']*'"
    r"|\b[a-z]+(?:_[a-z0-9]+)+\b|TIEBREAK_\w+|\b[A-Z]{2,}\S*|\b(?:fide|auto)-\w+|MiB|\bs\b"
)


# Polish is written in Latin letters: a text without a letter of its own has a word of its own.
_POLISH_WORDS = re.compile(
    r"\b(wynik\w*|wygran\w*|partie|rozszerzony|zawodnik\w*|drużyn\w*|mecz\w*|szachownic\w*|punkt\w*|system|ranking\w*|turniej\w*|numer|losowanie|mediana|zmodyfikowana|potem|solkoff|kashdan|pkt|grupa|wnosi|uprawni\w*|nagrod\w*|dziel\w*|jedyn\w*|pozostali|wypłacono|zachowuje|po)\b",
    re.I,
)


def _in_the_language(texts: list[str], lang: str) -> None:
    assert texts
    for text in texts:
        bare = _NEUTRAL.sub("", text)
        assert not ENGLISH.search(bare), (lang, text)
        own = SCRIPTS[lang].search(text) or (lang == "pl" and _POLISH_WORDS.search(text))
        assert own or not re.search(r"[A-Za-z]{3,}", bare), (lang, text)


def _catalogue_texts(entries, keys=("name", "description")) -> list[str]:
    found = []
    for entry in entries:
        for key in keys:
            if isinstance(entry.get(key), str):
                found.append(entry[key])
    return found


@pytest.mark.parametrize("lang", ["ru", "pl", "zh", "ja"])
def test_a_team_event_in_each_language(lang):
    response = _ask("/v1/standings", {**TEAM_BODY, "tiebreaks": TEAM_RULES}, lang)
    assert response.status_code == 200, response.text
    answer = response.json()
    texts = _texts(answer, [])
    notes = [t for t in texts if t not in {w["message"] for w in answer["warnings"]}]
    assert len(notes) > 20 and answer["warnings"]
    _in_the_language(texts, lang)
    english = _ask("/v1/standings", {**TEAM_BODY, "tiebreaks": TEAM_RULES}, "en").json()
    assert _numbers(answer) == _numbers(english)


@pytest.mark.parametrize("lang", ["ru", "pl", "zh", "ja"])
def test_the_catalogue_endpoints_are_wholly_in_the_language(lang):
    tiebreaks = CLIENT.get("/v1/tiebreaks", headers={"Accept-Language": lang}).json()
    presets = CLIENT.get("/v1/presets", headers={"Accept-Language": lang}).json()
    assert any("team" in e.get("events", []) and e["code"] == "EDEBT" for e in tiebreaks)
    _in_the_language(_catalogue_texts(tiebreaks) + _catalogue_texts(presets, ("origin", "description")), lang)


UNREADABLE_TRF = "012 Open\n001    x      Anna\n"
WRONG_TEAM_TRF = "012 Team\n001    1      A\n310    1 Alpha                                 1    2\n"


@pytest.mark.parametrize("lang", ["ru", "pl", "zh", "ja"])
def test_an_unreadable_trf_is_a_422_wholly_in_the_language(lang):
    for path, body in [("/v1/trf", {"trf": UNREADABLE_TRF}), ("/v1/standings", {"trf": UNREADABLE_TRF})]:
        response = _ask(path, body, lang)
        assert response.status_code == 422
        problem = response.json()
        assert problem["errors"][0]["path"] == "trf:2:5"
        _in_the_language([problem["title"], problem["detail"], problem["errors"][0]["message"]], lang)


@pytest.mark.parametrize("lang", ["ru", "pl", "zh", "ja"])
def test_a_413_and_its_limit_in_the_language(lang):
    from dataclasses import replace

    from tiebreak.http.app import create_app
    from tiebreak.wire.limits import LIMITS

    with TestClient(create_app(replace(LIMITS, max_cost_s=0.000001))) as client:
        response = client.post("/v1/standings", json=BODY, headers={"Accept-Language": lang})
    assert response.status_code == 413
    problem = response.json()
    message = problem["errors"][0]["message"]
    assert "max_cost_s" in message and "TIEBREAK_MAX_COST_S" in message
    _in_the_language([problem["title"], problem["detail"], message], lang)


@pytest.mark.parametrize("lang", ["ru", "pl", "zh", "ja"])
def test_too_many_open_games_in_the_language_without_the_limits_name(lang):
    """The scenarios 413 is read by an arbiter (decision 0230): in their language, naming no limit."""
    from dataclasses import replace

    from tiebreak.http.app import create_app
    from tiebreak.http.scenarios import EXAMPLE
    from tiebreak.wire.limits import LIMITS

    with TestClient(create_app(replace(LIMITS, max_cost_s=0.000001))) as client:
        response = client.post("/v1/scenarios", json=EXAMPLE, headers={"Accept-Language": lang})
    assert response.status_code == 413
    problem = response.json()
    message = problem["errors"][0]["message"]
    assert "max_cost_s" not in json.dumps(problem) and "TIEBREAK_" not in json.dumps(problem)
    assert "2" in problem["detail"] and "`assume`" in message
    _in_the_language([problem["title"], problem["detail"], message], lang)


@pytest.mark.parametrize("lang", ["ru", "pl", "zh", "ja"])
def test_check_and_trf_warnings_in_the_language(lang):
    inconsistent = trf(
        "142 2",
        player(1, "A", points="2.0", rounds=[(2, "w", "1"), (0, "-", "H")]),
        player(2, "B", points="0.0", rounds=[(1, "b", "0"), (0, "-", "U")]),
    )
    lines = CLIENT.post(
        "/v1/check",
        json=[{"id": "x", "trf": inconsistent}, {"id": "y", "trf": UNREADABLE_TRF}],
        headers={"Accept-Language": lang},
    )
    assert lines.status_code == 200 and lines.headers["content-language"] == lang
    texts = []
    for line in map(json.loads, lines.text.splitlines()):
        texts += _texts(line, [])
    assert len(texts) >= 3
    _in_the_language(texts, lang)


# ---- prizes: every explanation of every published example, in every language ----

PRIZE_CASES = sorted((Path(__file__).resolve().parents[1] / "fixtures" / "prizes").glob("*.json"))
PRIZE_TEXT_FIELDS = {"why", "note", "reason", "message", "label", "name"}


def _prize_texts(value, into: list[str], names: set[str]) -> list[str]:
    """The explanations of a prize answer: each share's why, the pools' notes, the reasons a prize
    went unawarded, the warnings (player and prize names from the request aside)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, str) and key in PRIZE_TEXT_FIELDS and item not in names:
                into.append(item)
            else:
                _prize_texts(item, into, names)
    elif isinstance(value, list):
        for item in value:
            _prize_texts(item, into, names)
    return into


def _request_names(value, into: set[str]) -> set[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("name", "label", "id", "category") and isinstance(item, str):
                into.add(item)
            _request_names(item, into)
    elif isinstance(value, list):
        for item in value:
            _request_names(item, into)
    return into


@pytest.mark.parametrize("lang", ["ru", "pl", "zh", "ja"])
def test_the_prize_explanations_are_in_the_language(lang):
    seen = 0
    for path in PRIZE_CASES:
        request = json.loads(path.read_text(encoding="utf-8"))["request"]
        answer = _ask("/v1/prizes", request, lang)
        assert answer.status_code == 200, (path.name, answer.text)
        english = _ask("/v1/prizes", request, "en").json()
        names = _request_names(request, set())
        # the names and labels given are the organiser's; what the service writes is translated
        texts = [t for t in _prize_texts(answer.json(), [], names) if t not in names]
        for text in texts:
            for name in sorted((n for n in names if re.search(r"[^\W\d]", n)), key=len, reverse=True):
                text = text.replace(name, "")
            _in_the_language([text], lang) if re.search(r"[A-Za-z]{3,}", _NEUTRAL.sub("", text)) else None
        assert texts != _prize_texts(english, [], names) or not texts, path.name
        seen += len(texts)
        assert _prize_numbers(answer.json(), names) == _prize_numbers(english, names), path.name
    assert seen > 50


def _prize_numbers(value, names: set[str]):
    """A prize answer without the texts the service writes: amounts, ids, methods, codes."""
    if isinstance(value, dict):
        return {
            k: _prize_numbers(v, names)
            for k, v in value.items()
            if not (k in PRIZE_TEXT_FIELDS and isinstance(v, str) and v not in names)
        }
    if isinstance(value, list):
        return [_prize_numbers(v, names) for v in value]
    return value


@pytest.mark.parametrize(
    "field",
    [
        {"ratings": {"source": "national"}},
        {"tiebreak_changes": [{"from_round": 2, "previous": ["BH"]}]},
        {"swiss_manager_numbers": True},
    ],
)
@pytest.mark.parametrize("lang", [None, "ru", "pl", "zh", "ja"])
def test_reading_a_trf_names_every_field_only_writing_takes(lang, field):
    """POST /v1/trf reading `trf` names all the writing-only fields, `ratings` and
    `tiebreak_changes` too, in the reader's language."""
    answer = _ask("/v1/trf", {"trf": "012 Event\n", **field}, lang)
    assert answer.status_code == 400, answer.text
    message = answer.json()["errors"][0]["message"]
    for name in ("ratings", "tiebreak_changes", "swiss_manager_numbers", "trf"):
        assert f"`{name}`" in message, message
    if lang is None:
        assert message.endswith("they do not apply when reading `trf`")
    else:
        assert SCRIPTS[lang].search(message) and not ENGLISH.search(message.replace("`", " ")), message
