"""The Board Game's fast observer (`state_features`, joined from cached float32 bytes)
against a plain reference computed from the state (`hot_gates_reference_observer`), on
every position of seeded random games at 2, 3 and 4 players: decisions, chance nodes and
the end, for every seat, the observer's caches carried from game to game."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.interop.hot_gates_reference_observer import reference_fields
from thermopylae.engine import registry
from thermopylae.engine.protocol import CHANCE
from thermopylae.games.hot_gates.observe import HotGatesObserver
from thermopylae.games.hot_gates.rules import HotGates
from thermopylae.interop import observe

GAMES = 12
"""Seeded games per player count."""


@pytest.mark.parametrize("players", [2, 3, 4])
def test_state_features_equal_the_reference(players: int) -> None:
    game = registry.get("hot-gates")
    assert isinstance(game, HotGates)
    opts = game.options({"players": players})
    shared = game.observer(opts)  # the game's own, with caches from other tests too
    fresh = HotGatesObserver(game, players)  # caches filled by these games only
    names = [name for name, _, _ in fresh.layout()]
    sizes = dict((name, size) for name, size, _ in fresh.layout())
    checked = 0
    for seed in range(GAMES):
        rng = random.Random(1000 * players + seed)
        s = game.new(opts)
        while True:
            who = game.to_act(s)
            for seat in range(players):
                fields = reference_fields(game, s, seat, who)
                assert list(fields) == names
                for name in names:
                    assert len(fields[name]) == sizes[name], name
                expected = np.array([x for name in names for x in fields[name]], np.float32)
                if checked % 7 == 0:  # the reference itself against the view's numbers
                    view = observe.vector(shared, game.view(s, seat))
                    assert np.array_equal(expected, view), (seed, s.steps, seat)
                for observer in (fresh, shared):
                    got = observer.state_features(s, seat, who)
                    assert got.dtype == np.float32 and got.shape == expected.shape
                    assert got.flags.writeable
                    assert np.array_equal(got, expected), (
                        seed,
                        s.steps,
                        seat,
                        [names_at(fresh, int(i)) for i in np.flatnonzero(got != expected)],
                    )
                checked += 1
            if who is None:
                break
            if who == CHANCE:
                game.apply(s, game.sample_chance(s, rng))
            else:
                legal = game.legal(s)
                game.apply(s, legal[int(rng.random() * len(legal))])
    assert checked > 1000


def names_at(observer: HotGatesObserver, index: int) -> str:
    """The field an entry of the observation belongs to, and its place in it."""
    start = 0
    for name, size, _ in observer.layout():
        if index < start + size:
            return f"{name}[{index - start}]"
        start += size
    return f"[{index}]"


def test_games_in_turn_equal_the_reference() -> None:
    """Three games observed in turn by one observer (as the vector environment does),
    one seat a position: the spaces kept from the last call (another game's, when the
    board is not close to it) never stand in for this position's."""
    game = registry.get("hot-gates")
    assert isinstance(game, HotGates)
    players = 2
    opts = game.options({"players": players})
    observer = HotGatesObserver(game, players)
    names = [name for name, _, _ in observer.layout()]
    rngs = [random.Random(77 + i) for i in range(3)]
    states = [game.new(opts) for _ in rngs]
    checked = 0
    while any(game.to_act(s) is not None for s in states):
        for s, rng in zip(states, rngs, strict=True):
            who = game.to_act(s)
            if who is None:
                continue
            seat = checked % players
            fields = reference_fields(game, s, seat, who)
            expected = np.array([x for name in names for x in fields[name]], np.float32)
            assert np.array_equal(observer.state_features(s, seat, who), expected), s.steps
            checked += 1
            if who == CHANCE:
                game.apply(s, game.sample_chance(s, rng))
            else:
                legal = game.legal(s)
                game.apply(s, legal[int(rng.random() * len(legal))])
    assert checked > 300
