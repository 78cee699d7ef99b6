"""The playout both searches end an iteration with: play on from a position to the end,
or stop after `depth` decisions and ask the game for an estimate; and the moves the
searches choose among (`choices`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from thermopylae.engine.protocol import CHANCE


def choices(game: Any) -> Callable[[Any], Sequence[Any]]:
    """The moves a search considers: the game's `sensible(state)` where it has one (the
    legal moves without those it knows to be pointless, such as a card whose effect
    cannot apply), else `legal`. Searching a pointless move only wastes iterations, and
    choosing it spends a card for nothing."""
    sensible = getattr(game, "sensible", None)
    moves: Callable[[Any], Sequence[Any]] = sensible if callable(sensible) else game.legal
    return moves


def play_out(
    game: Any,
    d: Any,
    rng: random.Random,
    policy: Any = None,
    depth: int | None = None,
    evaluate: Any = None,
) -> Any:
    """Each seat's score at the end of a playout from `d` (changed in place): `policy`
    plays every seat (None: uniformly random moves); with `depth` and `evaluate`, the
    playout stops after `depth` decisions and returns `evaluate(d)`, unless that is None
    (no estimate for that position: play on to the end)."""
    apply, to_act, moves = game.apply, game.to_act, choices(game)
    left = depth if evaluate is not None else None
    while (who := to_act(d)) is not None:
        if who == CHANCE:
            apply(d, game.sample_chance(d, rng), quiet=True)
            continue
        if left is not None:
            if left <= 0:
                scores = evaluate(d)
                if scores is not None:
                    return scores
                left = None
            else:
                left -= 1
        if policy is not None:
            a = policy.act(game, d, rng)
        else:
            acts = moves(d)
            a = acts[int(rng.random() * len(acts))]
        apply(d, a, quiet=True)
    return game.outcome(d).scores
