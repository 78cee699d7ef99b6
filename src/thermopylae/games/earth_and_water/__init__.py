"""300: Earth & Water (2 players): rules, components, views, AI."""

from __future__ import annotations

from pathlib import Path

from thermopylae.engine import registry
from thermopylae.games.earth_and_water import components
from thermopylae.games.earth_and_water.rules import EarthAndWater

_DEFAULT: EarthAndWater | None = None


def game(components_path: Path | None = None) -> EarthAndWater:
    global _DEFAULT
    if components_path is not None:
        return EarthAndWater(components.load(components_path))
    if _DEFAULT is None:
        _DEFAULT = EarthAndWater(components.load())
    return _DEFAULT


registry.register("earth-and-water", EarthAndWater.title, (2, 2), game)

__all__ = ["EarthAndWater", "game"]
