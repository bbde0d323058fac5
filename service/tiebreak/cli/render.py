"""The commands' renderings of the API's answers: tables, CSV, an arbiter's explanation, a prize
list, the JSON as the API writes it, and the progress bar on stderr."""

from __future__ import annotations

import csv
import io
import sys
import time
from unicodedata import east_asian_width

import msgspec

from ..texts.catalogue import current, json_encoder
from ..texts.message import msg
from ..wire import schemas as s
from ..wire.progression import ProgressionResponse


def number(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


NAME_WIDTH = 28


def shown_name(name: str) -> str:
    """A name for a table column: a long one is cut with a mark, never silently."""
    return name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "…"


def table_text(response: s.StandingsResponse) -> str:
    specs = [t.spec for t in response.tiebreaks]
    # decided_by separates a row from the NEXT one: "Decided by" read as if it placed the row itself
    header = [current(msg("Rank")), "Id", current(msg("Name")), current(msg("Pts")), *specs]
    header.append(current(msg("Ahead of next by")))
    rows = [
        [
            str(row.rank),
            str(row.id),
            shown_name(row.name),
            number(row.points),
            *(number(v) for v in row.values),
            row.decided_by or "",
        ]
        for row in response.standings
    ]
    widths = [max(map(width, (r[i] for r in [header, *rows]))) for i in range(len(header))]
    lines = [
        "  ".join(cell + " " * (w - width(cell)) for cell, w in zip(r, widths, strict=False)).rstrip()
        for r in [header, *rows]
    ]
    footer = [
        current(
            msg(
                "regulations: {regulations}, system: {system}", regulations=response.regulations, system=response.system
            )
        )
        + (current(msg(", after round {round}", round=response.after_round)) if response.after_round else "")
        + (current(msg(", lots drawn with seed {seed}", seed=response.seed)) if response.seed is not None else "")
    ]
    return "\n".join(lines + footer)


def width(text: str) -> int:
    """Columns a text takes in a terminal: Chinese and Japanese characters take two."""
    return len(text) + sum(1 for ch in text if east_asian_width(ch) in "WF")


def print_warnings(response) -> None:
    """Warnings go to stderr in every format, so that stdout stays the table, CSV or JSON alone."""
    for w in response.warnings:
        print(
            current(msg("tiebreak: warning: {message}", message=w.message)) + (f" ({w.rule})" if w.rule else ""),
            file=sys.stderr,
        )


def csv_text(response: s.StandingsResponse) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["rank", "id", "name", "points", *(t.spec for t in response.tiebreaks), "decided_by"])
    for row in response.standings:
        writer.writerow(
            [
                row.rank,
                row.id,
                row.name,
                number(row.points),
                *("" if v is None else f"{v:g}" for v in row.values),
                row.decided_by or "",
            ]
        )
    return out.getvalue()


def json_text(value) -> str:
    """The API's JSON of `value` (the service's encoder), indented."""
    return msgspec.json.format(json_encoder().encode(value).decode()) + "\n"


def progression_table(response: ProgressionResponse) -> str:
    """A row per player in the final order, a column per round: the rank, the points in brackets."""
    header = ["Id", "Name", *(f"R{k}" for k in response.rounds)]
    rows = [
        [
            str(p.id),
            shown_name(p.name),
            *(f"{rank} ({number(pts)})" for rank, pts in zip(p.ranks, p.points, strict=True)),
        ]
        for p in response.players
    ]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip() for r in [header, *rows]]
    rules = ", ".join(t.spec for t in response.tiebreaks) or "points only"
    footer = f"rank (points) after each round; regulations: {response.regulations}, rules: {rules}"
    if response.seed is not None:
        footer += f", lots drawn with seed {response.seed}"
    return "\n".join([*lines, footer])


def progression_csv(response: ProgressionResponse) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["id", "name", *(f"rank_{k}" for k in response.rounds), *(f"points_{k}" for k in response.rounds)])
    for p in response.players:
        writer.writerow([p.id, p.name, *p.ranks, *map(number, p.points)])
    return out.getvalue()


