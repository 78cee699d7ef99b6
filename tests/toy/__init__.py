"""A fourth game, registered by the tests that use it: the proof that the game contract is
complete (issue 17). Everything the toy is lives in this package; the conformance suite
plays it like the three real games, and tests/conformance/test_toy_faces.py serves,
simulates and wraps it with no change anywhere else.

It is registered only while a test that asks for it runs (`registered()`, used by the
conformance suite's fixtures), so the game lists of every other test stay the shipped
games'.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.toy.rules import Toy
from thermopylae.engine import registry
from thermopylae.engine.errors import ComponentError

GAME_ID = Toy.id
_GAME = Toy()


def game(components: Path | None = None) -> Toy:
    """The registry's factory: the toy has one fixed set of cards and no component file."""
    if components is not None:
        raise ComponentError(str(components), ["the toy game takes no component file"])
    return _GAME


@contextmanager
def registered() -> Iterator[Toy]:
    """The toy in the registry for the duration of the block (then withdrawn again)."""
    registry.register(GAME_ID, Toy.title, (Toy.min_players, Toy.max_players), game)
    try:
        yield _GAME
    finally:
        registry.unregister(GAME_ID)


__all__ = ["GAME_ID", "Toy", "game", "registered"]
