"""`advance_chance` is the protocol's loop through chance, random draw for random draw: a
game that fuses it (the searches' tree walks call it after each decision) must reach the
same state, answer the same `to_act`, and leave its random source where the loop of
`sample_chance` and quiet `apply` leaves it, from every sampled position."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.conformance.sampled import Case, games, positions
from thermopylae.engine.protocol import CHANCE, GenericGame

pytestmark = pytest.mark.usefixtures("toy_registered")


def _protocol(game: GenericGame, state: Any, rng: random.Random) -> int | None:
    while (seat := game.to_act(state)) == CHANCE:
        game.apply(state, game.sample_chance(state, rng), quiet=True)
    return seat


def _same(game: GenericGame, state: Any, seed: int) -> None:
    fused, plain = game.copy(state), game.copy(state)
    rng_fused, rng_plain = random.Random(seed), random.Random(seed)
    seat = game.advance_chance(fused, rng_fused)
    assert seat == _protocol(game, plain, rng_plain) == game.to_act(fused), seed
    assert seat != CHANCE
    assert game.state_to_json(fused) == game.state_to_json(plain), seed
    assert rng_fused.getstate() == rng_plain.getstate(), seed


def test_advance_chance_equals_the_protocol_loop_at_every_sampled_position(case: Case) -> None:
    for played, step, state in positions(case):
        for k in range(2):
            _same(played.game, state, 1000 * played.seed + 10 * step + k)


def test_advance_chance_equals_the_protocol_loop_after_every_decision(case: Case) -> None:
    """Where the searches call it: right after a decision (every third of a game's)."""
    for played in games(case)[:1]:
        game = played.game
        state = game.new(played.options)
        decisions = 0
        for seat, action, _events in played.steps:
            if seat != CHANCE:
                if decisions % 3 == 0:
                    _same(game, state, played.seed + decisions)
                decisions += 1
            game.apply(state, action, quiet=True)
