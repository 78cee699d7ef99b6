"""Environments in different threads observe as if each were alone: a game's state
observer keeps what its last call saw and writes on from it, so every environment holds
an observer of its own (`StateObserver.fresh`), never the game's shared one."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from tests.helpers import random_game
from thermopylae.engine import registry
from thermopylae.engine.observation import StateObserver
from thermopylae.engine.protocol import CHANCE
from thermopylae.interop import observe
from thermopylae.interop.observe import Encoder

from .conftest import GAME_IDS, two_seats


@pytest.fixture
def switch_often() -> Iterator[None]:
    """Threads switched every microsecond, so that one observation's work is cut by
    another thread's many times."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def _observe_games(encoder: Encoder, options: dict[str, Any], seed: int, wrong: list[str]) -> None:
    """Random games, the acting seat observed through `encoder` at every decision and
    held to the view's numbers."""
    g = encoder.game

    def check(state: Any) -> None:
        who = g.to_act(state)
        if who is None or who == CHANCE:
            return
        got = encoder.observation_at(state, who, who)
        if not np.array_equal(got, observe.observation(g, options, g.view(state, who))):
            wrong.append(f"seed {seed}, seat {who}")

    for game in range(3):
        random_game(g, options, 10 * seed + game, check)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_environments_in_threads_observe_as_if_alone(game_id: str, switch_often: None) -> None:
    g = registry.get(game_id)
    options = g.options(two_seats(game_id))
    wrong: list[str] = []
    threads = [
        threading.Thread(target=_observe_games, args=(Encoder(g, options), options, seed, wrong))
        for seed in range(3)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == []


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_each_environment_holds_an_observer_of_its_own(game_id: str) -> None:
    g = registry.get(game_id)
    options = g.options(two_seats(game_id))
    shared = g.observer(options)
    assert isinstance(shared, StateObserver)
    first, second = Encoder(g, options).observer, Encoder(g, options).observer
    assert first is not second and shared not in (first, second)
    assert type(first) is type(shared)
    assert first.layout() == shared.layout() and first.size == shared.size
