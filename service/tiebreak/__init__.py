"""Chess tie-break standings under FIDE C.07 (2026, 2024, 2009) and US Chess rule 34, with every
contribution explained: the package behind the tie-break service and its `tiebreak` command.

    import tiebreak

    result = tiebreak.standings(open("event.trf").read(), ["BH/C1", "BH", "SB"])
    for row in result.standings:
        print(row.rank, row.name, row.points, row.values)

`standings`, `progression`, `compare`, `read_trf`, `write_trf`, `distribute_prizes`, `check` and `problem_of` are documented
in docs/python.md (tiebreak/library.py; `help(tiebreak.standings)`). The layers below them: engine, formats and prizes (pure), wire (the
request and response structs), usecases, compute and http (docs/architecture.md).
"""

from __future__ import annotations

from typing import Any

from .version import __version__

__all__ = [
    "__version__",
    "check",
    "compare",
    "distribute_prizes",
    "problem_of",
    "progression",
    "read_trf",
    "standings",
    "write_trf",
]
_LIBRARY = frozenset(__all__) - {"__version__"}


def __getattr__(name: str) -> Any:
    # Loaded on first use: `import tiebreak.engine` must not bring in msgspec and the use cases.
    if name in _LIBRARY:
        from . import library

        return getattr(library, name)
    raise AttributeError(f"module 'tiebreak' has no attribute {name!r}")
