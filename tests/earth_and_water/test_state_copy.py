"""`State.copy` writes its fields out one by one (a search copies a state per iteration):
every field must be there, equal, and the mutable parts must not be shared, so that
play on the copy leaves the original as it was."""

from __future__ import annotations

import random

from thermopylae.games.earth_and_water import game as ew_game
from thermopylae.games.earth_and_water.state import State

GAME = ew_game(None)


def _positions() -> list[State]:
    """Positions of a few random games, a move or a battle under way among them."""
    found = []
    for seed in range(6):
        s = GAME.new({"cheap_fleets": seed % 2 == 1})
        rng = random.Random(seed)
        while GAME.to_act(s) is not None:
            if s.mv is not None or s.bt is not None or rng.random() < 0.05:
                found.append(GAME.copy(s))
            if GAME.to_act(s) == -1:
                action = GAME.sample_chance(s, rng)
            else:
                options = GAME.legal(s)
                action = options[int(rng.random() * len(options))]
            GAME.apply(s, action, quiet=True)
        found.append(s)
    return found


def test_a_copy_has_every_field_and_shares_nothing_mutable() -> None:
    positions = _positions()
    assert any(p.mv is not None for p in positions)
    assert any(p.bt is not None for p in positions)
    for s in positions:
        d = s.copy()
        for name in State.__slots__:
            if name == "_legal":
                assert d._legal is None
                continue
            mine, theirs = getattr(d, name), getattr(s, name)
            assert mine == theirs, name
            if isinstance(theirs, list) or name in ("mv", "bt"):
                assert theirs is None or mine is not theirs, name
        for rows in ("arm", "flt", "hands"):
            for a, b in zip(getattr(d, rows), getattr(s, rows), strict=True):
                assert a is not b, rows
        assert GAME.state_to_json(d) == GAME.state_to_json(s)


def test_play_on_a_copy_leaves_the_original_unchanged() -> None:
    for k, s in enumerate(_positions()[::7]):
        before = GAME.state_to_json(s)
        d = s.copy()
        GAME.random_playout(d, random.Random(k), random.Random(k + 1))
        assert GAME.state_to_json(s) == before
