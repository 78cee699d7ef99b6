"""OpenSpiel's own IS-MCTS bot against thermopylae's ISMCTS agent on Earth and Water.

    python examples/openspiel_ismcts.py --games 2 --simulations 100 --iterations 100

Needs the `rl` extra (`pip install thermopylae[rl]`, which brings `open-spiel`). The two
bots swap sides each game; chance is drawn from OpenSpiel's `chance_outcomes`.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from thermopylae.ai.ismcts import ISMCTS
from thermopylae.interop import openspiel


def play(game, seat_of_openspiel: int, simulations: int, iterations: int, seed: int) -> list[float]:
    """One game; returns the scores per seat."""
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=simulations, random_state=rng
    )
    ours = ISMCTS(iterations=iterations)
    our_rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        elif state.current_player() == seat_of_openspiel:
            state.apply_action(bot.step(state))
        else:
            action = ours.act(state.tgame, state.tstate, our_rng)
            state.apply_action(state.tgame.encode(action))
    return list(state.returns())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument(
        "--simulations", type=int, default=100, help="OpenSpiel IS-MCTS simulations per move"
    )
    parser.add_argument(
        "--iterations", type=int, default=100, help="thermopylae ISMCTS iterations per move"
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    game = openspiel.load("earth-and-water")
    seats = game.tgame.seats(game.options)
    totals = {"openspiel": 0.0, "thermopylae": 0.0}
    for i in range(args.games):
        os_seat = i % 2
        start = time.perf_counter()
        scores = play(game, os_seat, args.simulations, args.iterations, args.seed + i)
        totals["openspiel"] += scores[os_seat]
        totals["thermopylae"] += scores[1 - os_seat]
        print(
            f"game {i + 1}: openspiel IS-MCTS as {seats[os_seat]}, thermopylae ISMCTS as "
            f"{seats[1 - os_seat]}: scores {scores} ({time.perf_counter() - start:.1f} s)"
        )
    print(
        f"total over {args.games} game(s): openspiel {totals['openspiel']:g}, "
        f"thermopylae {totals['thermopylae']:g}"
    )


if __name__ == "__main__":
    main()
