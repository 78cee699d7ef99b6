"""Shared cases and helpers for the learning-interface tests."""

from __future__ import annotations

import random
from typing import Any

from thermopylae.engine import registry
from thermopylae.engine.protocol import CHANCE

ALL_CASES: list[tuple[str, dict[str, Any]]] = [
    *[("thermopyles", {"players": n}) for n in range(1, 5)],
    ("earth-and-water", {}),
    *[("hot-gates", {"players": n}) for n in range(2, 5)],
]


def case_id(case: tuple[str, dict[str, Any]]) -> str:
    game_id, options = case
    return f"{game_id}-{options.get('players', 2)}p"


def decision_positions(game_id: str, options: dict[str, Any], seed: int,
                       every: int = 5) -> list[Any]:
    """Copies of some decision positions of one random game."""
    g = registry.get(game_id)
    rng = random.Random(seed)
    s = g.new(g.options(options))
    out = []
    steps = 0
    while (who := g.to_act(s)) is not None:
        if who == CHANCE:
            g.apply(s, g.sample_chance(s, rng), quiet=True)
            continue
        steps += 1
        if steps % every == 0:
            out.append(g.copy(s))
        legal = g.legal(s)
        g.apply(s, legal[int(rng.random() * len(legal))], quiet=True)
    return out
