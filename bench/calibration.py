"""Is the win chance calibrated? Predicted chances against what happened.

Plays POSITIONS heuristic-vs-heuristic games (seeds S, S+1, ...), takes one position of
each at a uniformly random step, and estimates from a random seat's information
(`ai.winchance.estimate`, BUDGET playouts of the heuristic). The observation is whether
that seat went on to win the game as it was really played (with the true hidden cards).
Prints the Brier score (mean squared difference between chance and result; a constant
guess of the base rate scores base × (1 − base)) and writes a reliability plot: the
positions in ten bins of predicted chance, observed win rate per bin with its Wilson
interval. docs/ai.md gives the figures of

    .venv/bin/python bench/calibration.py GAME 100 BUDGET --seed 1 --plot out/GAME.png
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path
from typing import Any

from thermopylae.ai.base import make_agent
from thermopylae.ai.winchance import estimate
from thermopylae.engine import registry
from thermopylae.engine.play import play
from thermopylae.sim.stats import wilson


def sample(game: Any, seed: int, budget: int) -> tuple[float, float]:
    """(predicted chance, observed result) at one random position of one game."""
    options = game.options({})
    seats = len(game.seats(options))
    rng = random.Random(seed)
    agents = [make_agent("heuristic", game) for _ in range(seats)]
    steps: list[Any] = []
    start = game.new(options)
    final = game.copy(start)
    play(game, final, agents, rng, random.Random(seed + 10**9), lambda _, a: steps.append(a))
    outcome = game.outcome(final)
    assert outcome is not None
    cut = rng.randrange(len(steps))
    for a in steps[:cut]:
        game.apply(start, a, quiet=True)
    seat = rng.randrange(seats)
    chance = estimate(game, start, seat, budget=budget, rng=random.Random(seed * 7 + 1))
    return chance.win, float(outcome.results[seat] == "win")


def plot(pairs: list[tuple[float, float]], path: Path, title: str) -> None:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(5, 5))
    ax = fig.add_subplot()
    ax.plot([0, 1], [0, 1], color="grey", lw=0.8, label="perfect calibration")
    xs, ys, lo, hi = [], [], [], []
    for b in range(10):
        inside = [(p, y) for p, y in pairs if b / 10 <= p < (b + 1) / 10 or (b == 9 and p == 1)]
        if not inside:
            continue
        wins = int(sum(y for _, y in inside))
        low, high = wilson(wins, len(inside))
        rate = wins / len(inside)
        xs.append(sum(p for p, _ in inside) / len(inside))
        ys.append(rate)
        lo.append(rate - low)
        hi.append(high - rate)
    ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", capsize=3, label="observed (Wilson 95%)")
    ax.set_xlabel("predicted win chance")
    ax.set_ylabel("observed win rate")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.legend(loc="upper left")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("positions", type=int)
    parser.add_argument("budget", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plot", type=Path, default=None)
    args = parser.parse_args()
    game = registry.get(args.game)
    began = time.process_time()
    pairs = [sample(game, args.seed + i, args.budget) for i in range(args.positions)]
    brier = sum((p - y) ** 2 for p, y in pairs) / len(pairs)
    base = sum(y for _, y in pairs) / len(pairs)
    print(
        f"{args.game}: {len(pairs)} positions, budget {args.budget}: Brier {brier:.4f} "
        f"(base rate {base:.3f}, constant guess {base * (1 - base):.4f}); "
        f"{time.process_time() - began:.0f} s CPU"
    )
    if args.plot is not None:
        title = f"{args.game}: {len(pairs)} positions, {args.budget} playouts"
        plot(pairs, args.plot, title)


if __name__ == "__main__":
    main()
