"""The engine soak (bench/soak.py, issue 8): random actions for every game with every
invariant checked, and no failure. The default run is short: 5,000 actions per game (at
least 14 whole games of each, 2 of them 4-player Hot Gates), the costly checks every 25
steps, about 200 of them per game; `--soak-full` (or THERMOPYLAE_SOAK_FULL=1) runs the full
soak of docs/reliability.md, 1,000,000 actions per game, checks every 50 steps."""

from __future__ import annotations

import pytest

from tests.helpers import load_bench

SHORT = (5_000, 25)  # (actions per game, steps between the costly checks)
FULL = (1_000_000, 50)

soak = load_bench("soak")


@pytest.fixture
def size(request: pytest.FixtureRequest) -> tuple[int, int]:
    return FULL if request.config.getoption("--soak-full") else SHORT


@pytest.mark.parametrize("config", list(soak.CONFIGS))
def test_soak(config: str, size: tuple[int, int]) -> None:
    actions, every = size
    result = soak.soak(config, actions, seed=8, every=every)
    assert not result.failures, "\n".join(str(f) for f in result.failures)
    assert result.actions >= actions
    assert result.games >= 1


def test_soak_script_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert soak.main(["--actions", "2000", "--games", "thermopyles-2,hot-gates-2"]) == 0
    out = capsys.readouterr().out
    assert "thermopyles-2" in out and "hot-gates-2" in out and "failures" in out


def test_soak_reports_a_failure(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A broken invariant is reported with its seed and step, and the exit code is 1."""

    def broken(game: object, state: object) -> str:
        raise soak.InvariantError("round trip broken on purpose")

    monkeypatch.setattr(soak, "_check_round_trip", broken)
    assert soak.main(["--actions", "100", "--games", "thermopyles-1"]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "round trip broken on purpose" in out and "seed" in out and "step 0" in out
