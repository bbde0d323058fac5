"""Build TRF text for tests, column by column as the FIDE description lays it out."""

from __future__ import annotations


def player(
    number: int,
    name: str = "",
    rating: int | None = None,
    rounds: list[tuple[int, str, str] | None] = (),
    points: str = "",
    rank: str = "",
) -> str:
    """An 001 line; each round is (opponent, colour, code) or None for a blank block."""
    head = f"001 {number:>4}      {name:<33} {rating or '':>4}{'':28}{points:>4} {rank:>4}  "
    assert len(head) == 91
    blocks = ["          " if r is None else f"{r[0]:>4} {r[1]} {r[2]}  " for r in rounds]
    return (head + "".join(blocks)).rstrip()


def trf(*lines: str, newline: str = "\n") -> str:
    return newline.join(lines) + newline


# A two-round, four-player Swiss used by several tests.
SMALL = [
    "012 Small open",
    "042 2026/05/01",
    "092 Swiss System",
    "142 2",
    player(1, "Anna", 2010, [(2, "w", "1"), (3, "b", "=")]),
    player(2, "Boris", 1950, [(1, "b", "0"), (4, "w", "+")]),
    player(3, "Chen", None, [(4, "w", "W"), (1, "w", "=")]),
    player(4, "Dana", 1800, [(3, "b", "L"), (2, "b", "-")]),
]
