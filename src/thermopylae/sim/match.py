"""Playing one game between agents, without screens: the loop every simulation runs."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from thermopylae.engine.protocol import CHANCE, Outcome
from thermopylae.engine.record import Record, seat_name


@dataclass(frozen=True)
class GameResult:
    index: int
    outcome: Outcome
    steps: int


def rngs(seed: int, index: int) -> tuple[random.Random, random.Random]:
    """The chance and agent random sources of game `index` of a run seeded `seed`.

    Each game's sources depend only on (seed, index), so a run gives the same games
    whatever the number of workers or the size of the chunks.
    """
    base = (abs(seed) << 41) | (index << 1)
    return random.Random(base), random.Random(base | 1)


def play(game: Any, options: dict[str, Any], agents: list[Any], chance_rng: random.Random,
         agent_rng: random.Random, record: Record | None = None) -> tuple[Any, int]:
    """Play to the end; returns the final state and the number of steps."""
    state = game.new(options)
    steps = 0
    while (seat := game.to_act(state)) is not None:
        if seat == CHANCE:
            action = game.sample_chance(state, chance_rng)
        else:
            action = agents[seat].act(game, state, agent_rng)
        if record is not None:
            record.add(seat_name(game, options, seat), game.format(action))
        game.apply(state, action, quiet=True)
        steps += 1
    if record is not None:
        record.close(game, state)
    return state, steps


def play_indexed(game: Any, options: dict[str, Any], agents: list[Any], seed: int,
                 index: int) -> GameResult:
    chance_rng, agent_rng = rngs(seed, index)
    state, steps = play(game, options, agents, chance_rng, agent_rng)
    outcome = game.outcome(state)
    assert outcome is not None
    return GameResult(index, outcome, steps)
