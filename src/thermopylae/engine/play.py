"""The two loops every face shares: `advance` (chance and the seats that have an agent,
until a seat without one must decide) and `play` (a whole game, to the end).

The command line, the server, the simulations, the benchmarks, the learning interfaces
and the searches' playouts all step through chance with these, so a game is played the
same way everywhere: chance outcomes are drawn from the chance source only, agents get
their own source, and a record written from the steps replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from thermopylae.engine.protocol import CHANCE, Decider, Event, GenericGame

Stepper = Callable[[Any, Any, random.Random], int | None]
"""`step(state, action, rng)`: a decision applied quietly and the chance steps after it;
the seat that decides next."""


@dataclass(slots=True)
class Step:
    """One applied action: who took it (`CHANCE` or a seat), the action, its events
    (empty when the loop ran quiet). Not frozen: a frozen dataclass takes nearly three
    times as long to build, and the learning interfaces build several per decision."""

    seat: int
    action: Any
    events: list[Event] = field(default_factory=list)


def advance(
    game: GenericGame,
    state: Any,
    chance_rng: random.Random,
    agents: Mapping[int, Decider] | Sequence[Decider] = (),
    agent_rng: random.Random | None = None,
    *,
    quiet: bool = False,
) -> Iterator[Step]:
    """Apply chance outcomes and the decisions of the seats in `agents` (a seat -> agent
    mapping, or one agent per seat) to `state`, in place, yielding each step once it is
    applied; stop when a seat without an agent must decide or the game is over. Agents
    draw from `agent_rng` (by default the chance source, for callers with one source)."""
    seats = _by_seat(agents)
    rng = chance_rng if agent_rng is None else agent_rng
    to_act, apply, sample = game.to_act, game.apply, game.sample_chance
    while (seat := to_act(state)) is not None:
        if seat == CHANCE:
            action = sample(state, chance_rng)
        else:
            agent = seats.get(seat)
            if agent is None:
                return
            action = agent.act(game, state, rng)
        yield Step(seat, action, apply(state, action, quiet=quiet))


def advance_quietly(
    game: GenericGame,
    state: Any,
    chance_rng: random.Random,
    agents: Mapping[int, Decider] | Sequence[Decider] = (),
    agent_rng: random.Random | None = None,
    action: Any = None,
    step: Stepper | None = None,
) -> int | None:
    """`advance` for a caller that needs only the state it ends at (the learning
    interfaces, once per decision): the same steps from the same draws, quietly, without
    building a step object for each; returns the seat that decides there (None: the game
    is over), so the caller need not ask `to_act`. `action`: a decision of the seat to
    act, applied first (None: nothing to apply). Each decision is played with the chance
    steps after it by `step`, the game's `stepper` (worked out here unless a caller that
    comes back at every decision keeps it)."""
    seats = _by_seat(agents)
    rng = chance_rng if agent_rng is None else agent_rng
    if step is None:
        step = stepper(game)
    if action is None:
        seat = game.advance_chance(state, chance_rng)  # chance: the protocol's draws
    else:
        seat = step(state, action, chance_rng)
    while seat is not None:
        agent = seats.get(seat)
        if agent is None:
            return seat
        seat = step(state, agent.act(game, state, rng), chance_rng)
    return None


def stepper(game: GenericGame) -> Stepper:
    """`step(state, action, rng)`: a legal decision applied quietly and the chance steps
    after it (`advance_chance`), returning the seat that decides next: the game's
    `apply_advance`, which `GameBase` gives every game (a game may fuse the two calls);
    for a game written without `GameBase`, the two calls."""
    fused: Stepper | None = getattr(game, "apply_advance", None)
    if fused is not None:
        return fused
    apply, chance = game.apply, game.advance_chance

    def step(state: Any, action: Any, rng: random.Random) -> int | None:
        apply(state, action, quiet=True)
        return chance(state, rng)

    return step


def _by_seat(agents: Mapping[int, Decider] | Sequence[Decider]) -> Mapping[int, Decider]:
    """A seat -> agent mapping, from a mapping or one agent per seat."""
    # the usual kinds first: isinstance against an ABC costs several calls each time, and
    # the learning interfaces call this once per decision
    if isinstance(agents, dict):
        return agents
    if isinstance(agents, (tuple, list, Sequence)):
        return dict(enumerate(agents))
    return agents


def uniform(
    to_act: Callable[[Any], int | None],
    apply: Callable[..., Any],
    sample: Callable[[Any, random.Random], Any],
    moves: Callable[[Any], Sequence[Any]],
    state: Any,
    chance_rng: random.Random,
    agent_rng: random.Random,
) -> int:
    """The uniformly random playout through the protocol's calls: every seat plays
    `moves(state)[int(agent_rng.random() * n)]`, chance `sample(state, chance_rng)`. What a
    game's own `random_playout` must equal, random stream for random stream."""
    rand = agent_rng.random
    steps = 0
    while (seat := to_act(state)) is not None:
        if seat == CHANCE:
            apply(state, sample(state, chance_rng), quiet=True)
        else:
            acts = moves(state)
            apply(state, acts[int(rand() * len(acts))], quiet=True)
        steps += 1
    return steps


def plays_legal(game: GenericGame) -> bool:
    """Whether `game.random_playout` plays what random agents play (uniformly among
    `legal`): the game's `sensible` is its `legal`, the same method (`GameBase` makes it so
    for every game that does not override `sensible`). Then `GameBase`'s
    `random_legal_playout`, which tables of random agents play, is `random_playout`, the
    game's fused loop; a game whose `sensible` is a method of its own plays them through
    the protocol loop over `legal`, unless it has a fused `random_legal_playout` too."""
    return bool(game.sensible == game.legal)


def play(
    game: GenericGame,
    state: Any,
    agents: Sequence[Decider],
    chance_rng: random.Random,
    agent_rng: random.Random,
    on_step: Callable[[int, Any], None] | None = None,
    moves: Callable[[Any], Sequence[Any]] | None = None,
) -> int:
    """Play `state` to the end (in place), one agent per seat, quietly; `on_step(seat,
    action)` is told each action before it is applied (a record's writer). Returns the
    number of steps. The tight loop of simulations: no events, no step objects.

    With `moves` instead of agents, every seat plays uniformly at random among
    `moves(state)` (e.g. `game.sensible`), drawing from `agent_rng` as a random agent
    would, without an agent call a decision: the searches' random playouts."""
    to_act, apply, sample = game.to_act, game.apply, game.sample_chance
    steps = 0
    if moves is not None and not agents and on_step is None:
        return uniform(to_act, apply, sample, moves, state, chance_rng, agent_rng)
    if moves is not None:
        raise ValueError("play takes agents or moves, not both (and no on_step with moves)")
    while (seat := to_act(state)) is not None:
        if seat == CHANCE:
            action = sample(state, chance_rng)
        else:
            action = agents[seat].act(game, state, agent_rng)
        if on_step is not None:
            on_step(seat, action)
        apply(state, action, quiet=True)
        steps += 1
    return steps
