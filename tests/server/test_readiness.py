"""The helpers that wait for a server (point 25 of the hardening issue): a process is
waited for until it is ready, however slow a busy machine makes its start-up; one that
never gets ready is reported with its output, and one that dies is reported at once, not
at the end of the (generous) limit. And `wait_until_over` for tables of AI seats."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.server.helpers import (
    PATIENCE,
    Api,
    seat_specs,
    wait_ready,
    wait_until_over,
)
from thermopylae.engine import registry
from thermopylae.engine.record import Record, replay


def fake_server(tmp_path: Path, script: str) -> tuple[subprocess.Popen[bytes], Path]:
    """`python -c script` with its output in a log file, as `Server` runs the real one."""
    log = tmp_path / "fake.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-c", script],
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    return proc, log


def wait_for_line(log: Path, line: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while line not in log.read_text():
        assert time.monotonic() < deadline, f"the fake server never printed {line!r}"
        time.sleep(0.02)


def test_p25_a_server_that_never_gets_ready_is_reported_with_its_output(tmp_path: Path) -> None:
    proc, log = fake_server(
        tmp_path, "import time; print('warming up', flush=True); time.sleep(600)"
    )
    try:

        def never() -> bool:  # not ready; returns once the process has said something
            wait_for_line(log, "warming up")
            return False

        with pytest.raises(AssertionError) as failure:
            wait_ready(proc, never, log.read_text, limit=0.2, what="the fake server")
        message = str(failure.value)
        assert "the fake server did not get ready within 0.2 s" in message
        assert "warming up" in message  # its output, to see why
        assert proc.poll() is not None  # and it was not left running
    finally:
        proc.kill()
        proc.wait()


def test_p25_a_server_that_dies_is_reported_at_once(tmp_path: Path) -> None:
    """The process dies after the first probe: the next look sees it, with no further
    probe, although the limit is far away (a check only at the limit would probe on)."""
    go = tmp_path / "go"
    proc, log = fake_server(
        tmp_path,
        "import pathlib, sys, time\n"
        f"while not pathlib.Path({str(go)!r}).exists(): time.sleep(0.01)\n"
        "print('fatal: the database is gone', flush=True)\n"
        "sys.exit(3)\n",
    )
    probes: list[int | None] = []

    def probe() -> bool:
        probes.append(proc.poll())
        go.touch()  # the process dies now
        proc.wait(PATIENCE)
        return False

    try:
        with pytest.raises(AssertionError) as failure:
            wait_ready(proc, probe, log.read_text, limit=PATIENCE, what="the fake server")
    finally:
        proc.kill()
        proc.wait()
    message = str(failure.value)
    assert "the fake server exited with 3 before it was ready" in message
    assert "fatal: the database is gone" in message
    assert probes == [None]


def test_wait_until_over_waits_for_a_table_of_ai_seats(sqlite_api: Api) -> None:
    created = sqlite_api.create("thermopyles", {"players": 1}, seat_specs("e"))
    over = wait_until_over(sqlite_api, created["id"])
    assert over["outcome"] is not None
    rec = sqlite_api.record(created["id"])
    assert len(rec["steps"]) == over["move"]
    assert replay(registry.get("thermopyles"), Record.from_json(rec)).ok


def test_wait_until_over_names_a_table_that_is_not_over(sqlite_api: Api) -> None:
    created = sqlite_api.create("thermopyles", {"players": 1}, seat_specs("h"))
    with pytest.raises(AssertionError, match=f"table {created['id']} is not over within"):
        wait_until_over(sqlite_api.client, created["id"], timeout=0.2)
