"""The distribution of SPEC 3.8: each prize group on its own, score groups from the top.

A score group (players on equal points, in standings order) **brings in** the prizes
it would win if its ties were broken by the standings order: with one cash prize per
player, the set of available prizes of the greatest total that its members can hold
one each (each category's prizes in their order; identical amounts by the
`identical_priority` of the categories, US Chess 32B4). Who brought in which prize
is decided down the standings order: each member takes the most valuable prize
that still leaves the rest of the set to the others; items (trophies) follow it.

Then the group shares, by the rules:

- `pool`: the sum is divided equally among the members eligible for at least one of
  the prizes (FIDE opens, ECF congresses, US Chess 32B3). Members eligible for a
  restricted prize that others in the tie cannot win divide just that category's
  prizes when that gives them more (the 32B3 exception); with `cap_at_untied_prize`
  nobody receives more than the largest prize they could win without the tie.
- `hort`: each member keeps `hort_keep` of the prize they brought in, and the rest of
  the group's prizes is divided equally (the Hort system).
- `none`: nobody shares; every player is a group of one, so prizes are paid down the
  standings order.

A category with tie rule `tiebreak` or `lowest_rating` is not shared: its prize goes
whole to the member first in the standings order, or to the lowest-rated eligible
member (ECF rating prizes). With one cash prize per player that member takes it only
if it is worth more than a share of the pool; otherwise it is left to lower groups.
Without `one_cash_prize` each category is distributed on its own, shared among the
group's members eligible for it.

Every pool is paid exactly (payment.pay_exactly). Prizes left when the standings run
out are listed as unawarded, with the reason.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from itertools import groupby, islice

from .matching import CategoryMatching
from .model import (
    OVERALL,
    Category,
    Distribution,
    Kind,
    Notice,
    PlayerAward,
    Pool,
    Prize,
    PrizeGroup,
    PrizeRequest,
    Share,
    Sharing,
    TieRule,
    Unawarded,
)
from .payment import pay_exactly, quantized
from ..texts.message import Figure, Joined, msg, msg_n
from .text import money, names, ordinal, percent, points
from .validation import validate

_NO_BOUND = 10**9
# Beyond these, explanations say how many rather than listing them all (a pool of
# thousands of players on 0 points would otherwise repeat every name in every share).
LISTED_PLAYERS = 8
LISTED_PRIZES = 8
SHARED_WITH_LISTED = 100  # a larger pool's shares name no partners: the pool lists its players


def distribute(request: PrizeRequest) -> Distribution:
    """Who receives what, and why. Raises PrizeInputError for input it cannot use."""
    validate(request)
    ledger = _Ledger(request)
    for group in request.groups:
        _PrizeGroupRun(request, group, ledger).run()
    return ledger.result()


class _Ledger:
    """Pools, shares and unawarded prizes as they are decided, over all prize groups."""

    def __init__(self, request: PrizeRequest):
        self.request = request
        self.unit = request.rules.unit
        self.awards: dict[int, PlayerAward] = {}  # standings index -> award
        self.pools: list[Pool] = []
        self.unawarded: list[Unawarded] = []
        self.warnings: list[Notice] = []

    def pool(
        self,
        prize_group: str | None,
        pool_points: Decimal,
        paid: list[tuple[int, Prize | None, Decimal, str]],
        prizes: list[Prize],
        method: str,
        note: str,
        items: dict[int, tuple[str, ...]],
    ) -> None:
        standings = self.request.standings
        pool_id = f"P{len(self.pools) + 1}"
        ids = [standings[i].id for i, *_ in paid]
        total = sum((p.amount for p in prizes), Decimal(0))
        self.pools.append(
            Pool(
                pool_id,
                prize_group,
                pool_points,
                tuple(ids),
                tuple(p.id for p in prizes),
                quantized(total, self.unit),
                method,
                note,
            )
        )
        listed = len(ids) <= SHARED_WITH_LISTED
        for i, brought, amount, why in paid:
            award = self.awards.setdefault(i, PlayerAward(standings[i]))
            own_items = items.get(i, ())
            partners = tuple(x for x in ids if x != standings[i].id) if listed else ()
            award.shares.append(
                Share(standings[i].id, brought.id if brought else None, pool_id, amount, partners, why, own_items)
            )
            award.total += amount
            award.items.extend(own_items)

    def item_prize(self, i: int, prize: Prize, why: str) -> None:
        award = self.awards.setdefault(i, PlayerAward(self.request.standings[i]))
        award.shares.append(
            Share(self.request.standings[i].id, prize.id, None, quantized(Decimal(0), self.unit), (), why, prize.items)
        )
        award.items.extend(prize.items)

    def result(self) -> Distribution:
        unit = self.unit
        announced = sum((p.amount for g in self.request.groups for p in g.prizes), Decimal(0))
        paid = sum((pool.total for pool in self.pools), Decimal(0))
        awards = [self.awards[i] for i in sorted(self.awards)]
        for award in awards:
            award.total = quantized(award.total, unit)
        return Distribution(
            self.request.rules,
            quantized(announced, unit),
            quantized(paid, unit),
            awards,
            self.pools,
            self.unawarded,
            self.warnings,
        )


@dataclass(slots=True)
class _Plan:
    """What one score group brings in, and who brought in which prize."""

    members: list[int]  # standings indices, in order
    signature: dict[int, frozenset[str]]  # member -> open categories they are eligible for
    chosen: list[Prize]  # in priority order
    matching: CategoryMatching  # the chosen prizes assigned to members' signatures
    holder: dict[int, Prize] = field(default_factory=dict)  # member -> the prize they brought in


@dataclass(slots=True)
class _Part:
    """Members sharing some of a group's pooled prizes."""

    members: list[int]
    prizes: list[Prize]
    split_off: list[_ClassPart] = field(default_factory=list)  # class-prize parts taken out of the main pool


