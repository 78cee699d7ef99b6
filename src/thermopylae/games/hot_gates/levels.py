"""The server's AI levels for 300: The Board Game, as agent specs (`ai.base.make_agent`).

`hard` is the strongest agent measured for the player count and seat (docs/ai.md): with
2 players an ISMCTS guided by the heuristic and cut off by the position estimate (a
larger prior, keeping the search closer to the heuristic's move, measured stronger for
the Spartans); with 3 and 4 players there is no position estimate, so the heuristic.
"""

from __future__ import annotations

EASY = "random"
NORMAL = "heuristic"
INFORMED = "ismcts:iterations=60,playout=heuristic,depth=40,prior=1"
INFORMED_SPARTA = "ismcts:iterations=60,playout=heuristic,depth=40,prior=3"
HARD_2P = {"persia": INFORMED, "sparta": INFORMED_SPARTA}


def levels(players: int, seat: str) -> dict[str, str]:
    """easy, normal and hard for `seat` of a table of `players`."""
    hard = HARD_2P.get(seat, NORMAL) if players == 2 else NORMAL
    return {"easy": EASY, "normal": NORMAL, "hard": hard}
