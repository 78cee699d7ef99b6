"""The engine soak (bench/soak.py, issue 8) in its short version: 20,000 random actions
per game with every invariant checked, and no failure."""

from __future__ import annotations

import pytest

from tests.helpers import load_bench

ACTIONS = 20_000

soak = load_bench("soak")


@pytest.mark.parametrize("config", list(soak.CONFIGS))
def test_soak_short(config: str) -> None:
    result = soak.soak(config, ACTIONS, seed=8, every=50)
    assert not result.failures, "\n".join(str(f) for f in result.failures)
    assert result.actions >= ACTIONS
    assert result.games >= 1


def test_soak_script_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert soak.main(["--actions", "2000", "--games", "thermopyles-2,hot-gates-2"]) == 0
    out = capsys.readouterr().out
    assert "thermopyles-2" in out and "hot-gates-2" in out and "failures" in out


def test_soak_reports_a_failure(monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    """A broken invariant is reported with its seed and step, and the exit code is 1."""
    def broken(game: object, state: object) -> str:
        raise soak.InvariantError("round trip broken on purpose")

    monkeypatch.setattr(soak, "_check_round_trip", broken)
    assert soak.main(["--actions", "100", "--games", "thermopyles-1"]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "round trip broken on purpose" in out and "seed" in out and "step 0" in out
