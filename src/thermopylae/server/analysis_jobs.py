"""The server's "Analyse": analyses of finished games, queued in the database and run in the
background by a `Runner` in each server process.

One analysis per finished table and seat (`thermopylae_analyses`), shared by everyone who
opens the game. It is `ai.analysis` exactly as `thermopylae analyse` runs it (`plan`, every
`Task` in the AI pool, `assemble`), with a budget the server sets (`AnalysisLimits.budget`
playouts an estimate, never the visitor's choice) and a seed fixed per table
(`table_seed`), so the same game gives the same analysis wherever and whenever it runs.

Several processes share the queue as they share the outbox (`outbox.py`): a runner claims
the oldest due job with a conditional UPDATE that only one process can win, and holds it
by a lease (`claimed_until`) it renews with each progress report (about once a second).
A job whose process died is taken again once its lease has run out, so a restart loses
none; each claim counts an attempt, and after `max_attempts` the job is "failed" with a
short error text (never a traceback). A result is stored only while the claim holds, so
each analysis is computed and stored once.

The queue is bounded: `queue_size` queued jobs in all (503 past it) and `per_client`
queued or running jobs per client address (429 past it).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, func, insert, or_, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from thermopylae.ai import analysis
from thermopylae.ai.winchance import check_budget
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.record import Record
from thermopylae.server import wakeup
from thermopylae.server.db import analyses
from thermopylae.server.seats import TableError

if TYPE_CHECKING:
    from thermopylae.server.tables import Tables

log = logging.getLogger("thermopylae.server")

STATUSES = ("queued", "running", "done", "failed")


@dataclass(frozen=True)
class AnalysisLimits:
    """What the server's analyses may cost: `budget`, playouts an estimate (the same for
    every analysis of this server); `queue_size`, queued jobs in all; `per_client`, queued
    or running jobs of one client address; `parallel`, estimates of one analysis in the AI
    pool at once (so one analysis never takes the whole pool); `jobs`, analyses one process
    runs at once (0: none, other processes run them); `lease`, seconds a claim holds
    without news (renewed every `progress_every` seconds); `max_attempts`, claims before a
    job is failed; `poll`, seconds between looks at the queue when nothing woke the
    runner."""

    budget: int = 24
    queue_size: int = 200
    per_client: int = 2
    parallel: int = 2
    jobs: int = 1
    lease: float = 30.0
    progress_every: float = 1.0
    max_attempts: int = 3
    poll: float = 2.0

    def __post_init__(self) -> None:
        check_budget(self.budget)
        if min(self.queue_size, self.per_client, self.parallel) < 1 or self.jobs < 0:
            raise ValueError(
                "queue_size, per_client and parallel must be at least 1, jobs 0 or more"
            )
        if self.max_attempts < 1 or self.lease <= self.progress_every:
            raise ValueError("max_attempts must be at least 1 and lease over progress_every")


class QueueFull(Exception):
    """No job was queued: the queue holds as many jobs as it may (503)."""


class ClientBusy(Exception):
    """No job was queued: this client already has as many queued or running as it may (429)."""


@dataclass(frozen=True)
class Job:
    """A row of `thermopylae_analyses`, as read."""

    table_id: str
    seat: int
    status: str
    budget: int
    done: int
    total: int
    client: str
    created: float
    claimed_by: str | None
    claimed_until: float | None
    attempts: int
    result: Any
    error: str | None

    def answer(self, seat_name: str) -> dict[str, Any]:
        """The job as the API answers it (docs/api.md)."""
        return {
            "seat": seat_name,
            "status": self.status,
            "done": self.done,
            "total": self.total,
            "result": self.result if self.status == "done" else None,
            "error": self.error if self.status == "failed" else None,
        }


def _job(row: Any) -> Job:
    return Job(
        table_id=str(row.table_id),
        seat=int(row.seat),
        status=str(row.status),
        budget=int(row.budget),
        done=int(row.done or 0),
        total=int(row.total or 0),
        client=str(row.client),
        created=float(row.created),
        claimed_by=row.claimed_by,
        claimed_until=row.claimed_until,
        attempts=int(row.attempts or 0),
        result=row.result,
        error=row.error,
    )


def table_seed(table_id: str) -> int:
    """The seed of every analysis of a table: fixed by its id, so a result is reproducible."""
    return int.from_bytes(hashlib.sha256(table_id.encode()).digest()[:4], "big")


# -- the store ----------------------------------------------------------------------------


def _key(table_id: str, seat: int) -> Any:
    return and_(analyses.c.table_id == table_id, analyses.c.seat == seat)


def get(conn: Connection, table_id: str, seat: int) -> Job | None:
    row = conn.execute(select(analyses).where(_key(table_id, seat))).first()
    return None if row is None else _job(row)


def of_table(conn: Connection, table_id: str) -> list[Job]:
    """Every analysis asked for at a table, by seat."""
    rows = conn.execute(
        select(analyses).where(analyses.c.table_id == table_id).order_by(analyses.c.seat)
    )
    return [_job(r) for r in rows]


def client_jobs(conn: Connection, client: str) -> int:
    """The client's queued and running jobs."""
    return int(
        conn.execute(
            select(func.count())
            .select_from(analyses)
            .where(analyses.c.client == client, analyses.c.status.in_(("queued", "running")))
        ).scalar_one()
    )


