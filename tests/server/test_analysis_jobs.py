"""The server's "Analyse" (issue 20): analyses of finished games queued in the database and
run in the background (server/analysis_jobs.py, server/routes_analysis.py).

Every answer of the two routes; a job runs to `done` with the same result as `ai.analysis`
run directly on the table's record with the same budget and seed; the per-client and
queue bounds; a job of a process that died is finished by the next; a job that raises is
tried again, then failed with a short error; with two runners racing on PostgreSQL each
job is claimed and computed once. Thermopyles games played by the heuristic, analysed at
2 playouts an estimate, keep it fast.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update

from tests.server.conftest import database_url
from tests.server.helpers import Api, jsonable, serve_in_process, wait_until_over
from thermopylae.ai import analysis
from thermopylae.engine import registry
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.record import Record
from thermopylae.server import analysis_jobs
from thermopylae.server.analysis_jobs import AnalysisLimits, Runner
from thermopylae.server.db import analyses
from thermopylae.server.store import Store
from thermopylae.server.tables import Tables

BUDGET = 2
FAST = AnalysisLimits(budget=BUDGET, poll=0.05, progress_every=0.1, lease=10.0)
IDLE = AnalysisLimits(budget=BUDGET, jobs=0, per_client=2, queue_size=4)  # runs nothing
BOTS = [{"kind": "ai", "level": "normal"}, {"kind": "ai", "level": "normal"}]


def finished(api: Api) -> str:
    """A finished two-seat Thermopyles table (the heuristic on both seats)."""
    t = api.create("thermopyles", {"players": 2}, BOTS)["id"]
    wait_until_over(api, t)
    return str(t)


def expected(record: dict[str, Any], seat: int, budget: int, seed: int) -> Any:
    """The analysis `thermopylae analyse` makes of the record, with this budget and seed."""
    rec = Record.from_json(record)
    game = registry.get(rec.game)
    plan = analysis.plan(game, rec, seat, budget, None, seed)
    results = analysis.run(plan.tasks, 1, lambda _n: None)
    return jsonable(analysis.assemble(game, rec, seat, budget, None, seed, plan, results))


def poll(api: Api, table: str, seat: str, timeout: float = 60.0) -> dict[str, Any]:
    """The analysis once it is done or failed (the browser polls the same way)."""
    deadline = time.monotonic() + timeout
    while True:
        r = api.client.get(f"/api/tables/{table}/analysis", params={"seat": seat})
        assert r.status_code == 200, r.text
        got: dict[str, Any] = r.json()
        if got["status"] in ("done", "failed"):
            return got
        assert time.monotonic() < deadline, f"the analysis is still {got['status']}: {got}"
        time.sleep(0.05)


def rows(db: str) -> list[Any]:
    store = Store(db)
    try:
        with store.engine.begin() as conn:
            return list(conn.execute(select(analyses).order_by(analyses.c.created)))
    finally:
        store.dispose()


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def api(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    """A server that runs analyses at 2 playouts an estimate, on each database."""
    url = database_url(request.param, request, tmp_path_factory.mktemp(request.param))
    yield from serve_in_process(url, analysis=FAST)


# -- the answers ----------------------------------------------------------------------------


def test_a_finished_game_is_analysed_as_analyse_does_it(api: Api) -> None:
    table = finished(api)
    url = f"/api/tables/{table}/analysis"
    r = api.client.post(url, json={"seat": "p2"})
    assert r.status_code == 202, r.text
    first = r.json()
    assert first["seat"] == "p2" and first["status"] in ("queued", "running", "done")
    assert first["result"] is None or first["status"] == "done"
    again = api.client.post(url, json={"seat": "p2"})  # one per table and seat
    assert again.status_code == 200, again.text
    assert again.json()["seat"] == "p2"

    got = poll(api, table, "p2")
    assert got["status"] == "done", got
    assert got["error"] is None
    assert got["done"] == got["total"] > 0
    record = api.record(table)
    result = got["result"]
    steps = record["steps"]
    assert [e["step"] for e in result["timeline"]] == list(range(len(steps) + 1))
    mine = [n for n, (who, _action) in enumerate(steps, start=1) if who == "p2"]
    assert [d["step"] for d in result["decisions"]] == mine
    assert result["budget"] == BUDGET and result["seat"] == "p2"
    assert result["seed"] == analysis_jobs.table_seed(table)
    assert result == expected(record, 1, BUDGET, result["seed"])  # the same, reproducibly

    listed = api.client.get(url)
    assert listed.status_code == 200
    assert listed.json() == {"analyses": [got]}
    done = api.client.post(url, json={"seat": "p2"})
    assert done.status_code == 200 and done.json() == got


def test_a_progress_write_in_flight_lands_before_the_last_count_not_after_it(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reporter's write of the count so far, still in its thread when the estimates
    end, must not be stored after the final count (a done job showed 120 of 123). Here
    that write waits for the final one (up to a second) and the final one waits for it."""
    final_written, stale_written = threading.Event(), threading.Event()
    real = analysis_jobs.progress

    def racing(engine: Any, job: Any, done: int, total: int, *args: Any, **kwargs: Any) -> bool:
        if done < total:  # the reporter's: held up until the final count is stored
            final_written.wait(1.0)
            mine = real(engine, job, done, total, *args, **kwargs)
            stale_written.set()
            return mine
        mine = real(engine, job, done, total, *args, **kwargs)
        final_written.set()
        stale_written.wait(1.0)  # the reporter's write, if still in flight, lands now
        return mine

    monkeypatch.setattr(analysis_jobs, "progress", racing)
    table = finished(api)
    r = api.client.post(f"/api/tables/{table}/analysis", json={"seat": "p1"})
    assert r.status_code == 202, r.text
    got = poll(api, table, "p1")
    assert got["status"] == "done", got
    assert got["done"] == got["total"] > 0, got
    (row,) = [x for x in rows(api.db) if x.table_id == table and x.seat == 0]
    assert row.done == row.total


