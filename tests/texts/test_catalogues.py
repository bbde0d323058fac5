"""The catalogues against the source: every message id translated in every language, with the
same placeholders and every plural form; every message rendered in every language."""

import dataclasses
import re

import pytest

from tiebreak.texts.catalogue import LANGUAGES, negotiate, render, supported, translations
from tiebreak.texts.catalogue_check import extracted, gaps, placeholders
from tiebreak.texts.message import Joined, Msg, language, msg, msg_n

TEMPLATE = extracted()
MESSAGES = [m for m in TEMPLATE if m.id]
TRANSLATED = [code for code in LANGUAGES if code != "en"]
# Written the same as in English by the language's own custom (the names of people, "limit").
SAME_AS_ENGLISH = {
    "pl": {"Buchholz", "Kashdan", "Solkoff", "Sonneborn-Berger", "Sonneborn-Berger (US Chess)", " (limit {limit} %)"}
}


def test_the_source_has_the_messages_we_expect_to_find():
    # the extraction itself works: a known id from each layer is found
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in MESSAGES}
    assert "unplayed rounds are cut first (16.5)" in ids  # engine/modifiers.py
    assert "Buchholz" in ids  # engine/registry.py
    assert "Unprocessable Content" in ids  # usecases/problems.py
    assert "Ahead of next by" in ids  # cli/render.py
    assert len(ids) > 150


def test_every_message_has_a_translation_in_every_language_with_the_same_placeholders():
    assert gaps(TEMPLATE) == []


def test_a_missing_translation_or_a_lost_placeholder_is_a_gap(tmp_path, monkeypatch):
    """The check itself fails on the two defects it exists for."""
    from babel.messages.catalog import Catalog

    from tiebreak.texts import catalogue_check

    template = Catalog()
    template.add("place {place} of {count}")
    template.add("unknown")
    (tmp_path / "ru.po").write_text(
        'msgid ""\nmsgstr ""\n"Language: ru\\n"\n\nmsgid "place {place} of {count}"\nmsgstr "место {place}"\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(catalogue_check, "LANGUAGES", {"en": "English", "ru": "Русский"})
    monkeypatch.setattr(catalogue_check, "LOCALE_DIR", tmp_path)
    found = catalogue_check.gaps(template)
    assert any("placeholders" in line and "place {place} of {count}" in line for line in found)
    assert "ru: no entry for 'unknown'" in found


def _sample(name: str):
    """A sample argument: a count for `n`, a number of points, a text, an id."""
    return {"n": 3}.get(name, 2.5 if name in ("own", "cap", "points", "value", "total", "mean") else f"<{name}>")


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_every_message_renders_in_every_language_with_sample_arguments(code):
    for message in MESSAGES:
        singular, plural = (message.id, None) if isinstance(message.id, str) else message.id
        names = placeholders(singular) | (placeholders(plural) if plural else set())
        args = {name: _sample(name) for name in names}
        text = msg(singular, **args) if plural is None else msg_n(singular, plural, args.pop("n", 3), **args)
        rendered = render(text, code)
        assert rendered.strip(), (code, singular)
        # every argument appears; no placeholder is left unfilled
        assert not re.search(r"(?<!\{)\{[a-z_]+\}(?!\})", rendered), (code, singular, rendered)
        for value in args.values():
            if isinstance(value, str):
                assert value in rendered, (code, singular, rendered)
        if code != "en" and re.search(r"[A-Za-z]{4,}", re.sub(r"\{[a-z_]+\}|US Chess", "", singular)):
            assert rendered != str(text) or singular in SAME_AS_ENGLISH.get(code, ()), (code, singular)


@pytest.mark.parametrize(
    ("code", "forms"),
    [
        # CLDR: Russian one (1, 21), few (2-4, 22), many (5-20, 11-14); Polish one (1), few (2-4, 22), many (5, 12)
        ("ru", {1: 0, 2: 1, 4: 1, 5: 2, 11: 2, 12: 2, 21: 0, 22: 1, 25: 2}),
        ("pl", {1: 0, 2: 1, 4: 1, 5: 2, 12: 2, 21: 2, 22: 1}),
        ("zh", {1: 0, 2: 0, 5: 0}),
        ("ja", {1: 0, 2: 0, 5: 0}),
    ],
)
def test_plural_forms_follow_the_language(code, forms):
    singular = "the crosstable contradicts itself ({n} problem)"
    plural = "the crosstable contradicts itself ({n} problems)"
    entry = next(m for m in _catalog(code) if m.id == (singular, plural))
    for n, form in forms.items():
        assert render(msg_n(singular, plural, n), code) == entry.string[form].format(n=n)


def _catalog(code):
    from tiebreak.texts.catalogue_check import read

    return read(code)


def test_numbers_in_text_take_the_language_decimal_sign():
    note = msg("own score {own} capped at {cap} (16.4.2)", own=4.5, cap=2.5)
    assert note == "own score 4.5 capped at 2.5 (16.4.2)"
    assert render(note, "ru") == "собственные очки 4,5, ограничено до 2,5 (16.4.2)"
    assert "4,5" in render(note, "pl") and "2,5" in render(note, "pl")
    assert "4.5" in render(note, "zh") and "4.5" in render(note, "ja")
    # ids, rounds and counts are integers: written as they are, never 1,0
    assert render(msg("player {player} has two results for round {round}", player=1001, round=3), "ru") == (
        "у игрока 1001 два результата в 3-м туре"
    )


def test_a_text_without_a_catalogue_entry_stays_english():
    assert render(msg("not in any catalogue {x}", x=1.5), "ru") == "not in any catalogue 1,5"
    assert render("a plain string", "ja") == "a plain string"


def test_a_message_survives_pickling_for_the_worker_processes():
    import pickle

    note = msg_n("{face} + {n} closing bye or absence counted as a draw ({article}) = {counted}",
                 "{face} + {n} closing byes or absences counted as draws ({article}) = {counted}",
                 2, face=1.5, article="16.3", counted=2.5)  # fmt: skip
    again = pickle.loads(pickle.dumps(note))
    assert isinstance(again, Msg) and again == note and render(again, "pl") == render(note, "pl")


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (None, "en"),
        ("", "en"),
        ("ru", "ru"),
        ("ru-RU,ru;q=0.9,en-US;q=0.8", "ru"),
        ("de-DE, pl;q=0.5, en;q=0.4", "pl"),  # German is not ours: the next best
        ("en;q=0.3, ja;q=0.7", "ja"),  # q-values, not the order
        ("zh-CN", "zh"),
        ("zh-Hans-CN", "zh"),
        ("zh-TW", "en"),  # Traditional Chinese is not the Simplified catalogue
        ("zh-Hant", "en"),
        ("fr, de", "en"),  # nothing supported: English
        ("*", "en"),
        ("ja;q=0, *;q=0.5", "en"),  # q=0: not acceptable
        ("pl;q=0.8, ru;q=0.8", "pl"),  # a tie: the first listed
        ("ru;q=abc, ja", "ja"),  # an unreadable range is skipped
        ("RU", "ru"),
    ],
)
def test_accept_language_negotiation(header, expected):
    assert negotiate(header) == expected


