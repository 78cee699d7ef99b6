"""Does the second worker pay? `thermopylae simulate thermopyles --games 20000` with
--workers 1 against --workers 2 (and Ray: a local one started by the command, or a
cluster started beforehand), whole commands timed in turns in one run.

    .venv/bin/python bench/workers.py [--games 20000] [--agent random] [--runs 5]
        [--ray] [--ray-cluster | --address HOST:PORT] [--json] [--no-bytecode]

The commands are the goal's own: the installed `thermopylae` script, its plain output
(no --json unless asked: the printing is part of the command), stdout not a terminal
(no progress bar). Each round runs every command once, in turn (1, 2[, ray...], 1, 2,
...), so a machine whose speed drifts slows them alike; the ratio to --workers 1 is
taken round by round and its median printed. Wall seconds are the whole process
(Python's start-up and imports included), read around the child; "in run" is the
command's own figure (the games only, workers' start-up included); CPU is the user and
system seconds of the command and the workers it waited for (a Ray cluster's processes
are not its children: not counted). The results must be the same for every command; the
load average before and after says whether the cores were idle.

Ray: --ray times `--backend ray`, which starts a local Ray in every command (ray.init,
4-12 s here, is in its wall time). --ray-cluster starts a cluster first, outside the timed
part (`ray start --head --block --num-cpus 2`, no dashboard, no usage stats, its temp
folder under /tmp), times `--backend ray --address` against it, and stops it at the end
(only the processes it started); --address times a cluster that is already running. The
time of `import ray` and of connecting (`backends.start_ray`: ray.init) is measured apart,
in a process of its own, and printed beside.

On a shared machine the wall times say little (other sessions take the cores), so each
round also times the command's start-up alone (`--games 1 --workers 1`: Python, imports,
the game) and the CPU accounting predicts the speed-up on idle cores: one worker takes its
CPU seconds of wall time; two take the start-up, then the rest of their CPU split evenly
between the two cores (an upper bound: chunks may not end together).

The commands run as an installed package runs: with bytecode, which the warm-up run
writes (and with it the derived default component set, `engine.components.default_cached`)
under a temporary `PYTHONPYCACHEPREFIX`, so the checkout is left as it was. With
--no-bytecode they run in this environment as it is: with PYTHONDONTWRITEBYTECODE=1 (set
on some machines) every module is compiled from source on every run, ~35 ms more.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

ENV = dict(os.environ)
RAY_ENV = {"RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"}
BIN = Path(sys.executable).parent


def entry() -> list[str]:
    """The installed `thermopylae` script (the goal's command), else `python -m`."""
    script = BIN / "thermopylae"
    return [str(script)] if script.exists() else [sys.executable, "-m", "thermopylae"]


def command(args: argparse.Namespace, games: int, *extra: str) -> list[str]:
    return [
        *entry(),
        "simulate",
        "thermopyles",
        "--agent",
        args.agent,
        "--games",
        str(games),
        "--seed",
        str(args.seed),
        *(["--json"] if args.json else []),
        *extra,
    ]


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def outcome(stdout: str, games: int, as_json: bool) -> tuple[str, float]:
    """The run's results (what must be the same for every command) and its own seconds."""
    if as_json:
        data = json.loads(stdout)
        key = json.dumps([data["wins"], data["draws"], data["mean_turns"], data["reasons"]])
        return key, float(data["seconds"])
    rate = re.search(r"([\d,]+) games/s", stdout)
    seconds = games / float(rate.group(1).replace(",", "")) if rate else float("nan")
    key = re.sub(r"\d+ worker\(s\)|\s+[\d,]+ games/s \([\d.]+ s\)", "", stdout)
    return key, seconds


def timed(cmd: list[str], games: int, as_json: bool) -> tuple[float, float, str, float]:
    """Wall seconds, CPU seconds (the command and the workers it waited for), its results
    and its own seconds."""
    cpu = children_cpu()
    started = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=ENV, stdin=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stderr}")
    return (wall, children_cpu() - cpu, *outcome(done.stdout, games, as_json))


