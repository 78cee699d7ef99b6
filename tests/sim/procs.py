"""The child processes of the test process, read from /proc (Linux): what a pool or a
local Ray must not leave behind."""

from __future__ import annotations

import os
import time
from pathlib import Path

# The standard library's resource tracker: one helper process per process that ever
# started a `spawn` pool (it tracks named semaphores and ends when its parent does). It is
# not a worker; every other child is.
TRACKER = "multiprocessing.resource_tracker"


def children() -> dict[int, str]:
    """The live child processes of this process: pid -> command line."""
    me = os.getpid()
    found = {}
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            stat = (proc / "stat").read_text()
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[1]) == me and fields[0] != "Z":
            found[int(proc.name)] = cmdline
    return found


def workers_left(before: dict[int, str], seconds: float = 10.0) -> dict[int, str]:
    """Children that were not there `before` and are not the resource tracker, once they
    have had `seconds` to end."""
    deadline = time.monotonic() + seconds
    while True:
        left = {
            pid: cmd for pid, cmd in children().items() if pid not in before and TRACKER not in cmd
        }
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)
