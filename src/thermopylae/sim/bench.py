"""Playout speed on one core, as the simulations play (`match.play`: the protocol's
legal, chance and apply, or a table of random agents' `random_legal_playout`, the game's
fused loop where it has one), in CPU seconds, and its ratio to the reference loop
(`sim/reference.py`) measured in the same process and the same run: the ratio carries
between machines, the absolute figure does not."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from thermopylae.ai.base import RandomAgent, make_agent
from thermopylae.engine.play import play as play_state
from thermopylae.engine.protocol import CHANCE, GenericGame
from thermopylae.sim import reference
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
    """Play games back to back for about `seconds` of CPU time, in this process."""
    options = game.options(options)
    agents = [make_agent(agent, game) for _ in game.seats(options)]
    chance_rng, agent_rng = rngs(seed, 0)  # one stream for all games: seeding is not playing
    return _slice(game, agent, options, agents, chance_rng, agent_rng, seconds)


def _slice(
    game: GenericGame,
    agent: str,
    options: dict[str, Any],
    agents: Sequence[Any],
    chance_rng: random.Random,
    agent_rng: random.Random,
    seconds: float,
) -> BenchResult:
    games = steps = 0
    clock = time.process_time
    started = clock()
    while (elapsed := clock() - started) < seconds:
        _, n = play(game, options, agents, chance_rng, agent_rng)
        games += 1
        steps += n
    return BenchResult(agent, games, steps, elapsed)


@dataclass(frozen=True)
class Yardstick:
    """The reference loop of this run: Thermopyles random play (`sim/reference.py`) at
    `players` seats, with the default components."""

    players: int
    deck: reference.Deck = field(repr=False)
    rng: random.Random = field(repr=False)

    @classmethod
    def of(cls, game: GenericGame, options: dict[str, Any], seed: int = 0) -> Yardstick:
        """At the table size of `options` when `game` is Thermopyles (with its components),
        solo otherwise: the same yardstick for every game."""
        if game.id == "thermopyles":
            components = getattr(game, "components", None)
            return cls(int(options["players"]), reference.Deck.of(components), random.Random(seed))
        return cls(1, reference.Deck.of(), random.Random(seed))

    def measure(self, seconds: float) -> reference.Rate:
        return reference.run(seconds, self.players, self.deck, self.rng)


@dataclass(frozen=True)
class Compared:
    """A figure and the reference's, measured in turns (R A R A ...): `ratios` holds each
    round's figure divided by the reference games/s of the same round."""

    result: BenchResult
    reference: reference.Rate
    ratios: tuple[float, ...]

    @property
    def ratio(self) -> float:
        """The median of the rounds' ratios."""
        return statistics.median(self.ratios)

    def to_json(self) -> dict[str, Any]:
        r = self.result
        return {
            "agent": r.agent,
            "games": r.games,
            "steps": r.steps,
            "cpu_seconds": r.seconds,
            "games_per_second": r.games_per_second,
            "steps_per_second": r.steps_per_second,
            "reference_games_per_second": self.reference.games_per_second,
            "ratio": self.ratio,
            "ratios": list(self.ratios),
        }


def compare(
    game: GenericGame,
    agents: Sequence[str],
    options: dict[str, Any],
    seconds: float = 3.0,
    rounds: int = 5,
    seed: int = 0,
    yardstick: Yardstick | None = None,
) -> list[Compared]:
    """Each agent's playouts (about `seconds` of CPU time each, in `rounds` slices) and the
    reference loop (as long again), interleaved: in each round the reference runs, then
    each agent; each agent's ratio is its games/s over the reference's of its round."""
    options = game.options(options)
    rounds = max(1, rounds)
    stick = yardstick or Yardstick.of(game, options, seed)
    players = {a: [make_agent(a, game) for _ in game.seats(options)] for a in agents}
    streams = {a: rngs(seed, 0) for a in agents}
    part = seconds / rounds
    totals: dict[str, list[BenchResult]] = {a: [] for a in agents}
    refs: list[reference.Rate] = []
    ratios: dict[str, list[float]] = {a: [] for a in agents}
    for _ in range(rounds):
        ref = stick.measure(part)
        refs.append(ref)
        for a in agents:
            r = _slice(game, a, options, players[a], *streams[a], part)
            totals[a].append(r)
            ratios[a].append(r.games_per_second / max(ref.games_per_second, 1e-9))
    ref_total = reference.Rate(sum(r.games for r in refs), sum(r.seconds for r in refs))
    return [
        Compared(
            BenchResult(
                a,
                sum(r.games for r in totals[a]),
                sum(r.steps for r in totals[a]),
                sum(r.seconds for r in totals[a]),
            ),
            ref_total,
            tuple(ratios[a]),
        )
        for a in agents
    ]


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
    return [rate for rate, _ in ismcts_compare(game, options, seconds, positions, seed, spec)]


def ismcts_positions(
    game: GenericGame, options: dict[str, Any], positions: int = 3, seed: int = 0
) -> tuple[list[Any], random.Random]:
    """The positions `ismcts_rate` times: `positions` spread over the decisions with a
    choice of a seeded random game (every 7th decision's, before its move), and the random
    source as the game left it, which the searches go on with."""
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
    return chosen, rng


def ismcts_compare(
    game: GenericGame,
    options: dict[str, Any],
    seconds: float = 3.0,
    positions: int = 3,
    seed: int = 0,
    spec: str = "ismcts",
    yardstick: Yardstick | None = None,
) -> list[tuple[float, float]]:
    """`ismcts_rate`'s figures, each with its ratio to the reference loop measured just
    before it (as long as it): (iterations per CPU second, iterations per reference game).
    Without a yardstick the ratios are 0 and no reference runs."""
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

    chosen, rng = ismcts_positions(game, options, positions, seed)
    rates = []
    for state in chosen:
        part = seconds / len(chosen)
        ref = yardstick.measure(part).games_per_second if yardstick is not None else 0.0
        agent.seconds = part
        started = time.process_time()
        agent.act(game, state, rng)
        rate = agent.last_iterations / max(1e-9, time.process_time() - started)
        rates.append((rate, rate / ref if ref > 0 else 0.0))
    return rates
