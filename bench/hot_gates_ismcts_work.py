"""A fixed number of ISMCTS iterations of 300: The Board Game at the first position
`bench/ismcts_rate.py` times (every 7th decision of a seeded random game, the first kept),
so that a before/after comparison can count instructions (callgrind) instead of timing a
loaded machine: run it with ITERATIONS and with 0, and take the difference.

    PYTHONPATH=OLD/src valgrind --tool=callgrind python bench/hot_gates_ismcts_work.py 2 200
"""

from __future__ import annotations

import random
import sys
from typing import Any

from thermopylae.ai.base import RandomAgent, make_agent
from thermopylae.ai.ismcts import ISMCTS
from thermopylae.engine import registry
from thermopylae.engine.play import play as play_state
from thermopylae.engine.protocol import CHANCE


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit("usage: hot_gates_ismcts_work.py PLAYERS ITERATIONS")
    game = registry.get("hot-gates")
    options = game.options({"players": int(sys.argv[1])})
    iterations = int(sys.argv[2])
    rng = random.Random(0)  # (as sim.bench.ismcts_compare chooses its positions)
    s = game.new(options)
    found: list[Any] = []
    step = 0

    def keep(seat: int, action: Any) -> None:
        nonlocal step
        if seat != CHANCE:
            if step % 7 == 0 and len(game.legal(s)) > 1 and not found:
                found.append(game.copy(s))
            step += 1

    play_state(game, s, [RandomAgent()] * game.max_players, rng, rng, keep)
    if iterations:
        agent = make_agent(f"ismcts:iterations={iterations}", game)
        assert isinstance(agent, ISMCTS)
        agent.act(game, found[0], rng)
        print(agent.last_iterations)


if __name__ == "__main__":
    main()