def test_refusals(api: Api) -> None:
    table = finished(api)
    url = f"/api/tables/{table}/analysis"
    r = api.client.post("/api/tables/nosuchtable/analysis", json={"seat": "p1"})
    assert r.status_code == 404, r.text
    assert api.client.get("/api/tables/nosuchtable/analysis").status_code == 404
    for body in ({"seat": "persia"}, {}, {"seat": "p1", "budget": 100_000}, {"seat": 1}):
        r = api.client.post(url, json=body)
        assert r.status_code == 422, (body, r.text)
        assert r.json()["detail"]
    r = api.client.get(url, params={"seat": "p1"})  # none asked for
    assert r.status_code == 404 and "no analysis" in r.json()["detail"]
    assert api.client.get(url, params={"seat": "persia"}).status_code == 422
    assert api.client.get(url).json() == {"analyses": []}

    playing = api.create("thermopyles", {}, [{"kind": "human"}])["id"]
    r = api.client.post(f"/api/tables/{playing}/analysis", json={"seat": "p1"})
    assert r.status_code == 409, r.text
    assert "over" in r.json()["detail"]
    assert not [x for x in rows(api.db) if x.table_id == playing]


def test_the_routes_are_documented(api: Api) -> None:
    paths = api.client.get("/openapi.json").json()["paths"]
    ops = paths["/api/tables/{table_id}/analysis"]
    assert ops["post"]["summary"] and ops["get"]["summary"]
    assert {"202", "200", "404", "409", "422", "429", "503"} <= set(ops["post"]["responses"])


# -- the bounds -----------------------------------------------------------------------------


