"""`determinize` deals the hidden cards as `random.Random.shuffle` would (it writes the
shuffle out): the same deal and the same draws taken from the source, so that the
searches' decisions and the pinned ISMCTS records do not move."""

from __future__ import annotations

import random

from thermopylae.games.earth_and_water import game as ew_game
from thermopylae.games.earth_and_water.view import determinize, hand_visible

GAME = ew_game(None)


def test_determinize_deals_as_random_shuffle_would() -> None:
    s = GAME.new({})
    rng = random.Random(3)
    checked = 0
    while GAME.to_act(s) is not None and checked < 60:
        for seat in (0, 1):
            other = 1 - seat
            if hand_visible(s, other, seat):
                continue
            ours, theirs = random.Random(checked), random.Random(checked)
            d = determinize(s, seat, ours)
            pool = sorted(s.hands[other] + s.deck)
            theirs.shuffle(pool)
            n = len(s.hands[other])
            assert d.hands[other] == sorted(pool[:n])
            assert d.deck == sorted(pool[n:])
            assert d.hands[seat] == s.hands[seat]
            assert ours.random() == theirs.random()  # the same draws were taken
            checked += 1
        if GAME.to_act(s) == -1:
            action = GAME.sample_chance(s, rng)
        else:
            options = GAME.legal(s)
            action = options[int(rng.random() * len(options))]
        GAME.apply(s, action, quiet=True)
    assert checked >= 60