def queued_jobs(conn: Connection) -> int:
    return int(
        conn.execute(
            select(func.count()).select_from(analyses).where(analyses.c.status == "queued")
        ).scalar_one()
    )


def queue(
    engine: Engine,
    table_id: str,
    seat: int,
    budget: int,
    client: str,
    limits: AnalysisLimits,
    now: float | None = None,
) -> tuple[Job, bool]:
    """Queue the analysis of (table, seat) and answer it with True, or answer the one that
    exists (False) as it is; a failed one is queued again (True). `ClientBusy` or
    `QueueFull` past the bounds (nothing queued then). The table must exist."""
    at = time.time() if now is None else now
    client = client[:64]
    for _ in range(3):  # another process may insert the same row meanwhile: read it then
        with engine.begin() as conn:
            found = get(conn, table_id, seat)
            if found is not None and found.status != "failed":
                return found, False
            if client_jobs(conn, client) >= limits.per_client:
                raise ClientBusy(
                    f"you already have {limits.per_client} analyses queued or running; "
                    "wait for one to finish"
                )
            if queued_jobs(conn) >= limits.queue_size:
                raise QueueFull(
                    f"the server's analysis queue is full ({limits.queue_size} games "
                    "waiting); try again in a few minutes"
                )
            values: dict[str, Any] = {
                "status": "queued",
                "budget": budget,
                "done": 0,
                "total": 0,
                "client": client,
                "created": at,
                "claimed_by": None,
                "claimed_until": None,
                "attempts": 0,
                "result": None,
                "error": None,
            }
            if found is not None:  # failed: again, if no other process did it first
                again = conn.execute(
                    update(analyses)
                    .where(_key(table_id, seat), analyses.c.status == "failed")
                    .values(**values)
                ).rowcount
                if again == 1:
                    return _must(get(conn, table_id, seat)), True
                continue
            try:
                with conn.begin_nested():
                    conn.execute(insert(analyses).values(table_id=table_id, seat=seat, **values))
            except IntegrityError:
                continue
            return _must(get(conn, table_id, seat)), True
    with engine.begin() as conn:
        return _must(get(conn, table_id, seat)), False


def _must(job: Job | None) -> Job:
    if job is None:  # pragma: no cover - read in the transaction that wrote it
        raise RuntimeError("the analysis row vanished")
    return job


def _due(now: float) -> Any:
    """A job a runner may claim: queued, or running on a lease that has run out."""
    return or_(
        analyses.c.status == "queued",
        and_(
            analyses.c.status == "running",
            or_(analyses.c.claimed_until.is_(None), analyses.c.claimed_until < now),
        ),
    )


def claim(
    engine: Engine, worker: str, limits: AnalysisLimits, now: float | None = None
) -> Job | None:
    """Take the oldest due job for `worker` (status running, `claimed_by`, a lease of
    `limits.lease` seconds, one more attempt); None when there is none. A job whose lease
    ran out after its last allowed attempt is failed instead."""
    at = time.time() if now is None else now
    with engine.begin() as conn:
        rows = conn.execute(
            select(analyses.c.table_id, analyses.c.seat, analyses.c.attempts)
            .where(_due(at))
            .order_by(analyses.c.created, analyses.c.table_id, analyses.c.seat)
            .limit(8)
        ).all()
    for table_id, seat, attempts in rows:
        with engine.begin() as conn:
            cond = and_(_key(table_id, seat), _due(at), analyses.c.attempts == attempts)
            if attempts >= limits.max_attempts:  # it died with every process that ran it
                conn.execute(
                    update(analyses)
                    .where(cond)
                    .values(
                        status="failed",
                        claimed_by=None,
                        claimed_until=None,
                        error=f"the analysis was interrupted {attempts} times",
                    )
                )
                continue
            won = conn.execute(
                update(analyses)
                .where(cond)
                .values(
                    status="running",
                    claimed_by=worker[:64],
                    claimed_until=at + limits.lease,
                    attempts=attempts + 1,
                )
            ).rowcount
            if won == 1:
                return get(conn, table_id, seat)
    return None


