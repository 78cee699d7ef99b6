"""Playout speed on one core, through the full protocol (legal, chance, apply)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from thermopylae.ai.base import RandomAgent, make_agent
from thermopylae.engine.play import play as play_state
from thermopylae.engine.protocol import CHANCE, GenericGame
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


def bench(
    game: GenericGame, agent: str, options: dict[str, Any], seconds: float = 3.0, seed: int = 0
) -> BenchResult:
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


def ismcts_rate(
    game: GenericGame,
    options: dict[str, Any],
    seconds: float = 3.0,
    positions: int = 3,
    seed: int = 0,
    spec: str = "ismcts",
) -> list[float]:
    """ISMCTS iterations per second of CPU time at `positions` decision points spread over
    a random game, from the first decisions to the last (`seconds` in all): early
    positions have the longest playouts, so the slowest rates. `spec` is an `ismcts` agent
    spec without a budget (e.g. `ismcts:depth=20`)."""
    import random

    from thermopylae.ai.base import parse_spec
    from thermopylae.ai.ismcts import ISMCTS
    from thermopylae.engine.errors import ThermopylaeError

    name, params = parse_spec(spec)
    if name != "ismcts" or {"iterations", "seconds"} & set(params):
        raise ThermopylaeError(
            f"{spec!r}: give an ismcts spec without a budget (e.g. ismcts:depth=20)"
        )
    agent = make_agent(spec, game)  # its parameters checked, named in any error
    assert isinstance(agent, ISMCTS)

    options = game.options(options)
    rng = random.Random(seed)
    found = []
    s = game.new(options)
    step = 0

    def keep(seat: int, action: Any) -> None:
        """Every 7th decision's position with a choice, before the move is applied."""
        nonlocal step
        if seat != CHANCE:
            if step % 7 == 0 and len(game.legal(s)) > 1:
                found.append(game.copy(s))
            step += 1

    # One random source for chance and the moves, as the positions were always chosen.
    play_state(game, s, [RandomAgent()] * game.max_players, rng, rng, keep)
    chosen = [found[i * len(found) // positions] for i in range(min(positions, len(found)))]
    rates = []
    for state in chosen:
        agent.seconds = seconds / len(chosen)
        started = time.process_time()
        agent.act(game, state, rng)
        rates.append(agent.last_iterations / max(1e-9, time.process_time() - started))
    return rates
