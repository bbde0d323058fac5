"""A TRF's own rule list (records 202/212), read leniently: the client did not write it.

A modifier the rule does not take is left out (the rule kept), and a rule that cannot be read
even bare is skipped, each with a warning naming where it is in the file (`trf:LINE:COL`),
rather than refusing the file. Individual and team events read their lists the same way.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..engine.errors import InvalidRequest
from ..engine.interop import not_a_tiebreak
from ..engine.rules import RuleSpec
from ..engine.standings import Warning

ReadRules = Callable[[list[str]], list[RuleSpec]]  # strict: raises InvalidRequest on what it cannot read


def where_in_the_file(text: str | None, item: str) -> str:
    """`record 202 at trf:LINE:COL` of a rule of the file's list (202, else 212), for a warning."""
    if text is not None:
        lines = re.split(r"\r\n|\r|\n", text.removeprefix("\ufeff"))
        for record in ("202", "212"):
            for number, line in enumerate(lines, start=1):
                if line.startswith(record) and item in line[3:]:
                    return f"record {record} at trf:{number}:{line.index(item, 3) + 1}"
    return "record 202/212"


def rules_of_the_file(text: str | None, items: list[str], read: ReadRules, warnings: list[Warning]) -> list[RuleSpec]:
    """The rules of the file's list that `read` can compute, with a warning for each one changed or
    skipped and one naming the list taken."""
    specs: list[RuleSpec] = []
    for item in items:
        code, *kept = item.split("/")
        dropped: list[str] = []
        while True:
            try:
                specs += read(["/".join([code, *kept])])
            except InvalidRequest as exc:
                if kept:
                    dropped.insert(0, kept.pop())
                    continue
                reason = not_a_tiebreak(item) or exc.issues[0].message
                message = f"{where_in_the_file(text, item)}: rule {item!r} skipped: {reason}"
                warnings.append(Warning("trf-rule-skipped", message, None))
                break
            if dropped:
                message = (
                    f"{where_in_the_file(text, item)}: rule {item!r} computed as {'/'.join([code, *kept])!r}: "
                    f"{code} does not take the modifier {'/'.join(dropped)} here, so it is left out"
                )
                warnings.append(Warning("trf-modifier-dropped", message, None))
            break
    warnings.append(
        Warning(
            "tiebreaks-from-trf",
            "rule list taken from the TRF's record 202/212: " + (", ".join(map(str, specs)) or "no rule it could use"),
            None,
        )
    )
    return specs
