"""Many games with the same agents: win rates with confidence intervals, on a process pool.

Games are split into chunks; each game's random sources depend only on the run's seed and
the game's index (`match.rngs`), so the results do not depend on the number of workers.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from thermopylae.ai.base import make_agent
from thermopylae.engine import registry
from thermopylae.sim.match import play_indexed
from thermopylae.sim.stats import wilson

Progress = Callable[[int], None]


@dataclass
class Summary:
    game: str
    agent: str
    options: dict[str, Any]
    seed: int
    workers: int
    games: int
    wins: int
    win_rate: float
    ci95: tuple[float, float]
    mean_turns: float
    games_per_second: float
    seconds: float
    reasons: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["ci95"] = list(self.ci95)
        return data


@dataclass(frozen=True)
class _Job:
    game: str
    components: str | None
    options: dict[str, Any]
    agent: str
    seed: int
    start: int
    stop: int


def _run_chunk(job: _Job) -> list[tuple[int, bool, int, str]]:
    game = registry.get(job.game, Path(job.components) if job.components else None)
    seats = len(game.seats(job.options))
    agents = [make_agent(job.agent, game) for _ in range(seats)]
    out = []
    for i in range(job.start, job.stop):
        r = play_indexed(game, job.options, agents, job.seed, i)
        out.append((i, r.outcome.results[0] == "win", r.outcome.turns, r.outcome.reason))
    return out


def simulate(game_id: str, agent: str, games: int, options: dict[str, Any], seed: int = 0,
             workers: int | None = None, components: Path | None = None,
             progress: Progress | None = None) -> Summary:
    """Play `games` games with `agent` on every seat; `progress(n)` is told of each chunk."""
    game = registry.get(game_id, components)
    options = game.options(options)
    make_agent(agent, game)  # fail fast on a bad name, before any worker starts
    workers = max(1, workers or os.cpu_count() or 1)
    chunk = max(1, min(200, games // (workers * 8) or 1))
    jobs = [_Job(game_id, str(components) if components else None, options, agent, seed,
                 start, min(games, start + chunk)) for start in range(0, games, chunk)]
    started = time.perf_counter()
    rows: list[tuple[int, bool, int, str]] = []
    if workers == 1:
        for job in jobs:
            rows += _run_chunk(job)
            if progress:
                progress(job.stop - job.start)
    else:
        with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
            futures = {pool.submit(_run_chunk, job): job for job in jobs}
            for future in as_completed(futures):
                rows += future.result()
                if progress:
                    job = futures[future]
                    progress(job.stop - job.start)
    seconds = time.perf_counter() - started
    wins = sum(r[1] for r in rows)
    return Summary(
        game=game_id, agent=agent, options=options, seed=seed, workers=workers,
        games=games, wins=wins, win_rate=wins / games if games else 0.0,
        ci95=wilson(wins, games),
        mean_turns=sum(r[2] for r in rows) / games if games else 0.0,
        games_per_second=games / seconds if seconds > 0 else 0.0, seconds=seconds,
        reasons=dict(Counter(r[3] for r in rows).most_common()),
    )
