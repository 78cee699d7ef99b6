"""Win chance from a seat's information: seeded, right at the end, blind to hidden cards."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.analysis_helpers import short_record
from thermopylae.ai.winchance import MAX_BUDGET, estimate, estimate_all
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.protocol import GenericGame
from thermopylae.engine.record import replay, restore_state

GAMES = ["thermopyles", "earth-and-water", "hot-gates"]


def _position(game_id: str, back: int) -> tuple[GenericGame, Any]:
    """A state `back` steps before the end of a heuristic game."""
    game, rec = short_record(game_id, last=12)
    state = restore_state(game, rec.start or {}, "start")
    for _, text in rec.steps[: len(rec.steps) - back]:
        game.apply(state, game.parse(text), quiet=True)
    return game, state


@pytest.mark.parametrize("game_id", GAMES)
def test_the_same_seed_gives_the_same_estimate(game_id: str) -> None:
    game, state = _position(game_id, 10)
    a = estimate(game, state, 0, budget=20, rng=random.Random(5))
    b = estimate(game, state, 0, budget=20, rng=random.Random(5))
    assert a == b and a.playouts == 20
    assert 0.0 <= a.win <= 1.0 and a.stderr >= 0.0


@pytest.mark.parametrize("game_id", GAMES)
def test_a_finished_game_gives_its_result(game_id: str) -> None:
    game, rec = short_record(game_id)
    report = replay(game, rec)
    assert report.ok and report.outcome is not None
    chances = estimate_all(game, report.state, 0, budget=5, rng=random.Random(1))
    for seat, result in enumerate(report.outcome.results):
        assert chances[seat].win == (1.0 if result == "win" else 0.0)
        assert chances[seat].stderr == 0.0


@pytest.mark.parametrize("game_id", GAMES)
def test_a_twin_with_other_hidden_cards_gets_the_same_estimate(game_id: str) -> None:
    """Re-deal what seat 0 cannot see (as the leak tests do): the estimate is the same."""
    for back in (12, 8, 4):
        game, state = _position(game_id, back)
        twin = game.determinize(state, 0, random.Random(99))
        assert game.view(twin, 0) == game.view(state, 0)
        a = estimate(game, state, 0, budget=10, rng=random.Random(7))
        b = estimate(game, twin, 0, budget=10, rng=random.Random(7))
        assert a == b


@pytest.mark.parametrize("budget", [0, -1, MAX_BUDGET + 1, True, 2.5])
def test_an_absurd_budget_is_refused(budget: object) -> None:
    game, state = _position("thermopyles", 4)
    with pytest.raises(ThermopylaeError, match="budget"):
        estimate(game, state, 0, budget=budget, rng=random.Random(1))  # type: ignore[arg-type]  # True, 2.5: on purpose


def test_a_budget_in_seconds_plays_at_least_once() -> None:
    game, state = _position("thermopyles", 4)
    chance = estimate(game, state, 0, seconds=0.01, rng=random.Random(1))
    assert chance.playouts >= 1


def test_marks_follow_the_documented_thresholds() -> None:
    from thermopylae.ai.analysis import mark

    assert [mark(x) for x in (0.0, 0.049, 0.05, 0.099, 0.10, 0.199, 0.20, 1.0)] == [
        None,
        None,
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]
