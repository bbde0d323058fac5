"""Parts of one large answer built in forked copies of a compute worker, on the machine's other cores.

Every player's breakdown of a 20,000-player event is 2.4 million contributions, 187 MB of
JSON: making and encoding them is Python work that one process does on one core. The
engine's pass is done by then, and a breakdown reads only what it left, so the worker forks:
each copy builds the JSON of its share of the rows into a file in memory (memfd), a chunk at
a time, while the worker builds the first share; the worker then maps the files and sends
them as they are (convert.AnswerPieces). The copies end with `os._exit`, without freeing
what they made. The bytes are the same as when one process builds every row: a copy that
fails (memory, a signal) is noticed by its exit status, and its rows are built again by the
worker itself.

Only a compute worker forks (`enable`, called by service/tiebreak/api/worker.py): it is
single-threaded and killed as a whole, and each copy asks the kernel to kill it when the
worker dies. The server's own process (the event loop, cheap requests) never does.
"""

from __future__ import annotations

import mmap
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass

# Forked copies per answer (processes besides the worker itself): set by `enable`.
_HELPERS = 0
# Rows per share at least (fewer: the worker alone): a fork and its memory file cost a few
# milliseconds, about what 100 rows with breakdowns do.
MIN_ROWS_PER_PART = 1000


def enable(processes: int) -> None:
    """Let large answers be built by `processes` processes in all (the worker and its copies);
    capped by the CPUs this process may run on."""
    global _HELPERS
    available = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    _HELPERS = max(0, min(processes, available) - 1) if hasattr(os, "fork") else 0


def helpers() -> int:
    """The processes a large request may use besides the worker's own (0: forking is off)."""
    return _HELPERS


def shares(rows: list, helpers: int | None = None) -> list[list]:
    """The rows split into consecutive shares, the first for the worker: one share when the
    answer is too small to be worth a fork (or forking is not enabled)."""
    helpers = _HELPERS if helpers is None else helpers
    count = min(helpers + 1, len(rows) // MIN_ROWS_PER_PART)
    if count < 2:
        return [rows]
    size = -(-len(rows) // count)
    return [rows[i:i + size] for i in range(0, len(rows), size)]


@dataclass
class _Copy:
    pid: int
    output: int  # the file it writes, in memory (memfd) where the system has it


def start(parts: list[list], encode: Callable[[list], Iterable[bytes]]) -> list[_Copy]:
    """Fork one copy per part; each writes what `encode(part)` yields to a file of its own, as
    it comes (never waiting for the worker, holding no more than a chunk), then exits."""
    copies = []
    worker = os.getpid()
    for part in parts:
        output = _memory_file()
        pid = os.fork()
        if pid == 0:  # the copy
            status = 1
            try:
                die_with_parent()
                if os.getppid() != worker:  # the worker died before the kernel was told
                    os._exit(1)
                for piece in encode(part):
                    write_all(output, piece)
                status = 0
            except BaseException:  # the worker builds this part itself; the log says why
                import traceback

                traceback.print_exc()
            finally:
                os._exit(status)  # nothing freed: the process ends
        copies.append(_Copy(pid, output))
    return copies


def _memory_file() -> int:
    if hasattr(os, "memfd_create"):
        return os.memfd_create("tiebreak-rows", os.MFD_CLOEXEC)
    import tempfile

    with tempfile.TemporaryFile() as f:
        return os.dup(f.fileno())


def finish(copy: _Copy) -> mmap.mmap | None:
    """What the copy wrote (mapped, not copied), once it has exited; None when it did not
    finish: its part is then to be built again."""
    try:
        _, status = os.waitpid(copy.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            return None
        size = os.fstat(copy.output).st_size
        return mmap.mmap(copy.output, size, access=mmap.ACCESS_READ) if size else None
    finally:
        os.close(copy.output)  # the mapping stays until it is dropped


def write_all(fd: int, data, offset: int | None = None) -> None:
    """All of `data` to `fd`, in as many writes as it takes: at `offset` of a file (pwrite), or
    where the file stands (a pipe, a file written in order). Its view of `data` is released on
    return, so the caller may reuse the buffer."""
    with memoryview(data) as view:
        done = 0
        while done < len(view):
            done += os.write(fd, view[done:]) if offset is None else os.pwrite(fd, view[done:], offset + done)


def read_at(fd: int, size: int, offset: int = 0) -> bytes:
    """`size` bytes of a file from `offset`, in as many reads as it takes; EOFError when it is shorter."""
    parts, done = [], 0
    while done < size:
        part = os.pread(fd, size - done, offset + done)
        if not part:
            raise EOFError(f"the file ends at {offset + done}, before {offset + size}")
        parts.append(part)
        done += len(part)
    return parts[0] if len(parts) == 1 else b"".join(parts)


def enlarge_pipe(fd: int) -> None:
    """A pipe as large as the system allows (Linux: /proc/sys/fs/pipe-max-size, 1 MiB by
    default, where a pipe holds 64 KiB): a 12.9 MB body crosses in 16 times fewer turns."""
    try:
        import fcntl

        with open("/proc/sys/fs/pipe-max-size") as f:
            fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, int(f.read()))
    except (ImportError, AttributeError, OSError, ValueError):  # not Linux, or not a pipe
        pass


# glibc's malloc options (mallopt): the size from which a block is its own mapping, and how
# much free memory at the top of the heap is kept rather than given back.
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
KEPT_BLOCK_MIB = 32  # blocks up to this size come from the heap (glibc's own dynamic ceiling)
KEPT_FREE_MIB = 256  # free memory kept at the top of the heap between jobs


def keep_freed_memory() -> bool:
    """Keep the memory a job freed for the next one (glibc; elsewhere nothing changes).

    A 20,000-player body is read into blocks of megabytes (the body, the result columns,
    the engine's arrays) which malloc maps afresh and unmaps once freed: the next job
    touches every page again (thousands of page faults: scripts/bench_breakdowns.py
    --player 7 prints them, and `--no-kept-memory` shows the time they take). Kept, they
    are reused. The data
    segment's cap (RLIMIT_DATA) counts the kept memory as it counted the mappings, so a
    job still gets no more than the cap. Whether the options were taken."""
    try:
        import ctypes

        libc = ctypes.CDLL(None)
        return bool(libc.mallopt(_M_MMAP_THRESHOLD, KEPT_BLOCK_MIB << 20)
                    and libc.mallopt(_M_TRIM_THRESHOLD, KEPT_FREE_MIB << 20))
    except (OSError, AttributeError):  # no C library to load, or one without mallopt (musl)
        return False


def die_with_parent() -> None:
    """Ask the kernel to kill this process when its parent dies (Linux; elsewhere a closed
    pipe ends it instead): no computation outlives the process that asked for it."""
    try:
        import ctypes
        import signal

        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass
