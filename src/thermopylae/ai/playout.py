"""The playout both searches end an iteration with: play on from a position to the end,
or stop after `depth` decisions and ask the game for an estimate; and the moves the
searches choose among (`choices`). Both run on the engine's loops (`engine.play`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from thermopylae.engine.play import advance, play
from thermopylae.engine.protocol import Decider, GenericGame


def choices(game: GenericGame) -> Callable[[Any], Sequence[Any]]:
    """The moves a search considers: the game's `sensible(state)` (the legal moves
    without those it knows to be pointless, such as a card whose effect cannot apply;
    a game without such knowledge returns `legal`). Searching a pointless move only
    wastes iterations, and choosing it spends a card for nothing."""
    return game.sensible


class Uniform:
    """The playouts' default policy: uniformly random among `choices(game)`."""

    __slots__ = ("moves",)

    def __init__(self, game: GenericGame) -> None:
        self.moves = choices(game)

    def act(self, game: GenericGame, state: Any, rng: random.Random) -> Any:
        acts = self.moves(state)
        return acts[int(rng.random() * len(acts))]


class _Budget(Mapping[int, Decider]):
    """One policy for every seat, for `left` decisions: `engine.play.advance` stops at
    the first decision after that (it finds no agent for the seat)."""

    def __init__(self, policy: Decider, left: int) -> None:
        self.policy = policy
        self.left = left

    def get(self, seat: int, default: Any = None) -> Any:
        if self.left <= 0:
            return default
        self.left -= 1
        return self.policy

    def __getitem__(self, seat: int) -> Decider:
        found: Decider | None = self.get(seat)
        if found is None:
            raise KeyError(seat)
        return found

    def __iter__(self) -> Iterator[int]:
        return iter(())

    def __len__(self) -> int:
        return 0


def play_out(
    game: GenericGame,
    d: Any,
    rng: random.Random,
    policy: Decider | None = None,
    depth: int | None = None,
    evaluate: Callable[[Any], tuple[float, ...] | None] | None = None,
) -> tuple[float, ...]:
    """Each seat's score at the end of a playout from `d` (changed in place): `policy`
    plays every seat (None: uniformly random moves); with `depth` and `evaluate`, the
    playout stops after `depth` decisions and returns `evaluate(d)`, unless that is None
    (no estimate for that position: play on to the end). Chance and the policy draw
    from the one source `rng`."""
    if depth is not None and evaluate is not None:
        mover: Decider = Uniform(game) if policy is None else policy
        for _ in advance(game, d, rng, _Budget(mover, depth), quiet=True):
            pass
        if game.to_act(d) is not None:
            scores = evaluate(d)
            if scores is not None:
                return scores
    if policy is None:
        game.random_playout(d, rng, rng)
    else:
        play(game, d, [policy] * game.max_players, rng, rng)
    outcome = game.outcome(d)
    assert outcome is not None
    return outcome.scores
