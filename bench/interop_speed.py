"""Decisions per CPU second of the learning interfaces against the raw engine, in one run
(issue 21, item 3): the ratios are what carry between machines, not the absolute figures.

    .venv/bin/python bench/interop_speed.py [--seconds 1.0] [--rounds 5] [CASE ...]
        [--only pettingzoo,gymnasium,...] [--without-observation] [--games N]

A CASE is `GAME` or `GAME:PLAYERS` (default: every game at its fewest and most players).
Each round measures every loop of a case in turn (engine, PettingZoo, Gymnasium,
OpenSpiel, then the batched environment where the game has an observer), each for
`--seconds` of wall time, counting the CPU time of this process (`time.process_time`,
read at the start and the end only: it costs ~12 µs a call here, too much to read once a
game; CPU time, so other processes on the machine slow the figures less); the table
shows the medians over the rounds and, for each interface, the median of its ratios to
the engine measured in the same round.

What each loop does, every seat choosing uniformly at random among the legal actions:

* engine: the game protocol alone (`to_act`, `legal`, `sample_chance`, `apply`), no
  observation: the raw engine's decisions/s;
* pettingzoo: `env.last()` (the acting seat's observation and mask) then `env.step` with
  an action drawn from the mask, every seat through the environment;
* gymnasium: seat 0 through `reset`/`step` (observation and `info["action_mask"]` each
  step, the action drawn from the mask), the other seats played by
  `opponent="random"` inside the environment;
* openspiel: `chance_outcomes()` and a draw at chance nodes; `legal_actions()`, the
  acting player's `observation_tensor` and a draw at decisions;
* vector: `thermopylae.interop.vector` with 16 games at once (seat 0 learning, the
  others played by `opponent="random"`, as the Gymnasium loop), actions drawn from the
  masks.

A decision is one seat choosing an action (chance is not counted): every loop counts all
the decisions of its games, including, for Gymnasium, those of the opponents it plays
inside `step` (so its decisions/s is its games/s times the decisions per game, as for the
others). Random play gives every loop the same distribution of games.

What is charged to an interface beyond its own work: the random policy's draw from the
mask (about 1 µs a decision; the engine loop draws from the legal list, about 0.2 µs),
the counting wrapper around Gymnasium's and the vector's opponents (one call a
decision), and OpenSpiel's draw from `chance_outcomes()` (a walk along the list, where
the engine samples with the game's own `sample_chance`): these are what any user of the
interface pays too, except the counting wrapper.

`--games N` times nothing: each loop named in `--only` plays exactly N games (the
vector: N steps of its games) with the garbage collector off and prints its decisions,
for instruction counts under callgrind (see `count`).
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from thermopylae.engine import registry
from thermopylae.engine.protocol import CHANCE, GenericGame

Loop = Callable[[float, int], tuple[int, float]]
"""`run(seconds, games)`: plays for about `seconds` of wall time, or exactly `games` games
when it is above 0 (the vector: `games` steps of its games); returns (decisions, CPU
seconds)."""


def _more(seconds: float, games: int) -> Callable[[], bool]:
    """Asked before each game: whether to play another (`games` games if above 0, else
    until `seconds` of wall time have passed)."""
    if games > 0:
        left = iter(range(games))
        return lambda: next(left, -1) >= 0
    until = time.perf_counter() + seconds
    return lambda: time.perf_counter() < until


def engine_loop(game: GenericGame, options: dict[str, Any], seed: int) -> Loop:
    rng = random.Random(seed)

    def run(seconds: float, games: int = 0) -> tuple[int, float]:
        to_act, legal, apply, sample = game.to_act, game.legal, game.apply, game.sample_chance
        rand = rng.random
        decisions = 0
        start, more = time.process_time(), _more(seconds, games)
        while more():
            state = game.new(options)
            while (seat := to_act(state)) is not None:
                if seat == CHANCE:
                    apply(state, sample(state, rng), quiet=True)
                else:
                    acts = legal(state)
                    apply(state, acts[int(rand() * len(acts))], quiet=True)
                    decisions += 1
        return decisions, time.process_time() - start

    return run


def _pick(mask: np.ndarray[Any, Any], rand: Callable[[], float]) -> int:
    """A uniform draw among the mask's legal actions (the same distribution as the engine
    loop's draw from `legal`: no game gives two legal actions one code). The mask's own
    `nonzero` (about 1 µs here), not `np.flatnonzero`, which costs twice as much through
    its Python wrappers: this is the random policy's cost, charged to the interface."""
    legal = mask.nonzero()[0]
    return int(legal[int(rand() * len(legal))])


