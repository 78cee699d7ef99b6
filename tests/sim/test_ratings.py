"""Bradley–Terry ratings and their intervals, on data drawn from the model itself."""

from __future__ import annotations

import random

import numpy as np
import pytest

from thermopylae.sim.ratings import ELO, expected, fisher, fit, matrices, rate

TRUE = [-150.0, 0.0, 250.0]  # the ratings the synthetic games are drawn from
CENTRED = [r - sum(TRUE) / 3 for r in TRUE]
PAIRS = [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]


def synthetic(
    games: int, seed: int, draw: float = 0.0
) -> tuple[list[list[tuple[int, int, float]]], list[int]]:
    """`games` games per ordered pair; i wins with the model's probability. With `draw`,
    a share of games is drawn while keeping i's expected score (so the truth is kept)."""
    rng = random.Random(seed)
    units, strata = [], []
    for n, (i, j) in enumerate(PAIRS):
        e = expected(TRUE[i], TRUE[j])
        for _ in range(games):
            u = rng.random()
            if u < draw:
                s = 0.5 if rng.random() < 1 - abs(2 * e - 1) else (1.0 if e > 0.5 else 0.0)
            else:
                s = 1.0 if rng.random() < e else 0.0
            units.append([(i, j, s)])
            strata.append(n)
    return units, strata


@pytest.mark.parametrize("method", ["bootstrap", "fisher", "wider"])
def test_stronger_agents_rate_higher_and_the_intervals_hold_the_truth(method: str) -> None:
    units, strata = synthetic(300, seed=11)
    ratings = rate(["weak", "middle", "strong"], units, strata, method, 500, seed=3)
    values = [r.rating for r in ratings]
    assert values[0] < values[1] < values[2]
    assert sum(values) == pytest.approx(0, abs=1e-6)
    for r, truth in zip(ratings, CENTRED, strict=True):
        assert r.low < r.rating < r.high
        assert r.low <= truth <= r.high, (r, truth)
        assert r.high - r.low < 120  # 1,200 comparisons per agent pin it down
    assert [r.comparisons for r in ratings] == [1200, 1200, 1200]


def test_draws_count_half() -> None:
    wins, games = matrices(2, [(0, 1, 0.5), (0, 1, 1.0), (1, 0, 0.5)])
    assert wins[0, 1] == 2.0 and wins[1, 0] == 1.0
    assert games[0, 1] == games[1, 0] == 3
    only_draws = fit(*matrices(2, [(0, 1, 0.5)] * 50))
    assert only_draws == pytest.approx([0, 0], abs=1e-9)


def test_the_fit_is_the_maximum_likelihood_with_its_prior() -> None:
    units, _ = synthetic(100, seed=5, draw=0.2)
    wins, games = matrices(3, [c for u in units for c in u])
    ratings = fit(wins, games, prior=1.0)
    theta = ratings / ELO
    w = wins + 0.5 * (1 - np.eye(3))
    n = games + (1 - np.eye(3))
    p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))
    assert np.abs((w - n * p).sum(axis=1)).max() < 1e-8  # the gradient vanishes


def test_an_agent_that_never_scores_gets_a_finite_rating_and_a_real_interval() -> None:
    units = [[(0, 1, 1.0)] for _ in range(20)] + [[(1, 0, 0.0)] for _ in range(20)]
    strata = [0] * 20 + [1] * 20
    strong, weak = rate(["strong", "weak"], units, strata)
    assert np.isfinite(strong.rating) and strong.rating > 200 and weak.rating == -strong.rating
    assert strong.low < strong.rating < strong.high  # the bootstrap alone would be 0 wide
    assert strong.low > 0  # 40 wins out of 40 do say it is stronger
    boot = rate(["strong", "weak"], units, strata, "bootstrap")
    assert boot[0].low == pytest.approx(boot[0].high)


def test_the_bootstrap_is_reproducible_and_resamples_within_strata() -> None:
    units, strata = synthetic(50, seed=2)
    a = rate(["a", "b", "c"], units, strata, "bootstrap", 200, seed=9)
    b = rate(["a", "b", "c"], units, strata, "bootstrap", 200, seed=9)
    assert a == b
    c = rate(["a", "b", "c"], units, strata, "bootstrap", 200, seed=10)
    assert [r.rating for r in a] == [r.rating for r in c]
    assert [r.low for r in a] != [r.low for r in c]


def test_fisher_intervals_cover_the_truth_about_95_percent_of_the_time() -> None:
    covered = trials = 0
    for seed in range(60):
        units, _ = synthetic(60, seed=100 + seed)
        _, low, high = fisher(*matrices(3, [c for u in units for c in u]))
        covered += int(((low <= CENTRED) & (np.array(CENTRED) <= high)).sum())
        trials += 3
    assert 0.88 <= covered / trials <= 0.995


def test_unknown_method() -> None:
    with pytest.raises(ValueError, match="unknown method"):
        rate(["a", "b"], [[(0, 1, 1.0)]], method="elo")
