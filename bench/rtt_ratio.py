"""Earth & Water's random games per second against Rally the Troops' engine, in one run.

    .venv/bin/python bench/rtt_ratio.py [--rounds 5] [--seconds 10]

Each round runs, in turn (the order rotated every round), for about `--seconds` each:

- ours, fused: `game.random_playout` (the game's own loop) from new games;
- ours, protocol: the same games through the protocol loop (`engine.play.play(...,
  moves=game.sensible)`: `to_act`, `sensible`, `apply`, `sample_chance` per step);
- theirs: `node /tmp/rtt/drive.js bench SECONDS`, Rally the Troops' public engine of
  300: Earth & Water under Node, driven by uniformly random play (one of the listed
  actions at each step, chosen with its own generator);

and prints each round's games per second and the ratios ours / theirs of that round, then
the median ratio over the rounds (issue 21's goal: at least 2x). Both sides count games per
wall-clock second of their own measuring window (the driver's figure is wall time), which
is why they take turns; the CPU estimate (our CPU seconds; the driver's process CPU spread
evenly over its wall time) is printed beside it.

The peer engine is not part of this repository and must never be copied into it. Rebuild
it in /tmp/rtt when it is missing (../shared/limits/README.md): with the search tool's
`read_file`, repository `rally-the-troops/300-earth-and-water`, path `rules.js`, commit
`65c5ffd5c50eb4cc846f3889ee5562aa9e9cd52c`, page through it with `offset` and concatenate
the pages' text exactly into /tmp/rtt/rules.js (89,739 characters; its sha256 starts
`af84375d`); then `cp ../shared/limits/rtt-earth-and-water-drive.js /tmp/rtt/drive.js`.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from thermopylae.engine import registry
from thermopylae.engine.play import play

RTT = Path("/tmp/rtt")
RULES_SHA256_PREFIX = "af84375d"
REBUILD = """\
Rally the Troops' engine is missing or not the expected one in /tmp/rtt. Rebuild it (never
in the repository; its code is not ours):
  1. with the search tool's read_file: repository rally-the-troops/300-earth-and-water,
     path rules.js, commit 65c5ffd5c50eb4cc846f3889ee5562aa9e9cd52c; page through it with
     offset (0, 16000, 32000, ...) and concatenate the pages' text exactly into
     /tmp/rtt/rules.js (89,739 characters, sha256 starting af84375d);
  2. cp ../shared/limits/rtt-earth-and-water-drive.js /tmp/rtt/drive.js
  3. check: node /tmp/rtt/drive.js bench 10
(../shared/limits/README.md says the same.)"""


def check_peer() -> str:
    """The peer's `node`, or exit with how to rebuild it."""
    node = shutil.which("node")
    rules, drive = RTT / "rules.js", RTT / "drive.js"
    if node is None:
        sys.exit("node is not installed: the peer engine runs under Node.js")
    if not rules.is_file() or not drive.is_file():
        sys.exit(REBUILD)
    digest = hashlib.sha256(rules.read_bytes()).hexdigest()
    if not digest.startswith(RULES_SHA256_PREFIX):
        sys.exit(
            f"/tmp/rtt/rules.js: sha256 {digest[:16]}..., not {RULES_SHA256_PREFIX}...\n{REBUILD}"
        )
    return node


class Ours:
    """Random games of our Earth & Water for about `seconds` of wall time, seeds counting on
    across calls (every call plays new games)."""

    def __init__(self, fused: bool) -> None:
        self.game = registry.get("earth-and-water")
        self.options = self.game.options({})
        self.fused = fused
        self.seed = 0

    def one(self) -> int:
        game, seed = self.game, self.seed
        self.seed += 1
        state = game.new(self.options)
        chance, agent = random.Random(seed), random.Random(seed + 1_000_003)
        if self.fused:
            return game.random_playout(state, chance, agent)
        return play(game, state, (), chance, agent, moves=game.sensible)

    def run(self, seconds: float) -> tuple[float, float, float]:
        """(games per wall second, games per CPU second, steps per game)."""
        games = steps = 0
        wall0, cpu0 = time.perf_counter(), time.process_time()
        while True:
            steps += self.one()
            games += 1
            if games % 16 == 0 and time.perf_counter() - wall0 >= seconds:
                break
        wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
        return games / wall, games / cpu, steps / games


def theirs(node: str, seconds: float) -> tuple[float, float, float]:
    """(games per wall second, estimated games per CPU second, steps per game) of the peer:
    its own figure, and its process's CPU seconds spread over its wall time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall0 = time.perf_counter()
    out = subprocess.run(
        [node, str(RTT / "drive.js"), "bench", f"{seconds:g}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    wall = time.perf_counter() - wall0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    games = re.search(r"games:\s+(\d+) in ([\d.]+) s", out)
    per_game = re.search(r"mean steps/game:\s+([\d.]+)", out)
    if games is None or per_game is None:
        sys.exit(f"cannot read the driver's output:\n{out}")
    n, window = int(games.group(1)), float(games.group(2))
    return n / window, n / (cpu * window / wall), float(per_game.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--seconds", type=float, default=10.0, help="each run (the driver takes >= 10)"
    )
    args = parser.parse_args()
    node = check_peer()
    seconds = max(10.0, args.seconds)
    fused, protocol = Ours(fused=True), Ours(fused=False)
    fused.run(1.0)  # warm-up: imports, caches
    protocol.run(1.0)
    load = os.getloadavg()
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    print(
        f"python {platform.python_version()}, node {version} on {platform.machine()}, "
        f"{os.cpu_count()} cores, load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; "
        f"{args.rounds} rounds of {seconds:g} s each"
    )
    runs: list[tuple[str, Callable[[], tuple[float, float, float]]]] = [
        ("fused", lambda: fused.run(seconds)),
        ("protocol", lambda: protocol.run(seconds)),
        ("rtt", lambda: theirs(node, seconds)),
    ]
    ratios: dict[str, list[float]] = {
        "fused": [],
        "protocol": [],
        "fused cpu": [],
        "protocol cpu": [],
    }
    for r in range(args.rounds):
        k = r % len(runs)
        got = {name: f() for name, f in runs[k:] + runs[:k]}
        rtt = got["rtt"]
        line = [f"round {r + 1}:"]
        for name in ("fused", "protocol"):
            wall, cpu, _ = got[name]
            ratios[name].append(wall / rtt[0])
            ratios[name + " cpu"].append(cpu / rtt[1])
            line.append(f"{name} {wall:6.0f}/s (cpu {cpu:6.0f}) {wall / rtt[0]:.2f}x")
        line.append(f"rtt {rtt[0]:6.0f}/s (cpu est. {rtt[1]:6.0f}), {rtt[2]:.1f} steps/game")
        print("  ".join(line), flush=True)
    print(f"steps per game: ours {got['fused'][2]:.1f}, theirs {got['rtt'][2]:.1f}")
    for name, values in ratios.items():
        print(
            f"median ratio ours/theirs, {name:>12}: {statistics.median(values):.2f}x "
            f"(range {min(values):.2f}-{max(values):.2f}, {len(values)} rounds)"
        )
    print(f"load at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
