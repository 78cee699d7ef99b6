"""The games the conformance suite looks at: a few seeded random games of each registered
game and player count, with positions sampled along them.

Everything here goes through the contract (`engine.protocol.Game`) only: what the suite
checks of one game it checks of every game, the toy of tests/toy included.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from thermopylae.engine import registry
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.protocol import CHANCE, JSON, Event, GenericGame

GAMES = 4
"""Random games per game and player count."""
POSITIONS = 12
"""Positions sampled along each game, besides its first and its last."""
MAX_STEPS = 20_000
"""A bound on any random game's steps (the longest seen are under a thousand)."""


@dataclass(frozen=True)
class Case:
    """One game at one player count: what the suite's tests are parametrised over."""

    game_id: str
    players: int

    def __str__(self) -> str:
        return f"{self.game_id}-{self.players}p"


def cases() -> list[Case]:
    """Every registered game at every player count it takes."""
    return [
        Case(gid, n)
        for gid in registry.game_ids()
        for n in range(registry.summary(gid)[1], registry.summary(gid)[2] + 1)
    ]


def options_for(game: GenericGame, players: int, flip: bool = False) -> JSON:
    """The complete options of a table of `players` seats; with `flip`, every true/false
    option of the defaults turned the other way (where the game accepts that), so the
    options' variants are played too without the suite knowing any game's options."""
    options = game.options({"players": players})
    if flip:
        flipped = {k: not v if isinstance(v, bool) else v for k, v in options.items()}
        with contextlib.suppress(ThermopylaeError):  # a variant the game refuses
            options = game.options(flipped)
    assert len(game.seats(options)) == players, (game.id, players, options)
    return options


@dataclass
class Played:
    """One whole random game: its steps (seat, action, events) and sampled positions
    (step number, a copy of the state before that step; the last is the final state)."""

    game: GenericGame
    options: JSON
    seed: int
    steps: list[tuple[int, Any, list[Event]]] = field(default_factory=list)
    positions: list[tuple[int, Any]] = field(default_factory=list)
    final: Any = None

    def actions_from(self, step: int) -> list[Any]:
        return [a for _, a, _ in self.steps[step:]]


def play_random(game: GenericGame, state: Any, rng: random.Random) -> int:
    """Play `state` to the end in place, uniformly random choices and chance from `rng`;
    returns the steps, failing past `MAX_STEPS`."""
    steps = 0
    while (seat := game.to_act(state)) is not None:
        if seat == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            legal = game.legal(state)
            action = legal[int(rng.random() * len(legal))]
        game.apply(state, action, quiet=True)
        steps += 1
        assert steps <= MAX_STEPS, f"{game.id}: still running after {steps} steps"
    return steps


def _play(game_id: str, players: int, index: int) -> Played:
    game = registry.get(game_id)
    seed = _seed(game_id, players, index)
    rng = random.Random(seed)
    options = options_for(game, players, flip=index % 2 == 1)
    played = Played(game, options, seed)
    state = game.new(options)
    while (seat := game.to_act(state)) is not None:
        if seat == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            legal = game.legal(state)
            action = legal[int(rng.random() * len(legal))]
        played.steps.append((seat, action, []))
        played.positions.append((len(played.steps) - 1, game.copy(state)))
        played.steps[-1] = (seat, action, game.apply(state, action))
        assert len(played.steps) <= MAX_STEPS, f"{game_id}: still running after {MAX_STEPS}"
    played.final = state
    # keep the first position, POSITIONS others spread at random, and the final state
    middle = played.positions[1:]
    keep = sorted(rng.sample(range(len(middle)), min(POSITIONS, len(middle))))
    played.positions = [
        *played.positions[:1],
        *(middle[k] for k in keep),
        (len(played.steps), game.copy(state)),
    ]
    return played


def _seed(game_id: str, players: int, index: int) -> int:
    """A seed that depends on the case by value (not on `hash`, which varies by process)."""
    return sum(map(ord, game_id)) * 1_000 + players * 100 + index


@cache
def _games(game_id: str, players: int) -> tuple[Played, ...]:
    return tuple(_play(game_id, players, i) for i in range(GAMES))


def games(case: Case) -> tuple[Played, ...]:
    """The case's random games (played once per test process, then shared)."""
    return _games(case.game_id, case.players)


def positions(case: Case) -> list[tuple[Played, int, Any]]:
    """Every sampled position of the case's games, with its game and step number; each
    a fresh copy (tests may change them)."""
    return [(p, step, p.game.copy(s)) for p in games(case) for step, s in p.positions]


def plain_determinize(game: GenericGame) -> bool:
    """Whether `game` keeps `GameBase`'s `determinize`, a plain copy: it says it has no
    hidden information."""
    from thermopylae.engine.game import GameBase

    # held as an object: mypy takes the protocol's method and GameBase's for disjoint types
    own: object = type(game).determinize
    return own is GameBase.determinize


def redealt(game_id: str) -> Iterator[tuple[Any, Any]]:
    """(position, the same re-dealt for one seat) over the sampled positions of every
    player count, for a game with its own `determinize` (none for one on the default)."""
    game = registry.get(game_id)
    if plain_determinize(game):
        return
    rng = random.Random(game_id)
    for case in cases():
        if case.game_id != game_id:
            continue
        for _, _, s in positions(case):
            for seat in range(case.players):
                yield s, game.determinize(s, seat, rng)
