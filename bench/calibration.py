"""Is the win chance calibrated? Predicted chances against what happened.

Plays POSITIONS heuristic-vs-heuristic games (seeds S, S+1, ...) with the game's default
options, takes one position of each at a uniformly random step, and estimates from a
random seat's information (`ai.winchance.estimate`, BUDGET playouts of the heuristic).
The observation is whether that seat went on to win the game as it was really played
(with the true hidden cards).

Prints the Brier score (mean squared difference between chance and result) with its
standard error (of the mean of the squared differences, over positions), the base-rate
reference (a constant guess of the base rate scores base × (1 − base)), and a table of
ten bins of predicted chance: mean predicted, observed win rate with its Wilson 95%
interval, count; and a test of calibration over the bins: if every position's chance
were its true one, each bin's wins would have mean Σ predicted and variance
Σ predicted × (1 − predicted), and the sum over the k non-empty bins of
(wins − Σ predicted)² / Σ predicted × (1 − predicted) would be about χ² with k degrees of
freedom (the p-value says how often chance alone would give a larger one). With a finite
budget the chance is itself noisy: it adds about the mean of chance × (1 − chance) / BUDGET
to the Brier score (printed), and spreads the predictions, which pulls each bin's observed
rate a little towards the base rate. `--plot` draws the bins as a reliability plot;
`--workers N` computes in N processes (default 1).

`--out FILE` keeps the pairs as JSON lines (game, budget, seed, step, seat, predicted,
observed, cpu): a second run with the same file computes only the seeds it lacks, so a
run can be resumed, and re-plotted without recomputing. docs/ai.md gives the figures of

    nice -n 19 .venv/bin/python bench/calibration.py GAME 2000 BUDGET --seed 1 \\
        --out /tmp/cal/GAME.jsonl --plot /tmp/cal/GAME.png
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from thermopylae.ai.base import make_agent
from thermopylae.ai.winchance import estimate
from thermopylae.engine import registry
from thermopylae.engine.play import play
from thermopylae.sim.stats import wilson


@dataclass(frozen=True, slots=True)
class Pair:
    """One position: the chance `seat` was given at `step` of game `seed`, and whether it
    won (1.0) or not (0.0); `cpu`: seconds of CPU the position took (game and estimate)."""

    game: str
    budget: int
    seed: int
    step: int
    seat: int
    predicted: float
    observed: float
    cpu: float = 0.0


@dataclass(frozen=True, slots=True)
class Bin:
    """The pairs whose prediction is in [low, high) (the last bin also takes 1.0)."""

    low: float
    high: float
    count: int
    wins: int
    predicted: float  # mean predicted chance (nan when empty)
    observed: float  # observed win rate (nan when empty)
    wilson_low: float
    wilson_high: float


def sample(game: Any, seed: int, budget: int) -> Pair:
    """The pair of one random position of the heuristic game of `seed`."""
    began = time.process_time()
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
    observed = float(outcome.results[seat] == "win")
    cpu = time.process_time() - began
    return Pair(game.id, budget, seed, cut, seat, chance.win, observed, round(cpu, 4))


def brier(pairs: list[Pair]) -> tuple[float, float]:
    """The Brier score and its standard error (sample deviation of the squared
    differences over √n; 0 for fewer than two pairs)."""
    sq = [(p.predicted - p.observed) ** 2 for p in pairs]
    n = len(sq)
    mean = sum(sq) / n
    if n < 2:
        return mean, 0.0
    var = sum((x - mean) ** 2 for x in sq) / (n - 1)
    return mean, math.sqrt(var / n)


def base_rate(pairs: list[Pair]) -> tuple[float, float]:
    """The observed win rate and the Brier score of guessing it everywhere."""
    base = sum(p.observed for p in pairs) / len(pairs)
    return base, base * (1 - base)


def budget_noise(pairs: list[Pair]) -> tuple[float, float]:
    """(mean standard error of one estimate, its share of the Brier score): an estimate of
    BUDGET playouts is a binomial share, of variance chance × (1 − chance) / BUDGET, which
    adds its mean to the Brier score (estimated without bias by p(1 − p) / (BUDGET − 1))."""
    budget = pairs[0].budget
    if budget < 2:
        return math.nan, math.nan
    var = [p.predicted * (1 - p.predicted) / (budget - 1) for p in pairs]
    return sum(math.sqrt(v) for v in var) / len(var), sum(var) / len(var)


def bins(pairs: list[Pair], n: int = 10) -> list[Bin]:
    """`n` equal bins of predicted chance over [0, 1], empty ones included."""
    out = []
    for b in range(n):
        low, high = b / n, (b + 1) / n
        inside = [
            p for p in pairs if low <= p.predicted < high or (b == n - 1 and p.predicted == 1)
        ]
        count = len(inside)
        wins = int(sum(p.observed for p in inside))
        wl, wh = wilson(wins, count)
        mean = sum(p.predicted for p in inside) / count if count else math.nan
        rate = wins / count if count else math.nan
        out.append(Bin(low, high, count, wins, mean, rate, wl, wh))
    return out


def chi2_sf(x: float, df: int) -> float:
    """P(χ² with `df` degrees of freedom > x): the closed forms for whole `df`."""
    if x <= 0:
        return 1.0
    h = x / 2
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, df // 2):
            term *= h / i
            total += term
        return math.exp(-h) * total
    total = math.erfc(math.sqrt(h))
    term = math.sqrt(h) / math.gamma(1.5)  # h^(i+½) / Γ(i + 3/2), i = 0
    for i in range(df // 2):
        total += math.exp(-h) * term
        term *= h / (i + 1.5)
    return total


def calibration_test(pairs: list[Pair], n: int = 10) -> tuple[float, int, float]:
    """(χ², degrees of freedom, p-value) of the wins per bin against the predictions (the
    module's docstring); bins whose predictions are all 0 or 1 add nothing."""
    chi2, df = 0.0, 0
    for b in range(n):
        low, high = b / n, (b + 1) / n
        inside = [
            p for p in pairs if low <= p.predicted < high or (b == n - 1 and p.predicted == 1)
        ]
        expected = sum(p.predicted for p in inside)
        variance = sum(p.predicted * (1 - p.predicted) for p in inside)
        if variance > 0:
            wins = sum(p.observed for p in inside)
            chi2 += (wins - expected) ** 2 / variance
            df += 1
    return chi2, df, chi2_sf(chi2, df) if df else 1.0


def plot(table: list[Bin], path: Path, title: str) -> None:
    """The reliability plot: observed rate against mean predicted chance, per bin."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(5, 5))
    ax = fig.add_subplot()
    ax.plot([0, 1], [0, 1], color="grey", lw=0.8, label="perfect calibration")
    full = [b for b in table if b.count]
    xs = [b.predicted for b in full]
    ys = [b.observed for b in full]
    lo = [b.observed - b.wilson_low for b in full]
    hi = [b.wilson_high - b.observed for b in full]
    ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", capsize=3, label="observed (Wilson 95%)")
    ax.set_xlabel("predicted win chance")
    ax.set_ylabel("observed win rate")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.legend(loc="upper left")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)


def load(path: Path, game: str, budget: int) -> dict[int, Pair]:
    """The pairs of `game` at `budget` already in `path`, by seed (others are ignored)."""
    found: dict[int, Pair] = {}
    if not path.exists():
        return found
    with path.open() as f:
        for line in f:
            if not line.strip():
                continue
            try:
                pair = Pair(**json.loads(line))
            except (json.JSONDecodeError, TypeError):
                continue  # a line cut short by an interrupted run
            if pair.game == game and pair.budget == budget:
                found[pair.seed] = pair
    return found


def _one(job: tuple[str, int, int]) -> Pair:
    game_id, seed, budget = job
    return sample(registry.get(game_id), seed, budget)


def compute(game_id: str, seeds: list[int], budget: int, workers: int = 1) -> Iterator[Pair]:
    """The pairs of `seeds`, in order; with `workers` > 1 from a pool of processes."""
    jobs = [(game_id, s, budget) for s in seeds]
    if workers <= 1:
        yield from map(_one, jobs)
        return
    with ProcessPoolExecutor(workers) as pool:
        yield from pool.map(_one, jobs, chunksize=1)


def run(
    game_id: str,
    positions: int,
    budget: int,
    seed: int = 1,
    out: Path | None = None,
    workers: int = 1,
    progress: bool = False,
) -> list[Pair]:
    """The pairs of seeds seed .. seed + positions − 1: those in `out` are read, the
    others computed (and appended to `out`)."""
    seeds = list(range(seed, seed + positions))
    have = load(out, game_id, budget) if out is not None else {}
    missing = [s for s in seeds if s not in have]
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
    began = time.monotonic()
    new: Iterable[Pair] = compute(game_id, missing, budget, workers)
    f = out.open("a") if out is not None and missing else None
    try:
        for i, pair in enumerate(new, 1):
            have[pair.seed] = pair
            if f is not None:
                f.write(json.dumps(asdict(pair)) + "\n")
                f.flush()
            if progress:
                _progress(game_id, positions - len(missing) + i, positions, i, len(missing), began)
    finally:
        if f is not None:
            f.close()
    return [have[s] for s in seeds]


def _progress(game_id: str, done: int, total: int, new: int, todo: int, began: float) -> None:
    spent = time.monotonic() - began
    left = spent / new * (todo - new)
    tty = sys.stderr.isatty()
    if not tty and new % max(1, todo // 100) and new != todo:
        return  # into a file: about a hundred lines, not one a position
    line = f"{game_id}: {done}/{total} positions, {spent:.0f} s, about {left:.0f} s to go"
    sys.stderr.write(("\r" + line + ("\n" if new == todo else "")) if tty else line + "\n")
    sys.stderr.flush()


def report(pairs: list[Pair]) -> str:
    """The summary and the table of bins, as printed."""
    game, budget = pairs[0].game, pairs[0].budget
    score, err = brier(pairs)
    base, guess = base_rate(pairs)
    cpu = sum(p.cpu for p in pairs)
    noise_err, noise_brier = budget_noise(pairs)
    chi2, df, pvalue = calibration_test(pairs)
    lines = [
        f"{game}: {len(pairs)} positions, budget {budget}: Brier {score:.4f} ± {err:.4f} "
        f"(standard error); base rate {base:.3f}, constant guess {guess:.4f}; {cpu:.0f} s CPU",
        f"an estimate's standard error: {noise_err:.3f} on average (at most "
        f"{0.5 / math.sqrt(budget):.3f}); the budget's noise adds about {noise_brier:.4f} "
        "to the Brier score",
        f"calibration over the bins: χ² {chi2:.1f} with {df} degrees of freedom, p = {pvalue:.3f}",
        "| predicted | positions | mean predicted | observed | Wilson 95% | diagonal |",
        "|---|---|---|---|---|---|",
    ]
    for b in bins(pairs):
        if b.count:
            inside = b.wilson_low <= b.predicted <= b.wilson_high
            lines.append(
                f"| {b.low:.1f}–{b.high:.1f} | {b.count} | {b.predicted:.3f} | "
                f"{b.observed:.3f} | {b.wilson_low:.3f}–{b.wilson_high:.3f} | "
                f"{'inside' if inside else 'MISSED'} |"
            )
        else:
            lines.append(f"| {b.low:.1f}–{b.high:.1f} | 0 | – | – | – | – |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("game", help="thermopyles, hot-gates or earth-and-water")
    parser.add_argument("positions", type=int, help="how many games (one position each)")
    parser.add_argument("budget", type=int, help="playouts an estimate")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--out", type=Path, default=None, help="JSON lines of the pairs")
    parser.add_argument("--plot", type=Path, default=None, help="the reliability plot (PNG)")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    args = parser.parse_args()
    game = registry.get(args.game)
    pairs = run(
        game.id, args.positions, args.budget, args.seed, args.out, args.workers, progress=True
    )
    print(report(pairs))
    if args.plot is not None:
        title = f"{game.id}: {len(pairs)} positions, {args.budget} playouts"
        plot(bins(pairs), args.plot, title)


if __name__ == "__main__":
    main()
