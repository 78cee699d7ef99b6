"""A move's steps go into the database in one INSERT on SQLite too (issue 21, item 7), as
they already did on a database server: one statement where `executemany` ran one per
step, with the same rows and the same refusal of a step stored twice."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from thermopylae.server.store import Conflict, Store, TableRow


def _store(path: Path) -> Store:
    store = Store(f"sqlite:///{path / 't.db'}")
    seats = [
        {"seat": "p1", "kind": "human", "token_hash": "a"},
        {"seat": "p2", "kind": "human", "token_hash": "b"},
    ]
    store.create(TableRow("tS", "thermopyles", "digest", {"players": 2}, seats, 1.0, False))
    return store


def _traced(store: Store) -> list[str]:
    """The SQL this thread's connection runs from now on."""
    seen: list[str] = []
    one: Any = store._kept.one  # type: ignore[union-attr]  # this thread's own (SQLite)
    raw: sqlite3.Connection = one.conn.connection.dbapi_connection
    raw.set_trace_callback(seen.append)
    return seen


def test_a_moves_steps_are_one_insert_on_sqlite(tmp_path: Path) -> None:
    store = _store(tmp_path)
    try:
        store.append("tS", 0, [("p1", "a")], False, {"turn": 1})
        seen = _traced(store)
        new = [("p2", "b"), ("chance", "c"), ("chance", "d")]
        store.append("tS", 1, new, False, {"turn": 0})
        inserts = [sql for sql in seen if sql.lstrip().upper().startswith("INSERT")]
        assert len(inserts) == 1 and "thermopylae_steps" in inserts[0]
        assert store.steps("tS") == [("p1", "a"), *new]
        with pytest.raises(Conflict):  # a step stored twice: nothing of the move is kept
            store.append("tS", 3, [("chance", "d2"), ("p1", "e")], False, {"turn": 1})
        assert store.steps("tS") == [("p1", "a"), *new]
        store.append("tS", 4, [("p1", "e")], False, {"turn": 1})
        assert store.steps("tS")[-1] == ("p1", "e")
    finally:
        store.dispose()