def explain_text(response: s.StandingsResponse, player_id: int) -> str:
    """One player's standing and every contribution, the way an arbiter checks it."""
    rows = {row.id: row for row in response.standings}
    row = rows[player_id]
    names = {r.id: r.name for r in response.standings}
    position = response.standings.index(row)
    scores = (
        msg(
            "{match} match points, {game} game points",
            match=row.match_points,
            game=row.game_points if row.game_points is not None else "-",
        )
        if row.match_points is not None
        else msg("{points} points", points=row.points)
    )  # a team event's row is a team
    lines = [
        current(
            msg(
                "{name} (id {id}): rank {rank} of {count}, {scores}",
                name=row.name or msg("Player"),
                id=row.id,
                rank=row.rank,
                count=len(response.standings),
                scores=scores,
            )
        ),
        current(
            msg(
                "regulations {regulations}, {system}",
                regulations=response.regulations,
                system=response.system.replace("_", " "),
            )
        )
        + (current(msg(", after round {round}", round=response.after_round)) if response.after_round else ""),
    ]
    if position + 1 < len(response.standings):
        following = response.standings[position + 1]
        lines.append(
            current(
                msg(
                    "ahead of {name} (id {id}) by {rule}",
                    name=following.name or str(following.id),
                    id=following.id,
                    rule=row.decided_by or msg("nothing: equal on every rule"),
                )
            )
        )
    for rule, value in zip(response.tiebreaks, row.values, strict=False):
        breakdown = (row.breakdown or {}).get(rule.spec)
        lines.append("")
        lines.append(
            f"{rule.spec}  {current(rule.name)} ({rule.article}) = {number(value)}"
            + (current(msg("  (lower is better)")) if rule.lower_is_better else "")
        )
        if rule.dropped:
            lines.append(current(msg("  dropped: {reason}", reason=rule.dropped)))
        if breakdown is None:
            continue
        if breakdown.note:
            lines.append(f"  {current(breakdown.note)}")
        elif rule.code == "DE" and not breakdown.contributions:
            lines.append(
                current(msg("  not tied with anyone on the rules before it: no games between tied players to compare"))
            )
        for c in breakdown.contributions:
            lines.append("  " + contribution_text(c, names))
    return "\n".join(lines)


def contribution_text(c: s.ContributionOut, names: dict[int, str]) -> str:
    where = f"round {c.round:>2}" if c.round is not None else " " * 8
    if c.opponent is not None:
        what = f"{c.kind} vs {c.opponent} {names.get(c.opponent, '')}".rstrip()
    else:
        what = c.kind + (f" ({c.unplayed})" if c.unplayed else "")
    text = f"{where}  {what:<32} {number(c.value):>7}"
    if c.result is not None:  # Sonneborn-Berger: the two factors, as the JSON carries them
        score = c.counted_score if c.counted_score is not None else c.opponent_score
        text += current(
            msg(
                "  = {score} x {result} (opponent's score x own result)",
                score=number(score),
                result=number(c.result),
            )
        )
    elif c.kind == "encounter":
        text += current(msg("  scored in the game between them (C.07 6)"))
    if c.note:
        text += f"  {current(c.note)}"
    if c.cut:
        text += current(msg("  [cut: {reason}]", reason=c.cut_reason))
    return text.rstrip()


class Progress:
    """A one-line progress bar on stderr (only when stderr is a terminal, unless forced)."""

    def __init__(self, total: int, enabled: bool):
        self.total, self.enabled, self.done, self.failed = total, enabled, 0, 0
        self.started = time.perf_counter()

    def step(self, failed: bool) -> None:
        self.done += 1
        self.failed += failed
        if self.enabled and (self.done == self.total or self.done % max(1, self.total // 200) == 0):
            width = 30
            filled = width * self.done // max(1, self.total)
            rate = self.done / max(time.perf_counter() - self.started, 1e-9)
            sys.stderr.write(
                f"\r[{'#' * filled}{'.' * (width - filled)}] "
                + current(
                    msg(
                        "{done}/{total} files, {failed} failed, {rate} files/s",
                        done=self.done,
                        total=self.total,
                        failed=self.failed,
                        rate=round(rate),
                    )
                )
            )
            if self.done == self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()


def prizes_text(response) -> str:
    """Who gets what, with the reason, the way an organiser reads it out."""
    unit = f"{response.currency} " if response.currency else ""
    computed = response.computed_standings
    paid = msg(
        "Prizes: {paid} paid of {announced} announced",
        paid=unit + str(response.total_paid),
        announced=str(response.total_announced),
    )
    if computed:
        under = (
            msg(
                "standings computed under {regulations}: {rules}",
                regulations=computed.regulations,
                rules=", ".join(computed.tiebreaks),
            )
            if computed.tiebreaks
            else msg("standings computed under {regulations}", regulations=computed.regulations)
        )
        paid = msg("{prizes} ({standings})", prizes=paid, standings=under)
    lines = [current(paid)]
    header = ["Id", current(msg("Name")), current(msg("Pts")), current(msg("Total")), current(msg("Items"))]
    rows = [[str(p.id), shown_name(p.name), number(p.points), p.total, ", ".join(p.items)] for p in response.players]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines += [""] + [
        "  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=False)).rstrip() for r in [header, *rows]
    ]
    lines += ["", current(msg("Why:"))]
    for p in response.players:
        for share in p.prizes:
            lines.append(
                f"  {p.name or current(msg('Player'))} ({p.id}): {share.share}"
                + (f" + {', '.join(share.items)}" if share.items else "")
                + f" - {current(share.why)}"
            )
    if response.unawarded:
        lines += ["", current(msg("Unawarded:"))]
        lines += [f"  {u.name or u.prize} ({u.category}, {u.amount}): {current(u.reason)}" for u in response.unawarded]
    return "\n".join(lines)
