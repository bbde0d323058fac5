"""Worked request bodies for the OpenAPI document: Swagger's "Try it out" sends them as
they are, schemathesis starts from them, and tests/contract posts each one and expects 200.

One small event throughout: a 5-player, 3-round club Swiss with two pairing byes and a
half-point bye, given as JSON and as the TRF text the service itself writes for it.
"""

from __future__ import annotations


def _game(round_: int, opponent: int, color: str, result: str) -> dict:
    return {"round": round_, "opponent": opponent, "color": color, "result": result}


TOURNAMENT = {
    "name": "Riverside Club Rapid",
    "start_date": "2026-03-07",
    "system": "swiss",
    "rounds": 3,
    "players": [
        {
            "id": 1,
            "name": "Petrova, Ana",
            "rating": 2210,
            "results": [_game(1, 3, "w", "draw"), _game(2, 5, "b", "win"), _game(3, 2, "w", "draw")],
        },
        {
            "id": 2,
            "name": "Okafor, Ben",
            "rating": 2105,
            "results": [_game(1, 4, "w", "win"), _game(2, 3, "b", "loss"), _game(3, 1, "b", "draw")],
        },
        {
            "id": 3,
            "name": "Chen, Wei",
            "rating": 2150,
            "results": [_game(1, 1, "b", "draw"), _game(2, 2, "w", "win"), _game(3, 4, "b", "win")],
        },
        {
            "id": 4,
            "name": "Lind, Dora",
            "rating": 1980,
            "results": [_game(1, 2, "b", "loss"), {"round": 2, "result": "pairing_bye"}, _game(3, 3, "w", "loss")],
        },
        {
            "id": 5,
            "name": "Novak, Emil",
            "rating": 1890,
            "results": [
                {"round": 1, "result": "pairing_bye"},
                _game(2, 1, "w", "loss"),
                {"round": 3, "result": "half_bye"},
            ],
        },
    ],
}

# The same event as TRF-16 (what POST /v1/trf writes for TOURNAMENT).
TRF = """012 Riverside Club Rapid
042 2026/03/07
092 Swiss System
142 3
001    1      Petrova, Ana                      2210                             2.0    2     3 w =     5 b 1     2 w =
001    2      Okafor, Ben                       2105                             1.5    3     4 w 1     3 b 0     1 b =
001    3      Chen, Wei                         2150                             2.5    1     1 b =     2 w 1     4 b 1
001    4      Lind, Dora                        1980                             1.0    5     2 b 0  0000 - U     3 w 0
001    5      Novak, Emil                       1890                             1.5    3  0000 - U     1 w 0  0000 - H
"""


def _example(summary: str, value) -> dict:
    return {"summary": summary, "value": value}


# operationId -> media type -> named examples (the first is the one Swagger UI fills in)
REQUEST_EXAMPLES: dict[str, dict[str, dict[str, dict]]] = {
    "computeStandings": {
        "application/json": {
            "tournament": _example(
                "A JSON tournament ranked by an explicit rule list",
                {"tournament": TOURNAMENT, "tiebreaks": ["BH/C1", "BH", "SB"]},
            ),
            "trf": _example("TRF text ranked by a preset", {"trf": TRF, "preset": "fide-swiss-traditional"}),
            "page": _example(
                "The second page of two rows, without breakdowns, plus the rows of players 1 and 5",
                {
                    "tournament": TOURNAMENT,
                    "preset": "club-swiss-5-7",
                    "offset": 2,
                    "top": 2,
                    "player": [1, 5],
                    "explain": False,
                },
            ),
        }
    },
    "standingsProgression": {
        "application/json": {
            "tournament": _example(
                "The ranks after each round of a JSON tournament, by an explicit rule list",
                {"tournament": TOURNAMENT, "tiebreaks": ["BH/C1", "BH", "SB"]},
            ),
            "trf": _example("The ranks after rounds 1 and 2 of TRF text", {"trf": TRF, "after_round": 2}),
        }
    },
    "compareRuleLists": {
        "application/json": {
            "two-lists": _example(
                "The same event under a preset and under Sonneborn-Berger first",
                {
                    "tournament": TOURNAMENT,
                    "lists": [
                        {"name": "FIDE Swiss", "preset": "fide-swiss-traditional"},
                        {"name": "Sonneborn first", "tiebreaks": ["SB", "BH"]},
                    ],
                },
            ),
        }
    },
    "convertTrf": {
        "application/json": {
            "read": _example("Read TRF text: the JSON tournament comes back", {"trf": TRF}),
            "write": _example(
                "Write a JSON tournament as TRF, ranked by a rule list",
                {"tournament": TOURNAMENT, "tiebreaks": ["BH/C1", "BH"]},
            ),
        }
    },
    "computeStandingsBatch": {
        "application/json": {
            "two-items": _example(
                "Two events in one call; each result line echoes its `id`",
                [
                    {"id": "riverside-2026", "tournament": TOURNAMENT, "tiebreaks": ["BH/C1", "BH"], "explain": False},
                    {"id": 2, "trf": TRF, "preset": "fide-swiss-traditional", "top": 3, "explain": False},
                ],
            ),
        },
        # No example for the NDJSON form: schemathesis cannot send NDJSON and stops at an example
        # it cannot serialize; the body's description says what a line is.
    },
    "checkArchive": {
        "application/json": {
            "one-file": _example(
                "One archived file: its points and rank columns against the standings",
                [{"id": "riverside-2026.trf", "trf": TRF}],
            ),
        }
    },
}