def _held(job: Job) -> Any:
    """The row is still `job`'s claim: the same worker and attempt, still running."""
    return and_(
        _key(job.table_id, job.seat),
        analyses.c.status == "running",
        analyses.c.claimed_by == job.claimed_by,
        analyses.c.attempts == job.attempts,
    )


def progress(
    engine: Engine, job: Job, done: int, total: int, lease: float, now: float | None = None
) -> bool:
    """Record how far the job is and renew its lease; False when the claim is lost (the
    lease ran out and another process took the job over)."""
    at = time.time() if now is None else now
    with engine.begin() as conn:
        mine = conn.execute(
            update(analyses)
            .where(_held(job))
            .values(done=done, total=total, claimed_until=at + lease)
        ).rowcount
    return mine == 1


def finish(
    engine: Engine,
    job: Job,
    result: Any = None,
    error: str | None = None,
    max_attempts: int = 3,
) -> Job | None:
    """Store the job's result (status done), or its error: queued again while attempts
    are left, else failed. Only while the claim holds; answers the row (None: not ours)."""
    values: dict[str, Any] = {"claimed_by": None, "claimed_until": None}
    if error is None:
        values.update(status="done", result=result, error=None)
    elif job.attempts >= max_attempts:
        values.update(status="failed", error=error[:300])
    else:
        values.update(status="queued", error=error[:300], done=0)
    with engine.begin() as conn:
        mine = conn.execute(update(analyses).where(_held(job)).values(**values)).rowcount
        return get(conn, job.table_id, job.seat) if mine == 1 else None


def release(engine: Engine, job: Job) -> bool:
    """Give a claimed job back, its attempt not counted (this process is stopping)."""
    with engine.begin() as conn:
        back = conn.execute(
            update(analyses)
            .where(_held(job))
            .values(
                status="queued",
                claimed_by=None,
                claimed_until=None,
                attempts=job.attempts - 1,
                done=0,
            )
        ).rowcount
    return back == 1


def release_claims(engine: Engine) -> int:
    """Make the running jobs due now (a server alone on its database, starting again after
    a crash: the jobs its last life ran are not running any more)."""
    with engine.begin() as conn:
        done = conn.execute(
            update(analyses).where(analyses.c.status == "running").values(claimed_until=0.0)
        ).rowcount
    return int(done or 0)


# -- the runner ---------------------------------------------------------------------------


def _short(exc: BaseException) -> str:
    """An error as the API shows it: one line, no traceback."""
    if isinstance(exc, TableError):
        return exc.detail[:300]
    if isinstance(exc, ThermopylaeError):
        return str(exc).splitlines()[0][:300] if str(exc) else type(exc).__name__
    return f"the analysis failed ({type(exc).__name__}; logged on the server)"


