"""Thermopyles, the co-operative card game (1-4 players): rules, components, views, AI."""

from __future__ import annotations

from pathlib import Path

from thermopylae.engine import registry
from thermopylae.games.thermopyles import components
from thermopylae.games.thermopyles.rules import Thermopyles

_DEFAULT: Thermopyles | None = None


def game(components_path: Path | None = None) -> Thermopyles:
    """The game with the default (provisional) components, or those in a file."""
    global _DEFAULT
    if components_path is not None:
        return Thermopyles(components.load(components_path))
    if _DEFAULT is None:
        _DEFAULT = Thermopyles(components.load())
    return _DEFAULT


registry.register("thermopyles", Thermopyles.title, (1, 4), game)

__all__ = ["Thermopyles", "game"]
