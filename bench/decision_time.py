"""CPU time an agent takes per decision, in one seat against the heuristic.

Plays whole games with AGENT in SEAT and the game's heuristic everywhere else (the
games of `thermopylae simulate --seed S`, through the same loop), and times (CPU of this
process, so other jobs do not count) every decision of AGENT that has a choice; prints
the mean and the largest. This is the "CPU a move" of the strength tables in docs/ai.md:

    .venv/bin/python bench/decision_time.py hot-gates persia \\
        ismcts:iterations=60,playout=heuristic,depth=40,prior=1 --games 2
    .venv/bin/python bench/decision_time.py earth-and-water persia rollout:samples=32,depth=40
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from thermopylae.ai.base import make_agent
from thermopylae.engine import registry
from thermopylae.sim.match import play, rngs


class Timed:
    """Wraps an agent and keeps the CPU time of each of its decisions with a choice."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.name = agent.name
        self.times: list[float] = []

    def act(self, game: Any, state: Any, rng: random.Random) -> Any:
        if len(game.legal(state)) == 1:
            return self.agent.act(game, state, rng)
        started = time.process_time()
        a = self.agent.act(game, state, rng)
        self.times.append(time.process_time() - started)
        return a


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", help="game id, e.g. hot-gates")
    ap.add_argument("seat", help="the timed agent's seat, e.g. persia")
    ap.add_argument("agent", help="the timed agent's spec")
    ap.add_argument("--games", type=int, default=1, help="games to play (default 1)")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1, help="the games of `simulate --seed`")
    args = ap.parse_args()
    game = registry.get(args.game)
    options = game.options({} if args.players is None else {"players": args.players})
    seats = list(game.seats(options))
    if args.seat not in seats:
        ap.error(f"seat {args.seat!r} is not one of {', '.join(seats)}")
    timed = Timed(make_agent(args.agent, game))
    for n in range(args.games):
        agents = [timed if seat == args.seat else game.agents()["heuristic"]() for seat in seats]
        state, _ = play(game, options, agents, *rngs(args.seed, n))
        outcome = game.outcome(state)
        assert outcome is not None  # `play` returns ended games
        print(f"game {n + 1}: {outcome.results}", flush=True)
    times = timed.times
    if not times:
        print("no decision with a choice was timed")
        return
    print(
        f"{args.agent} as {args.seat}: {len(times)} decisions, CPU per decision "
        f"mean {sum(times) / len(times):.3f} s, largest {max(times):.3f} s"
    )


if __name__ == "__main__":
    main()
