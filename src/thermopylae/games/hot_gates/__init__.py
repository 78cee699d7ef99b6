"""300: The Board Game (2-4 players): Spartans against Persians at the Hot Gates."""

from __future__ import annotations

from thermopylae.engine import registry
from thermopylae.games.hot_gates import components
from thermopylae.games.hot_gates.rules import HotGates

game = registry.default_once(lambda path: HotGates(components.load(path)))
"""`game()`: the game with the default components; `game(path)`: with those in a file."""


registry.register("hot-gates", HotGates.title, (2, 4), game)

__all__ = ["HotGates", "game"]
