"""`chance` hands out one tuple object for equal distributions of the dice (OpenSpiel's
interface caches the encoded outcomes on the object), and the card distributions' values."""

from __future__ import annotations

import random
from collections import Counter

from thermopylae.engine.protocol import CHANCE
from thermopylae.games.earth_and_water import game as ew_game
from thermopylae.games.earth_and_water.actions import A
from thermopylae.games.earth_and_water.state import DRAW, GREECE, LOT


def test_equal_roll_distributions_are_one_object() -> None:
    g = ew_game()
    rng = random.Random(11)
    chance_seen: dict[tuple[object, ...], object] = {}
    checked = 0
    for _ in range(8):
        s = g.new({})
        while (seat := g.to_act(s)) is not None:
            if seat == CHANCE:
                dist = g.chance(s)
                # the values a fresh count gives
                if s.phase in (DRAW, LOT):
                    cards = (s.deck or s.discard) if s.phase == DRAW else s.hands[GREECE]
                    outcomes = A.draw if s.phase == DRAW else A.lot
                    counts = sorted(Counter(cards).items())
                    assert list(dist) == [(outcomes[k], n / len(cards)) for k, n in counts]
                else:
                    assert type(dist) is tuple
                    assert chance_seen.setdefault(tuple(dist), dist) is dist
                    checked += 1
                g.apply(s, g.sample_chance(s, rng), quiet=True)
            else:
                legal = g.legal(s)
                g.apply(s, legal[int(rng.random() * len(legal))], quiet=True)
    assert checked > 20
    assert len(chance_seen) < checked  # some distributions came again
