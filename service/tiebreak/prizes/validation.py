"""Checks of a prize request before anything is distributed: every problem at once, with its path."""

from __future__ import annotations

import re
from decimal import Decimal

from .errors import Path, PrizeInputError, Problem, format_path
from .model import Kind, Prize, PrizeRequest
from .payment import is_multiple
from .text import money
from ..texts.message import msg

DECIMAL = re.compile(r"^[0-9]+(\.[0-9]+)?$")
KINDS = tuple(kind.value for kind in Kind)


def parse_amount(text: str, path: Path) -> Decimal:
    """A non-negative decimal string ("150", "99.50") as a Decimal."""
    if not isinstance(text, str) or not DECIMAL.match(text):
        raise PrizeInputError(
            [Problem(path, f'{text!r} is not an amount: write a non-negative decimal string such as "150" or "99.50"')]
        )
    return Decimal(text)


def validate(request: PrizeRequest) -> None:
    """400 for invalid fields, then 422 for standings that contradict themselves."""
    problems = _field_problems(request)
    if problems:
        raise PrizeInputError(problems, 400)
    problems = _standings_problems(request)
    if problems:
        raise PrizeInputError(problems, 422)


def _field_problems(request: PrizeRequest) -> list[Problem]:
    """The rules' fields, then every prize group and prize: ids given once, known categories, amounts."""
    problems = _rules_problems(request)
    known = sorted(set(request.categories) | {"overall"})
    seen_ids: dict[str, Path] = {}
    seen_groups: set[str | None] = set()
    for group in request.groups:
        if group.id in seen_groups:
            problems.append(Problem((*group.path, "id"), msg("prize group {id} is given twice", id=repr(group.id))))
        seen_groups.add(group.id)
        last_cash: dict[str, tuple[Decimal, Path]] = {}
        for prize in group.prizes:
            if prize.id in seen_ids:
                problems.append(
                    Problem(
                        (*prize.path, "id"),
                        msg(
                            "prize id {id} is used twice (first at {path})",
                            id=repr(prize.id),
                            path=_text(seen_ids[prize.id]),
                        ),
                    )
                )
            seen_ids.setdefault(prize.id, prize.path)
            if prize.category not in known:
                problems.append(
                    Problem(
                        (*prize.path, "category"),
                        msg(
                            "unknown category {category}; the categories are {known}",
                            category=repr(prize.category),
                            known=", ".join(known),
                        ),
                    )
                )
            problems += _amount_problems(prize, request.rules.unit, last_cash)
    return problems


def _rules_problems(request: PrizeRequest) -> list[Problem]:
    """The currency unit, the Hort share kept, and the entries of `identical_priority`."""
    rules = request.rules
    problems: list[Problem] = []
    if rules.unit <= 0:
        problems.append(Problem(("rules", "rounding", "unit"), msg("the currency unit must be greater than 0")))
    if not 0 <= rules.hort_keep <= 1:
        problems.append(
            Problem(
                ("rules", "hort_keep"),
                msg("the part of the own place's prize kept under the Hort system is between 0 and 1 (0.5 for 50 %)"),
            )
        )
    for i, entry in enumerate(rules.identical_priority):
        if entry not in request.categories and entry not in KINDS:
            problems.append(
                Problem(
                    ("rules", "identical_priority", i),
                    msg(
                        "{entry} is neither a category nor a kind of category ({kinds})",
                        entry=repr(entry),
                        kinds=", ".join(KINDS),
                    ),
                )
            )
    return problems


def _amount_problems(prize: Prize, unit: Decimal, last_cash: dict[str, tuple[Decimal, Path]]) -> list[Problem]:
    """A prize's amount: not negative, a whole multiple of the unit, and no larger than the category's
    cash prize before it in the group (`last_cash`, updated here)."""
    if prize.amount < 0:
        return [Problem((*prize.path, "amount"), msg("an amount cannot be negative"))]
    if unit > 0 and not is_multiple(prize.amount, unit):
        return [
            Problem(
                (*prize.path, "amount"),
                msg(
                    "{amount} is finer than the currency unit {unit}: amounts are whole multiples of it",
                    amount=prize.amount,
                    unit=unit,
                ),
            )
        ]
    if prize.amount <= 0:
        return []
    before = last_cash.get(prize.category)
    last_cash[prize.category] = (prize.amount, prize.path)
    if before is not None and prize.amount > before[0]:
        return [
            Problem(
                (*prize.path, "amount"),
                msg(
                    "the prizes of category {category} are won in the order given, so they are listed from the largest down: {amount} follows {before} ({path})",
                    category=repr(prize.category),
                    amount=money(prize.amount),
                    before=money(before[0]),
                    path=_text(before[1]),
                ),
            )
        ]
    return []


def _standings_problems(request: PrizeRequest) -> list[Problem]:
    problems: list[Problem] = []
    root = request.standings_path
    first_row: dict[int, int] = {}
    for i, entrant in enumerate(request.standings):
        if entrant.id in first_row:
            problems.append(
                Problem(
                    (*root, i, "id"),
                    msg(
                        "player {id} appears twice in the standings (also {path})",
                        id=entrant.id,
                        path=_text((*root, first_row[entrant.id])),
                    ),
                )
            )
        first_row.setdefault(entrant.id, i)
        if i and entrant.points > request.standings[i - 1].points:
            problems.append(
                Problem(
                    (*root, i, "points"),
                    (
                        msg(
                            "the standings must be in final order, best first: {points} points after {previous}",
                            points=float(entrant.points),
                            previous=float(request.standings[i - 1].points),
                        )
                    ),
                )
            )
    return problems


def _text(path: Path) -> str:
    return format_path(path)
