"""`tiebreak batch --jobs N` and `tiebreak check --jobs N`: the files in worker processes
(cli.in_processes, concurrent.futures' ProcessPoolExecutor), the lines in the files' order as
with one process, and a worker that dies ends the run naming its file instead of hanging."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tiebreak.cli.pool import WorkerDied, chunk_size, in_processes
from tests.command import ROOT, tiebreak

FIXTURES = ROOT / "tests" / "fixtures" / "conformance_fide"

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the dead-worker tests kill forked workers (POSIX)")

_factor = 1


def _set_factor(value: int) -> None:
    global _factor
    _factor = value


def _work(item: int) -> tuple[int, int, int]:
    time.sleep(0.002 * (item % 3))  # uneven items: the answers come back out of order
    return item, item * _factor, os.getpid()


def _dies_on_13(item: int) -> int:
    if item == 13:
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.001)
    return item


def _children() -> set[int]:
    """This process's live children."""
    me = str(os.getpid())
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[1] == me and fields[0] != "Z":
                found.add(int(entry))
    return found


def test_every_result_comes_back_in_order_from_several_workers_with_their_initializer():
    before = _children()
    results = list(in_processes(_work, list(range(60)), 3, 2, str, _set_factor, (7,)))
    assert [(item, value) for item, value, _ in results] == [(i, 7 * i) for i in range(60)]
    assert len({pid for _, _, pid in results}) == 3 and os.getpid() not in {pid for _, _, pid in results}
    assert _children() == before  # every worker has exited and been waited for


def test_more_workers_than_items_and_no_items():
    assert [r[0] for r in in_processes(_work, [5, 6], 8, 1, str)] == [5, 6]
    assert list(in_processes(_work, [], 4, 1, str)) == []


@pytest.mark.parametrize("chunksize", [1, 4])
def test_a_worker_that_dies_ends_the_run_naming_its_item_and_the_others_are_stopped(chunksize):
    before = _children()
    got = []
    started = time.monotonic()
    with pytest.raises(WorkerDied, match=r"while working on item-13 \(item 14 of 40\)"):
        for value in in_processes(_dies_on_13, list(range(40)), 2, chunksize, "item-{}".format):
            got.append(value)
    assert time.monotonic() - started < 30  # no hang
    assert got == list(range(len(got))) and len(got) <= 13  # in order, up to the lost item at most
    assert _children() == before


def test_a_consumer_that_stops_early_leaves_no_worker_behind():
    before = _children()
    results = in_processes(_work, list(range(100)), 2, 4, str)
    assert next(results)[0] == 0
    results.close()
    assert _children() == before


def test_chunks_are_at_most_the_largest_and_leave_each_worker_several():
    assert chunk_size(1000, 2, 16) == 16
    assert chunk_size(40, 2, 16) == 5
    assert chunk_size(3, 4, 16) == 1


# ---- the commands


def _folder(tmp_path: Path, count: int) -> Path:
    """`count` TRF files: the conformance files over and over (each chunk a mix), one broken."""
    sources = sorted(FIXTURES.glob("*.trf"))
    for i in range(count):
        (tmp_path / f"f{i:04d}.trf").write_text(sources[i % len(sources)].read_text())
    (tmp_path / f"f{count // 2:04d}.trf").write_text("001  xx\n")
    return tmp_path


def test_batch_with_two_jobs_writes_what_one_job_writes_in_the_files_order(tmp_path):
    folder = _folder(tmp_path, 150)  # chunks of 16, then the last ones shared
    one, two = (
        tiebreak("batch", folder, "-t", "BH/C1", "SB", "--no-explain", "--jobs", jobs, installed=jobs > 1)
        for jobs in (1, 2)
    )
    assert one.returncode == two.returncode == 1  # the broken file
    assert two.stdout == one.stdout
    lines = one.stdout.splitlines()
    assert len(lines) == 150 and [f'"index":{i},' in line for i, line in enumerate(lines)] == [True] * 150
    assert "149 ranked, 1 failed" in two.stderr


def test_check_with_two_jobs_writes_what_one_job_writes(tmp_path):
    folder = _folder(tmp_path, 60)
    one, two = (tiebreak("check", folder, "--jobs", jobs, installed=jobs > 1) for jobs in (1, 2))
    assert one.returncode == two.returncode == 1
    assert two.stdout == one.stdout and len(one.stdout.splitlines()) == 60


# A batch whose ranking of one file kills its worker process (as the kernel's OOM killer would):
# the command is patched in the parent, which the forked workers inherit.
_DYING_BATCH = """
import os, signal, sys
import tiebreak.cli.batch as batch
from tiebreak.cli import main

ranked = batch.batch_line

def batch_line(index, path, options):
    if path.endswith(sys.argv[1]):
        os.kill(os.getpid(), signal.SIGKILL)
    return ranked(index, path, options)

batch.batch_line = batch_line
sys.exit(main(sys.argv[2:]))
"""


def test_a_worker_killed_during_a_batch_ends_it_with_an_error_naming_the_file(tmp_path):
    folder = _folder(tmp_path, 150)
    out = tmp_path / "out.ndjson"
    started = time.monotonic()
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            _DYING_BATCH,
            "f0100.trf",
            "batch",
            folder,
            "-t",
            "BH",
            "--no-explain",
            "--out",
            out,
            "--jobs",
            "2",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert time.monotonic() - started < 120
    assert done.returncode == 1
    assert "a worker process died" in done.stderr and "f0100.trf (item 101 of 150)" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    written = out.read_text().splitlines()
    assert len(written) <= 100 and all(f'"index":{i},' in line for i, line in enumerate(written))