def test_per_client_and_queue_bounds(tmp_path: Path) -> None:
    """2 queued or running per client address (429, Retry-After), 4 queued in all (503);
    a job asked for before is answered whatever the bounds."""
    db = f"sqlite:///{tmp_path / 'tables.db'}"
    for api in serve_in_process(db, analysis=IDLE):
        t1, t2, t3 = finished(api), finished(api), finished(api)
        post = api.client.post
        assert post(f"/api/tables/{t1}/analysis", json={"seat": "p1"}).status_code == 202
        assert post(f"/api/tables/{t2}/analysis", json={"seat": "p1"}).status_code == 202
        r = post(f"/api/tables/{t3}/analysis", json={"seat": "p1"})
        assert r.status_code == 429, r.text
        assert int(r.headers["Retry-After"]) > 0 and "2 analyses" in r.json()["detail"]
        assert post(f"/api/tables/{t1}/analysis", json={"seat": "p1"}).status_code == 200

        engine = api.store.engine
        for table in (t1, t2):  # another address fills the queue
            analysis_jobs.queue(engine, table, 1, BUDGET, "203.0.113.7", IDLE)
        with pytest.raises(analysis_jobs.ClientBusy):
            analysis_jobs.queue(engine, t3, 1, BUDGET, "203.0.113.7", IDLE)
        with engine.begin() as conn:  # one of ours is done: we may ask again ...
            conn.execute(
                update(analyses)
                .where(analyses.c.table_id == t1, analyses.c.seat == 0)
                .values(status="done")
            )
        analysis_jobs.queue(engine, t3, 1, BUDGET, "203.0.113.8", IDLE)  # ... 4 queued
        r = post(f"/api/tables/{t3}/analysis", json={"seat": "p1"})
        assert r.status_code == 503, r.text
        assert "queue is full" in r.json()["detail"] and r.headers["Retry-After"]
        assert len(rows(db)) == 5  # nothing queued by a refusal


# -- restarts, failures ---------------------------------------------------------------------


def test_a_job_of_a_process_that_died_is_finished_by_the_next(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'tables.db'}"
    for api in serve_in_process(db, analysis=IDLE):
        table = finished(api)
        r = api.client.post(f"/api/tables/{table}/analysis", json={"seat": "p1"})
        assert r.status_code == 202 and r.json()["status"] == "queued"
        dead = analysis_jobs.claim(api.store.engine, "a process that dies", FAST)
        assert dead is not None and dead.status == "running" and dead.attempts == 1
        analysis_jobs.progress(api.store.engine, dead, 3, 40, FAST.lease)
        assert analysis_jobs.claim(api.store.engine, "another", FAST) is None  # held
        held = api.client.get(f"/api/tables/{table}/analysis", params={"seat": "p1"}).json()
        assert (held["status"], held["done"], held["total"]) == ("running", 3, 40)
    for api in serve_in_process(db, analysis=FAST):  # the next life runs it
        got = poll(api, table, "p1")
        assert got["status"] == "done", got
        assert got["result"] == expected(api.record(table), 0, BUDGET, got["result"]["seed"])
    (row,) = rows(db)
    assert row.attempts == 2 and row.claimed_by is None


def boom(task: analysis.Task) -> Any:
    raise ThermopylaeError("no estimate today\nTraceback (most recent call last): ...")


def crash(task: analysis.Task) -> Any:
    raise ZeroDivisionError("division by zero")


@pytest.mark.parametrize("fails", [boom, crash])
def test_a_job_that_raises_is_tried_again_then_failed(tmp_path: Path, fails: Any) -> None:
    db = f"sqlite:///{tmp_path / 'tables.db'}"
    for api in serve_in_process(db, analysis=IDLE):
        table = finished(api)
        assert api.client.post(f"/api/tables/{table}/analysis", json={"seat": "p1"}).is_success

    async def attempts() -> list[str]:
        store = Store(db)
        tables = Tables(store)
        runner = Runner(tables, FAST)
        runner.estimate = fails
        seen = []
        try:
            for _ in range(FAST.max_attempts):
                job = await runner.work_once()
                assert job is not None
                seen.append(job.status)
            assert await runner.work_once() is None  # failed: nothing left to run
        finally:
            await tables.close()
            store.dispose()
        return seen

    assert asyncio.run(attempts()) == ["queued", "queued", "failed"]
    for api in serve_in_process(db, analysis=IDLE):
        got = api.client.get(f"/api/tables/{table}/analysis", params={"seat": "p1"}).json()
        assert got["status"] == "failed" and got["result"] is None
        assert "Traceback" not in got["error"] and "\n" not in got["error"]
        assert got["error"] == (
            "no estimate today"
            if fails is boom
            else "the analysis failed (ZeroDivisionError; logged on the server)"
        )
        r = api.client.post(f"/api/tables/{table}/analysis", json={"seat": "p1"})
        assert r.status_code == 202 and r.json()["status"] == "queued"  # asked again
        assert r.json()["error"] is None


