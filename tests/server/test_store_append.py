"""Store.append on both databases: SQLite goes straight to its driver on a connection each
thread keeps, PostgreSQL through SQLAlchemy; both must store the same rows and refuse the
same conflicts."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import BACKENDS, database_url
from thermopylae.server.store import Conflict, Store, TableRow


def _store(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    return Store(database_url(backend, request, tmp_path))


def _new_table(store: Store, table_id: str = "tableAppend1") -> None:
    seats = [
        {"seat": "p1", "kind": "human", "token_hash": "a"},
        {"seat": "p2", "kind": "human", "token_hash": "b"},
    ]
    store.create(TableRow(table_id, "thermopyles", "digest", {"players": 2}, seats, 1.0, False))


@pytest.mark.parametrize("backend", BACKENDS)
def test_append_stores_the_steps_and_the_rows_new_values(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    store = _store(backend, request, tmp_path)
    try:
        _new_table(store)
        before = time.time()
        store.append(
            "tableAppend1", 0, [("p1", "charge 3"), ("chance", "die 4")], False, {"turn": 1}
        )
        values: dict[str, Any] = {
            "turn": None,
            "clock_state": {"banks": [10.5, 3.0], "running": None},
            "result": {"seat": 1, "reason": "resigned"},
            "takeback": None,
        }
        store.append("tableAppend1", 2, [("p2", "pass")], True, values)
        row = store.table("tableAppend1")
        assert row is not None
        assert store.steps("tableAppend1") == [
            ("p1", "charge 3"),
            ("chance", "die 4"),
            ("p2", "pass"),
        ]
        assert row.over is True  # a boolean, from SQLite's 1 as from PostgreSQL's true
        assert row.turn is None
        assert row.clock_state == values["clock_state"]  # JSON columns as JSON
        assert row.result == values["result"]
        assert row.updated is not None and row.updated >= before
    finally:
        store.dispose()


@pytest.mark.parametrize("backend", BACKENDS)
def test_append_of_a_move_already_stored_is_a_conflict_and_stores_nothing(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    store = _store(backend, request, tmp_path)
    try:
        _new_table(store)
        store.append("tableAppend1", 0, [("p1", "a")], False, {"turn": 1})
        with pytest.raises(Conflict, match="stored by another server"):
            store.append("tableAppend1", 0, [("p2", "b"), ("chance", "c")], False, {"turn": 0})
        with pytest.raises(Conflict, match="taken back"):
            store.append("tableAppend1", 1, [("p2", "b")], False, {"turn": 0}, epoch=3)
        assert store.steps("tableAppend1") == [("p1", "a")]
        row = store.table("tableAppend1")
        assert row is not None and row.turn == 1  # the refused changes were rolled back
        store.append("tableAppend1", 1, [("p2", "b")], False, {"turn": 0}, epoch=0)
        assert store.steps("tableAppend1") == [("p1", "a"), ("p2", "b")]
    finally:
        store.dispose()


def test_sqlite_threads_keep_their_own_connection_until_dispose(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 't.db'}")
    _new_table(store)
    store.append("tableAppend1", 0, [("p1", "a")], False, {})
    first = store._connection()[0]
    assert store._connection()[0] is first  # the same connection, transaction after transaction
    other: list[Any] = []
    worker = threading.Thread(target=lambda: other.append(store._connection()[0]))
    worker.start()
    worker.join()
    assert other[0] is not first  # another thread has its own
    store.dispose()
    assert first.closed and other[0].closed  # dispose closes every kept connection


def test_a_database_servers_connection_is_pinged_only_after_a_rest(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL: a connection back from a transaction is used again at once without a
    ping (one round trip less per transaction under load), and pinged once it has rested
    (a database restart takes longer than `PING_AFTER`: the tests of tests/reliability
    stop and start one under a running server)."""
    from thermopylae.server import store as store_module

    store = _store("postgresql", request, tmp_path)
    try:
        _new_table(store)
        pings: list[int] = []
        real = store.engine.dialect.do_ping

        def counted(dbapi: Any) -> bool:
            pings.append(1)
            return bool(real(dbapi))

        monkeypatch.setattr(store.engine.dialect, "do_ping", counted)
        store.table("tableAppend1")  # the pool's connection has been used just now
        for _ in range(5):
            store.table("tableAppend1")
        assert pings == []
        time.sleep(store_module.PING_AFTER + 0.2)
        store.table("tableAppend1")
        assert pings == [1]
    finally:
        store.dispose()
