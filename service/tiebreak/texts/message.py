"""A text that can be rendered again in another language: `msg`, `msg_n` and `pre`.

A `Msg` is the English text itself (a `str`, so every caller that prints, compares or
stores it keeps working) and remembers its message id, plural and arguments. Rendering
in another language happens at the edge (`catalogue.render`), under the language of the
answer being made (`LANGUAGE`), so the engine never waits for a catalogue.

Arguments: an `int` is written as it is (ids, rounds, counts); a `float` is a number of
points, written as 2.5 or 3 with the language's decimal sign; a `Msg` is rendered in the
same language; anything else as `str`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

ENGLISH = "en"
# The language of the answer being encoded; set around one request's work (`language`).
LANGUAGE: ContextVar[str] = ContextVar("tiebreak_language", default=ENGLISH)
# For a caller that keeps the answer's structs (the Python API), the texts rendered as they enter
# the answer, in its language (`catalogue.rendering`); None: rendered when the answer is encoded.
RENDER: ContextVar[Callable[[Msg], str] | None] = ContextVar("tiebreak_render", default=None)


class Msg(str):
    """An English text with its message id and arguments."""

    __slots__ = ("args", "msgid", "plural")
    msgid: str
    plural: str | None
    args: dict[str, Any]

    def __new__(cls, msgid: str, plural: str | None, count: int | None, args: dict[str, Any]) -> Msg:
        template = msgid if plural is None or count == 1 else plural
        # str.format writes ints, strs and texts as English does; only points need `:g` (3, not 3.0)
        self = str.__new__(cls, template.format_map({k: f"{v:g}" if type(v) is float else v for k, v in args.items()}))
        self.msgid, self.plural, self.args = msgid, plural, args
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Msg, (self.msgid, self.plural, self.args.get("n"), self.args))


class Joined(Msg):
    """Texts written one after the other, each rendered on its own (a rule's name, then its
    modifiers)."""

    __slots__ = ("parts",)
    parts: tuple[Any, ...]

    def __new__(cls, *parts: Any) -> Joined:
        self = str.__new__(cls, "".join(map(str, parts)))
        self.msgid, self.plural, self.args, self.parts = "", None, {}, parts
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Joined, self.parts)


class Figure(Msg):
    """A number written as English writes it in text ("1,100.50", grouping commas and a decimal
    point), which a language writes with its own signs ("1 100,50")."""

    __slots__ = ()

    def __new__(cls, english: str) -> Figure:
        self = str.__new__(cls, english)
        self.msgid, self.plural, self.args = "", None, {}
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Figure, (str.__str__(self),))


def made(text: Any) -> Any:
    """`text` as the answer keeps it: rendered now when its caller asked (`RENDER`), else as it is
    (a `Msg` the encoder renders)."""
    render = RENDER.get()
    return render(text) if render is not None and isinstance(text, Msg) else text


def msg(msgid: str, /, **args: Any) -> Msg:
    """A text: `msgid` is its English template, `{name}` its arguments (points as floats)."""
    # Msg.__new__ inlined: the engine makes thousands of notes for one answer
    self = _new_str(Msg, msgid.format_map({k: f"{v:g}" if type(v) is float else v for k, v in args.items()}))
    self.msgid, self.plural, self.args = msgid, None, args
    return self


_new_str = str.__new__


def text_id(msgid: str, /) -> str:
    """A message id declared where its arguments are not known yet (a table of texts); `msg(id,
    **args)` makes the text later. `make i18n` extracts it as it extracts `msg`."""
    return msgid


def pre(english: str, msgid: str, /, **args: Any) -> str:
    """`msg(msgid, **args)` whose English text the caller has written already (an f-string, for
    the notes made once per player or game; tests/texts check that the two agree). An English
    answer gets the plain string: nothing to render again, no hook when it is encoded."""
    if LANGUAGE.get() == ENGLISH:
        return english
    self = _new_str(Msg, english)
    self.msgid, self.plural, self.args = msgid, None, args
    return self


def msg_n(singular: str, plural: str, n: int, /, **args: Any) -> Msg:
    """A text whose form depends on the count `n` (also an argument, `{n}`)."""
    return Msg(singular, plural, n, {**args, "n": n})


def number(value: float | Fraction) -> str:
    """A number of points as English writes it: 2.5, 3, 0.25."""
    if isinstance(value, Fraction):
        value = value.numerator / value.denominator
    return f"{value:g}"


@contextmanager
def language(code: str) -> Iterator[None]:
    """Encode the texts made inside in the language `code`."""
    token = LANGUAGE.set(code)
    try:
        yield
    finally:
        LANGUAGE.reset(token)


# ---- a text about the input and where it is: the engine's and the prize package's problems
# (both pure, and the prizes must not load the engine and numpy, so the one definition is here)

# A location inside the submitted input, e.g. ("players", 3, "results", 2, "opponent").
Path = tuple[str | int, ...]


def format_path(path: Path, root: str = "") -> str:
    """Render a path as `tournament.players[3].results[2].opponent` (root "tournament")."""
    text = root
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text


@dataclass(frozen=True, slots=True)
class Issue:
    """One problem found in the input, with where it is."""

    path: Path
    message: str
