"""The playout both searches end an iteration with: play on from a position to the end,
or stop after `depth` decisions and ask the game for an estimate."""

from __future__ import annotations

import random
from typing import Any

from thermopylae.engine.protocol import CHANCE


def play_out(game: Any, d: Any, rng: random.Random, policy: Any = None,
             depth: int | None = None, evaluate: Any = None) -> Any:
    """Each seat's score at the end of a playout from `d` (changed in place): `policy`
    plays every seat (None: uniformly random moves); with `depth` and `evaluate`, the
    playout stops after `depth` decisions and returns `evaluate(d)`, unless that is None
    (no estimate for that position: play on to the end)."""
    apply, to_act = game.apply, game.to_act
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
            acts = game.legal(d)
            a = acts[int(rng.random() * len(acts))]
        apply(d, a, quiet=True)
    return game.outcome(d).scores
