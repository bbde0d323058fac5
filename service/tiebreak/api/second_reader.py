"""A second process that reads the later half of a large body's players, beside the compute worker.

Reading a 20,000-player standings body is Python work, one object per result: msgspec's
structs, then the engine's columns read out of them (scripts/bench_parts.py times both).
A compute worker forks a second process once, before its first job (`start`), so that the
two never write to pages they still share (a copy forked per request was tried first: both
kept copying shared pages as they wrote, and each read its half far slower than alone). For a large body, the worker cuts the players' array in two at a player's boundary
(the pre-scan's msgspec.Raw slices point into the body: their offsets are exact), writes the
later half to a memory file the second process reads, and reads the rest itself: the request
as JSON with the later players cut out, so msgspec checks every other field as it always does.
The second process sends back its players without their results, and their results as the
engine's columns; the worker appends them.

Anything out of the ordinary makes the worker read the whole body again the usual way, so
that answers and refusals are exactly those of one process: a value the schema refuses in
either half, an arbiter's points (their errors name positions in the whole body), a second
process that died (it is not started again: the gate replaces the worker in time).
"""

from __future__ import annotations

import gc
import os
import struct
import sys
from dataclasses import dataclass

import msgspec
import numpy as np

from ..engine import model as m
from . import schemas as s
from .convert import columns_from_players
from .forked import die_with_parent, enlarge_pipe, read_at, write_all
from .wire import WireDecoder

# Players at least (fewer: the worker reads them alone): the cut, the memory file and the
# answer cost about a millisecond, what a few hundred players' reading does.
MIN_PLAYERS = 2000
# The second process's share of the players: less than half, as it also copies its half in
# and its answer out (with equal shares the worker waited for it).
SECOND_SHARE = 0.45
_SIZE = struct.Struct(">Q")


class _HalfRead(msgspec.Struct, array_like=True, gc=False):
    """What the second process sends back: its players (results left out) and their results
    as the columns of m.ResultColumns (raw int64 / int8 bytes)."""

    players: list[s.Player]
    counts: bytes
    round: bytes
    kind: bytes
    opponent: bytes
    color: bytes


@dataclass
class Read:
    """A request read by two processes: its players all there (the later ones without their
    results), and every result as the engine's columns."""

    request: s.StandingsRequest
    columns: m.ResultColumns


@dataclass
class _Process:
    pid: int
    half: int  # the memory file the worker writes the later half to
    jobs: int  # pipe: the size of the half written
    answers: int  # pipe: what the second process read (a frame; empty: read it yourself)


_second: _Process | None = None
_answer_decoder = msgspec.msgpack.Decoder(_HalfRead)
reads = 0  # bodies read by two processes, for tests and curiosity


def start() -> bool:
    """Fork the second process (a compute worker, once, before its first job). Whether it runs."""
    global _second
    if _second is not None or not hasattr(os, "fork") or not hasattr(os, "memfd_create"):
        return _second is not None
    half = os.memfd_create("tiebreak-half", os.MFD_CLOEXEC)
    jobs_read, jobs_write = os.pipe()
    answers_read, answers_write = os.pipe()
    enlarge_pipe(answers_write)
    try:
        pid = os.fork()
    except OSError:  # no process to spare: the worker reads alone
        for fd in (half, jobs_read, jobs_write, answers_read, answers_write):
            os.close(fd)
        return False
    if pid == 0:  # the second process
        status = 0
        try:
            os.close(jobs_write)
            os.close(answers_read)
            die_with_parent()
            _serve(half, jobs_read, answers_write)
        except BaseException:  # the worker reads every body itself from now on; the log says why
            import traceback

            traceback.print_exc()
            status = 1
        finally:
            os._exit(status)
    os.close(jobs_read)
    os.close(answers_write)
    _second = _Process(pid, half, jobs_write, answers_read)
    return True


def stop() -> None:
    """End the second process (tests; a worker's ends with it)."""
    global _second
    second, _second = _second, None
    if second is None:
        return
    for fd in (second.half, second.jobs, second.answers):
        os.close(fd)
    try:
        os.waitpid(second.pid, 0)  # it sees the closed pipe and exits
    except ChildProcessError:
        pass


def available() -> bool:
    return _second is not None


def _serve(half: int, jobs: int, answers: int) -> None:
    """The second process: read each half the worker writes, answer, until the pipe closes."""
    gc.disable()  # what it reads has no cycles; each half is freed as soon as it is answered
    players_decoder = WireDecoder(list[s.Player])
    encoder = msgspec.msgpack.Encoder()
    while True:
        head = read_exactly(jobs, _SIZE.size)
        if head is None:
            return
        data = read_at(half, _SIZE.unpack(head)[0])
        try:
            answer = _read_half(data, players_decoder, encoder)
        except Exception:  # noqa: BLE001 - refused or failed: the worker reads the whole body
            answer = b""
        del data
        write_all(answers, _SIZE.pack(len(answer)) + answer)