def slow(task: analysis.Task) -> Any:
    time.sleep(0.05)
    return analysis.run_task(task)


def test_a_stopping_server_gives_its_job_back(tmp_path: Path) -> None:
    """`Runner.close()` (the server stops): the job in hand is queued again, its attempt
    not counted, and the next process runs it from the start."""
    db = f"sqlite:///{tmp_path / 'tables.db'}"
    for api in serve_in_process(db, analysis=IDLE):
        table = finished(api)
        assert api.client.post(f"/api/tables/{table}/analysis", json={"seat": "p2"}).is_success

    async def interrupted() -> Any:
        store = Store(db)
        tables = Tables(store)
        runner = Runner(tables, FAST)
        runner.estimate = slow
        try:
            runner.start()
            deadline = time.monotonic() + 30
            while not (rows(db)[0].done > 0):
                assert time.monotonic() < deadline, "the job never started"
                await asyncio.sleep(0.05)
            await runner.close()
        finally:
            await tables.close()
            store.dispose()
        return rows(db)[0]

    row = asyncio.run(interrupted())
    assert (row.status, row.attempts, row.claimed_by, row.done) == ("queued", 0, None, 0)
    for api in serve_in_process(db, analysis=FAST):
        assert poll(api, table, "p2")["status"] == "done"


# -- exactly once, on PostgreSQL ------------------------------------------------------------


def test_two_runners_racing_compute_each_analysis_once(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    db = database_url("postgresql", request, tmp_path)
    for api in serve_in_process(db, analysis=IDLE):
        tables = [finished(api), finished(api)]
        records = {t: api.record(t) for t in tables}
    lots = AnalysisLimits(budget=BUDGET, queue_size=50, per_client=50, jobs=2)
    store = Store(db)
    keys = [(t, s) for t in tables for s in (0, 1)]

    # a bare race for one job: exactly one claim wins
    first = keys[0]
    analysis_jobs.queue(store.engine, *first, BUDGET, "198.51.100.1", lots)
    gate = threading.Barrier(6)
    won: list[analysis_jobs.Job] = []

    def contender(n: int) -> None:
        gate.wait()
        got = analysis_jobs.claim(store.engine, f"contender {n}", lots)
        if got is not None:
            won.append(got)

    threads = [threading.Thread(target=contender, args=(n,)) for n in range(6)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert len(won) == 1 and (won[0].table_id, won[0].seat) == first
    with store.engine.begin() as conn:  # its process died: the lease ran out
        conn.execute(
            update(analyses)
            .where(analyses.c.table_id == first[0], analyses.c.seat == first[1])
            .values(claimed_until=time.time() - 1)
        )
    for t, s in keys[1:]:
        analysis_jobs.queue(store.engine, t, s, BUDGET, "198.51.100.1", lots)

    computed: list[str] = []

    def counted(task: analysis.Task) -> Any:
        computed.append(task.game)
        return analysis.run_task(task)

    async def race() -> list[int]:
        stores = [Store(db), Store(db)]  # two server processes
        runners = [Runner(Tables(s), lots, name=f"runner {i}") for i, s in enumerate(stores)]
        for r in runners:
            r.estimate = counted

        async def drain(r: Runner) -> None:
            while await r.work_once() is not None:
                pass

        try:
            await asyncio.gather(*(drain(r) for r in runners))
        finally:
            for r in runners:
                await r.tables.close()
            for s in stores:
                s.dispose()
        return [r.claims for r in runners]

    claims = asyncio.run(race())
    assert sum(claims) == len(keys), claims
    done = {(r.table_id, r.seat): r for r in rows(db)}
    assert {k: r.status for k, r in done.items()} == dict.fromkeys(keys, "done")
    assert [done[k].attempts for k in keys] == [2, 1, 1, 1]  # the first was taken over
    assert len(computed) == sum(done[k].total for k in keys)  # every estimate once
    for t, s in keys:
        result = done[(t, s)].result
        assert result == expected(records[t], s, BUDGET, analysis_jobs.table_seed(t))
    store.dispose()
