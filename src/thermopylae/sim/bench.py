"""Playout speed on one core, through the full protocol (legal, chance, apply)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from thermopylae.ai.base import make_agent
from thermopylae.sim.match import play, rngs


@dataclass(frozen=True)
class BenchResult:
    agent: str
    games: int
    steps: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds


def bench(game: Any, agent: str, options: dict[str, Any], seconds: float = 3.0,
          seed: int = 0) -> BenchResult:
    """Play games back to back for about `seconds`, in this process."""
    options = game.options(options)
    agents = [make_agent(agent, game) for _ in game.seats(options)]
    games = steps = 0
    chance_rng, agent_rng = rngs(seed, 0)  # one stream for all games: seeding is not playing
    started = time.perf_counter()
    while (elapsed := time.perf_counter() - started) < seconds:
        _, n = play(game, options, agents, chance_rng, agent_rng)
        games += 1
        steps += n
    return BenchResult(agent, games, steps, elapsed)
