"""Thermopyles, the co-operative card game (1-4 players): rules, components, views, AI."""

from __future__ import annotations

from thermopylae.engine import registry
from thermopylae.games.thermopyles import components
from thermopylae.games.thermopyles.rules import Thermopyles

game = registry.default_once(lambda path: Thermopyles(components.load(path)))
"""`game()`: the game with the default components; `game(path)`: with those in a file."""


registry.register("thermopyles", Thermopyles.title, (1, 4), game)

__all__ = ["Thermopyles", "game"]
