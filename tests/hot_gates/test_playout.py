"""300's random playout in one loop (playout.py) is the protocol's random playout, random
stream for random stream: the same final state, outcome and steps as
`engine.play.uniform` with `sensible`, from positions of every phase (issue 21; the
conformance suite plays it from new games and sampled positions too)."""

from __future__ import annotations

import random

import pytest

from thermopylae.engine import registry
from thermopylae.engine.play import play
from thermopylae.engine.protocol import CHANCE
from thermopylae.games.hot_gates.rules import HotGates
from thermopylae.games.hot_gates.state import (
    CASUALTY,
    CONQUER,
    DEAL,
    MARCH,
    PULLBACK,
    RETURN,
    WINDOW,
    State,
)

GAME = registry.get("hot-gates")
assert isinstance(GAME, HotGates)

WANTED = 12
"""Positions per phase and player count."""


def _same(state: State, seed: int) -> None:
    fused, plain = GAME.copy(state), GAME.copy(state)
    n_fused = GAME.random_playout(fused, random.Random(seed), random.Random(~seed))
    n_plain = play(GAME, plain, (), random.Random(seed), random.Random(~seed), moves=GAME.sensible)
    assert n_fused == n_plain
    assert GAME.state_to_json(fused) == GAME.state_to_json(plain)
    assert GAME.outcome(fused) == GAME.outcome(plain)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_positions_of_every_phase(players: int) -> None:
    options = GAME.options({"players": players})
    rng = random.Random(players)
    seen: dict[int, int] = {}
    # the pull-back and the Persian return are rare in random play: each one met is tried
    wanted = (DEAL, WINDOW, MARCH, CASUALTY, CONQUER)
    games = 0
    while min(seen.get(p, 0) for p in wanted) < WANTED and games < 200:
        games += 1
        s = GAME.new(options)
        while (seat := GAME.to_act(s)) is not None:
            rare = s.phase in (PULLBACK, RETURN)
            if rare or (seen.get(s.phase, 0) < WANTED and rng.random() < 0.1):
                seen[s.phase] = seen.get(s.phase, 0) + 1
                _same(s, rng.getrandbits(32))
            if seat == CHANCE:
                GAME.apply(s, GAME.sample_chance(s, rng), quiet=True)
            else:
                acts = GAME.legal(s)
                GAME.apply(s, acts[int(rng.random() * len(acts))], quiet=True)
    assert all(seen.get(p, 0) >= WANTED for p in wanted), seen
