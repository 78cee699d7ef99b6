"""The "Analyse" of a finished game over HTTP: ask for the analysis of a seat, then poll it
(docs/api.md, "Analysis on the server"). The work is queued in the database and run in
the background (`analysis_jobs.py`); anyone may ask for or read the analysis of a
finished game, which is one per table and seat, shared by all.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.exc import SQLAlchemyError

from thermopylae.server import analysis_jobs
from thermopylae.server.analysis_jobs import AnalysisLimits, ClientBusy, QueueFull, Runner
from thermopylae.server.live import Live
from thermopylae.server.schema import errors
from thermopylae.server.seats import TableError
from thermopylae.server.tables import Tables

BUSY_RETRY_S = 10  # Retry-After of a client past its analyses
FULL_RETRY_S = 60  # Retry-After of a full queue


class AnalysisIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: str = Field(
        max_length=40, description="the seat whose play is analysed, from its information only"
    )


def router(
    tables: Callable[[], Tables],
    runner: Callable[[], Runner | None],
    limits: Callable[[], AnalysisLimits],
) -> APIRouter:
    """The routes, over the app's `tables()`, its analysis `runner()` (None: not started,
    the job waits for a process that runs them) and `limits()`."""
    r = APIRouter()

    async def db(fn: Callable[..., Any], *args: Any) -> Any:
        """A database call in a worker thread; the database away is a 503."""
        try:
            return await asyncio.to_thread(fn, *args)
        except SQLAlchemyError as exc:
            raise TableError(
                503, "the database is unavailable; nothing was stored or changed, try again"
            ) from exc

    def seat_of(live: Live, name: str) -> int:
        names = live.seat_names
        if name not in names:
            raise TableError(422, f"no seat {name!r} at this table; the seats are {names}")
        return names.index(name)

    async def read(table_id: str, seat: int) -> analysis_jobs.Job | None:
        def get() -> analysis_jobs.Job | None:
            with tables().store.engine.begin() as conn:
                return analysis_jobs.get(conn, table_id, seat)

        found: analysis_jobs.Job | None = await db(get)
        return found

    @r.post(
        "/api/tables/{table_id}/analysis",
        status_code=202,
        summary="Ask for the analysis of a finished game, for one seat",
        responses={
            200: {"description": "The analysis was asked for before: where it stands"},
            **errors(404, 409, 422, 429, 503),
        },
    )
    async def ask(
        table_id: str, body: AnalysisIn, request: Request, response: Response
    ) -> dict[str, Any]:
        t = tables()
        live = await t.get(table_id)
        seat = seat_of(live, body.seat)
        if live.outcome() is None:
            raise TableError(409, "the analysis opens once the game is over")
        client = request.client.host if request.client else "unknown"
        lim = limits()
        try:
            got: tuple[analysis_jobs.Job, bool] = await db(
                analysis_jobs.queue, t.store.engine, live.row.id, seat, lim.budget, client, lim
            )
        except ClientBusy as exc:
            raise HTTPException(429, str(exc), headers={"Retry-After": str(BUSY_RETRY_S)}) from exc
        except QueueFull as exc:
            raise HTTPException(503, str(exc), headers={"Retry-After": str(FULL_RETRY_S)}) from exc
        job, new = got
        if new:
            found = runner()
            if found is not None:
                found.wake()
        else:
            response.status_code = 200
        return job.answer(body.seat)

    @r.get(
        "/api/tables/{table_id}/analysis",
        summary="Where the analyses of a finished game stand, and their results",
        responses=errors(404, 422, 503),
    )
    async def status(
        table_id: str,
        seat: str | None = Query(
            None, max_length=40, description="one seat's analysis (default: every one asked)"
        ),
    ) -> dict[str, Any]:
        t = tables()
        live = await t.get(table_id)
        names = live.seat_names
        if seat is not None:
            index = seat_of(live, seat)
            job = await read(live.row.id, index)
            if job is None:
                raise TableError(404, f"no analysis was asked for {seat} at this table")
            return job.answer(seat)

        def every() -> list[analysis_jobs.Job]:
            with t.store.engine.begin() as conn:
                return analysis_jobs.of_table(conn, live.row.id)

        jobs: list[analysis_jobs.Job] = await db(every)
        return {"analyses": [j.answer(names[j.seat]) for j in jobs if 0 <= j.seat < len(names)]}

    return r
