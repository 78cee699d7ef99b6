"""Thermopyles playout speed through the full protocol, optionally profiled.

    .venv/bin/python bench/thermopyles_playout.py [--seconds 5] [--players 1] [--profile]

Prints games and steps per CPU second for random and heuristic playouts on one core, each
with its ratio to the reference loop (`thermopylae.sim.reference`, a tight Python loop of
the same game) measured in turns in the same run (the same measurement as `thermopylae
bench thermopyles`); with --profile, the 15 functions that take the most time in the
random playout.
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats

from thermopylae.engine import registry
from thermopylae.sim.bench import bench, compare


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--players", type=int, default=1)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    game = registry.get("thermopyles")
    options = {"players": args.players}
    print(
        f"python {platform.python_version()} on {platform.machine()}, "
        f"{args.players} player(s), {args.seconds:.0f} s each"
    )
    figures = compare(game, ["random", "heuristic"], options, args.seconds)
    print(f"reference: {figures[0].reference.games_per_second:8,.0f} games/s")
    for f in figures:
        r = f.result
        print(
            f"{r.agent:>9}: {r.games_per_second:8,.0f} games/s  {f.ratio:.3g}x reference  "
            f"{r.steps_per_second:10,.0f} steps/s  ({r.games} games, "
            f"{r.steps / r.games:.1f} steps per game)"
        )
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(bench, game, "random", options, args.seconds)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
