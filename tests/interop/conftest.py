"""Shared cases and helpers for the learning-interface tests."""

from __future__ import annotations

from typing import Any

ALL_CASES: list[tuple[str, dict[str, Any]]] = [
    *[("thermopyles", {"players": n}) for n in range(1, 5)],
    ("earth-and-water", {}),
    *[("hot-gates", {"players": n}) for n in range(2, 5)],
]


def case_id(case: tuple[str, dict[str, Any]]) -> str:
    game_id, options = case
    return f"{game_id}-{options.get('players', 2)}p"
