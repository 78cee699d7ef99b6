"""Solo, `determinize` takes the draws a shuffle of the deck would take without shuffling
(the deck comes out sorted whatever the order): the same state and the random source
left where `engine.shuffle.shuffle` of the pool leaves it, so the searches' decisions
do not change (issue 21)."""

from __future__ import annotations

import random

from thermopylae.engine import registry
from thermopylae.engine.protocol import CHANCE
from thermopylae.engine.shuffle import shuffle
from thermopylae.games.thermopyles.state import State


def test_solo_determinize_takes_the_shuffles_draws() -> None:
    game = registry.get("thermopyles")
    rng = random.Random(7)
    checked = 0
    for _ in range(20):
        s = game.new(game.options({"players": 1}))
        while (seat := game.to_act(s)) is not None:
            if seat == CHANCE:
                game.apply(s, game.sample_chance(s, rng), quiet=True)
                continue
            seed = rng.getrandbits(32)
            mine, theirs = random.Random(seed), random.Random(seed)
            d = game.determinize(s, 0, mine)
            pool = sorted(s.sdeck)
            shuffle(pool, theirs)
            assert d.sdeck == sorted(pool)
            assert [getattr(d, f) for f in State.__slots__ if f != "sdeck"] == [
                getattr(s, f) for f in State.__slots__ if f != "sdeck"
            ]
            assert mine.getstate() == theirs.getstate()
            checked += 1
            acts = game.legal(s)
            game.apply(s, acts[int(rng.random() * len(acts))], quiet=True)
    assert checked > 100
