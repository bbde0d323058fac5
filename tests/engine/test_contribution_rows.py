"""`contribution_rows` with details given only for the cells that carry them (a dummy
opponent, a 16.3 note): the same contributions as the details passed for every cell, and at
those cells the details replace the columns' values, None included (Sonneborn-Berger shows no
opponent's score for a dummy)."""

from __future__ import annotations

import numpy as np

from tiebreak.engine.contributions import Contribution, contribution_rows
from tiebreak.texts.catalogue import rendering
from tiebreak.texts.message import msg


def _matrices():
    selected = np.array([[True, False, True], [True, True, True]])
    fields = {
        "kind": "game",
        "opponent": np.array([[2, 0, 3], [1, 3, 4]], dtype=object),
        "value": np.ones((2, 3)),
        "opponent_score": np.array([[1.5, 0.0, 2.0], [3.0, 2.5, 1.0]]),
    }
    note = np.full((2, 3), None, dtype=object)
    note[1, 1] = msg("the last round counted as a draw (8.3)")
    capped = np.full((2, 3), None, dtype=object)
    capped[0, 2] = 0.5
    kind = np.full((2, 3), "game", dtype=object)
    kind[0, 2] = "dummy"
    shown = fields["opponent_score"].astype(object)
    shown[0, 2] = None  # a dummy's score is its value: none shown
    every = {"note": note, "capped_at": capped, "kind": kind, "opponent_score": shown}
    at = np.array([[False, True, True], [False, True, False]])  # (0, 1) is not selected: no contribution
    cells = selected & at  # the details of (0, 2) and (1, 1), in row-major order
    return selected, fields, every, {name: column[cells].tolist() for name, column in every.items()}, at


def test_details_given_at_their_cells_are_the_details_passed_for_every_cell():
    selected, fields, every_cell, details, at = _matrices()
    every = contribution_rows(Contribution, selected, {**fields, **every_cell})
    sparse = contribution_rows(Contribution, selected, fields, details=details, details_at=at)
    assert sparse == every
    assert sparse[0][1].capped_at == 0.5 and sparse[1][1].note == "the last round counted as a draw (8.3)"
    assert sparse[0][0].note is None and sparse[1][0].capped_at is None


def test_details_replace_the_columns_values_at_their_cells_none_included():
    selected, fields, _, details, at = _matrices()
    sparse = contribution_rows(Contribution, selected, fields, details=details, details_at=at)
    assert (sparse[0][1].kind, sparse[0][1].opponent_score) == ("dummy", None)
    assert (sparse[0][0].kind, sparse[0][0].opponent_score) == ("game", 1.5)
    assert sparse[1][1].opponent_score == 2.5


def test_a_note_set_at_its_cell_is_rendered_in_the_answers_language():
    selected, fields, every_cell, details, at = _matrices()
    with rendering("ru"):
        every = contribution_rows(Contribution, selected, {**fields, **every_cell})
        sparse = contribution_rows(Contribution, selected, fields, details=details, details_at=at)
    assert sparse == every
    assert type(sparse[1][1].note) is str and sparse[1][1].note != "the last round counted as a draw (8.3)"
