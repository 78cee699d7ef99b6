"""What a game's observer costs an observation, on positions in game order (issue 21,
item 3): the acting seat observed at every decision, as PettingZoo's `last()` does.

    .venv/bin/python bench/observer_cost.py GAME[:PLAYERS] [--games 20] [--rounds 5]
    .venv/bin/python bench/observer_cost.py GAME[:PLAYERS] --games N --live [--observe]

The first form records the positions of `--games` random games (copies, in order), then
times a new observer over them, `--rounds` times (each round a new observer, so caches
start empty as in a fresh environment), and prints µs an observation (median). The
second plays `--games` games live, one state changed in place as the environments do,
observing the acting seat at each decision only with `--observe`, the collector off:
under callgrind, the instructions with `--observe` minus those without, divided by the
decisions it prints, are the instructions an observation:

    PYTHONHASHSEED=0 OPENBLAS_NUM_THREADS=1 valgrind --tool=callgrind \\
        --callgrind-out-file=/dev/null .venv/bin/python bench/observer_cost.py \\
        hot-gates:2 --games 30 --live --observe     # then without --observe
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from typing import Any

from thermopylae.engine import registry
from thermopylae.engine.observation import StateObserver
from thermopylae.engine.play import stepper
from thermopylae.engine.protocol import GenericGame


def _observer(game: GenericGame, options: dict[str, Any]) -> StateObserver:
    """A new observer (not the game's shared one: its caches start empty), as each
    environment holds its own."""
    found = game.observer(options)
    if not isinstance(found, StateObserver):
        raise SystemExit(f"{game.id} has no state observer")
    return found.fresh()


def live(game: GenericGame, options: dict[str, Any], games: int, observe: bool) -> int:
    """Plays `games` random games on one state changed in place; observes the acting
    seat at each decision when `observe`. Returns the decisions."""
    gc.disable()
    rng, pick = random.Random(1), random.Random(2).random
    step, legal = stepper(game), game.legal
    features = _observer(game, options).state_features
    decisions = 0
    for _ in range(games):
        state = game.new(options)
        who = game.advance_chance(state, rng)
        while who is not None:
            if observe:
                features(state, who, who)
            acts = legal(state)
            who = step(state, acts[int(pick() * len(acts))], rng)
            decisions += 1
    return decisions


def record(game: GenericGame, options: dict[str, Any], games: int) -> list[tuple[Any, int]]:
    """The positions of `games` random games at each decision, copied, with the seat."""
    rng, pick = random.Random(1), random.Random(2).random
    step, legal = stepper(game), game.legal
    out: list[tuple[Any, int]] = []
    for _ in range(games):
        state = game.new(options)
        who = game.advance_chance(state, rng)
        while who is not None:
            out.append((state.copy(), who))
            acts = legal(state)
            who = step(state, acts[int(pick() * len(acts))], rng)
    return out


def timed(game: GenericGame, options: dict[str, Any], positions: list[tuple[Any, int]]) -> float:
    """µs an observation over `positions` in order, with a new observer."""
    features = _observer(game, options).state_features
    gc.disable()
    start = time.perf_counter()
    for state, who in positions:
        features(state, who, who)
    took = time.perf_counter() - start
    gc.enable()
    return took / len(positions) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("case", help="GAME or GAME:PLAYERS")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--live", action="store_true", help="play live (for callgrind)")
    parser.add_argument("--observe", action="store_true", help="with --live: observe")
    args = parser.parse_args()
    game_id, _, players = args.case.partition(":")
    game = registry.get(game_id)
    options = game.options({"players": int(players)} if players else {})
    if args.live:
        n = live(game, options, args.games, args.observe)
        print(f"{args.case}: {n} decisions in {args.games} games")
        return
    positions = record(game, options, args.games)
    times = [timed(game, options, positions) for _ in range(args.rounds)]
    print(
        f"{args.case}: {len(positions)} positions, {statistics.median(times):.2f} µs an "
        f"observation (median of {args.rounds}; {min(times):.2f}-{max(times):.2f})"
    )


if __name__ == "__main__":
    main()
