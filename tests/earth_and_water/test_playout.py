"""The fused random playout (`playout.random_playout`, issue 21) plays the game the protocol
loop plays: the same random streams give the same steps, final state and outcome, from new
games (with and without the optional rule) and from positions inside games, every kind of
phase included (tests/conformance/test_random_playout.py holds every game to the same on
fewer games)."""

from __future__ import annotations

import random

from thermopylae.engine.play import uniform
from thermopylae.games.earth_and_water import game as ew_game
from thermopylae.games.earth_and_water.state import (
    BRIDGE,
    BT_CHOICE,
    CHOOSE,
    LOT,
    MV_CARRY,
    MV_COUNT,
    REACT,
    ROLL,
    SUP_KEEP,
    SUP_REMOVE,
    State,
)

GAME = ew_game(None)
RARE = {REACT, BT_CHOICE, CHOOSE, LOT, ROLL, BRIDGE, MV_CARRY, MV_COUNT, SUP_KEEP, SUP_REMOVE}


def _protocol(s: State, chance: random.Random, agent: random.Random) -> int:
    g = GAME
    return uniform(g.to_act, g.apply, g.sample_chance, g.sensible, s, chance, agent)


def _same(s: State, seed: int) -> None:
    """One source for both chance and the seats (as the searches' playouts use it) every
    fifth seed, two otherwise."""
    fused, plain = GAME.copy(s), GAME.copy(s)
    if seed % 5 == 0:
        one, other = random.Random(seed), random.Random(seed)
        n_fused = GAME.random_playout(fused, one, one)
        n_plain = _protocol(plain, other, other)
    else:
        n_fused = GAME.random_playout(fused, random.Random(seed), random.Random(~seed))
        n_plain = _protocol(plain, random.Random(seed), random.Random(~seed))
    assert n_fused == n_plain, seed
    assert GAME.state_to_json(fused) == GAME.state_to_json(plain), seed
    assert GAME.outcome(fused) == GAME.outcome(plain), seed
    assert GAME.outcome(fused) is not None


def test_two_thousand_games_from_the_start() -> None:
    for seed in range(2000):
        _same(GAME.new({"cheap_fleets": seed % 4 == 3}), seed)


def test_from_positions_inside_games() -> None:
    """From every 25th position of 60 games and every position in a rarer phase."""
    starts = 0
    for game_seed in range(60):
        s = GAME.new({"cheap_fleets": game_seed % 3 == 2})
        chance, agent = random.Random(game_seed), random.Random(game_seed + 7)
        step = 0
        while (seat := GAME.to_act(s)) is not None:
            if step % 25 == 0 or s.phase in RARE:
                _same(s, 100_000 * game_seed + step)
                starts += 1
            if seat < 0:
                action = GAME.sample_chance(s, chance)
            else:
                options = GAME.sensible(s)
                action = options[int(agent.random() * len(options))]
            GAME.apply(s, action, quiet=True)
            step += 1
        assert GAME.random_playout(s, chance, agent) == 0  # over: nothing to play
    assert starts > 1000
