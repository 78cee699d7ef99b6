"""The database threads (workers.py) and SQLite's group commit: the moves queued while the
writer thread is busy are stored in one transaction, each ending as it would alone (a
conflict refuses that move only), and the calls' results and errors reach their callers."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import BACKENDS, database_url
from thermopylae.server.store import Conflict, Store, StoreError, TableRow
from thermopylae.server.workers import Workers


def _new_table(store: Store, table_id: str) -> None:
    seats = [
        {"seat": "p1", "kind": "human", "token_hash": "a"},
        {"seat": "p2", "kind": "human", "token_hash": "b"},
    ]
    store.create(TableRow(table_id, "thermopyles", "digest", {"players": 2}, seats, 1.0, False))


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_group_of_moves_is_stored_and_a_conflict_refuses_only_its_own(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    store = Store(database_url(backend, request, tmp_path))
    try:
        for t in ("tA", "tB", "tC"):
            _new_table(store, t)
        store.append("tB", 0, [("p1", "first")], False, {"turn": 1})
        outcomes = store.append_group(
            [
                ("tA", 0, [("p1", "a"), ("chance", "b")], False, {"turn": 1}),
                ("tB", 0, [("p1", "again")], False, {"turn": 1}),  # move 0 is stored
                ("tC", 0, [("p2", "c")], True, {"turn": None}),
            ]
        )
        assert outcomes[0] is None and outcomes[2] is None
        assert isinstance(outcomes[1], Conflict)
        assert store.steps("tA") == [("p1", "a"), ("chance", "b")]
        assert store.steps("tB") == [("p1", "first")]  # nothing of the refused move
        assert store.steps("tC") == [("p2", "c")]
        row = store.table("tC")
        assert row is not None and row.over
        # a group without a conflict: one transaction
        assert store.append_group(
            [
                ("tA", 2, [("p2", "d")], False, {"turn": 0}),
                ("tB", 1, [("p2", "e")], False, {"turn": 0}),
            ]
        ) == [None, None]
        assert store.steps("tA")[-1] == ("p2", "d") and store.steps("tB")[-1] == ("p2", "e")
    finally:
        store.dispose()


def test_the_writer_thread_stores_the_moves_queued_meanwhile_together(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'w.db'}")
    groups: list[int] = []
    group = store.append_group

    def counted(calls: list[tuple[Any, ...]]) -> list[Any]:
        groups.append(len(calls))
        return group(calls)

    store.append_group = counted  # type: ignore[method-assign]
    ids = [f"t{i}" for i in range(5)]
    for t in ids:
        _new_table(store, t)
    busy = threading.Event()
    go = threading.Event()

    def hold() -> str:  # keeps the writer busy, as a commit waiting for the disk does
        busy.set()
        go.wait(30)
        return "held"

    async def scenario() -> list[Any]:
        writer = Workers(store, 1, "test-writer", group=True)
        try:
            first = asyncio.ensure_future(writer.call(hold))
            await asyncio.to_thread(busy.wait, 30)
            moves = [
                asyncio.ensure_future(writer.append(t, 0, [("p1", "x")], False, {"turn": 1}))
                for t in ids
            ]
            moves.append(  # a move already stored: refused, alone
                asyncio.ensure_future(writer.append(ids[0], 0, [("p1", "y")], False, {}))
            )
            await asyncio.sleep(0)  # every move queued before the writer is free
            go.set()
            out = [await first]
            out += await asyncio.gather(*moves, return_exceptions=True)
            return out
        finally:
            writer.close()

    try:
        out = asyncio.run(scenario())
        assert out[0] == "held"
        assert out[1:6] == [None] * 5
        assert isinstance(out[6], Conflict)
        assert groups == [6]  # one transaction for the six, then each again alone
        for t in ids:
            assert store.steps(t) == [("p1", "x")]
    finally:
        store.dispose()


def test_a_calls_error_reaches_its_caller_and_the_threads_stop(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'e.db'}")

    def fails() -> None:
        raise StoreError("the database is unavailable: test")

    async def scenario() -> None:
        workers = Workers(store, 2, "test-workers")
        assert await workers.call(lambda a, b: a + b, 2, 3) == 5
        with pytest.raises(StoreError, match="unavailable"):
            await workers.call(fails)
        workers.close()
        workers.close()  # once is enough: the second does nothing
        with pytest.raises(RuntimeError):
            await workers.call(lambda: None)
        for thread in workers._threads:
            thread.join(5)
            assert not thread.is_alive()

    try:
        asyncio.run(scenario())
    finally:
        store.dispose()
