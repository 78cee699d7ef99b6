"""The fused random playout (`playout.random_playout`, issue 21) plays the game the protocol
loop plays: the same random streams give the same steps, final state and outcome, from new
games (with and without the optional rule) and from positions inside games, every kind of
phase included (tests/conformance/test_random_playout.py holds every game to the same on
fewer games)."""

from __future__ import annotations

import random

from thermopylae.engine.play import uniform
from thermopylae.engine.protocol import CHANCE
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


def test_apply_advance_steps_as_apply_then_the_protocols_chance_loop() -> None:
    """`apply_advance` (the walks' and the learning interfaces' step) reaches the state,
    the seat and the random source's place that a quiet `apply` and the protocol's chance
    loop reach, after every decision of 40 random games, the optional rule in every
    fourth."""
    steps = 0
    for seed in range(40):
        s = GAME.new({"cheap_fleets": seed % 4 == 3})
        agent, chance = random.Random(~seed), random.Random(seed)
        seat = GAME.advance_chance(s, chance)
        while seat is not None:
            options = GAME.sensible(s)
            action = options[int(agent.random() * len(options))]
            plain = GAME.copy(s)
            before = chance.getstate()
            seat = GAME.apply_advance(s, action, chance)
            other = random.Random()
            other.setstate(before)
            GAME.apply(plain, action, quiet=True)
            while GAME.to_act(plain) == CHANCE:
                GAME.apply(plain, GAME.sample_chance(plain, other), quiet=True)
            assert seat == GAME.to_act(plain) == GAME.to_act(s), seed
            assert GAME.state_to_json(s) == GAME.state_to_json(plain), seed
            assert other.getstate() == chance.getstate(), seed
            steps += 1
    assert steps > 4000  # (the games were played: about 150 decisions each)
