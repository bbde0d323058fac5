"""Prize money for tied players (SPEC 2.7 and 3.8): pooling, the Hort system, US Chess 32B.

A pure package: the standard library only, `Decimal` amounts, exact fractions for
shares, paid to the currency unit. The web layer builds a `PrizeRequest` from the
final standings (computed by the standings pipeline when asked) and reads the
`Distribution` back; nothing here knows about HTTP or JSON.
"""

from .distribute import distribute
from .errors import PrizeInputError, Problem, format_path
from .model import (
    Category,
    Distribution,
    Entrant,
    Kind,
    Notice,
    PlayerAward,
    Pool,
    Prize,
    PrizeGroup,
    PrizeRequest,
    Rules,
    Share,
    Sharing,
    TieRule,
    Unawarded,
)
from .validation import parse_amount

__all__ = [
    "Category",
    "Distribution",
    "Entrant",
    "Kind",
    "Notice",
    "PlayerAward",
    "Pool",
    "Prize",
    "PrizeGroup",
    "PrizeInputError",
    "PrizeRequest",
    "Problem",
    "Rules",
    "Share",
    "Sharing",
    "TieRule",
    "Unawarded",
    "distribute",
    "format_path",
    "parse_amount",
]