def ray_connect_seconds(address: str | None) -> dict[str, float]:
    """`import ray` and `backends.start_ray` (ray.init: a local Ray, or a connection to
    `address`), each timed in a fresh process, as a command would pay them."""
    code = (
        "import json, time; t0 = time.perf_counter(); import ray; t1 = time.perf_counter(); "
        "from thermopylae.sim import backends; t2 = time.perf_counter(); "
        f"backends.start_ray({address!r}); t3 = time.perf_counter(); backends.shutdown_ray(); "
        "print(json.dumps({'import ray': t1 - t0, 'ray.init': t3 - t2, "
        "'shutdown': time.perf_counter() - t3}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=ENV, check=True
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _processes_mentioning(marker: str) -> list[int]:
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if marker in (proc / "cmdline").read_bytes().decode(errors="replace"):
                found.append(int(proc.name))
        except OSError:
            continue
    return [pid for pid in found if pid != os.getpid()]


@contextmanager
def ray_cluster(cpus: int) -> Iterator[str]:
    """A Ray head started here (`ray start --head --block`) and its address; on leaving,
    that process is stopped (it stops the processes it started) and any of its processes
    still running after 20 s (found by its own temp folder) are killed, by their ids."""
    temp = tempfile.mkdtemp(prefix="thrm-ray-", dir="/tmp")  # short: Ray's socket paths
    port = _free_port()
    head = subprocess.Popen(
        [
            str(BIN / "ray"),
            "start",
            "--head",
            "--block",
            f"--port={port}",
            f"--num-cpus={cpus}",
            "--include-dashboard=false",
            "--disable-usage-stats",
            f"--object-store-memory={200 * 1024**2}",
            f"--temp-dir={temp}",
        ],
        env={**ENV, **RAY_ENV},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
    )
    try:
        address = f"127.0.0.1:{port}"
        deadline = time.monotonic() + 180
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if head.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("ray start --head did not come up") from None
                time.sleep(0.5)
        yield address
    finally:
        head.send_signal(signal.SIGTERM)
        try:
            head.wait(timeout=60)
        except subprocess.TimeoutExpired:
            head.kill()
            head.wait()
        deadline = time.monotonic() + 20
        while (left := _processes_mentioning(temp)) and time.monotonic() < deadline:
            time.sleep(0.5)
        for pid in left:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(temp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--agent", default="random", help="random, heuristic (the default's)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--ray", action="store_true", help="also time --backend ray (local)")
    parser.add_argument(
        "--ray-cluster",
        action="store_true",
        help="also time --backend ray --address against a cluster started before the rounds",
    )
    parser.add_argument("--address", help="also time --backend ray against this running cluster")
    parser.add_argument("--cpus", type=int, default=2, help="CPUs of --ray-cluster's head")
    parser.add_argument("--json", action="store_true", help="run the commands with --json")
    parser.add_argument(
        "--no-bytecode",
        action="store_true",
        help="run in this environment as it is (no bytecode if PYTHONDONTWRITEBYTECODE is set)",
    )
    args = parser.parse_args()
    ENV.update({k: v for k, v in RAY_ENV.items() if k not in ENV})
    if args.no_bytecode:
        with_cluster(args)
        return
    ENV.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory(prefix="thermopylae-bench-") as cache:
        ENV["PYTHONPYCACHEPREFIX"] = cache
        with_cluster(args)


def with_cluster(args: argparse.Namespace) -> None:
    if not args.ray_cluster:
        run(args, args.address)
        return
    started = time.perf_counter()
    with ray_cluster(args.cpus) as address:
        print(f"Ray cluster at {address} up in {time.perf_counter() - started:.1f} s (not timed)")
        run(args, address)


def run(args: argparse.Namespace, address: str | None) -> None:
    variants = {"workers 1": ["--workers", "1"], "workers 2": ["--workers", "2"]}
    if args.ray:
        variants["ray local"] = ["--backend", "ray"]
    if address:
        variants["ray cluster"] = ["--backend", "ray", "--address", address]
    print(
        f"{args.games} Thermopyles games, agent {args.agent}, {args.runs} rounds, "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} before, "
        + ("bytecode as the environment has it" if args.no_bytecode else "with bytecode")
        + f"; command: {' '.join(command(args, args.games, '--workers', '2'))}"
    )
    timed(command(args, 1, "--workers", "1"), 1, args.json)  # warm-up: caches, not counted
    if args.ray:
        local = ray_connect_seconds(None)
        print("local Ray, apart: " + ", ".join(f"{k} {v:.2f} s" for k, v in local.items()))
    if address:
        remote = ray_connect_seconds(address)
        print("Ray cluster, apart: " + ", ".join(f"{k} {v:.2f} s" for k, v in remote.items()))
    wall: dict[str, list[float]] = {name: [] for name in variants}
    inrun: dict[str, list[float]] = {name: [] for name in variants}
    cpu: dict[str, list[float]] = {name: [] for name in variants}
    results = set()
    startup: list[float] = []
    for _ in range(args.runs):
        startup.append(timed(command(args, 1, "--workers", "1"), 1, args.json)[1])
        for name, extra in variants.items():
            seconds, used, key, own = timed(
                command(args, args.games, *extra), args.games, args.json
            )
            wall[name].append(seconds)
            cpu[name].append(used)
            inrun[name].append(own)
            results.add(key)
    base = "workers 1"
    for name in variants:
        ratios = [a / b for a, b in zip(wall[base], wall[name], strict=True)]
        inrun_ratios = [a / b for a, b in zip(inrun[base], inrun[name], strict=True)]
        print(
            f"{name:>11}: wall {statistics.median(wall[name]):6.2f} s "
            f"(min {min(wall[name]):.2f}, max {max(wall[name]):.2f}), "
            f"speed-up {statistics.median(ratios):.2f}x; in run "
            f"{statistics.median(inrun[name]):6.2f} s, speed-up "
            f"{statistics.median(inrun_ratios):.2f}x; CPU {statistics.median(cpu[name]):6.2f} s"
        )
    start = statistics.median(startup)
    one = statistics.median(cpu[base])
    two = statistics.median(cpu["workers 2"])
    print(
        f"start-up CPU {start:.2f} s; on idle cores the CPU predicts workers 1 {one:.2f} s, "
        f"workers 2 {start + (two - start) / 2:.2f} s: speed-up "
        f"{one / (start + (two - start) / 2):.2f}x (games only: "
        f"{(one - start) / ((two - start) / 2):.2f}x)"
    )
    print(f"load average {os.getloadavg()[0]:.2f} after; identical results: {len(results) == 1}")


if __name__ == "__main__":
    main()
