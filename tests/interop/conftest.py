"""Shared cases and helpers for the learning-interface tests: every registered game at
every player count, from the registry (no game is named here)."""

from __future__ import annotations

from typing import Any

from thermopylae.engine import registry

GAME_IDS: list[str] = registry.game_ids()


def players(game_id: str) -> range:
    """The player counts a game can be set up for."""
    _, low, high = registry.summary(game_id)
    return range(low, high + 1)


def table(game_id: str, n: int) -> dict[str, Any]:
    """The options of a table of `n` players (none for a game with one player count)."""
    return {} if len(players(game_id)) == 1 else {"players": n}


def two_seats(game_id: str) -> dict[str, Any]:
    """A table of two players where the game allows it, else its nearest count: the
    layout docs/rl.md shows, and the smallest table where a seat has hidden neighbours."""
    counts = players(game_id)
    return table(game_id, min(max(2, counts.start), counts.stop - 1))


ALL_CASES: list[tuple[str, dict[str, Any]]] = [
    (game_id, table(game_id, n)) for game_id in GAME_IDS for n in players(game_id)
]


def case_id(case: tuple[str, dict[str, Any]]) -> str:
    game_id, options = case
    return f"{game_id}-{options.get('players', players(game_id).start)}p"
