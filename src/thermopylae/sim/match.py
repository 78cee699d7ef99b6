"""Playing one game between agents, without screens: the loop every simulation runs."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from thermopylae.ai.base import Agent, RandomAgent, make_agent
from thermopylae.engine import play as engine_play
from thermopylae.engine.components import digest
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.protocol import Decider, GenericGame, Outcome

if TYPE_CHECKING:  # imported where a game is recorded: a run without records needs none
    from thermopylae.engine.record import Record


@dataclass(frozen=True)
class GameResult:
    """One finished game; `digest` is its record's digest when it was played with one."""

    index: int
    outcome: Outcome
    steps: int
    digest: str | None = None


def rngs(seed: int, index: int) -> tuple[random.Random, random.Random]:
    """The chance and agent random sources of game `index` of a run seeded `seed`.

    Each game's sources depend only on (seed, index), so a run gives the same games
    whatever the number of workers or the size of the chunks.
    """
    base = (abs(seed) << 41) | (index << 1)
    return random.Random(base), random.Random(base | 1)


def play(
    game: GenericGame,
    options: dict[str, Any],
    agents: Sequence[Decider],
    chance_rng: random.Random,
    agent_rng: random.Random,
    record: Record | None = None,
) -> tuple[Any, int]:
    """Play a new game to the end (`engine.play.play`, writing each step into `record`
    when given); returns the final state and the number of steps. A table of random
    agents is played by the game's `random_legal_playout` (its fused loop where it has
    one: the same games), unless a record is written."""
    state = game.new(options)
    if record is None and all_random(agents):
        return state, game.random_legal_playout(state, chance_rng, agent_rng)
    on_step = None
    if record is not None:
        from thermopylae.engine.record import seat_name

        add, fmt = record.add, game.format

        def on_step(seat: int, action: Any) -> None:
            add(seat_name(game, options, seat), fmt(action))

    steps = engine_play.play(game, state, agents, chance_rng, agent_rng, on_step)
    if record is not None:
        record.close(game, state)
    return state, steps


def all_random(agents: Sequence[Decider]) -> bool:
    """Whether every seat is a random agent (`ai.base.RandomAgent` itself, whose move is
    `legal[int(agent_rng.random() * n)]`): then the game's `random_legal_playout` plays
    the same game as the protocol loop, draw for draw."""
    return all(type(a) is RandomAgent for a in agents)


def play_indexed(
    game: GenericGame,
    options: dict[str, Any],
    agents: Sequence[Decider],
    seed: int,
    index: int,
    record: bool = False,
) -> GameResult:
    """Game `index` of a run seeded `seed`; with `record`, also the digest of its record
    (`record_digest`), to be re-checked later by `replay_indexed`."""
    chance_rng, agent_rng = rngs(seed, index)
    rec = None
    if record:
        from thermopylae.engine.record import Record

        rec = Record.begin(game, options)
    state, steps = play(game, options, agents, chance_rng, agent_rng, rec)
    outcome = game.outcome(state)
    assert outcome is not None
    return GameResult(index, outcome, steps, None if rec is None else record_digest(rec))


def replay_indexed(
    game: GenericGame, options: dict[str, Any], agents: Sequence[str | Agent], seed: int, index: int
) -> Record:
    """Play game `index` of a run seeded `seed` again, with fresh agents (specs or agent
    objects, one per seat), and return its record: the same game as the run played, since
    a game depends only on (seed, index) and the agents. `thermopylae replay` checks it."""
    from thermopylae.engine.record import Record

    options = game.options(options)
    players = [make_agent(a, game) if isinstance(a, str) else a for a in agents]
    if len(players) != len(game.seats(options)):
        raise ThermopylaeError(f"{len(players)} agents for {len(game.seats(options))} seats")
    rec = Record.begin(game, options)
    chance_rng, agent_rng = rngs(seed, index)
    play(game, options, players, chance_rng, agent_rng, rec)
    return rec


def record_digest(record: Record) -> str:
    """The fingerprint written in `--out` lines: `engine.components.digest` of the whole
    record as saved (components, options, seats, every step, final state digest, outcome).
    Records of indexed games carry no seed (`seed` is null), so the digest of a saved
    record file equals the line's."""
    return digest(record.to_json())
