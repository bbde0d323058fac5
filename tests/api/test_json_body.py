"""A JSON body with a repeated key or a byte order mark (issue 39, point 10): a 400 that says so,
never the last value winning silently or "invalid character (byte 0)"."""

from __future__ import annotations

import json

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tiebreak.http.examples import TOURNAMENT
from tiebreak.wire.decode import check_unique_keys

BODY = json.dumps({"tournament": TOURNAMENT, "tiebreaks": ["BH"]}).encode()
JSON = {"content-type": "application/json"}
NDJSON = {"content-type": "application/x-ndjson"}


def test_the_body_itself_is_read(client):
    assert client.post("/v1/standings", content=BODY, headers=JSON).status_code == 200


def test_a_bom_is_named(client):
    response = client.post("/v1/standings", content=b"\xef\xbb\xbf" + BODY, headers=JSON)
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert "byte order mark" in error["message"] and "EF BB BF" in error["message"]


@pytest.mark.parametrize(
    ("body", "key"),
    [
        (BODY.replace(b'"tiebreaks": ["BH"]', b'"tiebreaks": ["BH"], "tiebreaks": ["SB"]'), "tiebreaks"),
        (BODY.replace(b'"id": 1,', b'"id": 1, "id": 2,', 1), "id"),
    ],
)
def test_a_repeated_key_is_named_not_overwritten(client, body, key):
    assert body != BODY
    response = client.post("/v1/standings", content=body, headers=JSON)
    assert response.status_code == 400, response.text
    [error] = response.json()["errors"]
    assert f"`{key}`" in error["message"] and "repeats" in error["message"]


def test_the_messages_are_in_the_asked_language(client):
    headers = {**JSON, "Accept-Language": "ru"}
    response = client.post("/v1/standings", content=b"\xef\xbb\xbf" + BODY, headers=headers)
    assert "EF BB BF" in response.json()["errors"][0]["message"]
    assert response.headers["content-language"] == "ru" and "байт" in response.json()["errors"][0]["message"]


def test_a_repeated_key_in_a_batch_item_is_that_items_400(client):
    line = BODY.replace(b'"tiebreaks": ["BH"]', b'"tiebreaks": ["BH"], "tiebreaks": ["SB"]')
    for content, kind in ((b"[" + line + b"," + BODY + b"]", JSON), (line + b"\n" + BODY + b"\n", NDJSON)):
        response = client.post("/v1/standings/batch", content=content, headers=kind)
        results = [json.loads(x) for x in response.text.splitlines()]
        assert [r["status"] for r in results] == [400, 200], kind
        assert "`tiebreaks`" in results[0]["error"]["errors"][0]["message"]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('{"a": 1, "b": 2, "c": 3, "d": 4, "a": 5}', "a"),  # the first key, seen again last
        ('{"x": [{"p": 1, "q": 2}, {"p": 1, "q": 2, "q": 3}]}', "q"),  # the last of many small objects
        ('{"a": 1, "b": {"c": 1, "c": 2}, "b": 3}', "c"),  # the inner object is read first
    ],
)
def test_check_unique_keys_names_the_repeated_key_wherever_it_is(text, key):
    with pytest.raises(msgspec.DecodeError, match=f"`{key}`"):
        check_unique_keys(text.encode())
    check_unique_keys(json.dumps(json.loads(text)).encode())  # the same without repeats passes


# ---- the colon count (wire/decode.py `_no_key_dropped`): exact, or the full read ----


@pytest.mark.parametrize(
    "text",
    [
        '{"a": "x:y", "a": 1}',  # colons in a dropped value
        '{"a:b": 1, "a:b": 2}',  # in a repeated key
        '{"a": 1, "a": 2, "b": "\\u003a"}',  # an escaped colon would make up for the dropped key
        '{"a": 1, "a": 2, "b": "\\u003A"}',
        '[{"k": "\\" : \\"", "k": 0}]',  # a quote and a colon inside a string
    ],
)
def test_a_repeat_is_found_whatever_colons_the_strings_hold(text):
    with pytest.raises(msgspec.DecodeError, match="repeats"):
        check_unique_keys(text.encode())


@pytest.mark.parametrize("text", ['{"a": 1e999}', '{"a": [-1e999, {"b": 1}]}'])
def test_a_body_the_generic_decode_refuses_is_read_with_the_standard_library(text):
    check_unique_keys(text.encode())  # msgspec: "Number out of range"; no repeat, so no error
    with pytest.raises(msgspec.DecodeError, match="`a`"):
        check_unique_keys(text.replace("{", '{"a": 0, ', 1).encode())


KEYS = st.sampled_from(["a", "b", "a:b", ":", '"', "\\", "é"])
STRINGS = st.text(alphabet=':"\\ aé\u2028', max_size=6)


def _objects(children):
    return st.lists(st.tuples(KEYS, children), max_size=4).map(lambda pairs: ("object", pairs))


VALUES = st.recursive(
    st.one_of(st.integers(-5, 5), st.booleans(), st.none(), STRINGS),
    lambda children: st.one_of(st.lists(children, max_size=3), _objects(children)),
    max_leaves=12,
)


def _text(value, escape_colons: bool) -> str:
    """JSON text of a generated value, an object's pairs written as generated (repeats kept)."""
    if isinstance(value, tuple):
        inner = ", ".join(f"{_text(k, escape_colons)}: {_text(v, escape_colons)}" for k, v in value[1])
        return "{" + inner + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_text(v, escape_colons) for v in value) + "]"
    text = json.dumps(value, ensure_ascii=False)
    return text.replace(":", "\\u003a") if escape_colons and isinstance(value, str) else text


def _repeats(value) -> bool:
    if isinstance(value, tuple):
        keys = [k for k, _ in value[1]]
        return len(keys) != len(set(keys)) or any(_repeats(v) for _, v in value[1])
    return isinstance(value, list) and any(_repeats(v) for v in value)


@given(value=_objects(VALUES), escape_colons=st.booleans())
def test_check_unique_keys_refuses_exactly_the_texts_with_a_repeat(value, escape_colons):
    data = _text(value, escape_colons).encode()
    if _repeats(value):
        with pytest.raises(msgspec.DecodeError, match="repeats"):
            check_unique_keys(data)
    else:
        check_unique_keys(data)
