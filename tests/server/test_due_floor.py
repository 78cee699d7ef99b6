"""The floor under the stored deadlines (due_floor.py, Store.due_floor): a timekeeper alone
on its database skips its look while nothing can be due, and never misses a deadline
written through the store, even one written while a look is under way."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from tests.server.conftest import BACKENDS, database_url
from thermopylae.server.due_floor import DueFloor
from thermopylae.server.store import Store, TableRow


def test_a_new_floor_makes_the_first_look_happen() -> None:
    assert DueFloor().passed(-1e18)


def test_a_look_raises_the_floor_and_a_write_lowers_it() -> None:
    f = DueFloor()
    look = f.begin()
    f.end(look, 100.0)
    assert not f.passed(99.0) and f.passed(100.0)
    f.note(None, 50.0)
    assert f.passed(50.0) and not f.passed(49.0)
    f.note(None, None)  # a write that set no time changes nothing
    f.note(70.0)  # a later one neither
    assert not f.passed(49.0)


def test_nothing_stored_is_never_due_until_a_write() -> None:
    f = DueFloor()
    f.end(f.begin(), None)
    assert not f.passed(1e18)
    f.note(5.0)
    assert f.passed(5.0)


def test_a_write_during_a_look_is_kept() -> None:
    """The look's read may have begun before the write's commit: its own answer must not
    hide the write."""
    f = DueFloor()
    look = f.begin()
    f.note(10.0)
    f.end(look, 100.0)
    assert f.passed(10.0)


def test_two_looks_at_once_each_keep_the_writes_made_during_them() -> None:
    f = DueFloor()
    first = f.begin()
    f.note(10.0)
    second = f.begin()
    f.end(second, 100.0)  # read after the write: saw it (as 100.0 here, say)
    f.end(first, 200.0)  # read before it: its own answer is later
    assert f.passed(10.0)


def test_a_failed_look_makes_the_next_one_happen() -> None:
    f = DueFloor()
    f.end(f.begin(), 100.0)
    look = f.begin()
    f.abandon(look)
    assert f.passed(-math.inf + 1)


def test_the_look_happens_when_something_may_be_due_or_after_every_seconds() -> None:
    f = DueFloor()
    assert f.look(lambda: ("found", 100.0)) == "found"
    assert f.due(50.0, every=60.0)  # the first time asked: never looked yet
    assert not f.due(50.0, every=60.0)  # nothing due before 100, asked just now
    assert f.due(100.0, every=60.0)  # something may be due
    assert f.due(50.0, every=0.0)  # the time between looks is over


def test_a_look_that_fails_makes_the_next_one_happen() -> None:
    f = DueFloor()
    f.look(lambda: (None, 100.0))

    def broken() -> tuple[None, float]:
        raise OSError("the database is away")

    with pytest.raises(OSError, match="away"):  # the read's error, as it was
        f.look(broken)
    assert f.passed(-math.inf + 1)


def _row(tid: str, deadline: float | None) -> TableRow:
    return TableRow(tid, "thermopyles", "x", {}, [], 0.0, False, deadline=deadline, low_at=None)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_store_keeps_the_earliest_deadline_stored(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """On both databases (PostgreSQL's statements go through the driver, driver.py)."""
    store = Store(database_url(backend, request, tmp_path))
    try:
        store.create(_row("a", 500.0))
        store.create(_row("b", 300.0))
        assert store.due_both(100.0) == ([], [])  # a process not alone keeps no floor
        assert store.due_floor.passed(-1e18)
        assert store.due_both(100.0, floor=True) == ([], [])
        assert not store.due_floor.passed(299.0) and store.due_floor.passed(300.0)
        store.change("a", {"low_at": 200.0})  # a "time low" mark counts too
        assert store.due_floor.passed(200.0)
        store.due_both(100.0, floor=True)
        assert not store.due_floor.passed(199.0)
        store.append("a", 0, [("Greece", "x")], False, {"deadline": 150.0})
        assert store.due_floor.passed(150.0)
        store.change("a", {"deadline": None, "low_at": None})
        store.change("b", {"over": True})
        store.due_both(100.0, floor=True)  # finished tables and cleared columns are not due
        assert not store.due_floor.passed(1e18)
    finally:
        store.dispose()
