"""The load bench (bench/load.py, issue 8) in its short version: a real server on SQLite,
3 tables for 2 seconds (tens of actions at a think time of 0.05 s), played over the
WebSockets (and over HTTP). Checks the report, not speed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

LOAD = Path(__file__).parents[2] / "bench" / "load.py"


@pytest.mark.parametrize(("clients", "via"), [(1, "socket"), (2, "socket"), (1, "http")])
def test_load_bench_short_run_on_sqlite(clients: int, via: str) -> None:
    run = subprocess.run(
        [
            sys.executable,
            str(LOAD),
            "--tables",
            "3",
            "--seconds",
            "2",
            "--think",
            "0.05",
            "--warmup",
            "0.2",
            "--clients",
            str(clients),
            "--via",
            via,
            "--seed",
            "1",
            "--json",
            "--quiet",
            "--timeout",
            "60",
        ],  # a push slower than 60 s is an error; a busy machine is not
        capture_output=True,
        text=True,
        timeout=900,
        stdin=subprocess.DEVNULL,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(run.stdout)
    assert report["seated"] == 3 and report["db"] == "sqlite"
    assert report["clients"] == clients
    assert report["actions"] > 0
    assert report["error_count"] == 0, report["errors"]
    assert report["server_tracebacks"] == 0
    push = report["push_latency_ms"]
    assert push["count"] > 0
    assert push["p50"] <= push["p95"] <= push["p99"] <= push["max"]
    assert report["server_rss_mib"]["peak"] > 0
    assert report["via"] == via
    assert report["server_cpu_ms_per_action"] > 0 and report["client_cpu_ms_per_action"] > 0
    # the server's CPU split into the interpreter's (user) and the kernel's (system) time
    user, system = (report[f"server_cpu_{k}_ms_per_action"] for k in ("user", "system"))
    assert user > 0 and system >= 0
    assert user + system == pytest.approx(report["server_cpu_ms_per_action"], abs=0.002)


def test_load_bench_help() -> None:
    run = subprocess.run(
        [sys.executable, str(LOAD), "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert run.returncode == 0
    for option in (
        "--tables",
        "--seconds",
        "--db",
        "--processes",
        "--redis",
        "--json",
        "--start-limit",
        "--via",
    ):
        assert option in run.stdout
