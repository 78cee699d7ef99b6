"""How likely the Spartans are to win an unfinished two-player game, for a search that
stops before the end (`ismcts:depth=D`).

A logistic model of a few counts any player can see on the board: Glory, how far
Ephialtes has gone, the Spartans left and their strength, the Persians on the board, a
breach, the round. Its weights were fitted to heuristic self-play games (10% random
moves) by `bench/hot_gates_evaluation.py`; run it again after changing the components.
"""

from __future__ import annotations

import math
from typing import Any

from thermopylae.games.hot_gates.board import SPARTAN_SIDE
from thermopylae.games.hot_gates.state import PIECE, State

# bias, glory/100, eph/path, spartans/10, spartan attack+defense/30, persians/10, breach,
# round/path
WEIGHTS = (-4.285, 6.896, -5.782, -6.328, 4.263, -0.026, -9.493, 1.839)


def features(game: Any, s: State) -> list[float]:
    """The model's inputs, from the public part of the state."""
    t = game.t
    side = t.side
    spartans = [p & PIECE for p in s.camp + s.pool]
    persians = 0
    for space in s.board:
        for p in space:
            code = p & PIECE
            if side[code] == SPARTAN_SIDE:
                spartans.append(code)
            else:
                persians += 1
    path = game.components.goat_path
    strength = sum(t.attack[p] + t.defense[p] for p in spartans)
    return [1.0, s.glory[1] / 100, s.eph / path, len(spartans) / 10, strength / 30,
            persians / 10, float(s.breach), s.round / path]


def evaluate(game: Any, s: State) -> tuple[float, ...] | None:
    """(Persia's, Sparta's) estimated chance of winning, or None with 3 or 4 players
    (no model: the search plays those to the end)."""
    if s.players != 2:
        return None
    z = sum(w * x for w, x in zip(WEIGHTS, features(game, s), strict=True))
    p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
    return (1.0 - p, p)
