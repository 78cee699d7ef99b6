"""The server's AI levels for Earth & Water, as agent specs (`ai.base.make_agent`).

`hard` is the strongest agent measured for each seat (docs/ai.md): for Persia an ISMCTS
guided by the heuristic, with a large prior that keeps it close to the heuristic's move;
for Greece the heuristic's one-step rollout.
"""

from __future__ import annotations

EASY = "random"
NORMAL = "heuristic"
INFORMED_PERSIA = "ismcts:iterations=200,playout=heuristic,depth=40,prior=3"
ROLLOUT = "rollout:samples=32,depth=40"


def levels(players: int, seat: str) -> dict[str, str]:
    """easy, normal and hard for `seat` (`persia` or `greece`; always 2 players)."""
    hard = INFORMED_PERSIA if seat == "persia" else ROLLOUT
    return {"easy": EASY, "normal": NORMAL, "hard": hard}
