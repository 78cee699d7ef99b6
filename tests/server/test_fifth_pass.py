"""The server's fifth pass at its CPU per move (issue 21, item 7): SQLite's moves committed
on the driver's own connection (`store._DriverTx`), the watchers' wake-ups without a
queue (`hub.Watcher`). Each keeps what it replaced: a move is committed or nothing is,
errors are told as before, a writer wakes once for the changes that came meanwhile."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from thermopylae.server.hub import Hub, Watcher
from thermopylae.server.store import Conflict, Store, StoreError, TableRow, _DriverTx, _Tx


def _new_table(store: Store, table_id: str) -> None:
    seats = [
        {"seat": "p1", "kind": "human", "token_hash": "a"},
        {"seat": "p2", "kind": "human", "token_hash": "b"},
    ]
    store.create(TableRow(table_id, "thermopyles", "digest", {"players": 2}, seats, 1.0, False))


def _fresh(path: Path) -> Store:
    """A store on a file of its own, read back by a connection that is not the store's
    (what is committed is in the file, not only in the writer's connection)."""
    store = Store(f"sqlite:///{path / 't.db'}")
    _new_table(store, "tA")
    return store


def _stored(path: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path / "t.db") as other:
        return other.execute(
            "SELECT n, who, action FROM thermopylae_steps WHERE table_id = 'tA' ORDER BY n"
        ).fetchall()


def test_a_plain_sqlite_move_is_committed_on_the_driver_connection(tmp_path: Path) -> None:
    store = _fresh(tmp_path)
    try:
        assert isinstance(store._move_tx(True), _DriverTx)
        assert isinstance(store._move_tx(False), _Tx)  # notices or a row to lock
        store.append("tA", 0, [("p1", "a"), ("chance", "b")], False, {"turn": 1})
        assert _stored(tmp_path) == [(0, "p1", "a"), (1, "chance", "b")]
        row = store.table("tA")
        assert row is not None and row.turn == 1 and row.takeback is None
        # refused moves leave nothing, and the connection serves the next move
        with pytest.raises(Conflict):
            store.append("tA", 1, [("p2", "again")], False, {"turn": 0})
        with pytest.raises(Conflict):  # a takeback happened: the epoch is not 7
            store.append("tA", 2, [("p2", "c")], False, {"turn": 0}, epoch=7)
        assert _stored(tmp_path) == [(0, "p1", "a"), (1, "chance", "b")]
        store.append("tA", 2, [("p2", "c")], True, {"turn": None}, epoch=0)
        assert _stored(tmp_path)[-1] == (2, "p2", "c")
        row = store.table("tA")
        assert row is not None and row.over
    finally:
        store.dispose()


def test_notices_go_through_sqlalchemy_and_the_next_plain_move_is_not_caught_in_it(
    tmp_path: Path,
) -> None:
    """A move with notices runs SQLAlchemy's statements: its transaction is SQLAlchemy's
    and ends with it, so the thread's next move (on the driver's connection) is its own."""
    store = _fresh(tmp_path)
    written: list[int] = []

    def notices(conn: Any) -> None:
        written.append(conn.execute(text("SELECT count(*) FROM thermopylae_steps")).scalar())

    try:
        store.append("tA", 0, [("p1", "a")], False, {"turn": 1}, notices)
        store.append("tA", 1, [("p2", "b")], False, {"turn": 0})
        outcomes = store.append_group(
            [
                ("tA", 2, [("p1", "c")], False, {"turn": 1}, notices),
                ("tA", 3, [("p2", "d")], False, {"turn": 0}),
            ]
        )
        assert outcomes == [None, None]
        assert written == [1, 3]
        assert [r[0] for r in _stored(tmp_path)] == [0, 1, 2, 3]
        store.append("tA", 4, [("p1", "e")], False, {"turn": 1})
        assert len(_stored(tmp_path)) == 5
    finally:
        store.dispose()


class _FailingCommit:
    """The driver's connection, but its commit fails (a disk that went away)."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)

    def commit(self) -> None:
        self.raw.rollback()
        raise sqlite3.OperationalError("disk I/O error")


def test_a_failed_commit_is_of_unknown_outcome_and_a_fresh_connection_follows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = _fresh(tmp_path)
    real_enter = _DriverTx.__enter__

    def failing_enter(self: _DriverTx) -> Any:
        conn = real_enter(self)
        self.raw = _FailingCommit(self.raw)
        return conn

    try:
        monkeypatch.setattr(_DriverTx, "__enter__", failing_enter)
        with pytest.raises(StoreError) as caught:
            store.append("tA", 0, [("p1", "a")], False, {"turn": 1})
        assert caught.value.maybe_stored
        assert "disk I/O error" in str(caught.value)
        monkeypatch.setattr(_DriverTx, "__enter__", real_enter)
        assert _stored(tmp_path) == []
        store.append("tA", 0, [("p1", "a")], False, {"turn": 1})
        assert _stored(tmp_path) == [(0, "p1", "a")]
    finally:
        store.dispose()


def test_a_watcher_wakes_once_for_the_changes_that_came_meanwhile() -> None:
    async def scenario() -> None:
        hub = Hub()
        w = hub.watch("t1", 0)
        other = hub.watch("t2", None)
        waiting = asyncio.create_task(w.wait())
        await asyncio.sleep(0)
        assert not waiting.done()
        hub.wake("t1", 1)
        hub.wake("t1", 2)
        await asyncio.wait_for(waiting, 1)
        assert not w.changed and not other.changed
        hub.wake("t1", 3)  # before the writer waits again: its next wait returns at once
        await asyncio.wait_for(w.wait(), 1)
        again = asyncio.create_task(w.wait())
        await asyncio.sleep(0)
        assert not again.done()  # nothing new
        again.cancel()
        with pytest.raises(asyncio.CancelledError):
            await again
        w.poke()  # a poke after a cancelled wait still wakes the next one
        await asyncio.wait_for(w.wait(), 1)
        hub.unwatch(w)
        hub.unwatch(other)
        assert hub.watchers == {}
        assert isinstance(w, Watcher)

    asyncio.run(scenario())
