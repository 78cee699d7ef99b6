"""Game-agnostic helpers for record tests: save and reload, rebuild a step's state, find a
refused action."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from thermopylae.engine.errors import IllegalAction
from thermopylae.engine.protocol import GenericGame
from thermopylae.engine.record import Record


def roundtrip(rec: Record, tmp_path: Path, name: str = "game.json") -> Record:
    path = tmp_path / name
    rec.save(path)
    return Record.load(path)


def state_before(game: GenericGame, rec: Record, k: int) -> Any:
    """The state just before step `k` (1-based) of a record."""
    s = game.new(game.options(rec.options))
    for _, text in rec.steps[: k - 1]:
        game.apply(s, game.parse(text), quiet=True)
    return s


def refused_action(game: GenericGame, s: Any) -> str:
    """Some action of the table that the rules refuse in `s`, in notation."""
    for i in range(game.num_actions):
        a = game.decode(i)
        try:
            game.apply(game.copy(s), a, quiet=True)
        except IllegalAction:
            return game.format(a)
    raise AssertionError("every action is legal here")
