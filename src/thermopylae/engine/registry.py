"""The registry of games by id. Games register themselves; the engine knows none of them."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from thermopylae.engine.errors import ThermopylaeError

GameFactory = Callable[[Path | None], Any]

_FACTORIES: dict[str, GameFactory] = {}
_SUMMARIES: dict[str, tuple[str, int, int]] = {}

# The game packages shipped with thermopylae; importing one registers it.
_BUILTIN = ("thermopylae.games.thermopyles", "thermopylae.games.earth_and_water")


def register(game_id: str, title: str, players: tuple[int, int], factory: GameFactory) -> None:
    """Make a game available by id; `factory(components_path_or_None)` builds it."""
    _FACTORIES[game_id] = factory
    _SUMMARIES[game_id] = (title, *players)


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


def get(game_id: str, components: Path | None = None) -> Any:
    """The game `game_id`, with its default components or those in `components`."""
    _load_builtins()
    try:
        factory = _FACTORIES[game_id]
    except KeyError:
        known = ", ".join(sorted(_FACTORIES))
        raise ThermopylaeError(f"unknown game {game_id!r}; known games: {known}") from None
    return factory(components)
