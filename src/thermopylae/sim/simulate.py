"""Many games with the same agents: win rates with confidence intervals, on a process pool.

Games are split into chunks; each game's random sources depend only on the run's seed and
the game's index (`match.rngs`), so the results do not depend on the number of workers.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from thermopylae.ai.base import make_agent, seat_agents
from thermopylae.engine import registry
from thermopylae.sim import gamelog
from thermopylae.sim.backends import run_jobs
from thermopylae.sim.gamelog import GameRow
from thermopylae.sim.match import play_indexed
from thermopylae.sim.stats import wilson

Progress = Callable[[int], None]


@dataclass
class Summary:
    """Results of a run. In a co-operative game (every seat shares one result) `wins`,
    `win_rate` and `ci95` are the team's; otherwise they are dicts by seat, and `draws`
    counts the drawn games."""

    game: str
    agents: dict[str, str]
    options: dict[str, Any]
    seed: int
    workers: int
    games: int
    wins: int | dict[str, int]
    draws: int
    win_rate: float | dict[str, float]
    ci95: tuple[float, float] | dict[str, tuple[float, float]]
    mean_turns: float
    games_per_second: float
    seconds: float
    reasons: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        if isinstance(self.ci95, dict):
            data["ci95"] = {k: list(v) for k, v in self.ci95.items()}
        else:
            data["ci95"] = list(self.ci95)
        return data


@dataclass(frozen=True)
class _Job:
    game: str
    components: str | None
    options: dict[str, Any]
    agents: tuple[str, ...]
    seed: int
    start: int
    stop: int
    record: bool = False  # digest each game's record (for --out)


def _run_chunk(job: _Job) -> list[GameRow]:
    game = registry.get(job.game, Path(job.components) if job.components else None)
    agents = [make_agent(spec, game) for spec in job.agents]
    return [
        GameRow.of(play_indexed(game, job.options, agents, job.seed, i, job.record))
        for i in range(job.start, job.stop)
    ]


def simulate(
    game_id: str,
    agent: str,
    games: int,
    options: dict[str, Any],
    seed: int = 0,
    workers: int | None = None,
    components: Path | None = None,
    progress: Progress | None = None,
    backend: str = "process",
    address: str | None = None,
    out: Path | None = None,
) -> Summary:
    """Play `games` games; `agent` is one spec for every seat or `SEAT=AGENT,...`;
    `progress(n)` is told of each finished chunk; `out` gets one JSON line per game
    (`gamelog.line`)."""
    game = registry.get(game_id, components)
    options = game.options(options)
    seats = tuple(game.seats(options))
    specs = tuple(seat_agents(agent, seats))
    for spec in specs:
        make_agent(spec, game)  # fail fast on a bad name, before any worker starts
    workers = max(1, workers or os.cpu_count() or 1)
    chunk = max(1, min(200, games // (workers * 8) or 1))
    jobs = [
        _Job(
            game_id,
            str(components) if components else None,
            options,
            specs,
            seed,
            start,
            min(games, start + chunk),
            out is not None,
        )
        for start in range(0, games, chunk)
    ]
    started = time.perf_counter()
    rows: list[GameRow] = []
    for part in run_jobs(
        _run_chunk,
        jobs,
        workers=workers,
        backend=backend,
        address=address,
        progress=(lambda job: progress(job.stop - job.start)) if progress else None,
    ):
        rows += part
    seconds = time.perf_counter() - started
    if out is not None:
        gamelog.write(out, (gamelog.line(game, options, specs, seed, r) for r in rows))
    n = games or 1
    per_seat = {seat: sum(r.results[i] == "win" for r in rows) for i, seat in enumerate(seats)}
    draws = sum(r.results[0] == "draw" for r in rows)
    shared = game.cooperative  # one team: every seat shares the result
    wins: int | dict[str, int]
    if shared:
        wins = per_seat[seats[0]]
        rate: float | dict[str, float] = wins / n
        ci: tuple[float, float] | dict[str, tuple[float, float]] = wilson(wins, games)
    else:
        wins = per_seat
        rate = {seat: w / n for seat, w in per_seat.items()}
        ci = {seat: wilson(w, games) for seat, w in per_seat.items()}
    return Summary(
        game=game_id,
        agents=dict(zip(seats, specs, strict=True)),
        options=options,
        seed=seed,
        workers=workers,
        games=games,
        wins=wins,
        draws=draws,
        win_rate=rate,
        ci95=ci,
        mean_turns=sum(r.turns for r in rows) / n,
        games_per_second=games / seconds if seconds > 0 else 0.0,
        seconds=seconds,
        reasons=dict(Counter(r.reason for r in rows).most_common()),
    )
