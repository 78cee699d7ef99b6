"""Fit the two-player 300: The Board Game position estimate (`games/hot_gates/evaluation.py`).

Plays heuristic-against-heuristic games (a share of random moves, so that the positions
vary), records the model's features every few decisions with the game's result, and fits
a logistic regression by Newton's method on 80% of the positions; prints the weights to
paste into `WEIGHTS`, and the log-loss and accuracy on the other 20% against the
base rate. Run it again after changing the components or the features (`FEATURES` and
`features` in the same module); the current weights came from

    .venv/bin/python bench/hot_gates_evaluation.py --games 3000 --seed 1
"""

from __future__ import annotations

import argparse
import random
import textwrap

import numpy as np

from thermopylae.engine import registry
from thermopylae.engine.protocol import CHANCE
from thermopylae.games.hot_gates.evaluation import FEATURES, WEIGHTS, features
from thermopylae.games.hot_gates.rules import HotGates


def collect(games: int, seed: int, noise: float, every: int) -> tuple[np.ndarray, np.ndarray]:
    g = registry.get("hot-gates")
    assert isinstance(g, HotGates)  # a study of this game's own features
    agents = [g.agents()["heuristic"](), g.agents()["heuristic"]()]
    rng = random.Random(seed)
    xs: list[list[float]] = []
    ys: list[float] = []
    for n in range(games):
        s = g.new(g.options({"players": 2}))
        rows: list[list[float]] = []
        k = 0
        while (who := g.to_act(s)) is not None:
            if who == CHANCE:
                g.apply(s, g.sample_chance(s, rng), quiet=True)
                continue
            k += 1
            if k % every == 0:
                rows.append(features(s, g.t))
            legal = g.legal(s)
            a = (
                legal[int(rng.random() * len(legal))]
                if rng.random() < noise
                else agents[who].act(g, s, rng)
            )
            g.apply(s, a, quiet=True)
        outcome = g.outcome(s)
        assert outcome is not None  # the loop above ends with the game
        won = outcome.scores[1]
        xs += rows
        ys += [won] * len(rows)
        if (n + 1) % 100 == 0:
            print(f"  {n + 1}/{games} games, {len(xs)} positions", flush=True)
    return np.array(xs), np.array(ys)


def fit(x: np.ndarray, y: np.ndarray, steps: int = 30) -> np.ndarray:
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-x @ w))
        hessian = x.T @ (x * (p * (1 - p))[:, None]) + 1e-3 * np.eye(len(w))
        w += np.linalg.solve(hessian, x.T @ (y - p))
    return w


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1500, help="self-play games (default 1500)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--noise", type=float, default=0.1, help="share of random moves")
    ap.add_argument("--every", type=int, default=7, help="record every Nth decision")
    args = ap.parse_args()
    x, y = collect(args.games, args.seed, args.noise, args.every)
    order = np.random.default_rng(args.seed).permutation(len(x))
    train, test = order[: int(0.8 * len(x))], order[int(0.8 * len(x)) :]
    w = fit(x[train], y[train])
    for name, weights in (("fitted", w), ("current", np.array(WEIGHTS))):
        p = 1.0 / (1.0 + np.exp(-x[test] @ weights))
        acc = float(np.mean((p > 0.5) == (y[test] > 0.5)))
        print(f"{name:8} log-loss {log_loss(p, y[test]):.4f}  accuracy {acc:.3f}")
    base = np.full(len(test), y[train].mean())
    print(f"base     log-loss {log_loss(base, y[test]):.4f}  (Spartans won {y.mean():.1%})")
    for name, v in zip(FEATURES, w, strict=True):
        print(f"  {name:24} {v:8.3f}")
    print(
        textwrap.fill(
            "WEIGHTS = (" + ", ".join(f"{v:.3f}" for v in w) + ")", 90, subsequent_indent=" " * 11
        )
    )


if __name__ == "__main__":
    main()
