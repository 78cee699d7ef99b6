"""How likely the Spartans are to win an unfinished two-player game, for a search that
stops before the end (`ismcts:depth=D`).

A logistic model of counts any player can see: Glory, how far Ephialtes has gone, the
round, the Spartans left and their strength, the Persians on the board, how far they
have come and how many stand in the Hot Gates, a breach, the Glory bonuses still
waiting, the hands' and decks' sizes, the Persian reinforcements, and three curves
(Glory squared, Ephialtes squared, their product). Its weights were fitted to heuristic
self-play games (10% random moves) by `bench/hot_gates_evaluation.py`; run it again
after changing the components or the features.
"""

from __future__ import annotations

import math

from thermopylae.games.hot_gates.board import SPARTAN_SIDE, Tables
from thermopylae.games.hot_gates.state import PIECE, SPACES, State
from thermopylae.games.hot_gates.view import bonuses

FEATURES = (
    "bias",
    "glory",
    "ephialtes",
    "spartans",
    "spartan strength",
    "persians",
    "breach",
    "round",
    "persians in the gates",
    "furthest persian",
    "persian advance",
    "bonus left",
    "persian hand",
    "spartan hand",
    "glory^2",
    "glory*ephialtes",
    "persian deck",
    "spartan deck",
    "reinforcements",
    "leaders waiting",
    "ephialtes^2",
)
WEIGHTS = (
    5.256,
    -1.878,
    -5.254,
    -4.291,
    3.628,
    -2.102,
    -10.714,
    5.263,
    1.277,
    1.554,
    -7.418,
    -1.400,
    -0.672,
    1.725,
    4.620,
    9.620,
    0.932,
    -0.253,
    -4.508,
    -0.224,
    -7.847,
)


def features(s: State, t: Tables) -> list[float]:
    """The model's inputs (named in `FEATURES`), from the public part of the state."""
    side = t.side
    spartans = [p & PIECE for p in s.camp + s.pool]
    persians = gates = 0
    advance = [0, 0]
    for sp, space in enumerate(s.board):
        for p in space:
            code = p & PIECE
            if side[code] == SPARTAN_SIDE:
                spartans.append(code)
            else:
                persians += 1
                n = sp % SPACES
                gates += n >= 3
                advance[sp // SPACES] = max(advance[sp // SPACES], n + 1)
    path = t.c.goat_path
    strength = sum(t.attack[p] + t.defense[p] for p in spartans)
    bonus = sum(bonuses(s, t.c))
    glory, eph = s.glory[1] / 100, s.eph / path
    return [
        1.0,
        glory,
        eph,
        len(spartans) / 10,
        strength / 30,
        persians / 10,
        float(s.breach),
        s.round / path,
        gates / 10,
        max(advance) / SPACES,
        sum(advance) / (2 * SPACES),
        bonus / 42,
        len(s.hands[0]) / 5,
        len(s.hands[1]) / 5,
        glory * glory,
        glory * eph,
        len(s.decks[0]) / 30,
        len(s.decks[1]) / 30,
        sum(len(b) for b in s.boxes) / 20,
        len(s.leaders) / 3,
        eph * eph,
    ]


def evaluate(s: State, t: Tables) -> tuple[float, ...] | None:
    """(Persia's, Sparta's) estimated chance of winning, or None with 3 or 4 players
    (no model: the search plays those to the end)."""
    if s.players != 2:
        return None
    z = sum(w * x for w, x in zip(WEIGHTS, features(s, t), strict=True))
    p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
    return (1.0 - p, p)
