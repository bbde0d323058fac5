"""Words and numbers for the explanations an organiser reads aloud, as catalogue texts
(docs/languages.md): an amount is a `Figure` each language writes with its own signs."""

from __future__ import annotations

from decimal import ROUND_DOWN, Decimal
from fractions import Fraction

from ..texts.message import Figure, Msg, msg, text_id

_ORDINALS = {"st": text_id("{n}st"), "nd": text_id("{n}nd"), "rd": text_id("{n}rd"), "th": text_id("{n}th")}


def ordinal(n: int) -> Msg:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return msg(_ORDINALS[suffix], n=n)


def money(value: Decimal | Fraction | int) -> Figure:
    return Figure(_money(value))


def _money(value: Decimal | Fraction | int) -> str:
    """1100 → "1,100"; 266.5 → "266.50"; 800/3 → "266.67…" (a share that does not end)."""
    if isinstance(value, int):
        value = Decimal(value)
    elif isinstance(value, Fraction):
        if value.denominator == 1:
            value = Decimal(value.numerator)
        else:
            exact = Decimal(value.numerator) / Decimal(value.denominator)
            if exact * value.denominator == value.numerator:
                value = exact
            else:  # does not end: three decimals, cut (not rounded), and an ellipsis
                return f"{exact.quantize(Decimal('0.001'), rounding=ROUND_DOWN):,}…"
    if value == value.to_integral_value():
        return f"{int(value):,}"
    places = max(2, -int(value.normalize().as_tuple().exponent))  # finite: an int
    return f"{value:,.{places}f}"


def points(value: Decimal) -> Figure:
    """4.50 → "4.5", 4.0 → "4"."""
    return Figure(f"{value.normalize():f}")


def names(labels: list[str]) -> str:
    if len(labels) <= 1:
        return "".join(labels)
    return msg("{names} and {last}", names=", ".join(labels[:-1]), last=labels[-1])


def percent(value: Fraction | Decimal) -> Msg:
    return msg("{amount} %", amount=money(Fraction(value) * 100))
