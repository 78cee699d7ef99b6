"""The game-agnostic engine: protocol, errors, component data, registry, records."""

from thermopylae.engine.errors import (
    ComponentError,
    IllegalAction,
    NotationError,
    RecordError,
    ThermopylaeError,
)
from thermopylae.engine.protocol import CHANCE, Event, Game, Outcome

__all__ = [
    "CHANCE",
    "ComponentError",
    "Event",
    "Game",
    "IllegalAction",
    "NotationError",
    "Outcome",
    "RecordError",
    "ThermopylaeError",
]