def pettingzoo_loop(game: GenericGame, options: dict[str, Any], seed: int) -> Loop:
    from thermopylae.interop.pettingzoo import env as make_env

    env = make_env(game.id, **options)
    env.reset(seed=seed)  # seeded once, as training does: later resets go on from there
    rng = random.Random(seed)

    def run(seconds: float, games: int = 0) -> tuple[int, float]:
        rand = rng.random
        decisions = 0
        start, more = time.process_time(), _more(seconds, games)
        while more():
            env.reset()
            for _agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                else:
                    env.step(_pick(obs["action_mask"], rand))
                    decisions += 1
        return decisions, time.process_time() - start

    return run


class _Counting:
    """The random agent, counting its decisions."""

    def __init__(self) -> None:
        from thermopylae.ai.base import RandomAgent

        self.inner = RandomAgent()
        self.count = 0

    def act(self, game: GenericGame, state: Any, rng: random.Random) -> Any:
        self.count += 1
        return self.inner.act(game, state, rng)


def gymnasium_loop(game: GenericGame, options: dict[str, Any], seed: int) -> Loop:
    from thermopylae.interop.gymnasium import ThermopylaeEnv

    opponent = _Counting()
    env = ThermopylaeEnv(game.id, seat=0, opponent=opponent, **options)
    env.reset(seed=seed)  # seeded once, as training does: later resets go on from there
    rng = random.Random(seed)

    def run(seconds: float, games: int = 0) -> tuple[int, float]:
        rand = rng.random
        decisions = 0
        opponent.count = 0
        start, more = time.process_time(), _more(seconds, games)
        while more():
            _, info = env.reset()
            done = False
            while not done:
                _, _, term, trunc, info = env.step(_pick(info["action_mask"], rand))
                decisions += 1
                done = term or trunc
        return decisions + opponent.count, time.process_time() - start

    return run


def openspiel_loop(game: GenericGame, options: dict[str, Any], seed: int) -> Loop:
    from thermopylae.interop import openspiel

    sgame = openspiel.load(game.id, options.get("players"))
    rng = random.Random(seed)

    def run(seconds: float, games: int = 0) -> tuple[int, float]:
        rand = rng.random
        decisions = 0
        start, more = time.process_time(), _more(seconds, games)
        while more():
            state = sgame.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    r = rand()
                    pick = outcomes[-1][0]
                    for code, p in outcomes:
                        r -= p
                        if r < 0:
                            pick = code
                            break
                    state.apply_action(pick)
                else:
                    player = state.current_player()
                    state.observation_tensor(player)
                    legal = state.legal_actions()
                    state.apply_action(legal[int(rand() * len(legal))])
                    decisions += 1
        return decisions, time.process_time() - start

    return run


def vector_loop(game: GenericGame, options: dict[str, Any], seed: int) -> Loop:
    from thermopylae.interop.vector import ThermopylaeVectorEnv

    n = 16
    counter = _Counting()
    env = ThermopylaeVectorEnv(game.id, n, opponent=counter, **options)
    rand = random.Random(seed).random
    _, info = env.reset(seed=seed)
    over = np.zeros(n, dtype=bool)  # the games that auto-reset at the next step

    def run(seconds: float, games: int = 0) -> tuple[int, float]:
        nonlocal info, over
        decisions = 0
        counter.count = 0
        start, more = time.process_time(), _more(seconds, games)
        while more():
            # a uniform draw among each row's legal actions, as the other loops draw
            # (a game that ended has no legal action: its next step resets it, whatever
            # the action)
            actions = [_pick(row, rand) if row.any() else 0 for row in info["action_mask"]]
            decisions += n - int(over.sum())  # a resetting game's action is no decision
            _, _, term, trunc, info = env.step(actions)
            over = term | trunc
        return decisions + counter.count, time.process_time() - start

    return run


LOOPS: dict[str, Callable[[GenericGame, dict[str, Any], int], Loop]] = {
    "engine": engine_loop,
    "pettingzoo": pettingzoo_loop,
    "gymnasium": gymnasium_loop,
    "openspiel": openspiel_loop,
    "vector": vector_loop,
}


