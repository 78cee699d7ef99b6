"""`random_playout` is the protocol's uniformly random playout, random stream for random
stream: a game that fuses it into a loop of its own (issue 21) must reach the same final
state, outcome and number of steps as `engine.play.play(..., moves=game.sensible)` from
the same position with the same two random sources; and `random_legal_playout` (what
tables of random agents play) as `engine.play.play(..., moves=game.legal)`."""

from __future__ import annotations

import random

import pytest

from tests.conformance.sampled import Case, games, options_for
from thermopylae.engine.play import play

pytestmark = pytest.mark.usefixtures("toy_registered")

FROM_START = 120
"""Playouts from a new game, per game and player count (besides the sampled positions)."""


def _same(case: Case, state: object, seed: int, legal: bool = False) -> None:
    game = games(case)[0].game
    fused, plain = game.copy(state), game.copy(state)
    playout = game.random_legal_playout if legal else game.random_playout
    n_fused = playout(fused, random.Random(seed), random.Random(seed + 1))
    moves = game.legal if legal else game.sensible
    n_plain = play(game, plain, (), random.Random(seed), random.Random(seed + 1), moves=moves)
    assert n_fused == n_plain, (case, seed)
    assert game.state_to_json(fused) == game.state_to_json(plain), (case, seed)
    assert game.outcome(fused) == game.outcome(plain), (case, seed)


def test_random_playouts_from_the_start_equal_the_protocol_loop(case: Case) -> None:
    game = games(case)[0].game
    options = options_for(game, case.players)
    for seed in range(FROM_START):
        _same(case, game.new(options), seed)


def test_random_playouts_from_any_position_equal_the_protocol_loop(case: Case) -> None:
    for played in games(case):
        for k, (_step, state) in enumerate(played.positions):
            for seed in range(3):
                _same(case, state, 1000 * played.seed + 10 * k + seed)


def test_random_legal_playouts_from_the_start_equal_the_protocol_loop(case: Case) -> None:
    game = games(case)[0].game
    options = options_for(game, case.players)
    for seed in range(FROM_START):
        _same(case, game.new(options), seed, legal=True)


def test_random_legal_playouts_from_any_position_equal_the_protocol_loop(case: Case) -> None:
    for played in games(case):
        for k, (_step, state) in enumerate(played.positions):
            _same(case, state, 1000 * played.seed + 10 * k, legal=True)
