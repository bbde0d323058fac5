#!/usr/bin/env python3
"""Could `anyio.to_process.run_sync(..., cancellable=True)` replace the gate's worker processes?

    .venv/bin/python scripts/try_anyio_to_process.py            # about a minute; prints every figure
    .venv/bin/python scripts/try_anyio_to_process.py --calls 500 --big-calls 5   # quicker, rougher

An experiment for docs/decisions/0050-gate-worker-processes.md (issue 20, item 3), not part of
the service. Everything runs on this machine: child processes over pipes, no network. It stops by
itself; every process it starts is gone when it returns (it checks, and says so).

What it asks of anyio's process runner, each against what the gate does today (a pre-started
`python -m tiebreak.compute.worker` per slot over stdin/stdout with 8-byte-length frames, SIGKILL at
the deadline, a replacement started at once in the background):

1. cancellation: does leaving `anyio.fail_after(deadline)` kill the child, and how soon does
   the caller get control back? (and without `cancellable=True`?)
2. a replacement: how long the first call on a fresh process takes (anyio starts one only when
   a call finds no idle process), next to the gate's worker start-up;
3. the worker's set-up (memory cap RLIMIT_DATA, nice 10, die with the parent, warm-up) applied
   by a first call: does it reach every process?
4. the cost of a call: a tiny function many times, and a call carrying 1 MB and 12 MB of bytes
   (and the same answered back), against the same frames over pipes as the gate's protocol, and a
   tiny standings job through the real gate worker against the same job through anyio;
5. how many processes it keeps and for how long (idle pruning);
6. what the child imports (sys.modules): of ours, litestar, numpy.

Only the standard library and anyio are imported at the top: anyio's child runs this file again
(as `__mp_main__`, as multiprocessing does) before its first call, so whatever a main module
imports at the top, every child imports too (section 6 measures it for the `tiebreak` command).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pickle
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio
import anyio.to_process

ROOT = Path(__file__).resolve().parents[1]
FRAME = struct.Struct(">Q")  # as the gate's worker protocol
MEMORY_MIB = 256


# ---------------------------------------------------------------- run in the child (by reference)


def noop() -> None:
    return None


def pid() -> int:
    return os.getpid()


def spin(seconds: float) -> str:
    """Pure-Python work that never yields, as the engine's: only a kill stops it early."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    return "finished"


def size_of(data: bytes) -> int:
    return len(data)


def echo(data: bytes) -> bytes:
    return data


_set_up = False


def set_up(memory_mib: int) -> dict:
    """What `python -m tiebreak.compute.worker` does before it says ready, as a first call: cap the
    data segment, lower the priority, die with the parent, warm the engine up."""
    global _set_up
    import ctypes
    import resource
    import signal

    if not _set_up:
        limit = memory_mib * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
        os.nice(10)
        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
        warm_up()
        _set_up = True
    return state()


def state() -> dict:
    import resource

    return {
        "pid": os.getpid(),
        "set_up": _set_up,
        "nice": os.nice(0),
        "data_mib": resource.getrlimit(resource.RLIMIT_DATA)[0] // (1024 * 1024)
        if resource.getrlimit(resource.RLIMIT_DATA)[0] >= 0
        else -1,
    }


def allocate(mib: int) -> str:
    try:
        block = bytearray(mib * 1024 * 1024)
        return f"allocated {len(block) >> 20} MiB"
    except MemoryError:
        return "MemoryError"


def warm_up() -> None:
    execute_job(standings_job())


def standings_job():
    from tiebreak.wire.limits import LIMITS
    from tiebreak.compute.work import Job
    from tiebreak.compute.worker import WARM_UP

    return Job(kind="standings", body=WARM_UP, limits=LIMITS)


def execute_job(job):
    from tiebreak.compute.work import execute

    return execute(job)


