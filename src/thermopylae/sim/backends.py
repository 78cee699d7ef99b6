"""Where batches of games run: a local process pool, or a Ray cluster.

Work is cut into picklable jobs (a chunk of game indices each); `run_jobs` returns their
results in job order, whatever the backend, so a run's results depend only on its seed.

The process pool's workers are started once per run (or once for several runs, with
`process_pool`). On Linux, when this process runs no other Python thread, N workers are
this process and N-1 children forked from it (`forkpool.ForkPool`: milliseconds, no
imports, every process claiming the next job as it becomes free); otherwise (threads,
macOS, Windows) they are N spawned processes of a `ProcessPoolExecutor`, each importing
the package again (about half a second), while this one waits. Every worker adopts the
games registered at run time (`registry.adopt`), whichever way it was started. The pool
is shut down and its workers reaped before `run_jobs` (or the `process_pool` block)
returns, on errors too: no process is left behind.

Ray is optional (`pip install 'thermopylae[ray]'`) and imported only when the ray backend
is asked for. Without an address a local Ray is started once per process, with its temp
folder under the system temp dir (removed again by `shutdown_ray`, which also runs at
exit), no dashboard, no usage stats and no token written to the home folder; with an
address the process connects to that cluster, whose nodes must have thermopylae installed.
"""

from __future__ import annotations

import atexit
import importlib
import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar, Union

from thermopylae.engine import registry
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.sim.forkpool import ForkPool

if TYPE_CHECKING:  # imported when spawned workers are needed: ~10 ms of start-up otherwise
    from concurrent.futures import ProcessPoolExecutor

J = TypeVar("J")
R = TypeVar("R")
Progress = Callable[[int], None]
BACKENDS = ("process", "ray")
Pool = Union[ForkPool, "ProcessPoolExecutor"]
"""What `process_pool` opens: forked workers that include this process, or spawned ones."""

RAY_INSTALL_HINT = "pip install 'thermopylae[ray]'"
_LOCAL = "local"  # what `start_ray` records for a local Ray it started
_CONNECT_TIMEOUT = 5.0  # seconds to reach a cluster's address before Ray is asked to connect


def run_jobs(
    fn: Callable[[J], R],
    jobs: Sequence[J],
    *,
    workers: int = 1,
    backend: str = "process",
    address: str | None = None,
    progress: Callable[[J], None] | None = None,
    pool: Pool | None = None,
) -> list[R]:
    """`fn(job)` for every job, in parallel; `progress(job)` as each one finishes. `pool`:
    a pool from `process_pool` to run the jobs on (the process backend; `workers` is then
    the pool's), instead of one started and shut down for this call."""
    if backend not in BACKENDS:
        raise ThermopylaeError(f"unknown backend {backend!r}; backends: {', '.join(BACKENDS)}")
    if backend == "ray":
        return _ray(fn, jobs, address, progress)
    if address is not None:
        raise ThermopylaeError("--address is for the ray backend")
    results: list[Any] = [None] * len(jobs)
    if pool is None and (workers <= 1 or len(jobs) <= 1):
        for i, job in enumerate(jobs):
            results[i] = fn(job)
            if progress:
                progress(job)
        return results
    with _pool_or(pool, workers) as running:
        if isinstance(running, ForkPool):
            return running.run(fn, jobs, progress)
        from concurrent.futures import as_completed

        games = registry.registrations()  # those registered since the pool started, too
        futures = {running.submit(_call, fn, job, games): i for i, job in enumerate(jobs)}
        try:
            for future in as_completed(futures):
                i = futures[future]
                results[i] = future.result()
                if progress:
                    progress(jobs[i])
        except BaseException:
            for future in futures:
                future.cancel()
            raise
    return results


def start_method() -> str:
    """How the process pool starts its workers in this process now: `fork` on Linux when
    no other Python thread runs (a thread holding a lock while the process forks would
    leave that lock held forever in the child; the workers start none of their own),
    `spawn` otherwise."""
    if sys.platform == "linux" and threading.active_count() == 1:
        return "fork"
    return "spawn"


def _ready() -> int:
    return os.getpid()


@contextmanager
def process_pool(workers: int) -> Iterator[Pool]:
    """A pool of `workers` processes, all started before the block runs (forked if
    `start_method` allows it then: open the pool before starting a thread, such as a
    progress bar's), shut down and reaped when it ends. Forked, this process is one of
    the workers (`ForkPool`), and the children find the objects they inherit frozen
    (`gc.freeze`): their collections pass them by instead of writing to, and so copying,
    every page of the parent's heap (~3% of a run's CPU)."""
    if start_method() == "fork":
        with ForkPool(workers) as forked:
            yield forked
        return
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    # (no initializer: each job adopts the games registered at run time, `_call`)
    pool = ProcessPoolExecutor(max(1, workers), mp_context=get_context("spawn"))
    try:
        pool.submit(_ready).result()  # starts a worker now
        yield pool
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


@contextmanager
def _pool_or(pool: Pool | None, workers: int) -> Iterator[Pool]:
    """`pool` as it is (its owner shuts it down), or a new one for this call."""
    if pool is not None:
        yield pool
        return
    with process_pool(workers) as new:
        yield new


# --- Ray ---------------------------------------------------------------------------------

_lock = threading.RLock()
_started: str | None = None  # _LOCAL or the address this module connected Ray to
_temp_dir: str | None = None  # the local Ray's temp folder, removed at shutdown
_atexit_registered = False
_task: Any = None  # `_call` as a Ray remote function, made at the first run


