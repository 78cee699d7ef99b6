"""The calibration bench (bench/calibration.py): its statistics on hand-made pairs, and a
tiny run of each game (chances in [0, 1], results 0 or 1, seeded, resumable)."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import load_bench

calibration = load_bench("calibration")
GAMES = ["thermopyles", "hot-gates", "earth-and-water"]


def _pairs(*values: tuple[float, float]) -> list[Any]:
    return [
        calibration.Pair("thermopyles", 10, seed, 0, 0, p, y)
        for seed, (p, y) in enumerate(values, 1)
    ]


def test_the_brier_score_and_its_standard_error_by_hand() -> None:
    pairs = _pairs((0.0, 0.0), (1.0, 1.0), (0.5, 0.0), (0.5, 1.0))
    # squared differences 0, 0, 0.25, 0.25: mean 0.125; each 0.125 from the mean, so the
    # sample variance is 4 × 0.125² / 3 = 0.0625 / 3, and the standard error its
    # square root over √4
    score, err = calibration.brier(pairs)
    assert score == pytest.approx(0.125)
    assert err == pytest.approx(math.sqrt(0.0625 / 3 / 4))
    assert err == pytest.approx(0.0721688, abs=1e-6)
    # two wins of four: base rate 0.5, a constant guess of it scores 0.25
    assert calibration.base_rate(pairs) == pytest.approx((0.5, 0.25))
    # one pair: its own squared difference, no standard error
    assert calibration.brier(_pairs((0.3, 1.0))) == pytest.approx((0.49, 0.0))


def test_the_bins_by_hand() -> None:
    pairs = _pairs((0.0, 0.0), (0.1, 1.0), (0.5, 0.0), (0.5, 1.0), (0.55, 1.0), (1.0, 1.0))
    table = calibration.bins(pairs)
    assert len(table) == 10
    assert [b.count for b in table] == [1, 1, 0, 0, 0, 3, 0, 0, 0, 1]
    assert [(b.low, b.high) for b in table][:2] == [(0.0, 0.1), (0.1, 0.2)]
    first, second, fifth, last = table[0], table[1], table[5], table[9]
    # 0.0 lost: rate 0; Wilson for 0 of 1 is [0, z²/(1 + z²)] = [0, 3.8415/4.8415]
    assert (first.predicted, first.observed, first.wins) == (0.0, 0.0, 0)
    assert first.wilson_low == 0.0
    assert first.wilson_high == pytest.approx(0.7935, abs=1e-4)
    # 0.1 belongs to the bin [0.1, 0.2) and won; Wilson for 1 of 1 is [1/(1 + z²), 1]
    assert (second.predicted, second.observed) == (0.1, 1.0)
    assert second.wilson_low == pytest.approx(0.2065, abs=1e-4)
    assert second.wilson_high == 1.0
    # 0.5, 0.5, 0.55: mean 1.55 / 3; two won of three. Wilson with z² = 3.8415: centre
    # (2/3 + z²/6) / (1 + z²/3) = 0.5731, half-width 1.96 √(2/27 + z²/36) / 2.2805 = 0.3654
    assert fifth.predicted == pytest.approx(1.55 / 3)
    assert (fifth.wins, fifth.observed) == (2, pytest.approx(2 / 3))
    assert fifth.wilson_low == pytest.approx(0.2077, abs=1e-4)
    assert fifth.wilson_high == pytest.approx(0.9385, abs=1e-4)
    # 1.0 goes to the last bin (its upper end included)
    assert (last.predicted, last.observed, last.count) == (1.0, 1.0, 1)
    # empty bins: no mean, no rate, the whole interval
    empty = table[2]
    assert math.isnan(empty.predicted) and math.isnan(empty.observed)
    assert (empty.wilson_low, empty.wilson_high) == (0.0, 1.0)
    text = calibration.report(pairs)
    assert "6 positions" in text and "| 0.5–0.6 | 3 | 0.517 | 0.667 | 0.208–0.939 |" in text


def _without_cpu(pairs: list[Any]) -> list[Any]:
    return [dataclasses.replace(p, cpu=0.0) for p in pairs]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_tiny_run_gives_chances_and_results_the_same_for_the_same_seed(game_id: str) -> None:
    pairs = calibration.run(game_id, 3, 4, seed=11)
    assert [p.seed for p in pairs] == [11, 12, 13]
    for p in pairs:
        assert p.game == game_id and p.budget == 4
        assert 0.0 <= p.predicted <= 1.0
        assert p.observed in (0.0, 1.0)
        assert p.step >= 0 and p.seat >= 0 and p.cpu >= 0.0
    again = calibration.run(game_id, 3, 4, seed=11)
    assert _without_cpu(again) == _without_cpu(pairs)


def test_a_run_with_a_file_is_resumed_without_recomputing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "cal.jsonl"
    first = calibration.run("thermopyles", 2, 3, seed=5, out=out)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["seed"] for line in lines] == [5, 6]
    assert set(lines[0]) == {
        "game",
        "budget",
        "seed",
        "step",
        "seat",
        "predicted",
        "observed",
        "cpu",
    }
    with out.open("a") as f:
        f.write('{"game": "thermopyles", "bud')  # a line cut short by an interrupted run
    computed: list[int] = []
    real = calibration.sample

    def counting(game: Any, seed: int, budget: int) -> Any:
        computed.append(seed)
        return real(game, seed, budget)

    monkeypatch.setattr(calibration, "sample", counting)
    more = calibration.run("thermopyles", 3, 3, seed=5, out=out)
    assert computed == [7]  # only the seed the file lacks
    assert more[:2] == first
    # another budget is another measurement: nothing of the file is reused
    computed.clear()
    calibration.run("thermopyles", 1, 2, seed=5, out=out)
    assert computed == [5]


def test_workers_give_the_same_pairs_as_one_process() -> None:
    one = calibration.run("thermopyles", 3, 3, seed=21)
    two = calibration.run("thermopyles", 3, 3, seed=21, workers=2)
    assert _without_cpu(two) == _without_cpu(one)


def test_the_calibration_test_by_hand() -> None:
    # χ² tails in closed form: 2 degrees of freedom e^(−x/2), 4: e^(−x/2)(1 + x/2); the
    # 95% points 3.8415 (1 degree) and 7.8147 (3)
    assert calibration.chi2_sf(3.0, 2) == pytest.approx(math.exp(-1.5))
    assert calibration.chi2_sf(3.0, 4) == pytest.approx(math.exp(-1.5) * 2.5)
    assert calibration.chi2_sf(3.841459, 1) == pytest.approx(0.05, abs=1e-6)
    assert calibration.chi2_sf(7.814728, 3) == pytest.approx(0.05, abs=1e-6)
    assert calibration.chi2_sf(0.0, 5) == 1.0
    pairs = _pairs((0.0, 0.0), (0.1, 1.0), (0.5, 0.0), (0.5, 1.0), (0.55, 1.0), (1.0, 1.0))
    # the bins of 0.0 and of 1.0 have no variance: left out. Bin [0.1, 0.2): expected 0.1,
    # variance 0.09, one win: 0.9² / 0.09 = 9. Bin [0.5, 0.6): expected 1.55, variance
    # 0.25 + 0.25 + 0.2475 = 0.7475, two wins: 0.45² / 0.7475
    chi2, df, p = calibration.calibration_test(pairs)
    assert chi2 == pytest.approx(9 + 0.2025 / 0.7475)
    assert df == 2
    assert p == pytest.approx(math.exp(-chi2 / 2))


def test_the_budget_noise_by_hand() -> None:
    # budget 10: a chance of 0.5 has variance 0.25 / 9 (standard error 1/6), a chance of
    # 0 none; the means over the two pairs
    err, added = calibration.budget_noise(_pairs((0.5, 1.0), (0.0, 0.0)))
    assert err == pytest.approx(1 / 12)
    assert added == pytest.approx(0.25 / 9 / 2)
