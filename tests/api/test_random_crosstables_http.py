"""Random consistent crosstables through the real ASGI app: always a 200 that agrees with the engine."""

from decimal import Decimal
from fractions import Fraction

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

from tiebreak.http.app import app
from tiebreak.usecases.convert import tournament_to_wire
from tiebreak.engine import Regulations, compute_standings
from tiebreak.engine.registry import valid_codes
from tiebreak.engine.rules import parse_rule
from tests.strategies import swiss_tournaments
from tests.profiles import examples

RULES = ["BH/C1", "BH", "SB", "DE", "PS", "KS", "FB", "AOB", "ARO", "TPR", "PTP", "WIN"]
SPECS = [parse_rule(r, valid_codes()) for r in RULES]
CLIENT = TestClient(app)  # no lifespan hooks to run; one client for every example


@settings(max_examples=examples(60), deadline=None, suppress_health_check=list(HealthCheck))
@given(drawn=swiss_tournaments(), explain=st.booleans(), regulations=st.sampled_from(["fide-2026", "fide-2024"]))
def test_random_crosstable_is_answered_and_matches_the_engine(drawn, explain, regulations):
    body = {
        "tournament": msgspec.to_builtins(tournament_to_wire(drawn.tournament)),
        "tiebreaks": RULES,
        "regulations": regulations,
        "unrated_rating": 1500,
        "explain": explain,
        # Every round, as the engine below counts them (without it, the last rounds could be ones
        # with byes only, and the service would stop at the last round played).
        "after_round": drawn.tournament.rounds,
    }
    response = CLIENT.post("/v1/standings", json=body)
    assert response.status_code == 200, response.text
    expected = compute_standings(drawn.tournament, SPECS, Regulations(regulations), unrated_rating=1500)
    table = expected.table
    want = {
        table.ids[row.player]: (
            row.rank,
            [
                None if o.values[row.player] is None else Fraction(o.values[row.player], o.scale)
                for o in expected.outcomes
            ],
        )
        for row in expected.rows
    }
    for row in response.json()["standings"]:
        rank, values = want[row["id"]]
        assert row["rank"] == rank
        assert [None if v is None else Fraction(Decimal(repr(v))) for v in row["values"]] == values
        # The JSON total points equal the engine's exactly.
        assert Fraction(Decimal(repr(row["points"]))) == Fraction(table.scores[table.ids.index(row["id"])], table.scale)
