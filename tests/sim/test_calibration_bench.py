"""bench/calibration.py: a sampled position gives a chance and a result, and the plot is drawn."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import load_bench
from thermopylae.engine import registry


def test_samples_and_plot(tmp_path: Path) -> None:
    bench = load_bench("calibration")
    game = registry.get("thermopyles")
    pairs = [bench.sample(game, seed, 5) for seed in range(1, 6)]
    assert pairs == [bench.sample(game, seed, 5) for seed in range(1, 6)]  # seeded
    for chance, result in pairs:
        assert 0.0 <= chance <= 1.0 and result in (0.0, 1.0)
    bench.plot(pairs, tmp_path / "cal.png", "test")
    assert (tmp_path / "cal.png").stat().st_size > 0
