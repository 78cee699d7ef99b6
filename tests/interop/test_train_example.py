"""The training example (examples/train_solo_thermopyles.py) end to end, with a tiny
budget: it trains, saves the model, loads it back and evaluates it against `random` and
the heuristic. At this budget the agent need not beat `random`; the full run and its
figures are in docs/rl.md ("Training example")."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "train_solo_thermopyles.py"
NEEDED = ("torch", "stable_baselines3", "sb3_contrib")


def _require_libraries() -> None:
    missing = [m for m in NEEDED if importlib.util.find_spec(m) is None]
    if missing:
        message = (
            f"the training example needs {', '.join(missing)}: "
            "pip install -e '.[train]' (the test extra brings them)"
        )
        if os.environ.get("CI"):
            pytest.fail(message)  # CI installs the test extra: a missing library is a bug
        pytest.skip(message)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLE), *args], capture_output=True, text=True, timeout=300, cwd=ROOT
    )


def test_help() -> None:
    _require_libraries()
    done = _run("--help")
    assert done.returncode == 0, done.stderr
    for option in ("--timesteps", "--seed", "--eval-games", "--out"):
        assert option in done.stdout


def test_tiny_training_run_end_to_end(tmp_path: Path) -> None:
    _require_libraries()
    model, report_file = tmp_path / "model.zip", tmp_path / "report.json"
    games = 12
    done = _run(
        "--timesteps",
        "256",
        "--n-envs",
        "2",
        "--eval-games",
        str(games),
        "--seed",
        "3",
        "--out",
        str(model),
        "--json",
        str(report_file),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert model.is_file() and model.stat().st_size > 0
    report = json.loads(report_file.read_text())
    # one rollout at least: n_envs * n_steps = 2 * 256 steps
    assert report["timesteps"] >= 256
    assert report["seed"] == 3 and report["eval_games"] == games
    assert report["model"] == str(model)
    assert set(report["results"]) == {"trained", "random", "heuristic"}
    for result in report["results"].values():
        assert result["games"] == games
        assert 0 <= result["wins"] <= games
        assert result["win_rate"] == pytest.approx(result["wins"] / games)
        low, high = result["ci95"]
        assert 0.0 <= low <= result["win_rate"] <= high <= 1.0
        assert result["steps"] >= games  # every game took at least one decision
    assert isinstance(report["trained_beats_random"], bool)
    for name in ("trained", "random", "heuristic"):
        assert f"  {name} " in done.stdout
    assert "95% CI" in done.stdout

    # the saved model evaluates again without training, with the same result
    again = _run(
        "--timesteps",
        "0",
        "--load",
        str(model),
        "--eval-games",
        str(games),
        "--seed",
        "3",
        "--no-heuristic",
        "--json",
        str(tmp_path / "again.json"),
    )
    assert again.returncode == 0, again.stdout + again.stderr
    second = json.loads((tmp_path / "again.json").read_text())
    assert set(second["results"]) == {"trained", "random"}
    assert second["results"]["trained"] == {
        **report["results"]["trained"],
        "seconds": second["results"]["trained"]["seconds"],
    }
