"""The compute worker keeps the memory a job freed for the next one (forked.keep_freed_memory):
a block of megabytes freed and asked for again costs no page faults (Linux, glibc)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Page faults while a 16 MiB block is filled a second time, after one was filled and freed.
FAULTS = """
import resource, sys
from tiebreak.api import forked
if sys.argv[1] == "keep":
    assert forked.keep_freed_memory(), "mallopt refused the options"
size = 16 << 20
def fill():
    block = bytearray(size)
    block[::4096] = b"x" * len(range(0, size, 4096))  # one write per page
    del block
fill()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
fill()
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def faults(mode: str) -> int:
    out = subprocess.run([sys.executable, "-c", FAULTS, mode], cwd=ROOT, capture_output=True, text=True, check=True)
    return int(out.stdout)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="mallopt is glibc's (the image and CI are Linux)")
def test_a_freed_block_is_reused_without_page_faults():
    pages = (16 << 20) // 4096
    assert faults("default") > pages // 2  # the measure sees the faults: malloc maps the block afresh
    assert faults("keep") < pages // 20
