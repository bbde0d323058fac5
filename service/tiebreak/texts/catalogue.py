"""The message catalogues: which languages there are, which one a client asks for, and a
text rendered in it.

The catalogues are gettext `.po` files beside this module (`locale/<language>.po`), read
with Babel when a language is first used and compiled in memory, so nothing is built
before `make run` or `make test`. Plural forms come from each catalogue's `Plural-Forms`
header (CLDR's rules: three forms in Russian and Polish), the decimal sign from CLDR.
"""

from __future__ import annotations

import functools
import gettext
import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import Any

import msgspec

from .message import ENGLISH, LANGUAGE, RENDER, Figure, Joined, Msg, number

LOCALE_DIR = Path(__file__).with_name("locale")
# The languages, English first (the default and the fallback); a new one is its catalogue
# file in locale/ and a line here (docs/languages.md).
LANGUAGES: dict[str, str] = {
    "en": "English",
    "ru": "Русский",
    "pl": "Polski",
    "zh": "简体中文",
    "ja": "日本語",
}
# Accept-Language tags that name a language under another tag: Simplified Chinese.
_ALIASES = {"zh-hans": "zh", "zh-cn": "zh", "zh-sg": "zh"}
_RANGE = re.compile(r"^\s*([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*|\*)\s*(?:;\s*q\s*=\s*([01](?:\.\d{0,3})?))?\s*$")


@functools.cache
def translations(code: str) -> gettext.NullTranslations:
    """The compiled catalogue of one language (English: none, the texts are English)."""
    if code == ENGLISH:
        return gettext.NullTranslations()
    # Babel is loaded by the first text in another language: an English run (a batch) never needs it.
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with (LOCALE_DIR / f"{code}.po").open("rb") as po:
        catalog = read_po(po, locale=code)
    mo = io.BytesIO()
    write_mo(mo, catalog)
    mo.seek(0)
    return gettext.GNUTranslations(mo)


@functools.cache
def _decimal_sign(code: str) -> str:
    return _number_signs(code)[1]


@functools.cache
def _number_signs(code: str) -> tuple[str, str]:
    """The language's grouping and decimal signs (Russian and Polish: a no-break space and a comma)."""
    from babel import Locale
    from babel.numbers import get_decimal_symbol, get_group_symbol

    locale = Locale.parse(code)
    return str(get_group_symbol(locale)), str(get_decimal_symbol(locale))


def localised(value: Any, code: str) -> str:
    """One argument written in the language: points with its decimal sign, texts rendered."""
    if isinstance(value, Msg):
        return render(value, code)
    if isinstance(value, float | Fraction) and not isinstance(value, bool):
        return number(value).replace(".", _decimal_sign(code))
    return str(value)


def render(text: Any, code: str) -> str:
    """`text` in the language `code`: a `Msg` from the catalogue (English where the catalogue
    has no entry), any other value as it is."""
    if not isinstance(text, Msg):
        return text if isinstance(text, str) else str(text)
    if code == ENGLISH:
        return str.__str__(text)
    if isinstance(text, Figure):
        signs = _number_signs(code)
        return str.__str__(text).translate({ord(","): signs[0], ord("."): signs[1]})
    if isinstance(text, Joined):
        return "".join(render(part, code) for part in text.parts)
    catalogue = translations(code)
    if text.plural is None:
        template = catalogue.gettext(text.msgid)
    else:
        template = catalogue.ngettext(text.msgid, text.plural, text.args["n"])
    return template.format_map({k: localised(v, code) for k, v in text.args.items()})


def current(text: Any) -> str:
    """`text` in the language of the answer being made."""
    return render(text, LANGUAGE.get())


# One English text is one translation (gettext's own model): the same note, met once per game
# or per row, is rendered once.
_rendered = functools.lru_cache(maxsize=16384)(render)


def enc_hook(value: Any) -> Any:
    """msgspec's hook: a `Msg` is encoded as its text in the language of the answer."""
    if isinstance(value, Msg):
        return _rendered(value, LANGUAGE.get())
    raise NotImplementedError(f"Objects of type {type(value).__name__} are not supported")


# English needs no catalogue: its texts are the strings themselves, taken by a C function,
# not a Python frame per text (an answer of 500 players has some 14,000 of them).
_ENGLISH_ENCODER = msgspec.json.Encoder(enc_hook=str.__str__)
_ENCODER = msgspec.json.Encoder(enc_hook=enc_hook)


def json_encoder() -> msgspec.json.Encoder:
    """The JSON encoder for the language of the answer being made."""
    return _ENGLISH_ENCODER if LANGUAGE.get() == ENGLISH else _ENCODER


@contextmanager
def rendering(code: str) -> Iterator[None]:
    """The answers made inside in the language `code`, their texts rendered as they enter the
    answer (`message.made`): structs that encode as any struct, without a hook (the Python API)."""
    token, render = (
        LANGUAGE.set(code),
        RENDER.set(str.__str__ if code == ENGLISH else lambda text: _rendered(text, code)),
    )
    try:
        yield
    finally:
        RENDER.reset(render)
        LANGUAGE.reset(token)


def supported(tag: str) -> str | None:
    """The language of ours a language tag names ("ru-RU" -> "ru"), or None."""
    tag = tag.lower()
    if tag in _ALIASES:
        return _ALIASES[tag]
    if tag.startswith("zh-") and ("hant" in tag or tag in ("zh-tw", "zh-hk", "zh-mo")):
        return None  # Traditional Chinese is not Simplified
    base = tag.split("-", 1)[0]
    return base if base in LANGUAGES else None


def negotiate(header: str | None) -> str:
    """The language for an Accept-Language header (RFC 9110 12.5.4): the supported one with
    the highest q-value, the earlier listed on a tie; `*` means English; anything
    unreadable or unsupported falls back to English."""
    if not header:
        return ENGLISH
    best, best_q = ENGLISH, 0.0
    excluded: set[str] = set()
    for item in header.split(",")[:50]:
        match = _RANGE.match(item)
        if not match:
            continue
        tag, q_text = match.groups()
        q = float(q_text) if q_text is not None else 1.0
        code = ENGLISH if tag == "*" else supported(tag)
        if code is None:
            continue
        if q == 0:
            excluded.add(code)
        elif q > best_q and code not in excluded:
            best, best_q = code, q
    return best if best not in excluded else ENGLISH
