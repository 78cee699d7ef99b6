"""The server's AI levels for Thermopyles, as agent specs (`ai.base.make_agent`).

`hard` is the strongest agent measured for the game (docs/ai.md): a plain ISMCTS beats
the heuristic at every player count, so it is the same for every seat.
"""

from __future__ import annotations

EASY = "random"
NORMAL = "heuristic"
HARD = "ismcts:iterations=2000"


def levels(players: int, seat: str) -> dict[str, str]:
    """easy, normal and hard for any seat of any table: the players are one team."""
    return {"easy": EASY, "normal": NORMAL, "hard": HARD}
