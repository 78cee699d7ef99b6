"""CPU seconds of N games of one game and agent, played in this process: the figure a
before/after comparison runs in turn on two trees (docs/benchmarks.md, issue 17).

    PYTHONPATH=OLD/src python bench/games_cpu.py earth-and-water 1500 [AGENT [PLAYERS]]
"""

from __future__ import annotations

import sys
import time

from thermopylae.ai.base import make_agent
from thermopylae.engine import registry
from thermopylae.sim.match import play_indexed


def main() -> None:
    if len(sys.argv) not in (3, 4, 5):
        sys.exit(
            "usage: games_cpu.py GAME GAMES [AGENT [PLAYERS]]"
            "  (AGENT: random by default; PLAYERS: the game's default)"
        )
    game_id, games = sys.argv[1], int(sys.argv[2])
    spec = sys.argv[3] if len(sys.argv) > 3 else "random"
    game = registry.get(game_id)
    options = game.options({"players": int(sys.argv[4])} if len(sys.argv) > 4 else {})
    agents = [make_agent(spec, game) for _ in game.seats(options)]
    start = time.process_time()
    for i in range(games):
        play_indexed(game, options, agents, 1, i)
    print(time.process_time() - start)


if __name__ == "__main__":
    main()
