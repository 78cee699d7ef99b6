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
from typing import TYPE_CHECKING, Any

from thermopylae.ai.base import make_agent, seat_agents
from thermopylae.engine import registry
from thermopylae.engine.protocol import BatchCounts, BatchSimulator, GenericGame
from thermopylae.sim.backends import run_jobs
from thermopylae.sim.match import play_indexed
from thermopylae.sim.stats import wilson

if TYPE_CHECKING:  # imported where games are written (--out): a run without needs none
    from thermopylae.sim.backends import Pool
    from thermopylae.sim.gamelog import GameRow

Progress = Callable[[int], None]
CHUNK = 500
"""The most games in one job on the process pool: larger chunks cost the parent less (a
chunk's games come back as a few ints each, `_Part`), smaller ones tell the progress bar
more often; the chunks shrink towards the end of a run (`spans`)."""
LAST = 20
"""The fewest games in one job on the process pool (but for a run's very last), unless
the run is short (of costly games, maybe): then as few as one, 8 jobs a worker."""


def spans(
    games: int, workers: int, largest: int = CHUNK, smallest: int = LAST, parts: int = 4
) -> list[range]:
    """The run's games cut into chunks that shrink towards its end (guided scheduling):
    each 1/`parts` of a worker's share of the games left, within [smallest, largest], so
    the worker that takes the last one finishes soon after the others."""
    chunks = []
    start = 0
    while start < games:
        left = games - start
        size = max(1, min(largest, left, max(smallest, left // (workers * parts))))
        chunks.append(range(start, start + size))
        start += size
    return chunks


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
    engine: str = "python"  # or "fast": the game's compiled kernel (`simulate_batch`)

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


Shape = tuple[tuple[str, ...], tuple[float, ...], str]
"""A game's results, scores and reason: few distinct ones in a run."""


@dataclass(frozen=True)
class _Part:
    """One chunk's games as a worker sends them back, column by column (a few ints a game
    to pickle, where a row object costs ten times as much): each game's `shapes` index
    into the chunk's distinct outcomes, its turns and steps, its record digest."""

    start: int
    shapes: tuple[Shape, ...]
    kinds: list[int]
    turns: list[int]
    steps: list[int]
    digests: list[str | None] | None = None  # None: no game recorded

    def rows(self) -> list[GameRow]:
        from thermopylae.sim.gamelog import GameRow

        digests = self.digests or [None] * len(self.kinds)
        return [
            GameRow(self.start + i, *self.shapes[k], t, n, d)
            for i, (k, t, n, d) in enumerate(
                zip(self.kinds, self.turns, self.steps, digests, strict=True)
            )
        ]


def _run_chunk(job: _Job) -> _Part:
    game = registry.get(job.game, Path(job.components) if job.components else None)
    agents = [make_agent(spec, game) for spec in job.agents]
    index: dict[Shape, int] = {}
    kinds, turns, steps, digests = [], [], [], []
    for i in range(job.start, job.stop):
        r = play_indexed(game, job.options, agents, job.seed, i, job.record)
        o = r.outcome
        kinds.append(index.setdefault((o.results, o.scores, o.reason), len(index)))
        turns.append(o.turns)
        steps.append(r.steps)
        digests.append(r.digest)
    return _Part(job.start, tuple(index), kinds, turns, steps, digests if job.record else None)


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
    pool: Pool | None = None,
) -> Summary:
    """Play `games` games; `agent` is one spec for every seat or `SEAT=AGENT,...`;
    `progress(n)` is told of each finished chunk; `out` gets one JSON line per game
    (`gamelog.line`); `pool`: the process pool to play on (`backends.process_pool`), else
    one is started for this run when `workers` > 1."""
    game = registry.get(game_id, components)
    options = game.options(options)
    seats = tuple(game.seats(options))
    specs = tuple(seat_agents(agent, seats))
    for spec in specs:
        make_agent(spec, game)  # fail fast on a bad name, before any worker starts
    workers = max(1, workers or os.cpu_count() or 1)
    if backend == "ray":  # few large tasks, each costing Ray a few milliseconds
        from thermopylae.sim.backends import start_ray

        cpus = int(start_ray(address).cluster_resources().get("CPU", 1))
        chunks = spans(games, cpus, max(1, games // (2 * cpus)), max(1, games // (16 * cpus)), 1)
    else:
        chunks = spans(games, workers, smallest=min(LAST, games // (workers * 8)))
    where = str(components) if components else None
    jobs = [
        _Job(game_id, where, options, specs, seed, c.start, c.stop, out is not None) for c in chunks
    ]
    started = time.perf_counter()
    parts: list[_Part] = run_jobs(
        _run_chunk,
        jobs,
        workers=workers,
        backend=backend,
        address=address,
        progress=(lambda job: progress(job.stop - job.start)) if progress else None,
        pool=pool,
    )
    seconds = time.perf_counter() - started
    if out is not None:
        from thermopylae.sim import gamelog

        gamelog.write(
            out, (gamelog.line(game, options, specs, seed, r) for p in parts for r in p.rows())
        )
    n = games or 1
    counts: Counter[Shape] = Counter()  # in the order of each shape's first game
    turns = 0
    for p in parts:
        for k in p.kinds:
            counts[p.shapes[k]] += 1
        turns += sum(p.turns)
    per_seat = {
        seat: sum(c for (results, _, _), c in counts.items() if results[i] == "win")
        for i, seat in enumerate(seats)
    }
    draws = sum(c for (results, _, _), c in counts.items() if results[0] == "draw")
    reasons: Counter[str] = Counter()
    for (_, _, reason), c in counts.items():
        reasons[reason] += c
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
        mean_turns=turns / n,
        games_per_second=games / seconds if seconds > 0 else 0.0,
        seconds=seconds,
        reasons=dict(reasons.most_common()),
    )


FAST_BATCH = 100_000
"""Games per call of a compiled kernel in `simulate_batch`: the progress bar moves after each."""


@dataclass(frozen=True)
class _Batch:
    """Games `start` .. `start + games - 1` of a run on a compiled kernel."""

    batch: BatchSimulator
    seed: int
    specs: tuple[str, ...]
    start: int
    games: int


def _run_batch(job: _Batch) -> BatchCounts:
    return job.batch.run(job.games, job.seed, job.specs, job.start)


def simulate_batch(
    game: GenericGame,
    batch: BatchSimulator,
    agent: str,
    games: int,
    options: dict[str, Any],
    seed: int = 0,
    progress: Progress | None = None,
    workers: int = 1,
    pool: Pool | None = None,
) -> Summary:
    """`simulate` on the game's compiled kernel (`game.batch_simulator(options)`), in
    batches of `FAST_BATCH` games, on this process or on `workers` processes (`pool`, or
    one started for this run): the same game and agents, other random sources (the
    kernel's own, seeded by `seed` and each game's index, so the same counts with any
    workers), so other games than the Python engine's for the same seed, with the same
    win rates. Forked workers inherit the kernel compiled here: run it once first."""
    options = game.options(options)
    seats = tuple(game.seats(options))
    specs = tuple(seat_agents(agent, seats))
    jobs = [
        _Batch(batch, seed, specs, start, min(FAST_BATCH, games - start))
        for start in range(0, games, FAST_BATCH)
    ]
    started = time.perf_counter()
    parts: list[BatchCounts] = run_jobs(
        _run_batch,
        jobs,
        workers=workers,
        progress=(lambda job: progress(job.games)) if progress else None,
        pool=pool,
    )
    seconds = time.perf_counter() - started
    counts = sum(parts[1:], parts[0])
    n = games or 1
    wins: int | dict[str, int]
    if game.cooperative:
        wins = counts.wins[0]
        rate: float | dict[str, float] = wins / n
        ci: tuple[float, float] | dict[str, tuple[float, float]] = wilson(wins, games)
    else:
        wins = dict(zip(seats, counts.wins, strict=True))
        rate = {seat: w / n for seat, w in wins.items()}
        ci = {seat: wilson(w, games) for seat, w in wins.items()}
    return Summary(
        game=game.id,
        agents=dict(zip(seats, specs, strict=True)),
        options=options,
        seed=seed,
        workers=max(1, workers),
        games=games,
        wins=wins,
        draws=counts.draws,
        win_rate=rate,
        ci95=ci,
        mean_turns=counts.turns / n,
        games_per_second=games / seconds if seconds > 0 else 0.0,
        seconds=seconds,
        reasons=dict(Counter(counts.reasons).most_common()),
        engine="fast",
    )
