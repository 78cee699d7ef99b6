"""Win chance: how likely a seat is to win from a position, from its information only.

Every playout starts from `game.determinize(state, seat, rng)`, a deal of what the seat
cannot see drawn from what it could be (never the true hidden cards), and is played to
the end by one policy on every seat (`engine.play.play`). The estimate is the share of
playouts the seat wins (in a co-operative game, the team) with the standard error of
that mean, and the seat's mean score.

The default policy is the game's `heuristic` (where it has one; else `random`): the
`hard` agents of docs/ai.md are searches of 60 to 2,000 iterations per decision, so one
playout of them costs what hundreds of heuristic playouts cost, and an estimate of a few
hundred playouts would take minutes per position. Heuristic self-play is also what the
calibration bench (bench/calibration.py) measures against.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any

from thermopylae.ai.base import make_agent
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.play import play
from thermopylae.engine.protocol import Decider, GenericGame

MAX_BUDGET = 100_000
"""The most playouts one estimate may take (a bound against a mistyped budget)."""


@dataclass(frozen=True, slots=True)
class WinChance:
    """`win`: share of playouts won; `score`: mean score; `stderr`: standard error of
    `win`; `playouts`: how many were played."""

    win: float
    score: float
    stderr: float
    playouts: int

    def to_json(self) -> dict[str, Any]:
        return {
            "win": self.win,
            "score": self.score,
            "stderr": self.stderr,
            "playouts": self.playouts,
        }


def default_agent(game: GenericGame) -> str:
    """The playout policy used when none is asked for (see the module's docstring)."""
    return "heuristic" if "heuristic" in game.agents() else "random"


def check_budget(budget: Any) -> int:
    """A whole number of playouts in 1..MAX_BUDGET, or a clear error."""
    if isinstance(budget, bool) or not isinstance(budget, int) or not 1 <= budget <= MAX_BUDGET:
        raise ThermopylaeError(
            f"the budget must be a whole number of playouts from 1 to {MAX_BUDGET}, not {budget!r}"
        )
    return budget


def estimate_all(
    game: GenericGame,
    state: Any,
    seat: int,
    *,
    budget: int | None = None,
    seconds: float | None = None,
    agent: str | None = None,
    rng: random.Random,
) -> list[WinChance]:
    """Every seat's win chance as `seat` sees the position (one playout serves all seats).

    `budget` playouts, or as many as fit in `seconds` (at least one). `state` is left
    unchanged."""
    if seconds is None:
        runs = check_budget(100 if budget is None else budget)
    elif budget is not None:
        raise ThermopylaeError("give a budget in playouts or in seconds, not both")
    elif not (isinstance(seconds, int | float) and math.isfinite(seconds) and seconds > 0):
        raise ThermopylaeError(f"seconds must be a positive number, not {seconds!r}")
    else:
        runs = MAX_BUDGET
    players = 0
    spec = default_agent(game) if agent is None else agent
    policy: list[Decider] = []
    wins: list[float] = []
    scores: list[float] = []
    deadline = None if seconds is None else time.perf_counter() + seconds
    n = 0
    while n < runs and (deadline is None or n == 0 or time.perf_counter() < deadline):
        d = game.determinize(state, seat, rng)
        if game.outcome(d) is None:
            if not policy:
                policy = [make_agent(spec, game) for _ in range(game.max_players)]
            play(game, d, policy, rng, rng)
        outcome = game.outcome(d)
        assert outcome is not None, "a playout ends with an outcome"
        if not wins:
            players = len(outcome.results)
            wins, scores = [0.0] * players, [0.0] * players
        for p in range(players):
            wins[p] += outcome.results[p] == "win"
            scores[p] += outcome.scores[p]
        n += 1
    result = []
    for p in range(players):
        mean = wins[p] / n
        err = math.sqrt(mean * (1 - mean) / (n - 1)) if n > 1 else 0.0
        result.append(WinChance(mean, scores[p] / n, err, n))
    return result


def estimate(
    game: GenericGame,
    state: Any,
    seat: int,
    *,
    budget: int | None = None,
    seconds: float | None = None,
    agent: str | None = None,
    rng: random.Random,
) -> WinChance:
    """`seat`'s chance to win from `state`, from its information only (module docstring)."""
    return estimate_all(game, state, seat, budget=budget, seconds=seconds, agent=agent, rng=rng)[
        seat
    ]
