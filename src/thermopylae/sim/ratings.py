"""Bradley–Terry ratings from pairwise results, on the Elo scale, with 95% intervals.

The model: agent i scores against agent j with probability 1 / (1 + 10^((R_j - R_i)/400)),
so 200 points of difference mean a 76% expected score and 400 points 91%. A comparison
scores 1 (i did better), 0.5 (a draw, or the same result) or 0. Ratings are fitted by
maximum likelihood (Newton's method on the log-strengths; the likelihood is concave, so a
handful of steps suffice) and centred so that their mean is 0: only differences mean
anything. One *virtual draw* between every two agents (a weak prior) keeps every rating
finite when an agent never scores, and shrinks the ratings by a negligible amount once
there are hundreds of games.

Intervals:

* `bootstrap` (the default): games are resampled with replacement within each stratum
  (each pairing of a tournament keeps its number of games) and the ratings fitted again;
  the interval is the 2.5th to 97.5th percentile of the refits. A *unit* of resampling
  may hold several comparisons (all the seats of one game, or all the agents that played
  the same deal), so comparisons that are not independent are resampled together.
* `fisher`: ± 1.96 standard errors from the observed information (the inverse Hessian of
  the log-likelihood), which treats every comparison as independent.
* `wider` (what tournaments use): the union of the two. The bootstrap alone cannot see any
  uncertainty where every game of a pairing ended the same way (a strong agent against
  `random` often wins them all: every resample is then the same), and the Fisher
  interval alone is too narrow where comparisons are correlated (several agents on one
  deal); the union is sound in both cases, if a little conservative.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

ELO = 400 / math.log(10)  # rating points per unit of log-strength
Comparison = tuple[int, int, float]  # agent i, agent j, i's score against j (1, 0.5, 0)
Matrix = NDArray[np.float64]


@dataclass(frozen=True)
class Rating:
    agent: str
    rating: float
    low: float
    high: float
    comparisons: int  # how many comparisons involve the agent
    score: float  # its mean score in them (draws half)

    def to_json(self) -> dict[str, object]:
        return {
            "rating": round(self.rating, 1),
            "ci95": [round(self.low, 1), round(self.high, 1)],
            "comparisons": self.comparisons,
            "score": round(self.score, 4),
        }


def matrices(k: int, comparisons: Sequence[Comparison]) -> tuple[Matrix, Matrix]:
    """`wins[i, j]`: i's total score against j; `games[i, j]`: comparisons of i and j."""
    wins = np.zeros((k, k))
    games = np.zeros((k, k))
    for i, j, s in comparisons:
        wins[i, j] += s
        wins[j, i] += 1 - s
        games[i, j] += 1
        games[j, i] += 1
    return wins, games


def fit(wins: Matrix, games: Matrix, prior: float = 1.0) -> Matrix:
    """Maximum-likelihood ratings (Elo scale, mean 0) from the score and game matrices,
    with `prior` virtual draws between every two agents."""
    k = wins.shape[0]
    off = 1 - np.eye(k)
    w = wins + prior * 0.5 * off
    n = games + prior * off
    theta = np.zeros(k)
    centre = np.ones((k, k)) / k  # fixes the free constant: ratings sum to 0
    for _ in range(100):
        p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))  # p[i, j]: i scores vs j
        grad = (w - n * p).sum(axis=1)
        h = n * p * (1 - p)
        info = np.diag(h.sum(axis=1)) - h  # minus the Hessian: a weighted Laplacian
        step = np.linalg.solve(info + centre, grad)
        step = np.clip(step, -3.0, 3.0)  # a safety net far from the optimum
        theta = theta + step
        theta -= theta.mean()
        if float(np.max(np.abs(step))) < 1e-10:
            break
    out: Matrix = theta * ELO
    return out