def modules() -> dict:
    names = sys.modules
    ours = sorted(name for name in names if name == "tiebreak" or name.startswith("tiebreak."))
    return {
        "count": len(names),
        "tiebreak": len(ours),
        "tiebreak.http": sum(n.startswith("tiebreak.http") for n in ours),
        "litestar": any(n == "litestar" or n.startswith("litestar.") for n in names),
        "uvicorn": "uvicorn" in names,
        "numpy": "numpy" in names,
        "msgspec": "msgspec" in names,
        "anyio": "anyio" in names,
    }


# ---------------------------------------------------------------- the gate's protocol, reduced


def pipe_child() -> int:
    """The other end of `FramePipe`: a job is two frames (a small head, then the body), an
    answer two (a small head, then a body): the gate's worker protocol without the work."""
    import fcntl

    for fd in (0, 1):  # as the gate's worker: pipes as large as the system allows
        try:
            with open("/proc/sys/fs/pipe-max-size") as f:
                fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, int(f.read()))
        except OSError:
            pass
    jobs, answers = sys.stdin.buffer, sys.stdout.buffer
    while True:
        frames = []
        for _ in range(2):
            head = jobs.read(FRAME.size)
            if len(head) < FRAME.size:
                return 0
            frames.append(jobs.read(FRAME.unpack(head)[0]))
        mode, body = frames
        back = body if mode == b"echo" else b""
        answers.write(FRAME.pack(2) + b"ok" + FRAME.pack(len(back)))
        answers.write(back)
        answers.flush()


class FramePipe:
    """A pre-started child spoken to as the gate speaks to its worker (asyncio pipes, frames)."""

    async def start(self) -> FramePipe:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--pipe-child", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
        )
        return self

    async def call(self, body: bytes, mode: bytes = b"size") -> bytes:
        stdin, stdout = self.process.stdin, self.process.stdout
        stdin.write(FRAME.pack(len(mode)) + mode + FRAME.pack(len(body)))
        stdin.write(body)
        await stdin.drain()
        (size,) = FRAME.unpack(await stdout.readexactly(FRAME.size))
        await stdout.readexactly(size)
        (size,) = FRAME.unpack(await stdout.readexactly(FRAME.size))
        return await stdout.readexactly(size)

    async def stop(self) -> None:
        self.process.stdin.close()
        await self.process.wait()


def gate_worker_class():
    """The gate's WorkerProcess where this tree has it (the layout is being changed), or None."""
    for module in ("tiebreak.compute.gate",):
        try:
            return __import__(module, fromlist=["WorkerProcess"]).WorkerProcess
        except (ImportError, AttributeError):
            continue
    return None


# ---------------------------------------------------------------- helpers


def children() -> list[int]:
    """Live (not zombie) child processes of this one."""
    me = str(os.getpid())
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[1] == me and fields[0] != "Z":
                found.append(int(entry))
    return sorted(found)


