"""Where batches of games run: a local process pool, or a Ray cluster.

Work is cut into picklable jobs (a chunk of game indices each); `run_jobs` returns their
results in job order, whatever the backend, so a run's results depend only on its seed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from typing import Any, TypeVar

from thermopylae.engine.errors import ThermopylaeError

J = TypeVar("J")
R = TypeVar("R")
Progress = Callable[[int], None]
BACKENDS = ("process", "ray")


def run_jobs(fn: Callable[[J], R], jobs: Sequence[J], *, workers: int = 1,
             backend: str = "process", address: str | None = None,
             progress: Callable[[J], None] | None = None) -> list[R]:
    """`fn(job)` for every job, in parallel; `progress(job)` as each one finishes."""
    if backend not in BACKENDS:
        raise ThermopylaeError(f"unknown backend {backend!r}; backends: {', '.join(BACKENDS)}")
    if backend == "ray":
        return _ray(fn, jobs, address, progress)
    if address is not None:
        raise ThermopylaeError("--address is for the ray backend")
    results: list[Any] = [None] * len(jobs)
    if workers <= 1:
        for i, job in enumerate(jobs):
            results[i] = fn(job)
            if progress:
                progress(job)
        return results
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
        futures = {pool.submit(fn, job): i for i, job in enumerate(jobs)}
        for future in as_completed(futures):
            i = futures[future]
            results[i] = future.result()
            if progress:
                progress(jobs[i])
    return results


def _ray(fn: Callable[[J], R], jobs: Sequence[J], address: str | None,
         progress: Callable[[J], None] | None) -> list[R]:
    raise ThermopylaeError("the ray backend is not available yet")
