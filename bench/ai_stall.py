"""How much AI seats thinking at the server's limit slow everybody else down.

Starts `thermopylae serve` on loopback, times actions on a two-human Thermopyles table
(the reference: nothing else happening), then creates STALL tables of AI seats that each
think the longest the server allows (`ismcts:seconds=<--ai-seconds>`) and times the same
actions again while they think. Prints the medians and largest times and the ratio of the
loaded figure to the reference of the same run; at the end it stops the server with
SIGTERM and times how long it takes to exit.

    python bench/ai_stall.py                 # 7 AI tables, 30 actions each phase
    python bench/ai_stall.py --stall 14 --actions 60
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start(db: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    exe = shutil.which("thermopylae") or str(Path(sys.executable).with_name("thermopylae"))
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [exe, "serve", "--port", str(port), "--db", f"sqlite:///{db}"],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=dict(os.environ),
        )
    while True:
        if proc.poll() is not None:
            sys.exit(f"the server exited: {log.read_text()[-2000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)


def time_actions(base: str, n: int) -> list[float]:
    """`n` actions on fresh two-human Thermopyles tables, each timed from send to answer."""
    times: list[float] = []
    while len(times) < n:
        created = httpx.post(
            f"{base}/api/tables", json={"game": "thermopyles", "options": {"players": 2}}
        ).json()
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        table = created["id"]
        for _ in range(20):
            view = httpx.get(f"{base}/api/tables/{table}").json()
            if view["outcome"] is not None or len(times) >= n:
                break
            token = tokens[view["to_act"]]
            legal = httpx.get(f"{base}/api/tables/{table}", params={"token": token}).json()
            started = time.perf_counter()
            r = httpx.post(
                f"{base}/api/tables/{table}/actions",
                timeout=60,
                json={"token": token, "move": view["move"], "action": legal["legal"][0]["action"]},
            )
            times.append(time.perf_counter() - started)
            assert r.status_code == 200, r.text
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stall", type=int, default=7, help="AI tables thinking at once")
    ap.add_argument("--actions", type=int, default=30, help="actions timed in each phase")
    ap.add_argument("--seconds", type=float, default=5.0, help="the AI seats' seconds=")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="ai-stall-"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start(folder / "t.sqlite", port, folder / "server.log")
    try:
        reference = time_actions(base, args.actions)
        body: dict[str, Any] = {
            "game": "earth-and-water",
            "seats": [{"kind": "ai", "agent": f"ismcts:seconds={args.seconds:g}"}] * 2,
        }
        answers: list[float] = []

        def create() -> None:
            started = time.perf_counter()
            r = httpx.post(f"{base}/api/tables", json=body, timeout=120)
            answers.append(time.perf_counter() - started)
            assert r.status_code == 201, r.text

        threads = [threading.Thread(target=create) for _ in range(args.stall)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        time.sleep(1.0)  # the AI tables are thinking now
        loaded = time_actions(base, args.actions)
    finally:
        stopped = time.perf_counter()
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
        exit_time = time.perf_counter() - stopped
    ref_med, load_med = statistics.median(reference), statistics.median(loaded)
    print(
        f"{args.stall} AI tables of ismcts:seconds={args.seconds:g} created; slowest answer "
        f"to their POST {max(answers):.3f} s"
    )
    print(
        f"action, nothing else happening: median {ref_med * 1000:.1f} ms, "
        f"largest {max(reference) * 1000:.1f} ms"
    )
    print(
        f"action beside the thinking AI:  median {load_med * 1000:.1f} ms, "
        f"largest {max(loaded) * 1000:.1f} ms  ({load_med / ref_med:.2f}x the reference)"
    )
    print(f"SIGTERM to exit, AI still thinking: {exit_time:.2f} s")


if __name__ == "__main__":
    main()
