"""A deliverer alone on its database (no other server process) skips its look while no
row can be due, and still sends every row: those queued before it started, those a store
transaction queues (the store wakes it), and its own retries when they fall due."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Connection

from tests.server.helpers import run_async
from tests.server.notify_helpers import (
    Receiver,
    account,
    add_account,
    fast,
    queue_for,
    rows,
    run_until,
    settled,
)
from thermopylae.server import outbox
from thermopylae.server.notify import make_body
from thermopylae.server.outbox import Deliverer, endpoints, queue
from thermopylae.server.store import Store, TableRow


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(f"sqlite:///{tmp_path / 'tables.db'}")
    try:
        yield s
    finally:
        s.dispose()


def _counting(d: Deliverer) -> list[float]:
    """The times `d` looked at the database."""
    looks: list[float] = []
    due = d._due

    def counted(now: float, limit: int) -> list[int]:
        looks.append(now)
        return due(now, limit)

    d._due = counted  # type: ignore[method-assign]
    return looks


def test_rows_queued_before_it_started_are_sent(store: Store, receiver: Receiver) -> None:
    a = add_account(store.engine, webhook=receiver.url())
    for t in ("t1", "t2"):
        queue_for(store.engine, a, "your_turn", t)
    run_until([fast(store.engine, None, allow_private=True, alone=True)], settled(store.engine))
    assert sorted(body["table"] for _path, body in receiver.posts) == ["t1", "t2"]


def test_its_retries_are_made_when_due_without_a_wake(store: Store, receiver: Receiver) -> None:
    a = add_account(store.engine, webhook=receiver.url("/status/500"))
    queue_for(store.engine, a, "your_turn", "t1")
    d = fast(store.engine, None, allow_private=True, alone=True, max_attempts=3)
    run_until([d], settled(store.engine))
    (r,) = rows(store.engine)
    assert (r.status, r.attempts) == ("failed", 3)


def test_idle_it_looks_once_then_on_a_wake(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(outbox, "LOOK_ANYWAY", 60.0)
    d = fast(store.engine, None, alone=True)  # polls every 20 ms
    looks = _counting(d)

    async def main() -> None:
        task = asyncio.create_task(d.run())
        await asyncio.sleep(0.3)
        assert len(looks) == 1  # nothing stored can fall due: no more looks
        d.wake()
        await asyncio.sleep(0.1)
        assert len(looks) == 2
        d.stop()
        await task

    run_async(main())


def test_not_alone_it_polls(store: Store) -> None:
    d = fast(store.engine, None)
    looks = _counting(d)

    async def main() -> None:
        task = asyncio.create_task(d.run())
        await asyncio.sleep(0.3)
        d.stop()
        await task

    run_async(main())
    assert len(looks) > 3


def test_a_row_queued_in_a_store_transaction_wakes_it(
    store: Store, receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(outbox, "LOOK_ANYWAY", 60.0)
    a = add_account(store.engine, webhook=receiver.url())
    store.create(TableRow("t1", "earth-and-water", "x", {}, [], 0.0, False))
    d = Deliverer(store.engine, None, allow_private=True, poll=60.0, alone=True)
    store.on_notices = d.wake
    looks = _counting(d)

    def writer(conn: Connection) -> None:
        body = make_body("your_turn", "earth_and_water", "300", "t1", "http://x", "p1", "en")
        queue(conn, endpoints(account(store.engine, a)), "your_turn", "t1", body, "t1:1")

    async def main() -> None:
        task = asyncio.create_task(d.run())
        await asyncio.sleep(0.1)
        assert len(looks) == 1
        done: Any = await asyncio.to_thread(store.change, "t1", {"turn": 1}, notices=writer)
        assert done is True
        end = time.monotonic() + 3
        while not receiver.posts and time.monotonic() < end:
            await asyncio.sleep(0.02)
        d.stop()
        await task

    run_async(main())
    assert [body["table"] for _path, body in receiver.posts] == ["t1"]
