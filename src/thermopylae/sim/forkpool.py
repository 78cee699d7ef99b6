"""A pool of forked workers in which the process that asks works too (Linux).

With N workers the calling process forks N-1 children and plays a share of the jobs
itself instead of waiting: on two cores one fork, no idle parent, no third process
competing for the cores. Every process claims the next job from one shared pipe of
tickets (a job's index in 4 bytes; a read of 4 bytes from a pipe is atomic), so whoever
is free takes the next one and all finish within a job of each other. Children send
their results back pickled on a pipe of their own; the caller reads them between its own
jobs. Nothing here imports `concurrent.futures` or `multiprocessing` (with `logging`,
~10 ms of start-up on every command), and no thread is started: the children are forked
once, at `ForkPool(...)`, and serve every run until `close`.

A job that raises ends the run with its exception (the worker's traceback as a note);
the children are then killed and reaped, as on any error or interrupt in the caller, and
the pool refuses further runs. No process outlives `close`.
"""

from __future__ import annotations

import gc
import os
import select
import signal
from collections.abc import Callable, Sequence
from contextlib import suppress
from typing import Any, TypeVar

from thermopylae.engine import registry
from thermopylae.engine.errors import ThermopylaeError

J = TypeVar("J")
R = TypeVar("R")

_END = 0xFFFFFFFF  # the ticket that tells a process the run has no job left for it
_HEADER = 8  # bytes of a message's length, before the message
_RESULT, _ERROR, _DONE = 0, 1, 2  # what a child's message holds
_PIPE_BYTES = 1 << 20  # asked for the pipes (Linux allows up to pipe-max-size, 1 MiB)


class WorkerDied(ThermopylaeError):
    """A worker process ended in the middle of a run (killed, out of memory)."""


class _Child:
    __slots__ = ("buffer", "commands", "pid", "results")

    def __init__(self, pid: int, commands: int, results: int) -> None:
        self.pid = pid
        self.commands = commands  # write end: the runs, pickled
        self.results = results  # read end: its messages
        self.buffer = bytearray()