def command_of(process_id: int) -> str:
    try:
        return Path(f"/proc/{process_id}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except OSError:
        return "?"


def alive(process_id: int) -> bool:
    try:
        return Path(f"/proc/{process_id}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def per_call(seconds: list[float]) -> str:
    seconds = sorted(seconds)
    return (
        f"median {statistics.median(seconds) * 1e6:,.0f} us, p90 {seconds[int(len(seconds) * 0.9)] * 1e6:,.0f} us "
        f"({len(seconds)} calls)"
    )


def millis(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


async def timed(coroutine_function, *args) -> tuple[float, object]:
    started = time.perf_counter()
    result = await coroutine_function(*args)
    return time.perf_counter() - started, result


def run_in_child(function, *args, **kw):
    return anyio.to_process.run_sync(function, *args, cancellable=True, **kw)


# ---------------------------------------------------------------- the sections


async def cancellation() -> None:
    print("1. cancellation")
    child = await run_in_child(pid)  # the one idle process: the next call takes it
    started = time.perf_counter()
    try:
        with anyio.fail_after(0.3):
            await run_in_child(spin, 30.0)
        print("   the 30 s call finished?!")
    except TimeoutError:
        back = time.perf_counter() - started
        print(
            f"   cancellable=True inside fail_after(0.3) around a 30 s pure-Python call: TimeoutError after "
            f"{millis(back)} ({millis(back - 0.3)} past the deadline); the child {child} "
            f"{'is still alive' if alive(child) else 'is gone (SIGKILL, and reaped before the call returned)'}"
        )
    child = await run_in_child(pid)
    started = time.perf_counter()
    result = "cancelled at the end"
    with anyio.move_on_after(0.2):
        result = await anyio.to_process.run_sync(spin, 1.0)  # cancellable=False (the default)
    print(
        f"   cancellable=False inside move_on_after(0.2) around a 1 s call: control back after "
        f"{millis(time.perf_counter() - started)} ({result!r}), the child {child} "
        f"{'still alive: kept for the next call' if alive(child) else 'gone'} -- shielded, the deadline is not kept"
    )


async def cancelled_while_starting() -> None:
    """A deadline that passes while anyio starts the process (no idle one in a fresh loop): what
    becomes of the process? (Killed here once counted, inside the loop, so that asyncio reaps it.)"""
    import gc

    try:
        with anyio.fail_after(0.02):
            await run_in_child(noop)
    except TimeoutError:
        pass
    await anyio.sleep(1.0)
    left = children()
    print(
        f"   cancelled while the process starts (fail_after(0.02) around the first call): 1 s later, "
        f"{len(left)} child process(es) alive: {[command_of(each) for each in left] or 'none'}"
        + (
            " -- left outside the pool (anyio kills a worker on cancellation only once it is in its pool); killed here"
            if left
            else ""
        )
    )
    for each in left:
        os.kill(each, 9)
    while children():
        await anyio.sleep(0.05)
    gc.collect()  # the lost process's transport, while its loop is open
    await anyio.sleep(0.05)


async def replacement(worker_class) -> None:
    print("2. a replacement after a kill (anyio starts one only inside the next call)")
    await run_in_child(noop)  # started, so that the first kill below does not land in its start-up
    for _ in range(2):
        try:
            with anyio.fail_after(0.05):
                await run_in_child(spin, 10.0)
        except TimeoutError:
            pass
        seconds, _ = await timed(run_in_child, noop)
        print(
            f"   first call after the kill, a no-op: {millis(seconds)} (a new interpreter, anyio's worker, "
            f"this file run again as __mp_main__)"
        )
    try:
        with anyio.fail_after(0.05):
            await run_in_child(spin, 10.0)
    except TimeoutError:
        pass
    seconds, ready = await timed(run_in_child, set_up, MEMORY_MIB)
    print(f"   first call after the kill, the worker's set-up and warm-up: {millis(seconds)} ({ready})")
    seconds, answer = await timed(run_in_child, execute_job, standings_job())
    print(f"   then the tiny standings job: {millis(seconds)} (status {answer.status})")
    if worker_class is not None:
        times = []
        for _ in range(3):
            seconds, worker = await timed(worker_class.start, MEMORY_MIB)
            times.append(seconds)
            await worker.stop()
        print(
            f"   the gate's WorkerProcess.start (python -m tiebreak.compute.worker, imports and warm-up, until its "
            f"ready frame): {', '.join(map(millis, times))} -- started in the background at the kill"
        )


async def set_up_reach() -> None:
    print("3. the worker's set-up (RLIMIT_DATA, nice 10, PDEATHSIG, warm-up) by a first call")
    limiter = anyio.CapacityLimiter(2)
    async with anyio.create_task_group() as tasks:  # two processes, both idle afterwards
        for _ in range(2):
            tasks.start_soon(lambda: anyio.to_process.run_sync(spin, 0.3, limiter=limiter))
    applied = await anyio.to_process.run_sync(set_up, MEMORY_MIB, limiter=limiter)
    seen: list[dict] = []

    async def look() -> None:
        seen.append(await anyio.to_process.run_sync(state_after, 0.3, limiter=limiter))

    async with anyio.create_task_group() as tasks:
        for _ in range(2):
            tasks.start_soon(look)
    print(f"   set_up() ran in {applied['pid']}: data segment {applied['data_mib']} MiB, nice {applied['nice']}")
    for each in sorted(seen, key=lambda d: d["pid"]):
        print(
            f"   then, two calls at once: process {each['pid']} set_up={each['set_up']} nice={each['nice']} "
            f"data_mib={each['data_mib']}"
        )
    print(
        "   -> a call cannot choose its process: the set-up must run in every job (once per process), the "
        "first job on each fresh process pays it"
    )
    results = {await anyio.to_process.run_sync(allocate_capped, MEMORY_MIB + 64, limiter=limiter) for _ in range(3)}
    print(
        f"   {MEMORY_MIB + 64} MiB in a process capped at {MEMORY_MIB} MiB: {sorted(results)}; the process stays "
        f"in the pool after its MemoryError (the gate's worker exits and a fresh one takes its place)"
    )


def state_after(seconds: float) -> dict:
    spin(seconds)  # both calls at once: each takes its own process
    return state()


def allocate_capped(mib: int) -> str:
    set_up(MEMORY_MIB)
    return allocate(mib)


async def alternated(count: int, calls: dict) -> dict[str, list[float]]:
    """Each call timed `count` times, taking turns (one of each, then again), so that a change in
    the machine's load falls on all of them alike; one untimed call of each first."""
    seconds: dict[str, list[float]] = {label: [] for label in calls}
    for call in calls.values():
        await call()
    for _ in range(count):
        for label, call in calls.items():
            started = time.perf_counter()
            await call()
            seconds[label].append(time.perf_counter() - started)
    return seconds


async def call_cost(calls: int, big_calls: int, worker_class) -> None:
    print("4. the cost of a call (one at a time, a warm process each, the two ways taking turns)")
    pipe = await FramePipe().start()
    timed_calls = await alternated(
        calls,
        {
            "anyio.to_process.run_sync(noop)": lambda: run_in_child(noop),
            "the gate's frames over pipes, empty body": lambda: pipe.call(b""),
        },
    )
    for label, seconds in timed_calls.items():
        print(f"   {label}: {per_call(seconds)}")
    for mib in (1, 12):
        data = os.urandom(mib * 1_000_000)
        timed_calls = await alternated(
            big_calls,
            {
                f"{mib} MB to the child, anyio": lambda data=data: run_in_child(size_of, data),
                f"{mib} MB to the child, gate frames": lambda data=data: pipe.call(data, b"size"),
                f"{mib} MB there and back, anyio": lambda data=data: run_in_child(echo, data),
                f"{mib} MB there and back, gate frames": lambda data=data: pipe.call(data, b"echo"),
            },
        )
        for label, seconds in timed_calls.items():
            print(f"   {label}: {per_call(seconds)}")
    print(
        f"   (pickling 12 MB of bytes in the parent: "
        f"{millis(min(_pickle_time(os.urandom(12_000_000)) for _ in range(3)))})"
    )
    await pipe.stop()
    if worker_class is None:
        print("   (the gate's WorkerProcess is not where this script looks for it: the real-job comparison is skipped)")
        return
    job = standings_job()
    worker = await worker_class.start(MEMORY_MIB)
    await run_in_child(set_up, MEMORY_MIB)  # nice 10 and the cap, as the gate's worker
    answers = {}

    async def through_gate():
        answers["gate"] = await worker.call(job)

    async def through_anyio():
        answers["anyio"] = await run_in_child(execute_job, job)

    timed_calls = await alternated(
        max(50, calls // 4),
        {"the gate's worker, a tiny standings job": through_gate, "anyio.to_process, the same job": through_anyio},
    )
    for (label, seconds), answer in zip(timed_calls.items(), (answers["gate"], answers["anyio"]), strict=True):
        print(f"   {label}: {per_call(seconds)} (status {answer.status}, {len(answer.body)} bytes)")
    await worker.stop()


def _pickle_time(data: bytes) -> float:
    started = time.perf_counter()
    pickle.dumps(("run", echo, (data,)), protocol=pickle.HIGHEST_PROTOCOL)
    return time.perf_counter() - started


async def processes_kept() -> None:
    print("5. processes kept, and for how long")
    limiter = anyio.CapacityLimiter(3)
    async with anyio.create_task_group() as tasks:
        for _ in range(3):
            tasks.start_soon(lambda: anyio.to_process.run_sync(spin, 0.2, limiter=limiter))
    print(
        f"   after 3 calls at once (limiter 3; the default one is os.cpu_count() = {os.cpu_count()}): "
        f"{len(children())} child processes, kept idle until one has been idle "
        f"{anyio.to_process.WORKER_MAX_IDLE_TIME} s AND a later call comes (pruning happens only in a call)"
    )
    await anyio.sleep(1.2)
    print(f"   1.2 s idle, no call: {len(children())} child processes")
    saved, anyio.to_process.WORKER_MAX_IDLE_TIME = anyio.to_process.WORKER_MAX_IDLE_TIME, 1
    try:
        await anyio.to_process.run_sync(noop, limiter=limiter)
    finally:
        anyio.to_process.WORKER_MAX_IDLE_TIME = saved
    print(f"   the same with WORKER_MAX_IDLE_TIME set to 1 s, then one call: {len(children())} child process(es)")


async def imports_in_child() -> None:
    print("6. what the child imports")
    print(f"   after a no-op (this file as its main): {await run_in_child(modules)}")
    await run_in_child(execute_job, standings_job())
    print(f"   after a standings job (tiebreak.compute.work.execute): {await run_in_child(modules)}")


def imports_under_the_tiebreak_command() -> None:
    """The parent's main module is run again in every child: under the `tiebreak` console script
    (`from tiebreak.cli import main` at its top), what does a no-op's child hold?"""
    with tempfile.TemporaryDirectory() as folder:
        main = Path(folder) / "tiebreak_like_main.py"
        main.write_text(
            "import sys\nfrom tiebreak.cli import main  # as .venv/bin/tiebreak\n"
            f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
            "if __name__ == '__main__':\n"
            "    import anyio, anyio.to_process, try_anyio_to_process as t\n"
            "    print(anyio.run(anyio.to_process.run_sync, t.modules))\n"
        )
        done = subprocess.run([sys.executable, str(main)], capture_output=True, text=True, timeout=120, cwd=ROOT)
    print(f"   a no-op's child when the parent's main is the `tiebreak` command: {done.stdout.strip() or done.stderr}")


def everything(args) -> None:
    """Each section in an event loop of its own: anyio keeps one set of processes per loop, so each
    starts with none, and the loop's end kills what it started."""
    worker_class = gate_worker_class() if not args.no_gate else None
    sections = [
        (cancellation,),
        (cancelled_while_starting,),
        (replacement, worker_class),
        (set_up_reach,),
        (call_cost, args.calls, args.big_calls, worker_class),
        (processes_kept,),
        (imports_in_child,),
    ]
    for section, *arguments in sections:
        anyio.run(section, *arguments)
        left = children()
        if left:
            print(
                f"   ({len(left)} child processes still alive after the section's event loop closed: "
                f"{[(each, command_of(each)) for each in left]})"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000, help="tiny calls timed per method")
    parser.add_argument("--big-calls", type=int, default=20, help="1 MB and 12 MB calls timed per method")
    parser.add_argument("--no-gate", action="store_true", help="leave the gate's own worker out")
    parser.add_argument("--pipe-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.pipe_child:
        return pipe_child()
    print(
        f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start, Python "
        f"{sys.version.split()[0]}, anyio {_version('anyio')}"
    )
    everything(args)
    imports_under_the_tiebreak_command()
    left = children()
    print(
        f"after anyio.run: {len(left)} child processes left"
        + (f" {left}" if left else " (anyio kills its idle workers when the event loop closes)")
    )
    return 1 if left else 0


def _version(name: str) -> str:
    from importlib.metadata import version

    return version(name)


if __name__ == "__main__":
    sys.exit(main())
