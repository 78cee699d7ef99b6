"""Policy rollout: the game's heuristic, improved by one step of look-ahead.

For each legal move, the agent plays the move and lets the heuristic play on (both sides,
as each seat of the deal would see it) for `depth` decisions, then scores the position
with the game's `evaluate` (or plays to the end where the game has none), and plays the
move with the best average. Two things make few samples enough:

- *common random numbers*: every move is tried on the same deals of the hidden cards and
  the same random stream for the dice, so the difference between two moves is measured on
  the same luck, and most of the luck cancels;
- the heuristic as the base policy: a rollout of a policy is, in expectation, at least as
  good as the policy itself (Bertsekas's rollout algorithm), so the agent starts from the
  heuristic and changes its move only where the samples say another is better. Ties go to
  the heuristic's move.

Like ISMCTS it sees the true state only through `determinize`, whose result depends on
the seat's view alone, and it weighs only the game's `sensible` moves (`playout.choices`);
if the heuristic's move is not among them, the samples alone decide.
"""

from __future__ import annotations

import random
import time
from typing import Any

from thermopylae.ai.params import check_parameters
from thermopylae.ai.playout import choices, play_out
from thermopylae.engine.protocol import GenericGame


class Rollout:
    """`rollout:samples=N` (deals per move) or `rollout:seconds=S`. The heuristic plays
    each game out to the end, or, with `depth=D`, for D decisions, and then the game's
    estimate scores the position (`depth=0`: the estimate right after the move; a game
    without an estimate plays to the end)."""

    name = "rollout"

    def __init__(
        self, samples: int = 16, seconds: float | None = None, depth: int | None = None, **rest: Any
    ) -> None:
        if rest:
            raise ValueError(
                f"unknown parameter(s) {sorted(rest)}; rollout takes samples, seconds and depth"
            )
        check_parameters(count=("samples", samples), seconds=seconds, depth=depth)
        self.samples = int(samples)
        self.seconds = None if seconds is None else float(seconds)
        self.depth = None if depth is None else int(depth)
        self.last_samples = 0
        self.cpu_limit: float | None = None  # set by a server: CPU seconds per decision

    def act(self, game: GenericGame, state: Any, rng: random.Random) -> Any:
        legal = list(choices(game)(state))
        if len(legal) == 1:
            return legal[0]
        make = game.agents().get("heuristic")
        if make is None:
            raise ValueError(f"rollout needs a heuristic, and {game.id} has none")
        policy = make()
        seat = game.to_act(state)
        assert seat is not None, "an agent is asked only where a seat decides"
        first = policy.act(game, state, rng)
        totals = [0.0] * len(legal)
        evaluate = game.evaluate
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        cap = None if self.cpu_limit is None else time.thread_time() + self.cpu_limit
        n = 0
        while (
            (n < self.samples) if deadline is None else (n == 0 or time.perf_counter() < deadline)
        ):
            deal = game.determinize(state, seat, rng)
            luck = rng.getrandbits(64)
            sample = [0.0] * len(legal)
            for i, a in enumerate(legal):
                if cap is not None and time.thread_time() >= cap:
                    break  # out of CPU time: this sample is incomplete and not counted
                d = game.copy(deal)
                game.apply(d, a, quiet=True)
                scores = play_out(game, d, random.Random(luck), policy, self.depth, evaluate)
                sample[i] = scores[seat]
            else:
                for i, score in enumerate(sample):
                    totals[i] += score
                n += 1
                continue
            break
        self.last_samples = n
        best = legal.index(first) if first in legal else 0
        for i, total in enumerate(totals):
            if total > totals[best]:
                best = i
        return legal[best]
