"""The threads that run the tables' database calls, so that the event loop never waits for
the database: a call is queued, a thread runs it, and its outcome is handed back to the
loop.

Lighter than `asyncio.to_thread` (no context copy, no `concurrent.futures` future chained
to the loop's): on this project's virtual machines a hand-off is dear, so it should cost
no more than the thread's wake-up. With `group` (SQLite's one writer thread) the moves
queued while the thread was busy, most often in the disk's flush of the last commit, are
stored together: one transaction, one commit and one flush for all (`Store.append_group`),
each move ending as it would alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from typing import Any

from thermopylae.server.store import Caught, Store

GROUP_MOST = 64
"""Moves stored in one transaction at most (a commit does not wait for a long queue)."""


class _Job:
    __slots__ = ("args", "fn", "future", "loop")

    def __init__(
        self,
        fn: Callable[..., Any] | None,
        args: tuple[Any, ...],
        loop: asyncio.AbstractEventLoop,
        future: asyncio.Future[Any],
    ) -> None:
        self.fn = fn  # None: a Store.append of `args`, which may be grouped
        self.args = args
        self.loop = loop
        self.future = future


class Workers:
    """`threads` threads running database calls for the event loop; with `group`, one
    thread that stores the moves queued meanwhile in one transaction."""

    def __init__(self, store: Store, threads: int, name: str, group: bool = False) -> None:
        if group and threads != 1:
            raise ValueError("moves are stored together by one thread only")
        self.store = store
        self.size = threads
        self.name = name
        self.group = group
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._closed = False

    async def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` in a worker thread: its result, or the exception it raised."""
        return await self._put(fn, args)

    async def append(self, *args: Any) -> Caught | None:
        """`Store.append(*args)` in a worker thread (grouped with others with `group`)."""
        result: Caught | None = await self._put(None, args)
        return result

    def _put(self, fn: Callable[..., Any] | None, args: tuple[Any, ...]) -> asyncio.Future[Any]:
        if self._closed:
            raise RuntimeError("the database threads are closed")
        if len(self._threads) < self.size:
            self._start()
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._queue.put(_Job(fn, args, loop, future))
        return future

    def _start(self) -> None:
        """Threads are started with the first calls, not with the tables (tests make many
        `Tables` and close few)."""
        with self._lock:
            while len(self._threads) < self.size:
                t = threading.Thread(
                    target=self._run, name=f"{self.name}-{len(self._threads)}", daemon=True
                )
                t.start()
                self._threads.append(t)

    def close(self) -> None:
        """Stop the threads once the calls in hand are done; calls still queued are
        cancelled (the server is stopping: their callers are being cancelled too). Once:
        a second close (the tables' reads and writes may be the same threads) does nothing."""
        if self._closed:
            return
        self._closed = True
        for _ in self._threads:
            self._queue.put(None)

    def _run(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                self._drain()
                return
            if not self.group or job.fn is not None:
                self._one(job)
                continue
            jobs = [job]
            stop = False
            while len(jobs) < GROUP_MOST:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                if more.fn is not None:  # another write: after these moves, as it came
                    self._appends(jobs)
                    jobs = []
                    self._one(more)
                    continue
                jobs.append(more)
            if jobs:
                self._appends(jobs)
            if stop:
                self._drain()
                return

    def _one(self, job: _Job) -> None:
        if job.future.cancelled():  # its caller is gone and it has not started: not run
            return
        try:
            result = self.store.append(*job.args) if job.fn is None else job.fn(*job.args)
        except BaseException as exc:  # handed to the caller, whatever it is
            _hand(job, None, exc)
        else:
            _hand(job, result, None)

    def _appends(self, jobs: list[_Job]) -> None:
        jobs = [j for j in jobs if not j.future.cancelled()]
        if len(jobs) == 1:
            self._one(jobs[0])
        elif jobs:
            outcomes = self.store.append_group([j.args for j in jobs])
            for job, outcome in zip(jobs, outcomes, strict=True):
                if isinstance(outcome, BaseException):
                    _hand(job, None, outcome)
                else:
                    _hand(job, outcome, None)

    def _drain(self) -> None:
        """Cancel what is still queued (the threads are stopping). The other threads'
        stop marks met on the way are put back, so that each thread gets its own."""
        stops = 0
        while True:
            try:
                job = self._queue.get_nowait()
            except queue.Empty:
                break
            if job is None:
                stops += 1
            else:
                with contextlib.suppress(RuntimeError):  # its loop is closed
                    job.loop.call_soon_threadsafe(job.future.cancel)
        for _ in range(stops):
            self._queue.put(None)


def _hand(job: _Job, result: Any, exc: BaseException | None) -> None:
    """The outcome to the job's caller, in its event loop's thread."""
    with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
        job.loop.call_soon_threadsafe(_settle, job.future, result, exc)


def _settle(future: asyncio.Future[Any], result: Any, exc: BaseException | None) -> None:
    if future.done():  # cancelled meanwhile
        return
    if exc is not None:
        future.set_exception(exc)
    else:
        future.set_result(result)
