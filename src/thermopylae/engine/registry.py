"""The registry of games by id. Games register themselves; the engine knows none of them."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.protocol import GenericGame

G = TypeVar("G")

GameFactory = Callable[[Path | None], GenericGame]

_FACTORIES: dict[str, GameFactory] = {}
_SUMMARIES: dict[str, tuple[str, int, int]] = {}

# The game packages shipped with thermopylae; importing one registers it.
_BUILTIN = (
    "thermopylae.games.thermopyles",
    "thermopylae.games.earth_and_water",
    "thermopylae.games.hot_gates",
)


def default_once(build: Callable[[Path | None], G]) -> Callable[[Path | None], G]:
    """A game factory that builds the default component set once (it is shared, games
    hold no per-table state) and a user's file each time it is asked."""
    default: list[G] = []

    def game(components_path: Path | None = None) -> G:
        if components_path is not None:
            return build(components_path)
        if not default:
            default.append(build(None))
        return default[0]

    return game


def register(game_id: str, title: str, players: tuple[int, int], factory: GameFactory) -> None:
    """Make a game available by id; `factory(components_path_or_None)` builds it."""
    _FACTORIES[game_id] = factory
    _SUMMARIES[game_id] = (title, *players)


def unregister(game_id: str) -> None:
    """Withdraw a game registered with `register` (a game a test registers for its own
    duration, so that other tests' game lists stay as they were); unknown ids are ignored."""
    _FACTORIES.pop(game_id, None)
    _SUMMARIES.pop(game_id, None)


Registration = tuple[str, str, tuple[int, int], GameFactory]


def registrations() -> list[Registration]:
    """The games registered at run time by code outside the shipped packages (a plug-in,
    a test's toy game), as `register`'s arguments: what a spawned worker process must
    `adopt` to know them too (the shipped games register themselves when imported). Their
    factories must be picklable: module-level functions."""
    return [
        (gid, title, (lo, hi), factory)
        for gid, factory in _FACTORIES.items()
        for title, lo, hi in [_SUMMARIES[gid]]
        if not factory.__module__.startswith(("thermopylae.games.", __name__))
    ]


def adopt(games: list[Registration]) -> None:
    """Register in this process the games another process registered at run time (a
    worker's initializer)."""
    for gid, title, players, factory in games:
        register(gid, title, players, factory)


def _load_builtins() -> None:
    for module in _BUILTIN:
        importlib.import_module(module)


def game_ids() -> list[str]:
    _load_builtins()
    return sorted(_FACTORIES)


def summary(game_id: str) -> tuple[str, int, int]:
    """(title, min players, max players) without building the game."""
    _load_builtins()
    return _SUMMARIES[game_id]


def get(game_id: str, components: Path | None = None) -> GenericGame:
    """The game `game_id`, with its default components or those in `components`."""
    _load_builtins()
    try:
        factory = _FACTORIES[game_id]
    except KeyError:
        known = ", ".join(sorted(_FACTORIES))
        raise ThermopylaeError(f"unknown game {game_id!r}; known games: {known}") from None
    return factory(components)