def _constant_observations() -> None:
    """Every interface's observation replaced by one constant array of its size (a
    diagnosis, `--without-observation`: the cost of everything else)."""
    from thermopylae.interop.observe import Encoder

    made: dict[int, Any] = {}

    def constant(self: Encoder, state: Any, seat: int, who: int | None) -> Any:
        found = made.get(self.size)
        if found is None:
            found = made[self.size] = np.zeros(self.size, dtype=np.float32)
        return found

    Encoder.observation_at = constant  # type: ignore[method-assign]
    built = Encoder.__init__

    def init(self: Encoder, *args: Any, **kwargs: Any) -> None:
        built(self, *args, **kwargs)
        # what the environments call for their observations (`Encoder.features`)
        self.features = lambda state, seat, who: constant(self, state, seat, who)

    Encoder.__init__ = init  # type: ignore[method-assign]


def cases(asked: list[str]) -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    if not asked:
        for game_id in registry.game_ids():
            g = registry.get(game_id)
            counts = sorted({int(g.min_players), int(g.max_players)})
            for n in counts:
                out.append((game_id, {} if len(counts) == 1 else {"players": n}))
        return out
    for text in asked:
        game_id, _, players = text.partition(":")
        out.append((game_id, {"players": int(players)} if players else {}))
    return out


def count(asked: list[str], names: list[str], games: int) -> None:
    """Each loop of `names` (every loop if empty) plays `games` games of each case, with
    the garbage collector off (its passes vary from run to run); prints the decisions.
    Under `valgrind --tool=callgrind`, the instructions of a run with fewer games taken
    from those of a run with more, divided by the difference in decisions, give the
    instructions a decision (start-up and warm-up cancel):

        PYTHONHASHSEED=0 OPENBLAS_NUM_THREADS=1 valgrind --tool=callgrind \\
            --callgrind-out-file=/dev/null .venv/bin/python bench/interop_speed.py \\
            hot-gates:2 --only pettingzoo --games 60    # then --games 20
    """
    gc.disable()
    for game_id, options in cases(asked):
        game = registry.get(game_id)
        players = len(game.seats(game.options(options)))
        for name in names or list(LOOPS):
            decisions, _ = LOOPS[name](game, options, 1000)(0.0, games)
            print(f"{game_id} {players}p {name}: {decisions} decisions in {games} games")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*", help="GAME or GAME:PLAYERS")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per figure")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds per case")
    parser.add_argument("--only", default="", help="comma-separated loops (default: all)")
    parser.add_argument(
        "--without-observation",
        action="store_true",
        help="a constant array for every observation: what the interfaces cost besides it",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=0,
        help="play exactly this many games with each loop of --only (no engine unless "
        "named), the collector off, and print the decisions: for instruction counts",
    )
    args = parser.parse_args()
    if args.without_observation:
        _constant_observations()
    if args.games > 0:
        count(args.cases, [n for n in args.only.split(",") if n], args.games)
        return
    names = [n for n in LOOPS if not args.only or n in args.only.split(",") or n == "engine"]
    rows: list[str] = []
    header = "| case | " + " | ".join(
        "engine decisions/s" if n == "engine" else f"{n} decisions/s (ratio)" for n in names
    )
    for game_id, options in cases(args.cases):
        game = registry.get(game_id)
        opts = game.options(options)
        players = len(game.seats(opts))
        label = f"{game_id} {players}p"
        loops: dict[str, Loop] = {}
        for i, name in enumerate(names):
            if name == "vector" and game.observer(opts) is None:
                continue
            try:
                loops[name] = LOOPS[name](game, options, 1000 + i)
            except ImportError as e:  # an interface whose library is not installed
                print(f"{label}: {name} skipped ({e})")
        rates: dict[str, list[float]] = {n: [] for n in loops}
        ratios: dict[str, list[float]] = {n: [] for n in loops}
        for _ in range(args.rounds):
            this: dict[str, float] = {}
            for name, loop in loops.items():
                decisions, cpu = loop(args.seconds, 0)
                this[name] = decisions / cpu
                rates[name].append(this[name])
            for name in loops:
                ratios[name].append(this[name] / this["engine"])
        cells = []
        for name in names:
            if name not in loops:
                cells.append("—")
            elif name == "engine":
                cells.append(f"{statistics.median(rates[name]):,.0f}")
            else:
                r = statistics.median(ratios[name])
                cells.append(f"{statistics.median(rates[name]):,.0f} ({r:.2f} = 1/{1 / r:.1f})")
        rows.append(f"| {label} | " + " | ".join(cells) + " |")
        print(rows[-1], flush=True)
    print()
    print(header + " |")
    print("|---" * (len(names) + 1) + "|")
    for row in rows:
        print(row)


if __name__ == "__main__":
    main()