class ForkPool:
    """`workers` processes in all: this one and `workers` - 1 forked children. Fork it
    while no other thread runs (`backends.start_method`)."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._children: list[_Child] = []
        self._closed: str | None = None
        self._tickets, self._ticket_writer = os.pipe()
        # a run's tickets all fit in the pipe (else one wave of jobs after another)
        self._wave = _widen(self._ticket_writer) // 4 - self.workers
        if self.workers > 1:
            import pickle  # noqa: F401  (here, once: the children inherit it)
        try:
            freeze = gc.get_freeze_count() == 0  # not someone else's
            if freeze:  # the children's collections pass the inherited heap by
                gc.freeze()
            try:
                for _ in range(self.workers - 1):
                    self._children.append(self._fork())
            finally:
                if freeze:
                    gc.unfreeze()  # in this process only
        except BaseException:
            self.close(kill=True)
            raise

    def _fork(self) -> _Child:
        commands_r, commands_w = os.pipe()
        results_r, results_w = os.pipe()
        _widen(results_w)
        pid = os.fork()
        if pid == 0:  # the child: serve, then leave without running the parent's exit code
            code = 1
            try:
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent ends the run
                for fd in (commands_w, results_r, self._ticket_writer):
                    os.close(fd)
                for sibling in self._children:
                    os.close(sibling.commands)
                    os.close(sibling.results)
                _serve(commands_r, results_w, self._tickets)
                code = 0
            finally:
                os._exit(code)
        os.close(commands_r)
        os.close(results_w)
        return _Child(pid, commands_w, results_r)

    def run(
        self,
        fn: Callable[[J], R],
        jobs: Sequence[J],
        progress: Callable[[J], None] | None = None,
    ) -> list[R]:
        """`fn(job)` for every job, in job order; `progress(job)` as each one finishes."""
        if self._closed is not None:
            raise ThermopylaeError(f"the process pool is closed ({self._closed})")
        results: list[Any] = [None] * len(jobs)
        if not jobs:
            return results
        if len(jobs) + self.workers >= _END:
            raise ThermopylaeError(f"too many jobs for one run: {len(jobs)}")
        try:
            if not self._children:
                for i, job in enumerate(jobs):
                    results[i] = fn(job)
                    if progress:
                        progress(job)
                return results
            for start in range(0, len(jobs), self._wave):
                wave = jobs[start : start + self._wave]
                results[start : start + len(wave)] = self._run(fn, wave, progress)
        except BaseException as exc:
            self.close(kill=True, why=f"a run ended with {type(exc).__name__}")
            raise
        return results

    def _run(
        self, fn: Callable[[J], R], jobs: Sequence[J], progress: Callable[[J], None] | None
    ) -> list[Any]:
        import pickle

        command = pickle.dumps((fn, jobs, registry.registrations()), pickle.HIGHEST_PROTOCOL)
        for child in self._children:
            try:
                _send(child.commands, command)
            except BrokenPipeError:
                raise WorkerDied(f"worker process {child.pid} has ended") from None
        tickets = memoryview(
            b"".join(i.to_bytes(4, "little") for i in range(len(jobs)))
            + _END.to_bytes(4, "little") * self.workers
        )
        while tickets:  # PIPE_BUF bytes at a time: whole or nothing, no ticket split
            tickets = tickets[os.write(self._ticket_writer, tickets[:4096]) :]
        results: list[Any] = [None] * len(jobs)
        running = list(self._children)
        while (i := _claim(self._tickets)) != _END:
            results[i] = fn(jobs[i])
            if progress:
                progress(jobs[i])
            running = self._collect(running, jobs, results, progress, wait=False)
        while running:
            running = self._collect(running, jobs, results, progress, wait=True)
        return results

    def _collect(
        self,
        running: list[_Child],
        jobs: Sequence[J],
        results: list[Any],
        progress: Callable[[J], None] | None,
        wait: bool,
    ) -> list[_Child]:
        """Read the children's messages that have arrived (or wait for one, `wait`);
        return the children still at work on this run."""
        import pickle

        ready, _, _ = select.select([c.results for c in running], [], [], None if wait else 0)
        still = []
        for child in running:
            if child.results in ready:
                data = os.read(child.results, _PIPE_BYTES)
                if not data:
                    raise WorkerDied(f"worker process {child.pid} ended in the middle of a run")
                child.buffer += data
            done = False
            while len(child.buffer) >= _HEADER:
                size = int.from_bytes(child.buffer[:_HEADER], "little")
                if len(child.buffer) < _HEADER + size:
                    break
                kind, i, value = pickle.loads(child.buffer[_HEADER : _HEADER + size])
                del child.buffer[: _HEADER + size]
                if kind == _RESULT:
                    results[i] = value
                    if progress:
                        progress(jobs[i])
                elif kind == _ERROR:
                    raise _reraise(value)
                else:
                    done = True
            if not done:
                still.append(child)
        return still

    def close(self, kill: bool = False, why: str = "closed") -> None:
        """End the children (at once with `kill`, else once they finish their run) and
        reap them; closing twice does nothing."""
        if self._closed is not None:
            return
        self._closed = why
        for child in self._children:
            if kill:
                with suppress(ProcessLookupError):
                    os.kill(child.pid, signal.SIGKILL)
            os.close(child.commands)  # a child waiting for a run reads the end of it
        for child in self._children:
            with suppress(ChildProcessError):  # reaped by someone else's wait()
                os.waitpid(child.pid, 0)
            os.close(child.results)
        self._children = []
        os.close(self._tickets)
        os.close(self._ticket_writer)

    def __enter__(self) -> ForkPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close(kill=exc[0] is not None)


def _serve(commands: int, results: int, tickets: int) -> None:
    """A child's life: each run's jobs as they come, until the pool closes."""
    import pickle

    while (command := _receive(commands)) is not None:
        fn, jobs, games = pickle.loads(command)
        registry.adopt(games)
        while (i := _claim(tickets)) != _END:
            try:
                message = pickle.dumps((_RESULT, i, fn(jobs[i])), pickle.HIGHEST_PROTOCOL)
            except Exception as exc:
                _send(results, _error(i, exc))
                return  # the parent ends the run, and this process
            _send(results, message)
        _send(results, pickle.dumps((_DONE, -1, None)))


def _error(i: int, exc: Exception) -> bytes:
    """A failed job's message: its exception with the worker's traceback, or (when the
    exception cannot be pickled) a ThermopylaeError saying what it was."""
    import pickle
    import traceback

    text = "".join(traceback.format_exception(exc))
    try:
        return pickle.dumps((_ERROR, i, (exc, text)), pickle.HIGHEST_PROTOCOL)
    except Exception:
        return pickle.dumps((_ERROR, i, (ThermopylaeError(f"a worker failed: {exc!r}"), text)))


def _reraise(value: tuple[BaseException, str]) -> BaseException:
    exc, text = value
    exc.add_note(f"in a worker process:\n{text.rstrip()}")
    return exc


def _claim(tickets: int) -> int:
    """The next job's index, or _END. The pipe holds whole tickets only."""
    data = os.read(tickets, 4)
    if len(data) != 4:
        raise WorkerDied("the pool's ticket pipe was closed")
    return int.from_bytes(data, "little")


def _send(fd: int, data: bytes) -> None:
    view = memoryview(len(data).to_bytes(_HEADER, "little") + data)
    while view:
        view = view[os.write(fd, view) :]


def _receive(fd: int) -> bytes | None:
    """One message, or None when the writer has closed the pipe."""
    header = _read_exactly(fd, _HEADER)
    if header is None:
        return None
    data = _read_exactly(fd, int.from_bytes(header, "little"))
    if data is None:
        return None
    return data


def _read_exactly(fd: int, size: int) -> bytes | None:
    parts = []
    while size:
        data = os.read(fd, size)
        if not data:
            return None
        parts.append(data)
        size -= len(data)
    return b"".join(parts)


def _widen(fd: int) -> int:
    """Make a pipe larger where Linux allows it (F_SETPIPE_SZ): a child's results or a
    long run's tickets fit without waiting for the reader. Returns its size in bytes."""
    try:
        import fcntl

        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, _PIPE_BYTES)
        return int(fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ))
    except (ImportError, AttributeError, OSError):
        return 65536  # Linux's default
