"""A compute worker process: `python -m tiebreak.api.worker`, started and killed by the gate.

It reads jobs from stdin and writes answers to stdout, one at a time: a frame is
an 8-byte big-endian length and its bytes; a job is two frames (the msgpack `Job`
without its body, then the body), an answer one (the msgpack `Answer`, see
service/tiebreak/api/work.py); an empty frame first says it is ready (imports done, warm). It never decides when to stop: the gate kills it with
SIGKILL when the deadline passes or the client leaves, and starts another. It runs
at a lower priority (nice +10) than the server, so that the server's event loop
(probes, reading requests, shedding) gets the CPU first when both want it.

Its data segment is capped (RLIMIT_DATA, `--memory-mib`), so a computation the
cost model priced too low ends in a MemoryError (answered 413) instead of the
kernel's OOM killer taking the whole pod; the worker then exits, so that the next
job starts in a fresh process. It asks the kernel to kill it when its parent dies
(Linux), so that no computation outlives the server.
"""

from __future__ import annotations

import argparse
import os
import struct
import sys

from .forked import die_with_parent, enlarge_pipe, keep_freed_memory, read_at

FRAME = struct.Struct(">Q")
WORKER_NICENESS = 10


def _cap_memory(mib: int) -> None:
    if mib <= 0:
        return
    try:
        import resource

        limit = mib * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
    except (ImportError, ValueError, OSError):
        pass


WARM_UP = (b'{"tournament":{"rounds":2,"players":['
           b'{"id":1,"rating":1800,"results":[{"round":1,"opponent":2,"color":"w","result":"win"},'
           b'{"round":2,"result":"half_bye"}]},'
           b'{"id":2,"rating":1700,"results":[{"round":1,"opponent":1,"color":"b","result":"loss"}]}]},'
           b'"tiebreaks":["BH/C1","SB","DE","PS","ARO","KS"],"unrated_rating":1400}')


def _warm_up(execute, job_type) -> None:
    """One small job before saying ready: the engine's first computation imports and sets up
    what later ones reuse (a few hundred milliseconds), which must not count against a
    request's deadline."""
    from .limits import LIMITS

    execute(job_type(kind="standings", body=WARM_UP, limits=LIMITS))


def read_frame(stream) -> bytes | None:
    head = stream.read(FRAME.size)
    if len(head) < FRAME.size:
        return None
    (size,) = FRAME.unpack(head)
    data = stream.read(size)
    if len(data) < size:
        return None
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tiebreak.api.worker")
    parser.add_argument("--memory-mib", type=int, default=0, help="data segment cap (0: none)")
    parser.add_argument("--body-file", type=int, default=-1,
                        help="a file descriptor the gate writes large bodies to (-1: none; every body in the pipe)")
    args = parser.parse_args(argv)
    die_with_parent()
    try:  # the server's event loop (probes, I/O, shedding) comes first when both want the CPU
        os.nice(WORKER_NICENESS)
    except OSError:
        pass
    # Answers go to the pipe the gate reads; anything printed by accident goes to stderr.
    channel = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    for pipe in (0, channel.fileno()):  # the gate's pipes: large bodies and answers in fewer turns
        enlarge_pipe(pipe)
    keep_freed_memory()  # large jobs reuse the pages the previous ones freed (no page faults)
    jobs = sys.stdin.buffer

    import msgspec

    from ..engine.standings import cyclic_gc_paused
    from . import forked, second_reader
    from .limits import LIMITS
    from .ops import configure_logging
    from .work import Job, execute

    configure_logging(os.environ.get("TIEBREAK_LOG_LEVEL", "INFO").upper())
    job_decoder = msgspec.msgpack.Decoder(Job)
    answer_encoder = msgspec.msgpack.Encoder()
    _warm_up(execute, Job)
    forked.enable(LIMITS.breakdown_processes)  # after the warm-up: its tiny answer never forks anyway
    _cap_memory(args.memory_mib)
    if forked.helpers():  # the second process forked now, small, with the same memory cap
        second_reader.start()
    channel.write(FRAME.pack(0))  # ready: an empty frame once everything is imported and warm
    channel.flush()
    while True:
        frame = read_frame(jobs)
        body = read_frame(jobs) if frame is not None else None
        if frame is None or body is None:
            return 0  # the gate closed the pipe: shut down
        job = job_decoder.decode(frame)
        if job.body_in_file:  # a large body: in the file the gate wrote it to, not in the frame
            body = read_at(args.body_file, job.body_in_file)
        with cyclic_gc_paused():
            exhausted = _answer(execute, msgspec.structs.replace(job, body=body, body_in_file=0), channel,
                                answer_encoder)
        if exhausted:
            return 0  # a fresh process for the next job: this heap may be fragmented near the cap


def _answer(execute, job, channel, answer_encoder) -> bool:
    """Compute one job and write its answer; whether memory ran out.

    The cyclic collector stays paused from reading the body to freeing what the job made: a
    large request makes hundreds of thousands of objects without a cycle, and the first
    collection after they were made would scan them all.
    What the job read is freed after its answer is written (work.execute's `held`)."""
    import msgspec

    from .work import Answer

    held: list = []
    try:
        try:
            answer = execute(job, held)
        except MemoryError:  # even building the problem failed: say so with what is left
            answer = Answer(413, b'{"type":"about:blank","title":"Content Too Large","status":413,'
                                 b'"detail":"the request exceeds a limit: max_memory_mib","errors":[]}',
                            "application/problem+json", limit="max_memory_mib", memory_exhausted=True)
        # The answer without its body, then the body in a frame of its own: a large answer is
        # written from its own buffer, never copied into a message.
        more = answer.more_body or ()
        head = answer_encoder.encode(msgspec.structs.replace(answer, body=b"", more_body=None))
        channel.write(FRAME.pack(len(head)) + head + FRAME.pack(len(answer.body) + sum(map(len, more))))
        channel.write(answer.body)
        for piece in more:  # rows built by forked copies, written from where they are
            channel.write(piece)
        channel.flush()
        return answer.memory_exhausted
    finally:
        held.clear()


if __name__ == "__main__":
    sys.exit(main())
