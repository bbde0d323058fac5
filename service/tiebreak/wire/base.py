"""The ground every wire struct stands on: the strict request base, the response base, field
descriptions and the scalar types with their bounds (read from the limits at start-up)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from .limits import LIMITS


def doc(text: str) -> Meta:
    """A field's description for the OpenAPI document."""
    return Meta(description=text)


class Strict(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    """Base of every request struct.

    forbid_unknown_fields: a misspelt field ("tiebreak", "after_rounds") is an
    error, not a silently ignored option. frozen: decoded input is never mutated.
    """


class Out(msgspec.Struct, frozen=True, kw_only=True):
    """Base of every response struct: every field is always present, null when empty."""


ResultName = Literal[
    "win",
    "draw",
    "loss",
    "forfeit_win",
    "forfeit_loss",
    "pairing_bye",
    "full_bye",
    "half_bye",
    "zero_bye",
    "absent",
]
ColorName = Literal["w", "b"]
SystemName = Literal["swiss", "round_robin"]
RegulationsName = Literal["auto", "auto-historic", "fide-2026", "fide-2024", "fide-2009", "uscf"]
AppliedRegulations = Literal["fide-2026", "fide-2024", "fide-2009", "uscf"]
PresetName = Annotated[
    str,
    Meta(
        min_length=1,
        max_length=60,
        examples=["uscf-default"],
        description="A named rule list of GET /v1/presets, instead of `tiebreaks`",
    ),
]

PlayerId = Annotated[int, Meta(ge=1, le=LIMITS.max_player_id, description="Start number")]
RoundNumber = Annotated[int, Meta(ge=1, le=LIMITS.max_rounds)]
Points = Annotated[
    float, Meta(ge=0, le=LIMITS.max_points_per_round, description="Points; at most two decimals (0.5, 0.25, 3)")
]
Rating = Annotated[int, Meta(ge=0, le=LIMITS.max_rating, description="0 or absent: unrated")]
ShortText = Annotated[str, Meta(max_length=200)]
TrfText = Annotated[str, Meta(max_length=LIMITS.max_trf_chars)]
# At most 2**53 - 1, so a client that reads JSON numbers as doubles keeps it exact (engine/families/lots.py).
Seed = Annotated[int, Meta(ge=0, le=2**53 - 1, description="The seed of the drawing of lots (RND)")]

REGULATIONS_DOC = (
    "The rule set: `fide-2026`, `fide-2024` (FIDE C.07 before 2026-03-01), `fide-2009` "
    "(before 2024-04-01), `uscf` (US Chess rule 34), or `auto`: `uscf` with a US Chess "
    "preset, else fide-2026 or, for a start before 2026-03-01, fide-2024; `auto-historic`: "
    "as `auto`, but fide-2009 for a start before 2024-04-01 (archives)"
)
TIEBREAKS_DOC = (
    "The rules after points, in order: strings (`BH/C1`, `KS/L40`, aliases such as "
    "`Buchholz Cut 1`) or objects; the catalogue is GET /v1/tiebreaks"
)
EXPLAIN_DOC = (
    "Include every player's breakdown: each contribution each rule summed, cut or not and "
    "why (default true on every endpoint)"
)
AFTER_ROUND_DOC = "Standings after this round: later rounds are not counted"
SEED_DOC = (
    "The seed of the drawing of lots (rule RND): the same seed gives the same draw; without one the "
    "service draws a seed and the answer's `seed` echoes it, so the draw can be reproduced"
)
SEED_OUT_DOC = "The seed of the drawing of lots (given or drawn) when the rules include RND; else null"
UNRATED_DOC = (
    "The rating unrated players count as; without it the rating-based rules are dropped "
    "when an unrated player takes part (C.07 10)"
)
