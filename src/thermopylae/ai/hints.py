"""Hints: the moves a seat would do best to play now, each with its win chance.

Everything starts from one deal of what the seat cannot see (`game.determinize`), never
the true state: the candidates (the heuristic's choice first, then the other sensible
moves in a seeded order) and every estimate. So a hint depends only on what the seat
sees and on the seed, and tells nothing hidden (tests/ai/test_hints.py: a position and
its twin with other hidden cards get the same hint).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from thermopylae.ai.base import make_agent
from thermopylae.ai.winchance import WinChance, check_budget, default_agent, estimate
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.protocol import GenericGame

CANDIDATES = 6  # moves estimated at most (the heuristic's and sensible others)
TOP = 3  # moves shown
DEFAULT_BUDGET = 30  # playouts for each candidate (Earth & Water: ~1 s each)


@dataclass(frozen=True, slots=True)
class Hint:
    action: Any
    text: str
    chance: WinChance


def suggest(
    game: GenericGame,
    state: Any,
    seat: int,
    *,
    budget: int = DEFAULT_BUDGET,
    top: int = TOP,
    seed: int = 0,
) -> list[Hint]:
    """Up to `top` moves for `seat`, the best first, from `seat`'s information only."""
    check_budget(budget)
    if game.to_act(state) != seat:
        raise ThermopylaeError("a hint is for the seat that must decide now")
    rng = random.Random(seed)
    seen = game.determinize(state, seat, rng)
    policy = default_agent(game)
    moves: list[Any] = []
    if policy != "random":
        moves.append(make_agent(policy, game).act(game, game.copy(seen), random.Random(seed)))
    rest = [m for m in game.sensible(seen) if m not in moves]
    rng.shuffle(rest)
    moves = (moves + rest)[:CANDIDATES]
    hints = []
    for action in moves:
        after = game.copy(seen)
        game.apply(after, action, quiet=True)
        chance = estimate(game, after, seat, budget=budget, rng=random.Random(seed + 1))
        hints.append(Hint(action, game.format(action), chance))
    hints.sort(key=lambda h: (-h.chance.win, -h.chance.score))
    return hints[:top]
