"""Takebacks without leaks: the one policy of the terminal's `undo` and the server's
takebacks.

A seat may take back its own decisions made since the last *reveal*, never past it. A
reveal is a step after which some seat knows what a takeback cannot make it forget:

- a chance step (a card drawn, a die rolled, a deck shuffled): taking it back would let
  the seat choose again knowing the draw;
- a step that showed some seat alone something (an event addressed to one seat: a card
  seen, a hidden choice told to its owner): that seat cannot unsee it.

Decisions of other seats after the seat's own are taken back with it (the server asks
their consent, see docs/accounts.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from thermopylae.engine.protocol import CHANCE, Event, GenericGame


def is_reveal(seat: int, events: Sequence[Event]) -> bool:
    """Whether a step by `seat` (CHANCE for chance) with these events is a reveal."""
    return seat == CHANCE or any(e.to is not None for e in events)


@dataclass(frozen=True)
class Takebacks:
    """What a record's steps allow: `floor`, the number of steps that can never be
    taken back (every step up to the last reveal); `deciders`, who decided each step
    (a seat index, or CHANCE)."""

    floor: int
    deciders: tuple[int, ...]

    def last_own(self, seat: int) -> int | None:
        """The move number of `seat`'s latest decision that may be taken back (the table
        goes back to just before it), or None."""
        for n in range(len(self.deciders) - 1, self.floor - 1, -1):
            if self.deciders[n] == seat:
                return n
        return None

    def refusal(self, seat: int, to: int) -> str | None:
        """Why `seat` may not go back to move `to` (None: it may): `to` must be one of the
        seat's own decisions since the last reveal."""
        if isinstance(to, bool) or not isinstance(to, int) or not 0 <= to < len(self.deciders):
            return f"move {to!r} is not a decision of this game (0..{len(self.deciders) - 1})"
        if to < self.floor:
            return (
                f"move {to} comes before a revealed card or die roll (move {self.floor - 1}): "
                "a takeback never goes past revealed information"
            )
        if self.deciders[to] != seat:
            return f"move {to} is not your decision: a seat takes back only its own decisions"
        return None

    def others(self, seat: int, to: int) -> set[int]:
        """The other seats whose decisions a takeback to `to` undoes too."""
        return {d for d in self.deciders[to:] if d not in (seat, CHANCE)}


def takebacks(
    game: GenericGame, options: Mapping[str, Any], steps: Sequence[tuple[str, str]]
) -> Takebacks:
    """Replay a game's steps (as records hold them: who, action text) and find what may
    be taken back."""
    state = game.new(options)
    floor = 0
    deciders: list[int] = []
    for n, (_who, text) in enumerate(steps):
        seat = game.to_act(state)
        if seat is None:
            break
        events = game.apply(state, game.parse(text))
        deciders.append(seat)
        if is_reveal(seat, events):
            floor = n + 1
    return Takebacks(floor, tuple(deciders))
