"""The compiled Thermopyles kernel's speed as ratios measured in one run (issue 21, item 4).

Rounds in turn, each figure in CPU seconds of one core: the kernel (random and heuristic
solo games, `Thermopyles.batch_simulator`), the engine through the protocol (random and
heuristic agents, `sim.match.play_indexed`, as `simulate` plays), the benchmarks' reference
loop (sim/reference.py), and, when `--c-loop PATH` names one, a minimal C loop of the same
random game (built outside the repository; it reads the Persian kinds and cards on stdin
and prints `games cpu_seconds wins`). Prints each figure's median and the median ratio of
the kernel to each of the others over the rounds.

    .venv/bin/python bench/kernel_speed.py --rounds 5 --seconds 2 [--c-loop /tmp/cloop/loop]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time
from collections.abc import Callable

from thermopylae.ai.base import make_agent
from thermopylae.engine import registry
from thermopylae.sim import reference
from thermopylae.sim.match import play_indexed


def kernel(policy: str, seconds: float) -> Callable[[], float]:
    game = registry.get("thermopyles")
    batch = game.batch_simulator({"players": 1})
    assert batch is not None
    batch.run(10, 0, [policy])  # compiled (or loaded from the cache) before timing

    def rate() -> float:
        games, start, n = 0, time.process_time(), 50_000
        while (elapsed := time.process_time() - start) < seconds:
            batch.run(n, games, [policy], games)
            games += n
        return games / elapsed

    return rate


def engine(policy: str, seconds: float) -> Callable[[], float]:
    game = registry.get("thermopyles")
    options = game.options({"players": 1})
    agents = [make_agent(policy, game)]

    def rate() -> float:
        games, start = 0, time.process_time()
        while (elapsed := time.process_time() - start) < seconds:
            play_indexed(game, options, agents, 1, games)
            games += 1
        return games / elapsed

    return rate


def ref(seconds: float) -> Callable[[], float]:
    return lambda: reference.run(seconds).games_per_second


def c_loop(path: str, seconds: float) -> Callable[[], float]:
    c = registry.get("thermopyles").components  # type: ignore[attr-defined]
    deck = "\n".join(
        [
            str(len(c.persian_kinds)),
            *(f"{k.combat} {k.annihilation} {int(k.bonus)}" for k in c.persian_kinds),
            " ".join(map(str, c.persian)),
        ]
    )

    def rate() -> float:
        done = subprocess.run(
            [path, str(seconds), "1"], input=deck, capture_output=True, text=True, check=True
        )
        games, cpu, _ = done.stdout.split()
        return int(games) / float(cpu)

    return rate


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--c-loop", default=None)
    a = p.parse_args()
    figures: dict[str, Callable[[], float]] = {
        "kernel random": kernel("random", a.seconds),
        "kernel heuristic": kernel("heuristic", a.seconds),
        "engine random": engine("random", a.seconds),
        "engine heuristic": engine("heuristic", a.seconds),
        "reference loop": ref(a.seconds),
    }
    if a.c_loop:
        figures["C loop"] = c_loop(a.c_loop, a.seconds)
    rounds: list[dict[str, float]] = []
    for r in range(a.rounds):
        rounds.append({name: f() for name, f in figures.items()})
        print(f"round {r + 1}: " + ", ".join(f"{k} {v:,.0f}/s" for k, v in rounds[-1].items()))
    print("\nmedian games per CPU second (solo):")
    for name in figures:
        print(f"  {name:<18} {statistics.median(x[name] for x in rounds):>12,.0f}")
    print("\nmedian ratio over the rounds (each round's own figures):")
    pairs = [
        ("kernel random", "C loop"),
        ("kernel random", "engine random"),
        ("kernel random", "reference loop"),
        ("kernel heuristic", "engine heuristic"),
    ]
    for num, den in pairs:
        if den in figures:
            ratio = statistics.median(x[num] / x[den] for x in rounds)
            print(f"  {num} / {den}: {ratio:,.3f}")


if __name__ == "__main__":
    main()
