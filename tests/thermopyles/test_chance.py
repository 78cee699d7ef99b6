"""The fused chance steps (chance.py) are the protocol's loop through chance, random draw
for random draw: the same state, the same seat to act and the random source left in the
same place as `sample_chance` and a quiet `apply` while `to_act` says `CHANCE`, from
every chance phase (the set-up deal, the dice, a refill, a draw) and after every kind of
decision (issue 21)."""

from __future__ import annotations

import random

import pytest

from thermopylae.engine import registry
from thermopylae.engine.protocol import CHANCE
from thermopylae.games.thermopyles.rules import Thermopyles
from thermopylae.games.thermopyles.state import DRAW, REFILL, ROLL, SETUP, State


def _game() -> Thermopyles:
    game = registry.get("thermopyles")
    assert isinstance(game, Thermopyles)
    return game


def _same(game: Thermopyles, state: State, seed: int) -> None:
    fused, plain = game.copy(state), game.copy(state)
    rng_fused, rng_plain = random.Random(seed), random.Random(seed)
    seat = game.advance_chance(fused, rng_fused)
    while game.to_act(plain) == CHANCE:
        game.apply(plain, game.sample_chance(plain, rng_plain), quiet=True)
    assert seat == game.to_act(plain)
    assert [getattr(fused, f) for f in State.__slots__] == [
        getattr(plain, f) for f in State.__slots__
    ]
    assert rng_fused.getstate() == rng_plain.getstate()


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_step_of_random_games(players: int) -> None:
    """From every position of 40 random games per table size, chance or decision (at a
    decision nothing is drawn), and at the start of each game."""
    game = _game()
    options = game.options({"players": players})
    rng = random.Random(100 + players)
    phases: set[int] = set()
    for _ in range(40):
        s = game.new(options)
        while (seat := game.to_act(s)) is not None:
            if seat == CHANCE:
                phases.add(s.phase)
            _same(game, s, rng.getrandbits(32))
            if seat == CHANCE:
                game.apply(s, game.sample_chance(s, rng), quiet=True)
            else:
                acts = game.legal(s)
                game.apply(s, acts[int(rng.random() * len(acts))], quiet=True)
        _same(game, s, 0)  # over: nothing to do
    assert phases == {SETUP, ROLL, REFILL, DRAW}


def test_the_set_up_deal_part_way() -> None:
    """A deal stopped after each of its steps (the slots, then each opening hand)."""
    game = _game()
    for players in (1, 4):
        rng = random.Random(players)
        s = game.new(game.options({"players": players}))
        while s.phase == SETUP:
            _same(game, s, rng.getrandbits(32))
            game.apply(s, game.sample_chance(s, rng), quiet=True)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_apply_advance_after_every_decision(players: int) -> None:
    """`apply_advance` (a decision and the chance after it, in one call) against a quiet
    `apply` and the protocol's loop, for every legal decision at every decision point
    of 100 random games per table size: fights with and without dice, retreats, gifts,
    full hands and discards."""
    game = _game()
    options = game.options({"players": players})
    rng = random.Random(200 + players)
    kinds: set[str] = set()
    for _ in range(100):
        s = game.new(options)
        while (seat := game.to_act(s)) is not None:
            if seat == CHANCE:
                game.apply(s, game.sample_chance(s, rng), quiet=True)
                continue
            acts = game.legal(s)
            for a in acts:
                kinds.add(type(a).__name__ + ("+dice" if getattr(a, "support", 0) else ""))
                seed = rng.getrandbits(32)
                fused, plain = game.copy(s), game.copy(s)
                rng_fused, rng_plain = random.Random(seed), random.Random(seed)
                who = game.apply_advance(fused, a, rng_fused)
                game.apply(plain, a, quiet=True)
                while game.to_act(plain) == CHANCE:
                    game.apply(plain, game.sample_chance(plain, rng_plain), quiet=True)
                assert who == game.to_act(plain)
                assert [getattr(fused, f) for f in State.__slots__] == [
                    getattr(plain, f) for f in State.__slots__
                ]
                assert rng_fused.getstate() == rng_plain.getstate()
            game.apply(s, acts[int(rng.random() * len(acts))], quiet=True)
    expected = {"Retreat", "Fight", "Fight+dice", "Take", "Refuse", "Discard"}
    assert kinds >= (expected | {"Give"} if players > 1 else expected)


def test_a_position_file_s_decks_are_loaded_sorted() -> None:
    """The fused steps pop the index drawn, which leaves the list the rules' `remove`
    leaves only when equal cards lie together: a loaded position keeps its decks sorted,
    as the rules do, and its fused steps still equal the protocol's."""
    game = _game()
    rng = random.Random(6)
    s = game.new(game.options({"players": 2}))
    while game.to_act(s) == CHANCE:
        game.apply(s, game.sample_chance(s, rng), quiet=True)
    data = game.state_to_json(s)
    data["spartan_deck"] = data["spartan_deck"][1::2] + data["spartan_deck"][::2]
    data["persian_deck"] = data["persian_deck"][1::2] + data["persian_deck"][::2]
    loaded = game.state_from_json(data)
    assert loaded.sdeck == sorted(s.sdeck) and loaded.pdeck == sorted(s.pdeck)
    for a in game.legal(loaded):
        fused, plain = game.copy(loaded), game.copy(loaded)
        rng_fused, rng_plain = random.Random(7), random.Random(7)
        who = game.apply_advance(fused, a, rng_fused)
        game.apply(plain, a, quiet=True)
        while game.to_act(plain) == CHANCE:
            game.apply(plain, game.sample_chance(plain, rng_plain), quiet=True)
        assert who == game.to_act(plain)
        assert [getattr(fused, f) for f in State.__slots__] == [
            getattr(plain, f) for f in State.__slots__
        ]
        assert rng_fused.getstate() == rng_plain.getstate()
