"""The registry of games by id. Games register themselves; the engine knows none of them
but the shipped packages' names (`_BUILTIN`).

A shipped game's package is imported when the game is first asked for (`get`), not
before: a command that plays one game pays for that game's rules only. Listing the games
(`game_ids`, `summary`) reads the table below for the shipped games not imported yet, so
`thermopylae games`, `--help` and the server's game list import none of them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TypeVar

from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.protocol import GenericGame

G = TypeVar("G")
G_co = TypeVar("G_co", covariant=True)

GameFactory = Callable[[Path | None], GenericGame]

_FACTORIES: dict[str, GameFactory] = {}
_SUMMARIES: dict[str, tuple[str, int, int]] = {}
_IMPORTED: set[str] = set()  # the shipped games whose package `get` imported


_BUILTIN: dict[str, tuple[str, str, int, int]] = {
    "thermopyles": ("thermopylae.games.thermopyles", "Thermopyles", 1, 4),
    "earth-and-water": ("thermopylae.games.earth_and_water", "300: Earth & Water", 2, 2),
    "hot-gates": ("thermopylae.games.hot_gates", "300: The Board Game", 2, 4),
}
"""The games shipped with thermopylae: id -> (the package whose import registers it, and
the title and player counts it registers, to list the game before it is imported).
tests/engine/test_registry.py holds each entry to what its package registers. (Plain
tuples: a named tuple class costs this module more than everything else it does.)"""


class Factory(Protocol[G_co]):
    """What `default_once` makes: `factory()` is the default component set, `factory(path)`
    a file's (a plain `Callable[[Path | None], G]` would lose the default)."""

    def __call__(self, components_path: Path | None = None) -> G_co: ...


def default_once(build: Callable[[Path | None], G]) -> Factory[G]:
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
    """Register in this process the games another process registered at run time (in a
    worker, before each of its jobs)."""
    for gid, title, players, factory in games:
        register(gid, title, players, factory)


def _pending(game_id: str) -> tuple[str, str, int, int] | None:
    """The shipped game `game_id` while the table stands in for it: its package not
    imported by `get` yet nor registered by an import of its own (after that the game is
    what its package registered, withdrawn by `unregister` as any other)."""
    entry = _BUILTIN.get(game_id)
    if entry is None or game_id in _FACTORIES or game_id in _IMPORTED:
        return None
    return entry


def game_ids() -> list[str]:
    """The ids of the registered games and of the shipped ones not imported yet."""
    return sorted({*_FACTORIES, *(gid for gid in _BUILTIN if _pending(gid))})


def summary(game_id: str) -> tuple[str, int, int]:
    """(title, min players, max players) without building the game (nor importing a
    shipped one)."""
    entry = _pending(game_id)
    if entry is not None:
        return entry[1:]
    return _SUMMARIES[game_id]


def get(game_id: str, components: Path | None = None) -> GenericGame:
    """The game `game_id`, with its default components or those in `components`; a
    shipped game's package is imported on its first use."""
    entry = _pending(game_id)
    if entry is not None:
        # registers the game; another thread importing it meanwhile is waited for
        importlib.import_module(entry[0])
        _IMPORTED.add(game_id)
    try:
        factory = _FACTORIES[game_id]
    except KeyError:
        known = ", ".join(game_ids())
        raise ThermopylaeError(f"unknown game {game_id!r}; known games: {known}") from None
    return factory(components)
