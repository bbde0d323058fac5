"""`contribution_rows` with detail columns set only at the cells that carry them (a dummy
opponent, a 16.3 note): the same contributions as the details passed for every cell."""

from __future__ import annotations

import numpy as np

from tiebreak.engine.contributions import Contribution, contribution_rows
from tiebreak.texts.catalogue import rendering
from tiebreak.texts.message import msg


def _matrices():
    selected = np.array([[True, False, True], [True, True, True]])
    fields = {"kind": "game", "opponent": np.array([[2, 0, 3], [1, 3, 4]], dtype=object), "value": np.ones((2, 3))}
    note = np.full((2, 3), None, dtype=object)
    note[1, 1] = msg("the last round counted as a draw (8.3)")
    capped = np.full((2, 3), None, dtype=object)
    capped[0, 2] = 0.5
    at = np.array([[False, True, True], [False, True, False]])  # (0, 1) is not selected: no contribution
    return selected, fields, {"note": note, "capped_at": capped}, at


def test_details_set_at_their_cells_are_the_details_passed_for_every_cell():
    selected, fields, details, at = _matrices()
    every = contribution_rows(Contribution, selected, {**fields, **details})
    sparse = contribution_rows(Contribution, selected, fields, details=details, details_at=at)
    assert sparse == every
    assert sparse[0][1].capped_at == 0.5 and sparse[1][1].note == "the last round counted as a draw (8.3)"
    assert sparse[0][0].note is None and sparse[1][0].capped_at is None


def test_a_note_set_at_its_cell_is_rendered_in_the_answers_language():
    selected, fields, details, at = _matrices()
    with rendering("ru"):
        every = contribution_rows(Contribution, selected, {**fields, **details})
        sparse = contribution_rows(Contribution, selected, fields, details=details, details_at=at)
    assert sparse == every
    assert type(sparse[1][1].note) is str and sparse[1][1].note != "the last round counted as a draw (8.3)"
