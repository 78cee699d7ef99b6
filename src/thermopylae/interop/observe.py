"""Fixed-size observations and action masks for learning libraries, for any game.

The layout of a game's observations is the game's own: `game.observer(options)` returns
an `engine.observation.Observer` (each game writes it in its `observe.py`; docs/rl.md
lists every field), and this module only turns its numbers into the float32 vectors the
learning libraries take. An observation is built only from `game.view(state, seat)`, the
one place where hidden information is filtered, so it cannot leak what the seat may not
see. Numbers are scaled to about [0, 1] and clipped to [`LOW`, `HIGH`]; seats are
absolute indices `0..n-1` in the game's seat order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.observation import Observer
from thermopylae.engine.protocol import CHANCE, JSON, GenericGame

Obs = npt.NDArray[np.float32]
LOW, HIGH = -100.0, 100.0
"""Bounds of every observation entry (values are clipped to them; none comes near)."""


def observer(game: GenericGame, options: Mapping[str, Any]) -> Observer:
    """The game's observer for these (complete) options, or a clear error for a game that
    offers none."""
    found = game.observer(options)
    if found is None:
        raise ThermopylaeError(
            f"{game.title} ({game.id}) offers no learning interface: it has no observer"
        )
    return found


def vector(found: Observer, view: JSON) -> Obs:
    """The float32 vector of `view` through an observer (what the environments call on
    every step, holding their observer)."""
    x = np.array(found.features(view), dtype=np.float32)
    # clipped in place: the same values as `np.clip`, which costs more than building the
    # array itself for vectors of this size
    np.maximum(x, LOW, out=x)
    np.minimum(x, HIGH, out=x)
    return x


def layout(game: GenericGame, options: Mapping[str, Any]) -> list[tuple[str, int, str]]:
    """The observation's fields in order: (name, size, meaning)."""
    return list(observer(game, options).layout())


def observation_size(game: GenericGame, options: Mapping[str, Any]) -> int:
    return observer(game, options).size


def observation(game: GenericGame, options: Mapping[str, Any], view: JSON) -> Obs:
    """The float32 vector of `view` (from `game.view(state, seat)`); `options` must be
    complete (`game.options(...)`)."""
    return vector(observer(game, options), view)


def observe(game: GenericGame, options: Mapping[str, Any], state: Any, seat: int) -> Obs:
    """The observation of `seat` in `state` (through `game.view`)."""
    return observation(game, options, game.view(state, seat))


def action_mask(game: GenericGame, state: Any, seat: int | None = None) -> npt.NDArray[np.int8]:
    """1 for each encoded legal action of the deciding seat (all 0 unless `seat`, when
    given, is the one to act; all 0 at chance nodes and once the game is over)."""
    mask = np.zeros(game.num_actions, dtype=np.int8)
    who = game.to_act(state)
    if who is None or who == CHANCE or (seat is not None and who != seat):
        return mask
    for a in game.legal(state):
        mask[game.encode(a)] = 1
    return mask