def _read_half(data: bytes, players_decoder: WireDecoder, encoder: msgspec.msgpack.Encoder) -> bytes:
    players = players_decoder.decode(data)
    columns = columns_from_players(players, without_points=True)
    if columns is None:
        return b""
    bare = [msgspec.structs.replace(p, results=[]) for p in players]
    return encoder.encode(_HalfRead(bare, *(np.ascontiguousarray(c).tobytes() for c in (
        columns.counts, columns.round, columns.kind, columns.opponent, columns.color))))


def read(data: bytes, shape, decoder: WireDecoder) -> Read | None:
    """The request of `data` read by two processes, or None (then read it the usual way): the
    second process is not running, the body has too few players, or anything failed.

    `shape`: what limits.prescan read of `data` (each player a msgspec.Raw slice of it)."""
    global reads
    tournament = getattr(shape, "tournament", None)
    if _second is None or tournament is None or len(tournament.players) < MIN_PLAYERS:
        return None
    players = tournament.players
    n = len(players)
    h = n - int(n * SECOND_SHARE)  # the worker's players: the first h
    body = memoryview(data)
    base = _address(body)
    first_end = _address(players[h - 1]) - base + len(players[h - 1])  # the first half ends here
    later_start = _address(players[h]) - base
    later_end = _address(players[n - 1]) - base + len(players[n - 1])
    if not 0 < first_end < later_start < later_end <= len(data):  # not slices of `data` after all
        return None
    if not _send(body[later_start:later_end]):
        return None
    try:
        request = decoder.decode(b"".join((body[:first_end], body[later_end:])))
    except Exception:  # noqa: BLE001 - the whole body's reading gives the refusal, with its path
        request = None
    ours = None
    if request is not None and request.tournament is not None and len(request.tournament.players) == h:
        ours = columns_from_players(request.tournament.players, without_points=True)
    theirs = _receive()  # always: the next job's answer must not meet this one's
    if ours is None or theirs is None or len(theirs.players) != n - h:
        return None
    request.tournament.players.extend(theirs.players)
    reads += 1
    return Read(request, m.ResultColumns(
        counts=np.concatenate((ours.counts, np.frombuffer(theirs.counts, np.int64))),
        round=np.concatenate((ours.round, np.frombuffer(theirs.round, np.int64))),
        kind=np.concatenate((ours.kind, np.frombuffer(theirs.kind, np.int8))),
        opponent=np.concatenate((ours.opponent, np.frombuffer(theirs.opponent, np.int64))),
        color=np.concatenate((ours.color, np.frombuffer(theirs.color, np.int8))),
    ))


def _address(buffer) -> int:
    return np.frombuffer(buffer, np.uint8).ctypes.data


def _send(later: memoryview) -> bool:
    """The later half, as a JSON array, into the memory file; its size to the second process."""
    second = _second
    try:
        write_all(second.half, b"[", 0)
        write_all(second.half, later, 1)
        write_all(second.half, b"]", 1 + len(later))
        write_all(second.jobs, _SIZE.pack(len(later) + 2))
        return True
    except OSError as exc:
        _lost(exc)
        return False


def _receive() -> _HalfRead | None:
    second = _second
    if second is None:
        return None
    try:
        head = read_exactly(second.answers, _SIZE.size)
        if head is None:
            raise EOFError("the second reader exited")
        size = _SIZE.unpack(head)[0]
        if not size:
            return None
        answer = read_exactly(second.answers, size)
        if answer is None:
            raise EOFError("the second reader exited")
        return _answer_decoder.decode(answer)
    except (OSError, EOFError, msgspec.DecodeError) as exc:
        _lost(exc)
        return None


def _lost(reason: Exception) -> None:
    """The second process is gone (killed, out of memory): from now on the worker reads alone."""
    global _second
    print(f"second reader lost: {reason}", file=sys.stderr)  # the worker's log
    second, _second = _second, None
    if second is not None:
        for fd in (second.half, second.jobs, second.answers):
            os.close(fd)
        try:
            os.kill(second.pid, 9)
            os.waitpid(second.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass


def read_exactly(fd: int, size: int) -> bytes | None:
    """`size` bytes from a pipe, or None when it ends first."""
    parts, left = [], size
    while left:
        part = os.read(fd, min(left, 1 << 20))
        if not part:
            return None
        parts.append(part)
        left -= len(part)
    return b"".join(parts)
