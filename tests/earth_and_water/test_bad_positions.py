"""Hand-edited positions: refused with a clear error, or played on by the rules; never a
crash. Mutates positions from random games (one field, one value) and plays on."""

from __future__ import annotations

import copy
import random
from typing import Any

from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.protocol import CHANCE
from thermopylae.games.earth_and_water import game as ew_game


def _positions(g: Any, games: int) -> list[dict[str, Any]]:
    out = []
    for seed in range(games):
        rng = random.Random(seed)
        s = g.new({})
        while (seat := g.to_act(s)) is not None:
            a = g.sample_chance(s, rng) if seat == CHANCE else rng.choice(g.legal(s))
            g.apply(s, a, quiet=True)
            if rng.random() < 0.05:
                out.append(g.state_to_json(s))
    return out


def _mutate(d: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    d = copy.deepcopy(d)
    key = rng.choice(sorted(d))
    v = d[key]
    if isinstance(v, bool):
        d[key] = not v
    elif isinstance(v, int):
        d[key] = v + rng.choice([-2, -1, 1, 2, 7])
    elif isinstance(v, list) and v:
        i = rng.randrange(len(v))
        if isinstance(v[i], list) and v[i] and isinstance(v[i][-1], int):
            v[i][-1] += rng.choice([-1, 1, 3])
        elif isinstance(v[i], int):
            v[i] += rng.choice([-1, 1, 5])
        else:
            v.pop(i)
    elif isinstance(v, str):
        d[key] = "x"
    return d


def test_mutated_positions_are_refused_or_play_on() -> None:
    g = ew_game()
    rng = random.Random(7)
    positions = _positions(g, 12)
    loaded = 0
    for n in range(1500):
        data = _mutate(rng.choice(positions), rng)
        try:
            s = g.state_from_json(data)
        except ThermopylaeError as exc:
            assert str(exc)  # a message naming what is wrong
            continue
        loaded += 1
        play = random.Random(n)
        try:
            for _ in range(150):
                seat = g.to_act(s)
                if seat is None:
                    break
                a = g.sample_chance(s, play) if seat == CHANCE else play.choice(g.legal(s))
                g.apply(s, a, quiet=True)
        except ThermopylaeError:
            pass  # refused clearly along the way
    assert loaded > 100  # many mutations are harmless and must still load
