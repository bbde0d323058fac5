"""gzip for answers, every one the service sends: a whole answer (`gzip_bytes`, compressed in
pieces on several cores when it is large) or a stream of lines (`GzipStream`, a batch's).

A large answer takes a good share of the request's time to gzip on one core (docs/benchmarks.md).
zlib lets go of the GIL while it compresses, so the answer is
cut into pieces compressed by threads at once, the way pigz does it: every piece but the
last ends on a byte boundary without closing the stream (Z_SYNC_FLUSH) and starts with the
32 KiB before it as its dictionary, so the pieces joined are one deflate stream, as small as
one compressor's, in one gzip member (RFC 1952) that every decoder reads, the ones that stop
after the first member included.
"""

from __future__ import annotations

import gzip
import os
import struct
import zlib
from concurrent.futures import ThreadPoolExecutor

PIECE_BYTES = 512 * 1024  # smaller answers are compressed in one piece
MAX_THREADS = 4
WINDOW = 32 * 1024  # deflate's window: what a piece may refer back to
_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # gzip, deflate, no flags, no time, unknown OS

_pool: ThreadPoolExecutor | None = None


def usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _deflate(data: memoryview, start: int, end: int, level: int) -> bytes:
    last = end == len(data)
    if start:
        compressor = zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS, zdict=data[max(0, start - WINDOW) : start])
    else:
        compressor = zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS)
    return compressor.compress(data[start:end]) + compressor.flush(zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH)


def gzip_bytes(data: bytes, level: int, threads: int | None = None) -> bytes:
    """`data` gzipped at `level`: what gzip.compress gives, made by up to `threads` threads."""
    global _pool
    threads = min(MAX_THREADS, usable_cpus()) if threads is None else threads
    pieces = min(threads, len(data) // PIECE_BYTES)
    if pieces < 2:
        return gzip.compress(data, level, mtime=0)
    if _pool is None:
        _pool = ThreadPoolExecutor(MAX_THREADS, thread_name_prefix="gzip")
    view = memoryview(data)
    size = -(-len(data) // pieces)
    bounds = [(start, min(start + size, len(data))) for start in range(0, len(data), size)]
    # the first piece in this thread, the others meanwhile in the pool; the checksum last
    later = [_pool.submit(_deflate, view, start, end, level) for start, end in bounds[1:]]
    parts = [_deflate(view, *bounds[0], level)]
    checksum = zlib.crc32(view)
    parts += [piece.result() for piece in later]
    return b"".join([_HEADER, *parts, struct.pack("<II", checksum, len(data) & 0xFFFFFFFF)])


class GzipStream:
    """One gzip member written a chunk at a time, each chunk flushed to a byte boundary
    (Z_SYNC_FLUSH) so that the client can decompress what has arrived: a batch's lines."""

    def __init__(self, level: int):
        self._compressor = zlib.compressobj(level, zlib.DEFLATED, 31)  # 31: the gzip wrapper

    def chunk(self, data: bytes) -> bytes:
        return self._compressor.compress(data) + self._compressor.flush(zlib.Z_SYNC_FLUSH)

    def end(self) -> bytes:
        return self._compressor.flush()
