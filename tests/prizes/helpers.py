"""Small builders for prize requests in the package's own model (amounts as text, like the wire)."""

from __future__ import annotations

from decimal import Decimal

from tiebreak.prizes import Category, Entrant, Prize, PrizeGroup, PrizeRequest, Rules, Sharing, TieRule


def entrant(pid: int, points, rating: int | None = None, name: str = "", **kw) -> Entrant:
    return Entrant(id=pid, points=Decimal(str(points)), name=name or f"P{pid}", rating=rating, **kw)


def prize(pid: str, amount: str, category: str = "overall", **kw) -> Prize:
    return Prize(id=pid, amount=Decimal(amount), category=category, **kw)


def request(standings, prizes, categories=None, groups=None, **rules) -> PrizeRequest:
    if "sharing" in rules and isinstance(rules["sharing"], str):
        rules["sharing"] = Sharing(rules["sharing"])
    for key in ("unit", "hort_keep"):
        if key in rules:
            rules[key] = Decimal(rules[key])
    cats = {}
    for name, c in (categories or {}).items():
        c = dict(c)
        if "tie_rule" in c:
            c["tie_rule"] = TieRule(c["tie_rule"])
        if "tags" in c:
            c["tags"] = frozenset(c["tags"])
        cats[name] = Category(name, **c)
    prize_groups = groups or (PrizeGroup(None, tuple(prizes)),)
    return PrizeRequest(tuple(standings), cats, prize_groups, Rules(**rules))


def totals(distribution) -> dict[int, Decimal]:
    return {a.entrant.id: a.total for a in distribution.awards}
