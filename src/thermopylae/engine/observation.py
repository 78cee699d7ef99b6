"""What a learning interface needs from a game: an `Observer`, which turns one seat's
view into a fixed-size list of numbers, with a documented layout.

A game that offers learning interfaces returns one from `Game.observer(options)`; the
interfaces in `thermopylae.interop` know nothing else about the game. An observation is
built from `game.view(state, seat)` only, the one place where hidden information is
filtered, so it cannot leak what the seat may not see.

The building blocks below (`Field`, `onehot`, `histogram`, `scaled`, `Fields`) are what
each game's `observe.py` writes its layout with, so that no game imports a face to
describe its observations and every layout reads the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from thermopylae.engine.protocol import JSON, Observer

__all__ = ["Field", "Fields", "Observer", "histogram", "onehot", "scaled"]


Getter = Callable[[JSON], Sequence[float]]
"""Reads one field's values from a view."""


@dataclass(frozen=True, slots=True)
class Field:
    """One named part of an observation: `size` numbers that `get` reads from a view;
    `meaning` is the line docs/rl.md shows for it."""

    name: str
    size: int
    meaning: str
    get: Getter


def onehot(value: object, choices: Iterable[object]) -> list[float]:
    """1.0 where `value` equals a choice, else 0.0: all zero when the value is absent."""
    return [1.0 if value == c else 0.0 for c in choices]


@cache
def _index(choices: tuple[Hashable, ...]) -> dict[Hashable, int]:
    # keyed by the choices' value: a layout has a handful of constant tuples
    return {c: i for i, c in enumerate(choices)}


def histogram(
    items: Iterable[Hashable], choices: tuple[Hashable, ...], scale: float = 1.0
) -> list[float]:
    """How many of `items` are each choice, / `scale`; items not among them are left out."""
    out = [0.0] * len(choices)
    index = _index(choices)
    for x in items:
        i = index.get(x)
        if i is not None:
            out[i] += 1.0 / scale
    return out


def scaled(x: float | None, scale: float) -> float:
    """`x / scale`, and 0.0 for an absent value."""
    return 0.0 if x is None else float(x) / scale


class Fields:
    """An `Observer` made of a list of `Field`s, concatenated in order; each field's
    values are checked against its size, so a layout cannot drift from its docs."""

    def __init__(self, game_id: str, fields: Sequence[Field]) -> None:
        self.game_id = game_id
        self.fields = tuple(fields)
        self._size = sum(f.size for f in self.fields)

    def layout(self) -> list[tuple[str, int, str]]:
        return [(f.name, f.size, f.meaning) for f in self.fields]

    @property
    def size(self) -> int:
        return self._size

    def features(self, view: JSON) -> list[float]:
        parts: list[float] = []
        for f in self.fields:
            values = list(f.get(view))
            if len(values) != f.size:
                raise AssertionError(f"{self.game_id} field {f.name}: {len(values)} != {f.size}")
            parts += values
        return parts