class Runner:
    """Runs the queued analyses of the database in the background of one server process.

    `start()` begins the loop (a task), `wake()` looks at the queue now (after a POST
    queued a job), `close()` stops it: the jobs in hand are given back to the queue.
    `work_once()` claims and runs one job (tests). `claims` counts the jobs this runner
    claimed; `estimate` is the function run in the AI pool for each task."""

    def __init__(
        self, tables: Tables, limits: AnalysisLimits | None = None, name: str | None = None
    ) -> None:
        self.tables = tables
        self.limits = limits if limits is not None else AnalysisLimits()
        self.name = name or f"{socket.gethostname()[:30]}:{os.getpid()}:{secrets.token_hex(4)}"
        self.estimate: Callable[[analysis.Task], Any] = analysis.run_task
        self.claims = 0
        self._event: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None
        self._busy: set[asyncio.Task[Job | None]] = set()
        self._stopped = False

    @property
    def engine(self) -> Engine:
        return self.tables.store.engine

    # -- the loop ------------------------------------------------------------------------

    def start(self) -> None:
        """Run the loop in a task of the running event loop (not when `limits.jobs` is 0)."""
        if self.limits.jobs > 0:
            self._task = asyncio.create_task(self.run())

    async def run(self) -> None:
        """Claim and run due jobs, `limits.jobs` at once, until `close()`; a database that
        is down is logged and tried again at the next poll."""
        self._loop = asyncio.get_running_loop()
        self._event = asyncio.Event()
        while not self._stopped:
            self._event.clear()
            while len(self._busy) < self.limits.jobs and not self._stopped:
                job = await self._claim()
                if job is None:
                    break
                task = asyncio.create_task(self.work(job))
                self._busy.add(task)
                task.add_done_callback(self._finished)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._event.wait(), self.limits.poll)

    def _finished(self, task: asyncio.Task[Job | None]) -> None:
        self._busy.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("analysis: a job failed", exc_info=task.exception())
        if self._event is not None:
            self._event.set()  # a slot is free

    async def _claim(self) -> Job | None:
        try:
            job = await asyncio.to_thread(claim, self.engine, self.name, self.limits)
        except SQLAlchemyError as exc:
            log.warning("analysis: the database is unavailable: %s", exc)
            return None
        except Exception:  # a defect must not end every later analysis
            log.exception("analysis: looking for queued jobs failed")
            return None
        if job is not None:
            self.claims += 1
        return job

    def wake(self) -> None:
        """Look at the queue now; safe from any thread."""
        wakeup.wake(self._loop, self._event)

    async def close(self) -> None:
        """Stop: the loop ends, the jobs in hand are cancelled and given back to the queue
        (their attempt not counted), so the next process to start runs them."""
        self._stopped = True
        self.wake()
        busy = list(self._busy)
        for task in busy:
            task.cancel()
        if busy:
            await asyncio.gather(*busy, return_exceptions=True)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def work_once(self) -> Job | None:
        """Claim one due job and run it to its end; None when none was due."""
        job = await self._claim()
        return None if job is None else await self.work(job)

    # -- one job -------------------------------------------------------------------------

    async def work(self, job: Job) -> Job | None:
        """Run a claimed job and store how it ended (the row as stored; None when the claim
        was lost meanwhile, or the job was given back because the process is stopping)."""
        result: Any = None
        error: str | None = None
        try:
            result = await self._analyse(job)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                release(self.engine, job)  # quick, and the loop is stopping anyway
            raise
        except _Lost:
            log.warning("analysis: lost the claim on %s seat %s", job.table_id, job.seat)
            return None
        except Exception as exc:
            if not isinstance(exc, TableError | ThermopylaeError):
                log.exception("analysis of %s seat %s failed", job.table_id, job.seat)
            error = _short(exc)
        try:
            return await asyncio.to_thread(
                finish, self.engine, job, result, error, self.limits.max_attempts
            )
        except SQLAlchemyError as exc:  # the lease runs out and the job is run again
            log.warning("analysis: cannot store %s seat %s: %s", job.table_id, job.seat, exc)
            return None

    async def _analyse(self, job: Job) -> Any:
        t = self.tables
        live = await t.get(job.table_id)
        if live.outcome() is None:
            raise TableError(409, "the game is not over")
        record = Record.from_json(t.record(live), "the table's record")
        game = live.game
        seed = table_seed(job.table_id)
        plan = await asyncio.to_thread(
            analysis.plan, game, record, job.seat, job.budget, None, seed
        )
        total = len(plan.tasks)
        results: list[Any] = [None] * total
        done = 0
        lost = asyncio.Event()

        stop = asyncio.Event()

        async def report() -> None:  # progress and the lease, about once a second
            while not stop.is_set():
                try:
                    mine = await asyncio.to_thread(
                        progress, self.engine, job, done, total, self.limits.lease
                    )
                except SQLAlchemyError as exc:
                    log.warning("analysis: cannot record progress: %s", exc)
                    mine = True  # the lease may still hold; try again
                if not mine:
                    lost.set()
                    return
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), self.limits.progress_every)

        gate = asyncio.Semaphore(self.limits.parallel)

        async def one(i: int) -> None:
            nonlocal done
            async with gate:
                if lost.is_set():
                    return
                results[i] = await t.ai.run(job.client, self.estimate, plan.tasks[i])
                done += 1

        reporter = asyncio.create_task(report())
        estimates = asyncio.gather(*(one(i) for i in range(total)))
        try:
            waiter = asyncio.create_task(lost.wait())
            either: set[asyncio.Future[Any]] = {estimates, waiter}
            finished, _ = await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
            if estimates not in finished:
                raise _Lost
            await estimates  # raises the first estimate's error
        finally:
            if not estimates.done():
                estimates.cancel()
                with contextlib.suppress(BaseException):
                    await estimates
            # The reporter is stopped and awaited, not cancelled: a write in flight goes on
            # in its thread after a cancel and could store an older count after the last.
            stop.set()
            try:
                await reporter
            except asyncio.CancelledError:
                reporter.cancel()
                raise
            except Exception as exc:  # the run's own outcome is what counts
                log.warning("analysis: the progress reporter failed: %s", exc)
        if not await asyncio.to_thread(progress, self.engine, job, total, total, self.limits.lease):
            raise _Lost
        return await asyncio.to_thread(
            analysis.assemble, game, record, job.seat, job.budget, None, seed, plan, results
        )


class _Lost(Exception):
    """Another process took the job over (this one's lease ran out)."""
