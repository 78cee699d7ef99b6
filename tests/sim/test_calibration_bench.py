"""bench/calibration.py: its reliability plot is drawn from the bins of sampled positions
(the sampling, scores and bins themselves: tests/ai/test_calibration.py)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import load_bench
from thermopylae.engine import registry


def test_the_reliability_plot_is_drawn(tmp_path: Path) -> None:
    bench = load_bench("calibration")
    game = registry.get("thermopyles")
    pairs = [bench.sample(game, seed, 5) for seed in range(1, 6)]
    bench.plot(bench.bins(pairs), tmp_path / "cal.png", "test")
    assert (tmp_path / "cal.png").stat().st_size > 0
