"""Answers gzipped in pieces on several threads are one ordinary gzip member (service/tiebreak/compute/compress.py)."""

from __future__ import annotations

import gzip
import random
import zlib

import pytest

from tiebreak.compute.compress import PIECE_BYTES, WINDOW, gzip_bytes


def one_member(data: bytes) -> bytes:
    """What a decoder that stops after the first member (zlib with gzip framing, as HTTP clients do) reads."""
    decoder = zlib.decompressobj(zlib.MAX_WBITS | 16)
    out = decoder.decompress(data)
    assert decoder.eof and not decoder.unused_data
    return out


def text(size: int, seed: int) -> bytes:
    rng = random.Random(seed)
    words = [b'{"rank":', b'"values":[', b"12.5,", b"1834.0,", b'"BH/C1"', b"null,", b"],", b"}"]
    out = bytearray()
    while len(out) < size:
        out += rng.choice(words) if rng.random() < 0.9 else rng.randbytes(rng.randint(1, 40))
    return bytes(out[:size])


@pytest.mark.parametrize("size", [0, 1, PIECE_BYTES - 1, 2 * PIECE_BYTES, 2 * PIECE_BYTES + 1, 5 * PIECE_BYTES + 7])
@pytest.mark.parametrize("threads", [1, 2, 3, 4])
def test_the_pieces_make_one_member_that_decodes_to_the_input(size, threads):
    data = text(size, size + threads)
    packed = gzip_bytes(data, 5, threads)
    assert one_member(packed) == data
    assert gzip.decompress(packed) == data


def test_the_pieces_cost_next_to_nothing_in_size_and_look_back_across_their_bounds():
    data = text(4 * PIECE_BYTES, 1)
    whole = len(gzip.compress(data, 5, mtime=0))
    assert len(gzip_bytes(data, 5, 4)) <= whole + 64
    # a repeat that spans a piece's start is found through the dictionary (the window before it)
    block = random.Random(2).randbytes(WINDOW // 2)
    repeated = block * (4 * PIECE_BYTES // len(block))
    assert len(gzip_bytes(repeated, 5, 4)) < 2 * len(gzip.compress(repeated, 5, mtime=0))