@dataclass(slots=True)
class _ClassPart:
    """Members who divide just the prizes of a restricted category that only they can win."""

    members: list[int]
    prizes: list[Prize]
    category: str  # the restricted category its players share
    per_head: Fraction  # what each gets
    full_share: Fraction  # what the full pool would have given each


class _PrizeGroupRun:
    def __init__(self, request: PrizeRequest, group: PrizeGroup, ledger: _Ledger):
        self.rules = request.rules
        self.standings = request.standings
        self.group = group
        self.ledger = ledger
        self.categories: dict[str, Category] = {"overall": OVERALL, **request.categories}
        self.category_order = {name: i for i, name in enumerate(self.categories)}
        self.priority = {name: self._priority(name, c) for name, c in self.categories.items()}
        self.sequence = {p.id: i for i, p in enumerate(group.prizes)}
        self.labels: dict[str, str] = {}
        self.place_in_category: dict[str, int] = {}
        self.available: dict[str, deque[Prize]] = {}
        self.items_only: dict[str, list[Prize]] = {}
        seen: Counter = Counter()
        for prize in group.prizes:
            seen[prize.category] += 1
            self.place_in_category[prize.id] = seen[prize.category]
            self.labels[prize.id] = prize.name or msg(
                "{ordinal} {category}", ordinal=ordinal(seen[prize.category]), category=prize.category
            )
            if prize.amount > 0:
                self.available.setdefault(prize.category, deque()).append(prize)
            else:
                self.items_only.setdefault(prize.category, []).append(prize)
        used = set(self.available) | set(self.items_only)
        self.eligible = {name: [self.categories[name].admits(e) for e in self.standings] for name in used}
        # the players on the same points, for the explanations
        self.score_group: list[int] = []
        self.score_groups: list[list[int]] = []
        for number, (_, rows) in enumerate(groupby(range(len(self.standings)), key=lambda i: self.standings[i].points)):
            self.score_groups.append(list(rows))
            self.score_group += [number] * len(self.score_groups[-1])

    # ---- orderings ----

    def _priority(self, name: str, category: Category) -> int:
        order = self.rules.identical_priority
        if name in order:
            return order.index(name)
        if category.kind.value in order:
            return order.index(category.kind.value)
        return len(order)

    def key(self, prize: Prize):
        """Most valuable first; identical amounts by category priority (US Chess 32B4: place, then the
        highest rating class, then other prizes), then the order of the request."""
        category = self.categories[prize.category]
        if category.kind is Kind.RATING:
            rank = (
                -(category.rating_below if category.rating_below is not None else _NO_BOUND),
                -(category.rating_at_least or 0),
            )
        else:
            rank = (0, 0)
        return (
            -prize.amount,
            self.priority[prize.category],
            rank,
            self.category_order[prize.category],
            self.sequence[prize.id],
        )

    def tie_rule(self, prize: Prize) -> TieRule:
        return self.categories[prize.category].tie_rule

    def rating_order(self, i: int):
        rating = self.standings[i].rating
        return (rating if rating is not None else _NO_BOUND, i)

    # ---- the run ----

    def run(self) -> None:
        n = len(self.standings)
        if self.rules.sharing is Sharing.NONE:
            groups = [[i] for i in range(n)]
        else:
            groups = [list(rows) for _, rows in groupby(range(n), key=lambda i: self.standings[i].points)]
        for members in groups:
            if not any(self.available.values()):
                break
            if self.rules.one_cash_prize:
                self._one_prize_each(members)
            else:
                self._category_by_category(members)
        self._items_only()
        self._leftovers()

    def _one_prize_each(self, members: list[int]) -> None:
        declined: set[str] = set()
        while True:
            plan = self._plan(members, declined)
            if plan is None:
                return
            refused = self._refused_whole_prize(plan)
            if refused is None:
                break
            declined.add(refused.id)
        self._pay_plan(plan)
        for prize in plan.chosen:
            self.available[prize.category].remove(prize)

    def _plan(self, members: list[int], declined: set[str]) -> _Plan | None:
        open_categories = [c for c, queue in self.available.items() if queue]
        signature = {i: frozenset(c for c in open_categories if self.eligible[c][i]) for i in members}
        supply = Counter(s for s in signature.values() if s)
        if not supply:
            return None
        wanted = Counter(c for s in signature.values() for c in s)
        # a category's k-th prize can only be won if its first k-1 are: the first few are enough
        candidates = sorted((p for c in open_categories for p in islice(self.available[c], wanted[c])), key=self.key)
        matching = CategoryMatching(supply)
        places = sum(supply.values())
        chosen: list[Prize] = []
        blocked: set[str] = set()
        for prize in candidates:
            if len(chosen) == places:
                break
            if prize.category in blocked:
                continue
            # greedy by value is optimal here: the sets of prizes that can go to distinct
            # members form a matroid, so the greatest total is taken most valuable first
            if prize.id in declined or not matching.add(prize.category):
                blocked.add(prize.category)
                continue
            chosen.append(prize)
        if not chosen:
            return None
        plan = _Plan(members, signature, chosen, matching)
        self._bringers(plan)
        return plan

    def _bringers(self, plan: _Plan) -> None:
        """Who brings in which chosen prize: lowest-rating prizes to the lowest-rated member who can
        hold them, then every other member in standings order takes the most valuable prize that
        leaves the rest of the set to the others."""
        remaining: dict[str, deque[Prize]] = {}
        for prize in plan.chosen:
            remaining.setdefault(prize.category, deque()).append(prize)
        signature, matching = plan.signature, plan.matching

        def take(i: int, category: str) -> bool:
            if matching.commit(signature[i], category):
                plan.holder[i] = remaining[category].popleft()
                return True
            return False

        for prize in plan.chosen:
            if self.tie_rule(prize) is TieRule.LOWEST_RATING:
                candidates = sorted(
                    (i for i in plan.members if i not in plan.holder and prize.category in signature[i]),
                    key=self.rating_order,
                )
                for i in candidates:
                    if take(i, prize.category):
                        break
        for i in plan.members:
            if not any(remaining.values()):
                break
            if i in plan.holder or not signature[i]:
                continue
            options = sorted((c for c in signature[i] if remaining.get(c)), key=lambda c: self.key(remaining[c][0]))
            if not any(take(i, c) for c in options):
                matching.release(signature[i])  # holds nothing; the others hold the rest

    def _whole_and_pooled(self, plan: _Plan) -> tuple[list[tuple[int, Prize]], list[Prize], list[int]]:
        whole = sorted(
            ((i, p) for i, p in plan.holder.items() if self.tie_rule(p) is not TieRule.SHARE), key=lambda pair: pair[0]
        )
        holders = {i for i, _ in whole}
        pooled = [p for p in plan.chosen if self.tie_rule(p) is TieRule.SHARE]
        pooled_categories = {p.category for p in pooled}
        members = [i for i in plan.members if i not in holders and not plan.signature[i].isdisjoint(pooled_categories)]
        return whole, pooled, members

    def _refused_whole_prize(self, plan: _Plan) -> Prize | None:
        """A prize that is not shared, whose holder would get more from the pool (one cash prize each:
        the larger one); it is then left to lower groups."""
        whole, pooled, members = self._whole_and_pooled(plan)
        if not whole or not pooled or self.rules.sharing is Sharing.NONE:
            return None
        total = Fraction(sum(p.amount for p in pooled))
        pooled_categories = {p.category for p in pooled}
        for i, prize in sorted(whole, key=lambda pair: self.key(pair[1])):
            if not plan.signature[i].isdisjoint(pooled_categories) and total / (len(members) + 1) > prize.amount:
                return prize
        return None

    # ---- paying one score group ----

    def _pay_plan(self, plan: _Plan) -> None:
        if self.rules.sharing is Sharing.NONE:  # a group of one: the prize it brought in
            for i, prize in sorted(plan.holder.items()):
                self._pay_whole(i, prize)
            return
        whole, pooled, members = self._whole_and_pooled(plan)
        for i, prize in whole:
            self._pay_whole(i, prize)
        if not pooled:
            return
        own = {i: plan.holder[i] for i in members if i in plan.holder}
        if self.rules.sharing is Sharing.HORT:
            self._pay_hort(plan.members, members, pooled, own)
        else:
            caps = None
            if self.rules.cap_at_untied_prize and self.rules.sharing is Sharing.POOL:
                caps = {i: max(self.available[c][0].amount for c in plan.signature[i]) for i in members}
            self._pay_pool(plan.members, members, pooled, own, caps, plan.signature)

    def _category_by_category(self, members: list[int]) -> None:
        """Without one cash prize per player: each category's prizes go to the group's members eligible
        for it, shared among them."""
        for name, queue in self.available.items():
            eligible = [i for i in members if self.eligible[name][i]]
            count = min(len(eligible), len(queue))
            if not count:
                continue
            chosen = [queue.popleft() for _ in range(count)]
            rule = self.categories[name].tie_rule
            order = sorted(eligible, key=self.rating_order) if rule is TieRule.LOWEST_RATING else eligible
            holder = dict(zip(order, chosen, strict=False))
            if self.rules.sharing is Sharing.NONE or rule is not TieRule.SHARE:
                for i in sorted(holder):
                    self._pay_whole(i, holder[i])
            elif self.rules.sharing is Sharing.HORT:
                self._pay_hort(members, eligible, chosen, holder)
            else:
                signature = {i: frozenset({name}) for i in eligible}
                self._pay_pool(members, eligible, chosen, holder, None, signature)

    # ---- the payments and their explanations ----

    def _is_tied(self, i: int) -> bool:
        return len(self.score_groups[self.score_group[i]]) > 1

    def _tied_text(self, i: int) -> str:
        at = points(self.standings[i].points)
        if not self._is_tied(i):
            return msg("alone on {points}", points=at)
        group = self.score_groups[self.score_group[i]]
        others = self._names([j for j in group[: LISTED_PLAYERS + 1] if j != i], len(group) - 1)
        return msg("tied on {points} with {players}", points=at, players=others)

    def _names(self, rows: list[int], count: int | None = None) -> str:
        """The players' names, the first few of `count` (default: all of `rows`)."""
        count = len(rows) if count is None else count
        if count > LISTED_PLAYERS:
            shown = [self.standings[j].label for j in rows[: LISTED_PLAYERS - 1]]
            return msg("{names} and {others} others", names=", ".join(shown), others=Figure(f"{count - len(shown):,}"))
        return names([self.standings[j].label for j in rows])

    def _listing(self, prizes: list[Prize]) -> str:
        shown = prizes if len(prizes) <= LISTED_PRIZES else prizes[: LISTED_PRIZES - 2]
        parts: list[str] = []
        for p in shown:
            parts += [" + ", self.labels[p.id], " ", money(p.amount)]
        if len(shown) < len(prizes):
            more = len(prizes) - len(shown)
            parts += [" + ", msg_n("{n} more prize", "{n} more prizes", more)]
        return Joined(*parts[1:])

    def _sum(self, prizes: list[Prize]) -> Decimal:
        return sum((p.amount for p in prizes), Decimal(0))

    def _items(self, own: dict[int, Prize]) -> dict[int, tuple[str, ...]]:
        return {i: p.items for i, p in own.items() if p.items}

    def _record(
        self,
        paid_members: list[int],
        exact: list[Fraction],
        prizes: list[Prize],
        own: dict[int, Prize],
        method: str,
        note: str,
        whys: list[str],
    ) -> None:
        total = self._sum(prizes)
        paid = pay_exactly(exact, total, self.rules.unit)
        rows = []
        for i, share, amount, why in zip(paid_members, exact, paid, whys, strict=True):
            if Fraction(amount) != share:
                paid_text = msg(
                    "paid {amount}: shares are floored to the unit ({unit}) and the units left over go to the "
                    "largest remainders, earlier players first",
                    amount=money(amount),
                    unit=Figure(str(self.rules.unit)),
                )
                why = Joined(why, "; ", paid_text)
            rows.append((i, own.get(i), amount, why))
        self.ledger.pool(
            self.group.id, self.standings[paid_members[0]].points, rows, prizes, method, note, self._items(own)
        )

    def _alone_text(self, i: int, what: str) -> str:
        return msg("alone on {points}: {prizes}", points=points(self.standings[i].points), prizes=what)

    def _pay_whole(self, i: int, prize: Prize) -> None:
        """A prize paid whole to one player: no sharing at all, or a category that is not shared."""
        what = Joined(self.labels[prize.id], " ", money(prize.amount))
        why: str
        if self.rules.sharing is Sharing.NONE:
            method = "none"
            why = (
                Joined(self._tied_text(i), "; ", msg("no sharing, the standings order decides: {prize}", prize=what))
                if self._is_tied(i)
                else msg("{ordinal} in the standings: {prize}", ordinal=ordinal(i + 1), prize=what)
            )
        elif self.tie_rule(prize) is TieRule.LOWEST_RATING:
            method = "lowest_rating"
            lowest = msg(
                "{prize} is not shared: it goes to the lowest-rated eligible player ({rating}) without a larger prize",
                prize=what,
                rating=str(self.standings[i].rating),
            )
            why = Joined(self._tied_text(i), "; ", lowest) if self._is_tied(i) else self._alone_text(i, what)
        else:
            method = "tiebreak"
            by_order = msg("{prize} is not shared: it goes by the standings order (tie-break)", prize=what)
            why = Joined(self._tied_text(i), "; ", by_order) if self._is_tied(i) else self._alone_text(i, what)
        self._record([i], [Fraction(prize.amount)], [prize], {i: prize}, method, why, [why])

    def _pay_pool(
        self,
        group: list[int],
        members: list[int],
        prizes: list[Prize],
        own: dict[int, Prize],
        caps: dict[int, Decimal] | None,
        signature: dict[int, frozenset[str]],
    ) -> None:
        """The group's pooled prizes shared by its eligible `members` (of the score group `group`):
        first the parts only some of them can win (US Chess 32B3), then the rest equally, capped
        at `caps` when given."""
        brought = (
            msg("the group brings in {prizes} = {total}", prizes=self._listing(prizes), total=money(self._sum(prizes)))
            if len(prizes) > 1
            else msg("the group brings in {prizes}", prizes=self._listing(prizes))
        )
        if len(members) == 1:
            i = members[0]
            text = (
                Joined(self._tied_text(i), "; ", brought, "; ", msg("the only one eligible"))
                if self._is_tied(i)
                else self._alone_text(i, self._listing(prizes))
            )
            self._record(members, [Fraction(self._sum(prizes))], prizes, own, "pool", text, [text])
            return
        main = (
            self._class_prize_parts(members, prizes, signature)
            if self.rules.one_cash_prize
            else _Part(list(members), list(prizes))
        )
        for part in main.split_off:
            self._pay_class_part(part, brought, own)
        if main.members:
            self._pay_equally(main, brought, self._sharing_text(main, members, group), own, caps)

    def _pay_class_part(self, part: _ClassPart, brought: str, own: dict[int, Prize]) -> None:
        """US Chess 32B3: the members eligible for a restricted prize divide just the prizes only they can win."""
        who = self._names(part.members)
        if len(part.members) == 1:
            note = msg(
                "{players}, the only one of them eligible for {category}, takes just {prizes}: more than the "
                "{share} each of the whole pool (US Chess 32B3)",
                players=who,
                category=part.category,
                prizes=self._listing(part.prizes),
                share=money(part.full_share),
            )
        else:
            note = msg(
                "{players}, the only ones of them eligible for {category}, divide just {prizes} → {each} each: "
                "more than the {share} each of the whole pool (US Chess 32B3)",
                players=who,
                category=part.category,
                prizes=self._listing(part.prizes),
                each=money(part.per_head),
                share=money(part.full_share),
            )
        exact = [part.per_head] * len(part.members)
        whys: list[str] = [Joined(self._tied_text(i), "; ", brought, "; ", note) for i in part.members]
        self._record(part.members, exact, part.prizes, own, "class_prize", note, whys)

    def _sharing_text(self, main: _Part, members: list[int], group: list[int]) -> str:
        """Who shares the pool that is left: the others after the class-prize parts, or the eligible members."""
        if main.split_off:
            gone = [i for part in main.split_off for i in part.members]
            restricted = names(sorted({part.category for part in main.split_off}))
            instead = msg_n(
                "{players} takes only the {categories} prize instead (US Chess 32B3)",
                "{players} take only the {categories} prizes instead (US Chess 32B3)",
                len(gone),
                players=self._names(gone),
                categories=restricted,
            )
            others_share = (
                msg(
                    "the other {count} share {prizes} = {total}",
                    count=len(main.members),
                    prizes=self._listing(main.prizes),
                    total=money(self._sum(main.prizes)),
                )
                if len(main.prizes) > 1
                else msg("the other {count} share {prizes}", count=len(main.members), prizes=self._listing(main.prizes))
            )
            return Joined("; ", instead, "; ", others_share)
        if len(members) == len(group):
            eligible = msg("both eligible") if len(group) == 2 else msg("all {count} eligible", count=len(group))
            return Joined("; ", eligible)
        return Joined("; ", msg("{count} of the {total} eligible", count=len(members), total=len(group)))

    def _pay_equally(
        self, main: _Part, brought: str, share_text: str, own: dict[int, Prize], caps: dict[int, Decimal] | None
    ) -> None:
        """The pool divided equally among `main.members`; with caps, what a cap holds back goes to the others."""
        total = Fraction(self._sum(main.prizes))
        exact = [total / len(main.members)] * len(main.members)
        capped: dict[int, Fraction] = {}
        if caps is not None:
            exact, capped = self._water_fill(main.members, total, caps)
        whys: list[str] = []
        for i, share in zip(main.members, exact, strict=True):
            text = Joined(self._tied_text(i), "; ", brought, share_text)
            if i in capped:
                cap_text = msg(
                    "capped at {cap}, the largest prize {player} could win without the tie (US Chess 32B3)",
                    cap=money(capped[i]),
                    player=self.standings[i].label,
                )
                text = Joined(text, "; ", cap_text)
            elif capped:
                rest = total - sum(capped.values())
                after = msg(
                    "after the cap of {players}, {rest} / {count} → {share} each",
                    players=self._names(list(capped)),
                    rest=money(rest),
                    count=len(main.members) - len(capped),
                    share=money(share),
                )
                text = Joined(text, "; ", after)
            else:
                text = Joined(text, " ", msg("→ {share} each", share=money(share)))
            whys.append(text)
        listing = self._listing(main.prizes)
        note = (
            msg(
                "{prizes} shared equally by {count}, capped at the largest prize each could win without the tie",
                prizes=listing,
                count=len(main.members),
            )
            if capped
            else msg("{prizes} shared equally by {count}", prizes=listing, count=len(main.members))
        )
        self._record(main.members, exact, main.prizes, own, "pool", note, whys)

    def _class_prize_parts(
        self, members: list[int], prizes: list[Prize], signature: dict[int, frozenset[str]]
    ) -> _Part:
        """US Chess 32B3: tied players eligible for a restricted prize that others in the tie cannot
        win divide just the prizes only they can win, when that gives them more than the whole pool
        (the group that gains most first; inside it, the same again)."""
        main = _Part(list(members), list(prizes))
        while len(main.members) > 1:
            share = Fraction(self._sum(main.prizes)) / len(main.members)
            in_pool = {p.category for p in main.prizes}
            eligible = {c: frozenset(i for i in main.members if c in signature[i]) for c in in_pool}
            best: _ClassPart | None = None
            for category in sorted(in_pool, key=lambda c: self.key(next(p for p in main.prizes if p.category == c))):
                group = eligible[category]
                if not self.categories[category].restricted or len(group) == len(main.members):
                    continue
                # the prizes nobody outside this group could win (this category's, and any narrower)
                only_theirs = [p for p in main.prizes if eligible[p.category] <= group]
                per_head = Fraction(self._sum(only_theirs)) / len(group)
                if per_head > share and (best is None or per_head > best.per_head):
                    best = _ClassPart(
                        [i for i in main.members if i in group],
                        only_theirs,
                        category=category,
                        per_head=per_head,
                        full_share=share,
                    )
            if best is None:
                break
            inner = self._class_prize_parts(best.members, best.prizes, signature)
            main.split_off.append(
                _ClassPart(
                    inner.members,
                    inner.prizes,
                    category=best.category,
                    per_head=Fraction(self._sum(inner.prizes)) / len(inner.members),
                    full_share=share,
                )
            )
            main.split_off += inner.split_off
            main.members = [i for i in main.members if i not in set(best.members)]
            main.prizes = [p for p in main.prizes if p not in best.prizes]
        return main

    def _water_fill(
        self, members: list[int], total: Fraction, caps: dict[int, Decimal]
    ) -> tuple[list[Fraction], dict[int, Fraction]]:
        """Equal shares, except that nobody gets more than their cap; what a cap holds back is
        shared by the others."""
        shares: dict[int, Fraction] = {}
        capped: dict[int, Fraction] = {}
        remaining = total
        order = sorted(members, key=lambda i: (caps[i], i))
        for k, i in enumerate(order):
            equal = remaining / (len(order) - k)
            if caps[i] < equal:
                shares[i] = capped[i] = Fraction(caps[i])
                remaining -= shares[i]
            else:
                for j in order[k:]:
                    shares[j] = equal
                remaining = Fraction(0)
                break
        if remaining:  # every member capped and money left: nobody can take it under the cap
            extra = remaining / len(members)
            shares = {i: s + extra for i, s in shares.items()}
            capped = {}
            self.ledger.warnings.append(
                Notice(
                    "cap-lifted",
                    msg(
                        "the caps of {players} would leave {amount} of their pool unpaid; it is shared equally on "
                        "top of the caps",
                        players=self._names(members),
                        amount=money(remaining),
                    ),
                )
            )
        return [shares[i] for i in members], capped

    def _pay_hort(self, group: list[int], members: list[int], prizes: list[Prize], own: dict[int, Prize]) -> None:
        keep = Fraction(self.rules.hort_keep)
        total = Fraction(self._sum(prizes))
        pot = (1 - keep) * total
        each = pot / len(members)
        exact, whys = [], []
        for i in members:
            kept = keep * Fraction(own[i].amount) if i in own else Fraction(0)
            exact.append(kept + each)
            if len(members) == 1 and not self._is_tied(i):
                whys.append(self._alone_text(i, self._listing(prizes)))
                continue
            mine = (
                msg(
                    "keeps {percent} of {prize} ({amount} → {kept})",
                    percent=percent(keep),
                    prize=self.labels[own[i].id],
                    amount=money(own[i].amount),
                    kept=money(kept),
                )
                if i in own
                else msg("brought no prize in, keeps nothing")
            )
            pot_text = msg(
                "{kept} + an equal share of the pot ({pot} / {count} = {each}) (Hort system)",
                kept=mine,
                pot=money(pot),
                count=len(members),
                each=money(each),
            )
            whys.append(Joined(self._tied_text(i), "; ", pot_text))
        note = msg(
            "each keeps {keep} of the prize they brought in; the other {rest} of {prizes} is shared equally by {count}",
            keep=percent(keep),
            rest=percent(1 - keep),
            prizes=self._listing(prizes),
            count=len(members),
        )
        self._record(members, exact, prizes, own, "hort", note, whys)

    # ---- items only, and what is left ----

    def _items_only(self) -> None:
        """A prize of items only (amount 0) goes by the standings order: the k-th prize of a
        category to the k-th eligible player (lowest rating first among equal points for
        `lowest_rating`)."""
        for name, prizes in self.items_only.items():
            eligible = [i for i, ok in enumerate(self.eligible[name]) if ok]
            if self.categories[name].tie_rule is TieRule.LOWEST_RATING:
                eligible.sort(key=lambda i: (self.score_group[i], *self.rating_order(i)))
            for prize in prizes:
                k = self.place_in_category[prize.id] - 1
                if k < len(eligible):
                    i = eligible[k]
                    self.ledger.item_prize(
                        i,
                        prize,
                        msg(
                            "{prize} ({items}): the {ordinal} player eligible for {category} in the standings order",
                            prize=self.labels[prize.id],
                            items=", ".join(prize.items) or msg("no items"),
                            ordinal=ordinal(k + 1),
                            category=name,
                        ),
                    )
                elif not eligible:
                    self._unawarded(prize, _nobody_eligible(name))
                else:
                    self._unawarded(
                        prize,
                        msg(
                            "only {count} player(s) are eligible for category {category}",
                            count=len(eligible),
                            category=repr(name),
                        ),
                    )

    def _leftovers(self) -> None:
        nobody = [name for name, flags in self.eligible.items() if not any(flags)]
        for name in nobody:
            ids = [p.id for p in self.group.prizes if p.category == name]
            self.ledger.warnings.append(
                Notice(
                    "category-without-players",
                    msg(
                        "nobody in the standings is eligible for category {category}: its prize(s) {prizes} are "
                        "unawarded",
                        category=repr(name),
                        prizes=", ".join(ids),
                    ),
                )
            )
        left = []
        for name, queue in self.available.items():
            for prize in queue:
                if name in nobody:
                    self._unawarded(prize, _nobody_eligible(name))
                else:
                    left.append(prize)
                    self._unawarded(
                        prize,
                        msg("every player eligible for it won a larger prize or a share of one")
                        if self.rules.one_cash_prize
                        else msg("fewer players are eligible for {category} than it has prizes", category=name),
                    )
        if left:
            self.ledger.warnings.append(
                Notice(
                    "prizes-unawarded",
                    msg("{prizes} could not be awarded: no eligible player was left", prizes=self._listing(left)),
                )
            )

    def _unawarded(self, prize: Prize, reason: str) -> None:
        self.ledger.unawarded.append(Unawarded(prize, self.group.id, reason))


def _nobody_eligible(category: str) -> str:
    return msg("nobody in the standings is eligible for category {category}", category=repr(category))