def _import_ray() -> Any:
    """The `ray` module, or a ThermopylaeError telling how to install it. (Typed `Any`:
    Ray has no complete type stubs.)"""
    try:
        return importlib.import_module("ray")
    except ImportError as exc:
        raise ThermopylaeError(
            f"the ray backend needs Ray, which is not installed: {RAY_INSTALL_HINT}"
        ) from exc


def _check_reachable(address: str) -> None:
    """Fail fast, with a clear message, on an address nothing answers at: Ray itself would
    retry for many minutes, printing warnings."""
    if address == "auto":  # Ray looks for a cluster started on this machine by `ray start`
        return
    hostport = address.removeprefix("ray://")
    host, sep, port = hostport.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit():
        raise ThermopylaeError(
            f"bad Ray address {address!r}: expected HOST:PORT (the address `ray start --head` "
            "prints, e.g. 10.0.0.5:6379), ray://HOST:PORT or auto"
        )
    import socket

    try:
        with socket.create_connection((host, int(port)), timeout=_CONNECT_TIMEOUT):
            pass
    except OSError as exc:
        raise ThermopylaeError(
            f"no Ray cluster answers at {address!r} ({exc}); start one with "
            "`ray start --head` and pass the address it prints, or leave out the address "
            "to start a local Ray"
        ) from exc


def start_ray(address: str | None = None, num_cpus: int | None = None) -> Any:
    """Connect this process to Ray and return the `ray` module: to the cluster at `address`,
    or to a local Ray started here with `num_cpus` CPUs (default: one per core). An existing
    connection to the same place is reused, as is a Ray that the caller initialised
    itself; one that this module made to another place is closed first."""
    global _started, _temp_dir, _atexit_registered
    ray = _import_ray()
    target = _LOCAL if address in (None, _LOCAL) else str(address)
    if target != _LOCAL:
        _check_reachable(target)
    with _lock:
        if ray.is_initialized():
            if _started is None or _started == target:
                return ray
            shutdown_ray()
        if not _atexit_registered:
            atexit.register(shutdown_ray)
            _atexit_registered = True
        try:
            if target == _LOCAL:
                os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
                os.environ.setdefault("RAY_AUTH_MODE", "disabled")  # else a token in ~/.ray
                import tempfile

                _temp_dir = tempfile.mkdtemp(prefix="thermopylae-ray-", dir=_temp_root())
                ray.init(
                    address=_LOCAL,
                    num_cpus=num_cpus or os.cpu_count() or 1,
                    include_dashboard=False,
                    log_to_driver=False,
                    logging_level="WARNING",
                    object_store_memory=200 * 1024**2,
                    _temp_dir=_temp_dir,
                )
            else:
                ray.init(address=target, log_to_driver=False, logging_level="WARNING")
        except Exception as exc:
            _remove_temp_dir()
            where = "start a local Ray" if target == _LOCAL else f"connect to Ray at {target!r}"
            raise ThermopylaeError(f"could not {where}: {exc}") from exc
        _started = target
        return ray


def _temp_root() -> str:
    """The system temp dir, or /tmp when that is too long for the Unix sockets that Ray
    makes under it (`<root>/thermopylae-ray-XXXXXXXX/session_<date>_<pid>/sockets/raylet`:
    at most 103 bytes on macOS, 107 on Linux)."""
    import tempfile

    root = tempfile.gettempdir()
    limit = 103 if sys.platform == "darwin" else 107
    if sys.platform != "win32" and len(root.encode()) + 89 > limit and os.path.isdir("/tmp"):
        return "/tmp"
    return root


def shutdown_ray() -> None:
    """Shut down the Ray this module started or connected to (no-op otherwise) and remove
    a local Ray's temp folder. Tests call it in their teardown; it also runs at exit."""
    global _started
    with _lock:
        ray = sys.modules.get("ray")
        if _started is not None and ray is not None and ray.is_initialized():
            ray.shutdown()
        _started = None
        _remove_temp_dir()


def _remove_temp_dir() -> None:
    global _temp_dir
    if _temp_dir is not None:
        import shutil

        shutil.rmtree(_temp_dir, ignore_errors=True)
        _temp_dir = None


def _call(fn: Callable[[J], R], job: J, games: list[registry.Registration]) -> R:
    """What each Ray task (and each job of a spawned pool) runs: any picklable callable
    works, not only plain functions (`ray.remote` takes a class for an actor and refuses
    builtins); `games`, the games registered at run time in the process that asked."""
    registry.adopt(games)
    return fn(job)


def _ray(
    fn: Callable[[J], R],
    jobs: Sequence[J],
    address: str | None,
    progress: Callable[[J], None] | None,
) -> list[R]:
    """One Ray task per job, gathered in job order; `progress` as each one finishes."""
    ray = start_ray(address)
    results: list[Any] = [None] * len(jobs)
    if not jobs:
        return results
    global _task
    if _task is None:  # one remote function for the process: exported once per job
        _task = ray.remote(_call)
    task = _task
    games = registry.registrations()
    refs = [task.remote(fn, job, games) for job in jobs]
    index = {ref: i for i, ref in enumerate(refs)}
    pending = refs
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                i = index[ref]
                results[i] = ray.get(ref)
                if progress:
                    progress(jobs[i])
    except BaseException:
        for ref in pending:
            ray.cancel(ref)
        raise
    return results