def fisher(
    wins: Matrix, games: Matrix, prior: float = 1.0, z: float = 1.959964
) -> tuple[Matrix, Matrix, Matrix]:
    """Ratings and their `z`-standard-error interval from the observed information."""
    ratings = fit(wins, games, prior)
    k = wins.shape[0]
    theta = ratings / ELO
    n = games + prior * (1 - np.eye(k))
    p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))
    h = n * p * (1 - p)
    info = np.diag(h.sum(axis=1)) - h
    cov = np.linalg.pinv(info)  # the covariance of the centred log-strengths
    se = np.sqrt(np.clip(np.diag(cov), 0, None)) * ELO
    return ratings, ratings - z * se, ratings + z * se


def bootstrap(
    units: Sequence[Sequence[Comparison]],
    strata: Sequence[int],
    k: int,
    samples: int = 1000,
    seed: int = 0,
    prior: float = 1.0,
) -> tuple[Matrix, Matrix, Matrix]:
    """Ratings and the percentile interval of `samples` refits on units resampled with
    replacement within each stratum (`strata[u]` is unit u's stratum)."""
    if len(units) != len(strata):
        raise ValueError("one stratum per unit")
    # Identical units are merged: resampling n units out of a stratum is a multinomial
    # draw over its distinct units, so each refit costs a small matrix product.
    kinds: dict[tuple[Comparison, ...], int] = {}
    counts: Counter[tuple[int, int]] = Counter()  # (stratum, kind) -> units
    for unit, stratum in zip(units, strata, strict=True):
        key = tuple(sorted(unit))
        kind = kinds.setdefault(key, len(kinds))
        counts[stratum, kind] += 1
    per_kind = np.zeros((len(kinds), 2, k, k))
    for key, kind in kinds.items():
        per_kind[kind] = matrices(k, key)
    flat = per_kind.reshape(len(kinds), 2 * k * k)
    total = np.zeros(len(kinds))
    for (_, kind), c in counts.items():
        total[kind] += c
    both = (total @ flat).reshape(2, k, k)
    ratings = fit(both[0], both[1], prior)
    rng = np.random.default_rng(seed)
    by_stratum: dict[int, list[tuple[int, int]]] = {}
    for (stratum, kind), c in counts.items():
        by_stratum.setdefault(stratum, []).append((kind, c))
    draws = np.zeros((samples, len(kinds)))
    for parts in by_stratum.values():
        ids = np.array([kind for kind, _ in parts])
        sizes = np.array([c for _, c in parts], dtype=float)
        n = int(sizes.sum())
        draws[:, ids] += rng.multinomial(n, sizes / n, size=samples)
    sums = (draws @ flat).reshape(samples, 2, k, k)
    refits = np.array([fit(s[0], s[1], prior) for s in sums])
    low, high = np.percentile(refits, [2.5, 97.5], axis=0)
    return ratings, low, high


METHODS = ("bootstrap", "fisher", "wider")


def rate(
    agents: Sequence[str],
    units: Sequence[Sequence[Comparison]],
    strata: Sequence[int] | None = None,
    method: str = "wider",
    samples: int = 1000,
    seed: int = 0,
) -> list[Rating]:
    """Ratings of `agents` from units of comparisons (indices into `agents`), with the
    95% interval of `method` (see the module's docstring)."""
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}: {', '.join(METHODS)}")
    k = len(agents)
    every = [c for unit in units for c in unit]
    wins, games = matrices(k, every)
    if method == "fisher":
        ratings, low, high = fisher(wins, games)
    else:
        ratings, low, high = bootstrap(units, strata or [0] * len(units), k, samples, seed)
        if method == "wider":
            _, f_low, f_high = fisher(wins, games)
            low, high = np.minimum(low, f_low), np.maximum(high, f_high)
    played = games.sum(axis=1)
    scored = wins.sum(axis=1)
    return [
        Rating(
            a,
            float(ratings[i]),
            float(low[i]),
            float(high[i]),
            int(played[i]),
            float(scored[i] / played[i]) if played[i] else 0.0,
        )
        for i, a in enumerate(agents)
    ]


def expected(r_i: float, r_j: float) -> float:
    """The expected score of a player rated `r_i` against one rated `r_j`."""
    return 1 / (1 + 10 ** ((r_j - r_i) / 400))
