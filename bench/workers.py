"""Does the second worker pay? `thermopylae simulate` with --workers 1 against --workers 2
(and, with --ray, --backend ray), whole commands timed in turns in one run.

    .venv/bin/python bench/workers.py [--games 20000] [--agent random] [--runs 5] [--ray]
        [--no-bytecode]

Each round runs every command once, in turn (1, 2[, ray], 1, 2, ...), so a machine whose
speed drifts slows them alike; the ratio is taken round by round and its median printed.
Wall seconds are the whole process (Python's start-up and imports included), read around
the child; "in run" is the command's own figure (`seconds` of its JSON: the games only,
workers' start-up included); CPU is the user and system seconds of the command and the
workers it waited for (a Ray cluster's processes are not its children: not counted). The
results must be the same for every command; the load average before and after says
whether the cores were idle.

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
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

ENV = dict(os.environ)


def command(args: argparse.Namespace, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "thermopylae",
        "simulate",
        "thermopyles",
        "--agent",
        args.agent,
        "--games",
        str(args.games),
        "--seed",
        "1",
        "--json",
        *extra,
    ]


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd: list[str]) -> tuple[float, float, dict[str, Any]]:
    """Wall seconds, CPU seconds (the command and the workers it waited for), its JSON."""
    cpu = children_cpu()
    started = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=True, env=ENV)
    return time.perf_counter() - started, children_cpu() - cpu, json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--agent", default="random")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--ray", action="store_true", help="also time --backend ray")
    parser.add_argument(
        "--no-bytecode",
        action="store_true",
        help="run in this environment as it is (no bytecode if PYTHONDONTWRITEBYTECODE is set)",
    )
    args = parser.parse_args()
    if args.no_bytecode:
        run(args)
        return
    ENV.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory(prefix="thermopylae-bench-") as cache:
        ENV["PYTHONPYCACHEPREFIX"] = cache
        run(args)


def run(args: argparse.Namespace) -> None:
    variants = {"workers 1": ["--workers", "1"], "workers 2": ["--workers", "2"]}
    if args.ray:
        variants["ray"] = ["--backend", "ray"]
    print(
        f"{args.games} Thermopyles games, agent {args.agent}, {args.runs} rounds, "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} before, "
        + ("bytecode as the environment has it" if args.no_bytecode else "with bytecode")
    )
    timed(command(args, "--workers", "1"))  # warm-up: the file cache, not counted
    wall: dict[str, list[float]] = {name: [] for name in variants}
    inrun: dict[str, list[float]] = {name: [] for name in variants}
    cpu: dict[str, list[float]] = {name: [] for name in variants}
    results = set()
    startup: list[float] = []
    small = argparse.Namespace(**{**vars(args), "games": 1})
    for _ in range(args.runs):
        startup.append(timed(command(small, "--workers", "1"))[1])
        for name, extra in variants.items():
            seconds, used, data = timed(command(args, *extra))
            wall[name].append(seconds)
            cpu[name].append(used)
            inrun[name].append(data["seconds"])
            results.add((data["wins"], data["mean_turns"], json.dumps(data["reasons"])))
    base = "workers 1"
    for name in variants:
        ratios = [a / b for a, b in zip(wall[base], wall[name], strict=True)]
        inrun_ratios = [a / b for a, b in zip(inrun[base], inrun[name], strict=True)]
        print(
            f"{name:>9}: wall {statistics.median(wall[name]):6.2f} s "
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
