"""Fuzzing the TRF reader: whatever the bytes, it returns a document or raises a located TrfError."""

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tiebreak.formats.trf import TrfDocument, TrfError, read_trf
from tests.profiles import examples

CONFORMANCE = Path(__file__).resolve().parents[1] / "fixtures" / "conformance_fide"
REAL_FILES = [p.read_bytes() for p in sorted(CONFORMANCE.glob("*.trf"))]
# Characters that mean something in a TRF line, so that mutations reach deep into the reader.
MEANINGFUL = st.sampled_from(list(b" 0123456789wb-+=UFHZWDL\n\r\t/.:,#ABCXQ\xe9\xff"))


def check(data: bytes) -> None:
    try:
        document = read_trf(data)
    except TrfError as error:
        lines = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
        assert 1 <= error.line <= max(len(lines), 1)
        assert error.column >= 1 and error.message
        return
    assert isinstance(document, TrfDocument)
    assert all(w.line >= 1 and w.column >= 1 for w in document.warnings)


@settings(max_examples=examples(300), deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes(data):
    check(data)


@settings(max_examples=examples(300), deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=300).map(lambda t: ("001 " + t).encode()))
def test_random_player_lines(data):
    check(data)


@st.composite
def mutated_real_files(draw):
    data = bytearray(draw(st.sampled_from(REAL_FILES)))
    for _ in range(draw(st.integers(1, 8))):
        action = draw(st.sampled_from(["replace", "insert", "delete", "truncate", "duplicate-line"]))
        at = draw(st.integers(0, len(data) - 1)) if data else 0
        if action == "replace" and data:
            data[at] = draw(MEANINGFUL)
        elif action == "insert":
            data[at:at] = bytes(draw(st.lists(MEANINGFUL, min_size=1, max_size=12)))
        elif action == "delete" and data:
            del data[at : at + draw(st.integers(1, 12))]
        elif action == "truncate":
            del data[at:]
        elif action == "duplicate-line" and data:
            start = data.rfind(b"\n", 0, at) + 1
            end = data.find(b"\n", at)
            end = len(data) if end < 0 else end + 1
            data[end:end] = data[start:end]
    return bytes(data)


@settings(max_examples=examples(500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_real_files())
def test_mutated_real_files(data):
    check(data)
