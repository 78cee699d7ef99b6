"""The fused random playout (playout.py) is the protocol's random playout, random stream
for random stream: the same final state, outcome and steps as `engine.play.uniform` from
new games and from positions of every phase of a turn (issue 21)."""

from __future__ import annotations

import random

import pytest

from thermopylae.engine import registry
from thermopylae.engine.play import play
from thermopylae.engine.protocol import CHANCE
from thermopylae.games.thermopyles.rules import Thermopyles
from thermopylae.games.thermopyles.state import (
    DISCARD,
    FULL_HAND,
    PHASES,
    RECIPIENT,
    State,
)


def _game() -> Thermopyles:
    game = registry.get("thermopyles")
    assert isinstance(game, Thermopyles)
    return game


def _same(game: Thermopyles, state: State, seed: int) -> None:
    fused, plain = game.copy(state), game.copy(state)
    n_fused = game.random_playout(fused, random.Random(seed), random.Random(~seed))
    n_plain = play(game, plain, (), random.Random(seed), random.Random(~seed), moves=game.sensible)
    assert n_fused == n_plain
    assert [getattr(fused, f) for f in State.__slots__] == [
        getattr(plain, f) for f in State.__slots__
    ]
    assert game.outcome(fused) == game.outcome(plain)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_a_thousand_new_games_per_table_size(players: int) -> None:
    game = _game()
    options = game.options({"players": players})
    for seed in range(1000):
        _same(game, game.new(options), seed)


@pytest.mark.parametrize("players", [1, 2, 4])
def test_positions_of_every_phase(players: int) -> None:
    """Played out from the middle of a turn (the dice owed, a refill, a recipient, a full
    hand, a draw, a discard), as a search's playout begins."""
    game = _game()
    options = game.options({"players": players})
    rng = random.Random(players)
    seen: dict[int, int] = {}
    wanted = [p for p in range(len(PHASES) - 1) if players > 1 or p != RECIPIENT]  # solo: none
    games = 0
    while min(seen.get(p, 0) for p in wanted) < 40 and games < 3000:
        games += 1
        s = game.new(options)
        while (seat := game.to_act(s)) is not None:
            rare = s.phase in (FULL_HAND, DISCARD)  # about one a game in ten
            if (rare or rng.random() < 0.15) and seen.get(s.phase, 0) < 40:
                seen[s.phase] = seen.get(s.phase, 0) + 1
                _same(game, s, rng.getrandbits(32))
            if seat == CHANCE:
                game.apply(s, game.sample_chance(s, rng), quiet=True)
            else:
                acts = game.legal(s)
                game.apply(s, acts[int(rng.random() * len(acts))], quiet=True)
    assert all(seen.get(p, 0) >= 40 for p in wanted), seen
