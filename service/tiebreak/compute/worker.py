"""A compute worker process: `python -m tiebreak.compute.worker`, started and killed by the gate.

It reads jobs from stdin and writes answers to stdout, one at a time: a frame is an 8-byte
big-endian length and its bytes; a job is two frames (the msgpack `Job` without its body,
then the body), an answer two (the msgpack `Answer` without its body, then the body); an
empty frame first says it is ready (imports done, warm). It never decides when to stop: the
gate kills it with SIGKILL when the deadline passes or the client leaves, and starts another;
a closed stdin (the server gone) ends it after the job at hand. It runs at a lower priority
(nice +10) than the server, so that the server's event loop (probes, reading requests,
shedding) gets the CPU first when both want it.

Its data segment is capped (RLIMIT_DATA, `--memory-mib`), so a computation the cost model
priced too low ends in a MemoryError (answered 413) instead of the kernel's OOM killer
taking the whole pod; the worker then exits, so that the next job starts in a fresh process.
It imports no web framework.
"""

from __future__ import annotations

import argparse
import logging
import os
import socket
import stat
import struct
import sys

import msgspec

from ..engine.standings import cyclic_gc_paused
from ..usecases import requests
from ..wire.limits import LIMITS
from .logs import configure_logging
from .work import Answer, Job, execute

FRAME = struct.Struct(">Q")
WORKER_NICENESS = 10
OUT_OF_MEMORY = Answer(
    413,
    b'{"type":"about:blank","title":"Content Too Large","status":413,'
    b'"detail":"the request exceeds a limit: max_memory_mib","errors":[]}',
    "application/problem+json",
    limit="max_memory_mib",
    memory_exhausted=True,
)
WARM_UP = (
    b'{"tournament":{"rounds":2,"players":['
    b'{"id":1,"rating":1800,"results":[{"round":1,"opponent":2,"color":"w","result":"win"},'
    b'{"round":2,"result":"half_bye"}]},'
    b'{"id":2,"rating":1700,"results":[{"round":1,"opponent":1,"color":"b","result":"loss"}]}]},'
    b'"tiebreaks":["BH/C1","SB","DE","PS","ARO","KS"],"unrated_rating":1400}'
)


def enlarge_pipe(fd: int) -> None:
    """A pipe as large as the system allows (Linux: /proc/sys/fs/pipe-max-size, where a pipe holds
    64 KiB by default): a large body or answer crosses in fewer turns between the processes."""
    try:
        import fcntl

        with open("/proc/sys/fs/pipe-max-size") as f:
            fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, int(f.read()))
    except (ImportError, AttributeError, OSError, ValueError):  # not Linux, or not a pipe
        pass


def cap_memory(mib: int) -> None:
    if mib <= 0:
        return
    try:
        import resource

        limit = mib * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
    except (ImportError, ValueError, OSError):
        pass


def warm_up() -> None:
    """One small job before saying ready: the engine's first computation sets up what later ones
    reuse, which must not count against a request's deadline; every kind's decoder made."""
    requests.ready()
    execute(Job(kind="standings", body=WARM_UP, limits=LIMITS))


def read_frame(stream) -> bytes | None:
    head = stream.read(FRAME.size)
    if len(head) < FRAME.size:
        return None
    (size,) = FRAME.unpack(head)
    data = stream.read(size)
    return data if len(data) == size else None


def answer(job: Job, channel, encoder: msgspec.msgpack.Encoder) -> bool:
    """Compute one job and write its answer; whether memory ran out.

    The cyclic collector stays paused throughout: a large request makes hundreds of thousands
    of objects without a cycle, which the first collection after they were made would scan."""
    with cyclic_gc_paused():
        try:
            result = execute(job)
        except MemoryError:  # even building the problem failed: say so with what is left
            result = OUT_OF_MEMORY
        # The answer without its body, then the body in a frame of its own (never copied into a message).
        head = encoder.encode(msgspec.structs.replace(result, body=b""))
        channel.write(FRAME.pack(len(head)) + head + FRAME.pack(len(result.body)))
        channel.write(result.body)
        channel.flush()
        return result.memory_exhausted


def close_inherited_network_sockets() -> None:
    """Close the TCP sockets this process inherited from the server. uvloop starts subprocesses
    without close_fds: with the sockets uvicorn is handed (TIEBREAK_ADMIN_PORT) this process held
    the ports open past SIGTERM, and new connections waited in the backlog for the whole drain
    instead of being refused (a worker started later would hold clients' connections too). The
    worker talks to the gate only through its pipes: every other descriptor stays as it was."""
    try:
        fds = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:  # no /proc: nothing to look at
        return
    for fd in fds:
        try:
            if fd < 3 or not stat.S_ISSOCK(os.fstat(fd).st_mode):
                continue
            sock = socket.socket(fileno=fd)
        except OSError:  # the listing's own descriptor, already gone
            continue
        if sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.close()
        else:
            sock.detach()  # not ours to close


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tiebreak.compute.worker")
    parser.add_argument("--memory-mib", type=int, default=0, help="data segment cap (0: none)")
    args = parser.parse_args(argv)
    close_inherited_network_sockets()
    try:
        os.nice(WORKER_NICENESS)
    except OSError:
        pass
    # Answers go to the pipe the gate reads; anything printed by accident goes to stderr.
    channel = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    for pipe in (0, channel.fileno()):
        enlarge_pipe(pipe)
    configure_logging(os.environ.get("TIEBREAK_LOG_LEVEL", "INFO").upper())
    jobs = sys.stdin.buffer
    job_decoder = msgspec.msgpack.Decoder(Job)
    encoder = msgspec.msgpack.Encoder()
    warm_up()
    cap_memory(args.memory_mib)
    channel.write(FRAME.pack(0))  # ready
    channel.flush()
    while True:
        frame = read_frame(jobs)
        body = read_frame(jobs) if frame is not None else None
        if frame is None or body is None:
            return 0  # the gate closed the pipe: shut down
        job = msgspec.structs.replace(job_decoder.decode(frame), body=body)
        if answer(job, channel, encoder):
            logging.getLogger("tiebreak.worker").info("out of memory: a fresh worker takes the next job")
            return 0  # this heap may be fragmented near the cap


if __name__ == "__main__":
    sys.exit(main())
