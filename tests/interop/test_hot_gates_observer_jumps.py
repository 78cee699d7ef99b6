"""The Board Game's observer keeps its last observation and rewrites only the fields whose
parts of the state changed since: one observer kept over many random moves, and over
jumps to other states (older copies, other games, in any order), must give what a
freshly built observer gives for the same state and seat (its first call writes every
field)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from thermopylae.engine import registry
from thermopylae.engine.protocol import CHANCE
from thermopylae.games.hot_gates.observe import HotGatesObserver
from thermopylae.games.hot_gates.rules import HotGates
from thermopylae.games.hot_gates.state import State


def _game() -> HotGates:
    game = registry.get("hot-gates")
    assert isinstance(game, HotGates)
    return game


def _step(game: HotGates, s: State, rng: random.Random) -> int | None:
    """One random step (a draw or a decision); the seat to act after it."""
    who = game.to_act(s)
    if who == CHANCE:
        game.apply(s, game.sample_chance(s, rng))
    elif who is not None:
        legal = game.legal(s)
        game.apply(s, legal[int(rng.random() * len(legal))])
    return game.to_act(s)


def _check(kept: HotGatesObserver, game: HotGates, s: State, seat: int, players: int) -> None:
    who = game.to_act(s)
    got = kept.state_features(s, seat, who)
    fresh = HotGatesObserver(game, players).state_features(s, seat, who)
    assert np.array_equal(got, fresh), (s.steps, seat)
    got[:] = -1.0  # the caller's array is its own: the next observation must not see this


@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_random_moves_equal_a_fresh_observer(players: int) -> None:
    """Games played live on one state changed in place (as the environments step it),
    observed at every step by the acting seat, another seat, or no seat (-1)."""
    game = _game()
    opts = game.options({"players": players})
    kept = HotGatesObserver(game, players)
    rng = random.Random(500 + players)
    checked = 0
    for _ in range(2):
        s = game.new(opts)
        who = game.to_act(s)
        while who is not None:
            seat = who if isinstance(who, int) and who >= 0 else 0
            if rng.random() < 0.3:
                seat = rng.choice([*range(players), -1])
            _check(kept, game, s, seat, players)
            checked += 1
            who = _step(game, s, rng)
        _check(kept, game, s, 0, players)  # the end
    assert checked > 300


@pytest.mark.parametrize("players", [2, 4])
def test_jumps_to_other_states_equal_a_fresh_observer(players: int) -> None:
    """Copies of the positions of three games observed in a shuffled order, and mixed with
    a game going on live: every part of the observation may differ from the last call's."""
    game = _game()
    opts = game.options({"players": players})
    rng = random.Random(900 + players)
    positions: list[State] = []
    for _ in range(3):
        s = game.new(opts)
        while _step(game, s, rng) is not None:
            positions.append(s.copy())
        positions.append(s.copy())
    rng.shuffle(positions)
    kept = HotGatesObserver(game, players)
    live = game.new(opts)
    for i, s in enumerate(positions[:400]):
        _check(kept, game, s, i % players, players)
        if i % 3 == 0 and game.to_act(live) is not None:
            _step(game, live, rng)
            _check(kept, game, live, (i + 1) % players, players)
