"""What a learning interface needs from a game: an `Observer`, which turns one seat's
view into a fixed-size list of numbers, with a documented layout.

A game that offers learning interfaces returns one from `Game.observer(options)`; the
interfaces in `thermopylae.interop` know nothing else about the game. An observation is
built from `game.view(state, seat)` only, the one place where hidden information is
filtered, so it cannot leak what the seat may not see.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from thermopylae.engine.protocol import JSON


class Observer(Protocol):
    """A fixed-size numeric form of a view, for one game and one set of options."""

    def layout(self) -> Sequence[tuple[str, int, str]]:
        """`(name, size, meaning)` of every field, in order (docs/rl.md lists them)."""
        ...

    @property
    def size(self) -> int:
        """The number of values of an observation (the sum of the fields' sizes)."""
        ...

    def features(self, view: JSON) -> Sequence[float]:
        """The observation of `view`: `size` numbers, each scaled to about [0, 1]."""
        ...
