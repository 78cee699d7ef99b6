"""`advance_chance` is the protocol's loop through chance, random draw for random draw: a
game that fuses it (the searches' tree walks call it after each decision) must reach the
same state, answer the same `to_act`, and leave its random source where the loop of
`sample_chance` and quiet `apply` leaves it, from every sampled position. The same for
`apply_advance`, a decision and the chance steps after it (the walks' step)."""

from __future__ import annotations

import random
from typing import Any, cast

import pytest

from tests.conformance.sampled import Case, games, positions
from thermopylae.ai.base import RandomAgent
from thermopylae.engine.play import advance_quietly, stepper
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


def test_apply_advance_equals_apply_then_the_protocol_loop(case: Case) -> None:
    """`apply_advance(state, action, rng)`, the searches' step: a quiet `apply` of the
    decision, then the protocol's chance loop; after every decision of a game."""
    for played in games(case)[:1]:
        game = played.game
        step = stepper(game)
        state = game.new(played.options)
        decisions = 0
        for seat, action, _events in played.steps:
            if seat != CHANCE:
                fused, plain = game.copy(state), game.copy(state)
                seed = played.seed + decisions
                rng_fused, rng_plain = random.Random(seed), random.Random(seed)
                who = step(fused, action, rng_fused)
                game.apply(plain, action, quiet=True)
                assert who == _protocol(game, plain, rng_plain) == game.to_act(fused), seed
                assert game.state_to_json(fused) == game.state_to_json(plain), seed
                assert rng_fused.getstate() == rng_plain.getstate(), seed
                decisions += 1
            game.apply(state, action, quiet=True)


def test_advance_quietly_returns_the_seat_that_decides_where_it_stops(case: Case) -> None:
    """`advance_quietly` (the learning interfaces' loop) stops where a seat without an
    agent decides or the game is over, and says which (`to_act` there), from every
    sampled position, seat 0 left to the caller and the other seats played."""
    for played, step, state in positions(case):
        game = played.game
        others = {s: RandomAgent() for s in range(1, case.players)}
        rng = random.Random(step)
        who = advance_quietly(game, state, rng, others)
        assert who == game.to_act(state), step
        assert who in (0, None), step


def test_stepper_of_a_game_without_apply_advance() -> None:
    """A game written without `GameBase` steps by its `apply` and `advance_chance`."""
    calls: list[str] = []

    class Bare:
        def apply(self, state: Any, action: Any, *, quiet: bool = False) -> list[Any]:
            calls.append(f"apply {action} {quiet}")
            return []

        def advance_chance(self, state: Any, rng: random.Random) -> int | None:
            calls.append("chance")
            return 1

    step = stepper(cast(GenericGame, Bare()))
    assert step(None, "x", random.Random(0)) == 1
    assert calls == ["apply x True", "chance"]