def test_every_language_has_a_catalogue_that_loads():
    assert supported("ja-JP") == "ja"
    for code in TRANSLATED:
        assert translations(code).gettext("Direct encounter") != "Direct encounter"


def _messages_in(value, found: list) -> list:
    if isinstance(value, Msg):
        found.append(value)
        if isinstance(value, Joined):
            for part in value.parts:
                _messages_in(part, found)
        for arg in value.args.values():
            _messages_in(arg, found)
    elif isinstance(value, dict):
        for v in value.values():
            _messages_in(v, found)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _messages_in(v, found)
    elif hasattr(value, "__struct_fields__"):
        for name in value.__struct_fields__:
            _messages_in(getattr(value, name), found)
    elif dataclasses.is_dataclass(value):
        for field in dataclasses.fields(value):
            _messages_in(getattr(value, field.name), found)
    return found


def test_every_text_of_an_answer_is_its_message_rendered_in_english():
    """Texts whose English is written by the caller (`pre`, for speed) say what their message says;
    every text of the answer is a message (none made by hand outside the catalogue)."""
    from tiebreak.engine import Regulations, compute_standings
    from tiebreak.engine.registry import valid_codes
    from tiebreak.engine.rules import parse_rule
    from tiebreak.usecases.convert import standings_to_wire
    from tests.texts.test_answers import EVENT

    rules = ["DE", "BH/C1", "SB", "ARO", "PTP", "AOB", "FB", "TPN", "PS/C1", "KS"]
    specs = [parse_rule(rule, valid_codes()) for rule in rules]
    rated = dataclasses.replace(
        EVENT, players=tuple(dataclasses.replace(p, rating=1500 + 10 * p.id) for p in EVENT.players)
    )
    with language("ru"):  # in English, the notes written once per player or game are plain strings
        answer = standings_to_wire(compute_standings(rated, specs, Regulations.FIDE_2026), True)
    found = _messages_in(answer, [])
    ids = {m.msgid for m in found}
    assert "{what}: {total} / {count} = {mean}, rounded half up" in ids  # written by `pre`
    assert "own score {own} capped at {cap} (16.4.2)" in ids
    for m in found:
        if isinstance(m, Joined):
            assert m == "".join(map(str, m.parts))
            continue
        template = m.msgid if m.plural is None or m.args.get("n") == 1 else m.plural
        assert m == template.format_map({k: f"{v:g}" if type(v) is float else v for k, v in m.args.items()}), m.msgid
    for row in answer.standings:
        for breakdown in (row.breakdown or {}).values():
            texts = [breakdown.note] + [t for c in breakdown.contributions for t in (c.note, c.cut_reason)]
            assert all(t is None or isinstance(t, Msg) for t in texts), texts
