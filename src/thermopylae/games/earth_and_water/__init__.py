"""300: Earth & Water (2 players): rules, components, views, AI."""

from __future__ import annotations

from thermopylae.engine import registry
from thermopylae.games.earth_and_water import components
from thermopylae.games.earth_and_water.rules import EarthAndWater

game = registry.default_once(lambda path: EarthAndWater(components.load(path)))
"""`game()`: the game with the default components; `game(path)`: with those in a file."""


registry.register("earth-and-water", EarthAndWater.title, (2, 2), game)

__all__ = ["EarthAndWater", "game"]
