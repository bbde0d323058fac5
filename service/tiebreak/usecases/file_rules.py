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
from ..texts.message import msg

ReadRules = Callable[[list[str]], list[RuleSpec]]  # strict: raises InvalidRequest on what it cannot read


def where_in_the_file(text: str | None, item: str) -> str:
    """`record 202 at trf:LINE:COL` of a rule of the file's list (202, else 212), for a warning."""
    if text is not None:
        lines = re.split(r"\r\n|\r|\n", text.removeprefix("\ufeff"))
        for record in ("202", "212"):
            for number, line in enumerate(lines, start=1):
                if line.startswith(record) and item in line[3:]:
                    return msg(
                        "record {record} at trf:{line}:{column}",
                        record=record,
                        line=number,
                        column=line.index(item, 3) + 1,
                    )
    return msg("record 202/212")


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
                message = msg(
                    "{where}: rule {rule} skipped: {why}",
                    where=where_in_the_file(text, item),
                    rule=repr(item),
                    why=reason,
                )
                warnings.append(Warning("trf-rule-skipped", message, None))
                break
            if dropped:
                message = msg(
                    "{where}: rule {rule} computed as {computed}: {code} does not take the modifier {modifier} "
                    "here, so it is left out",
                    where=where_in_the_file(text, item),
                    rule=repr(item),
                    computed=repr("/".join([code, *kept])),
                    code=code,
                    modifier="/".join(dropped),
                )
                warnings.append(Warning("trf-modifier-dropped", message, None))
            break
    taken = (
        msg("rule list taken from the TRF's record 202/212: {rules}", rules=", ".join(map(str, specs)))
        if specs
        else msg("rule list taken from the TRF's record 202/212: no rule it could use")
    )
    warnings.append(Warning("tiebreaks-from-trf", taken, None))
    return specs
