"""A fixed number of ISMCTS iterations of 300: The Board Game at the first position
`bench/ismcts_rate.py` times (every 7th decision of a seeded random game, the first kept),
so that a before/after comparison can count instructions (callgrind) instead of timing a
loaded machine: run it with ITERATIONS and with 0, and take the difference.

    PYTHONPATH=OLD/src valgrind --tool=callgrind python bench/hot_gates_ismcts_work.py 2 200
"""

from __future__ import annotations

import sys

from thermopylae.ai.base import make_agent
from thermopylae.ai.ismcts import ISMCTS
from thermopylae.engine import registry
from thermopylae.sim.bench import ismcts_positions


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit("usage: hot_gates_ismcts_work.py PLAYERS ITERATIONS")
    game = registry.get("hot-gates")
    options = game.options({"players": int(sys.argv[1])})
    iterations = int(sys.argv[2])
    chosen, rng = ismcts_positions(game, options, 1)  # the first of ismcts_rate's
    if iterations:
        agent = make_agent(f"ismcts:iterations={iterations}", game)
        assert isinstance(agent, ISMCTS)
        agent.act(game, chosen[0], rng)
        print(agent.last_iterations)


if __name__ == "__main__":
    main()
