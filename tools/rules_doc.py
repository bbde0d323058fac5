"""docs/rules.md, written from the engine's registry and presets (the same source as the engine
and GET /v1/tiebreaks, so the page cannot drift; tests/engine/test_rules_doc.py compares it).

    .venv/bin/python -m tools.rules_doc docs/rules.md

A writer of the docs, so it lives with the tools: the engine computes and does no I/O.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tiebreak.engine.model import Regulations
from tiebreak.engine.presets import PRESETS
from tiebreak.engine.registry import TIEBREAKS
from tiebreak.engine.teams.presets import TEAM_PRESETS
from tiebreak.engine.teams.registry import TEAM_TIEBREAKS, team_aliases

_HEADER = """# Tie-break rules

Generated from the engine's registry by `python -m tools.rules_doc docs/rules.md`;
`GET /v1/tiebreaks` and `GET /v1/presets` answer the same. A code is accepted only under the
rule sets listed for it; aliases are matched case-insensitively, and the response echoes the
canonical spec; whole specs are accepted in their common spellings too (`Buchholz Cut 1`, `BH-C1`,
`BHC1`, `Median-1` are `BH/C1`, `BH/C1`, `BH/C1`, `BH/M1`). Modifiers: `Cn` cut the n least significant values, `Mn` median (n at each
end), `L+n`/`L-n` the Koya limit moved n half points above/below 50 % (C.07 14.5; `L1`..`L9`
the same as `L+1`..`L+9`), `L0`, `Ln` from `L10` or `Ln%` the Koya limit in percent (an alias, decision 0059),
`P` forfeits count as played games, `R` (Koya) the maximum of an odd round robin over every round,
idle rounds included, instead of each opponent's own scheduled games (decision 0060), `W` (DE)
after a player is placed by 6.3 the rest are ordered on the whole group's games, not their own (decision 0061).
"""


def _table(regulations: set[Regulations]) -> list[str]:
    lines = ["| code | name | article | modifiers | aliases | what it is |", "|---|---|---|---|---|---|"]
    for t in TIEBREAKS.values():
        if not t.regulations & regulations:
            continue
        mods = " ".join(sorted(t.modifiers)) or "–"
        aliases = ", ".join(f"`{a}`" for a in t.aliases) or "–"
        extra = (
            " Rating-based: dropped when unrated players take part, unless `unrated_rating` is given."
            if t.rating_based
            else ""
        )
        extra += " Lower is better." if t.lower_is_better else ""
        lines.append(f"| `{t.code}` | {t.name} | {t.citation} | {mods} | {aliases} | {t.description}{extra} |")
    return lines


def render() -> str:
    out = [
        _HEADER,
        "## FIDE (`fide-2026`, `fide-2024`, `fide-2009`, `auto` and `auto-historic`)",
        "",
        *_table({Regulations.FIDE_2026}),
        "",
        "## US Chess (`uscf`)",
        "",
        "Rule 34E of the US Chess Federation's Official Rules of Chess (7th edition). Opponents' scores are",
        "adjusted (each of their unplayed games counts as a draw) and the player's own unplayed games count",
        "as opponents with adjusted score 0 (34E1); see docs/arbiters.md.",
        "",
        *_table({Regulations.USCF}),
        "",
        "## Presets",
        "",
        "FIDE publishes no default order (C.07 4.1); these are conveniences, each with its origin.",
        "",
        "| preset | rules | rule sets | origin |",
        "|---|---|---|---|",
    ]
    for p in PRESETS.values():
        sets = ", ".join(sorted(r.value for r in p.regulations))
        out.append(f"| `{p.name}` | {', '.join(f'`{r}`' for r in p.rules)} | {sets} | {p.origin} |")
    out += ["", *_team_section()]
    return "\n".join(out) + "\n"


def _team_section() -> list[str]:
    """Team events (SPEC 2.5): the rules a team event accepts, and the team presets."""
    lines = [
        "## Team events (`fide-2026`, `fide-2024`)",
        "",
        "A team event (`team_tournament`, or a TRF with team records) accepts these codes; see docs/teams.md.",
        "`:MP` / `:GP` name the reference score where a rule takes one (`BH:GP/C1`); without it the primary",
        "score is used. SSSC's modifiers: `Kn` the normalising factor, `P` forfeits as played, `F` Fore Buchholz.",
        "",
        "| code | name | article | modifiers | `:MP`/`:GP` | aliases | what it is |",
        "|---|---|---|---|---|---|---|",
    ]
    for t in TEAM_TIEBREAKS.values():
        mods = " ".join(sorted(t.modifiers)) or "–"
        aliases = ", ".join(f"`{a}`" for a in team_aliases(t.code)) or "–"
        extra = " Lower is better." if t.lower_is_better else ""
        lines.append(
            f"| `{t.code}` | {t.name} | {t.citation} | {mods} | {'yes' if t.takes_score else '–'} | "
            f"{aliases} | {t.description}{extra} |"
        )
    lines += ["", "### Team presets", "", "| preset | rules | origin |", "|---|---|---|"]
    for p in TEAM_PRESETS.values():
        lines.append(f"| `{p.name}` | {', '.join(f'`{r}`' for r in p.rules)} | {p.origin} |")
    return lines


def main(argv: list[str]) -> int:
    Path(argv[0]).write_text(render(), encoding="utf-8")
    print(f"wrote {argv[0]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
