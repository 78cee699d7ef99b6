"""Store.append and the catch-up's reads on both databases, each by both paths: straight
to the driver (driver.py: sqlite3 on a connection each thread keeps, psycopg on the pool's)
and through SQLAlchemy (a driver `driver.py` does not speak to); all must store and read
the same rows and refuse the same conflicts."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, insert, text

from tests.server.conftest import BACKENDS, database_url
from thermopylae.server.db import chat
from thermopylae.server.store import Conflict, Store, StoreError, TableRow

PATHS = ["driver", "sqlalchemy"]


def _store(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path, path: str = "driver"
) -> Store:
    store = Store(database_url(backend, request, tmp_path))
    assert store._driver is not None  # both databases' drivers are spoken to directly
    if path == "sqlalchemy":
        store._driver = None
    return store


def _new_table(store: Store, table_id: str = "tableAppend1") -> None:
    seats = [
        {"seat": "p1", "kind": "human", "token_hash": "a"},
        {"seat": "p2", "kind": "human", "token_hash": "b"},
    ]
    store.create(TableRow(table_id, "thermopyles", "digest", {"players": 2}, seats, 1.0, False))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("backend", BACKENDS)
def test_append_stores_the_steps_and_the_rows_new_values(
    backend: str, path: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    store = _store(backend, request, tmp_path, path)
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


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("backend", BACKENDS)
def test_append_of_a_move_already_stored_is_a_conflict_and_stores_nothing(
    backend: str, path: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    store = _store(backend, request, tmp_path, path)
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


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_driver_reads_what_sqlalchemy_reads(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """The row, the steps and the last chat message's id of `since` and `since_and_chat`,
    and the timekeeper's looks for deadlines, by the driver and through SQLAlchemy, on a
    row whose columns all hold values (JSON, booleans, floats, a NULL) and with one move
    of four steps stored in one INSERT."""
    store = _store(backend, request, tmp_path)
    try:
        _new_table(store)
        values: dict[str, Any] = {
            "turn": 1,
            "clock_state": {"banks": [10.5, 3.25], "running": 0, "note": "ünï"},
            "takeback": {"seat": 0, "to": 2, "waiting_for": [1], "at": 12.5},
            "deadline": 1234.5,
            "low_at": None,
        }
        steps = [("p1", "charge 3"), ("chance", "die 4"), ("chance", "die 1"), ("p2", "pass")]
        store.append("tableAppend1", 0, steps, False, values)
        with store.engine.begin() as conn:
            conn.execute(insert(chat).values(table_id="tableAppend1", seat=0, text="hi", at=1.0))
        by_driver = (
            store.table("tableAppend1"),
            store.since("tableAppend1", 1, False),
            store.since("tableAppend1", 4, True),
            store.since("tableAppend1", 4, False),
            store.since_and_chat("tableAppend1", 2),
            store.table("missing"),
            store.due_both(2000.0),
            store.due(1000.0),
        )
        driver, store._driver = store._driver, None
        by_sqlalchemy = (
            store.table("tableAppend1"),
            store.since("tableAppend1", 1, False),
            store.since("tableAppend1", 4, True),
            store.since("tableAppend1", 4, False),
            store.since_and_chat("tableAppend1", 2),
            store.table("missing"),
            store.due_both(2000.0),
            store.due(1000.0),
        )
        store._driver = driver
        assert by_driver == by_sqlalchemy
        row = by_driver[0]
        assert row is not None and row.clock_state == values["clock_state"]
        assert row.over is False and row.takebacks is True and row.deadline == 1234.5
        assert by_driver[1][0] == steps[1:]
        assert by_driver[4][2] >= 1  # the chat message's id
        assert by_driver[6] == ([("tableAppend1", 1234.5)], []) and by_driver[7] == []
    finally:
        store.dispose()


def test_a_connection_that_died_is_refused_cleanly_then_replaced(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """PostgreSQL: a pooled connection whose server process ended (a database restart)
    fails the catch-up and the append that use it with a `StoreError` (a 503, never a
    500), and the pool replaces it: the next call succeeds."""
    store = _store("postgresql", request, tmp_path)
    try:
        _new_table(store)
        store.append("tableAppend1", 0, [("p1", "a")], False, {"turn": 1})
        admin = create_engine(store.url)  # a pool of its own
        for call in (
            lambda: store.since("tableAppend1", 0, True),
            lambda: store.append("tableAppend1", 1, [("p2", "b")], False, {"turn": 0}),
        ):
            with store.engine.connect() as conn:  # the pooled connection the next call takes
                pid = conn.execute(text("select pg_backend_pid()")).scalar_one()
            with admin.begin() as other:
                other.execute(text("select pg_terminate_backend(:pid)"), {"pid": pid})
            # the pool pings a rested connection: take the dead one back at once, unpinged
            with pytest.raises(StoreError, match="unavailable"):
                _now_without_ping(store, call)
        admin.dispose()
        assert store.since("tableAppend1", 0, True)[0] == [("p1", "a")]
        store.append("tableAppend1", 1, [("p2", "b")], False, {"turn": 0})
        assert store.steps("tableAppend1") == [("p1", "a"), ("p2", "b")]
    finally:
        store.dispose()


def _now_without_ping(store: Store, call: Any) -> Any:
    """`call()` with the pool's ping after a rest turned off."""
    from thermopylae.server import store as store_module

    before = store_module.PING_AFTER
    store_module.PING_AFTER = 1e9
    try:
        return call()
    finally:
        store_module.PING_AFTER = before


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


def test_a_rows_new_values_make_the_row_replace_makes() -> None:
    """TableRow.with_values (each stored move's new row) is `dataclasses.replace`, and
    refuses a column the row does not have, as replace does; the row it came from is
    unchanged."""
    from dataclasses import replace

    row = TableRow("t1", "thermopyles", "d", {"players": 2}, [{"seat": "p1"}], 1.0, False)
    values: dict[str, Any] = {"turn": 1, "over": True, "clock_state": {"banks": [1.5]}}
    assert row.with_values(values) == replace(row, **values)
    assert row.turn is None and row.over is False
    with pytest.raises(TypeError, match="nope"):
        row.with_values({"nope": 1})
