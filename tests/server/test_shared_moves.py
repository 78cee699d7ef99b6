"""Processes that share a database store a move only if the table is still as they hold it
(Store.append's `seen`): the row is locked, and a step or a change of the row stored
meanwhile by another process refuses the move and hands back what changed, which the
process applies before checking the move again. One transaction per move where a catch-up
before the check took one of its own, and nothing is stored on a stale copy."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import BACKENDS, database_url
from thermopylae.server.seats import TableError
from thermopylae.server.store import Store, TableRow
from thermopylae.server.tables import Tables


def _new_table(store: Store, table_id: str = "tableShared1") -> TableRow:
    seats = [
        {"seat": "p1", "kind": "human", "token_hash": "a"},
        {"seat": "p2", "kind": "human", "token_hash": "b"},
    ]
    store.create(TableRow(table_id, "thermopyles", "digest", {"players": 2}, seats, 1.0, False))
    row = store.table(table_id)
    assert row is not None
    return row


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_move_on_the_row_as_seen_is_stored(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    store = Store(database_url(backend, request, tmp_path))
    try:
        row = _new_table(store)
        values = {"turn": 1, "updated": 5.0, "clock_state": {"banks": [1.5, 2.0]}}
        assert (
            store.append(row.id, 0, [("p1", "a"), ("chance", "b")], False, values, seen=row) is None
        )
        after = store.table(row.id)
        assert after == row.with_values(values)  # what the caller holds once it stored
        assert store.steps(row.id) == [("p1", "a"), ("chance", "b")]
        # the next move, checked against that row, is stored too
        assert store.append(row.id, 2, [("p2", "c")], False, {"turn": 0}, seen=after) is None
        assert len(store.steps(row.id)) == 3
    finally:
        store.dispose()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_move_after_another_process_stored_a_step_is_refused_with_what_changed(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    store = Store(database_url(backend, request, tmp_path))
    try:
        row = _new_table(store)
        store.append(row.id, 0, [("p1", "a")], False, {"turn": 1})  # the other process
        caught = store.append(row.id, 0, [("p1", "x")], False, {"turn": 1}, seen=row)
        assert caught is not None
        steps, now_row = caught
        assert steps == [("p1", "a")]
        assert now_row == store.table(row.id)
        assert store.steps(row.id) == [("p1", "a")]  # nothing stored
    finally:
        store.dispose()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_move_after_the_row_changed_without_a_step_is_refused(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    store = Store(database_url(backend, request, tmp_path))
    try:
        row = _new_table(store)
        # another process ended the game for time: no step, only the row
        assert store.change(row.id, {"result": {"seat": 0, "reason": "time"}, "over": True})
        caught = store.append(row.id, 0, [("p1", "x")], False, {"turn": 1}, seen=row)
        assert caught is not None
        steps, now_row = caught
        assert steps == [] and now_row is not None and now_row.over
        assert store.steps(row.id) == []
        assert store.table(row.id) == now_row  # the row as the other process left it
    finally:
        store.dispose()


def _play(tables: Tables, table_id: str, tokens: list[Any], rng: random.Random) -> Any:
    """A random legal action of the seat to act at the table as `tables` holds it."""
    live = tables.live[table_id]
    seat = live.to_act()
    assert seat is not None  # the game is not over
    action = live.game.format(rng.choice(list(live.game.legal(live.state))))
    return tables.submit(table_id, tokens[seat], live.move, action)


def test_two_processes_play_one_table_and_refuse_moves_on_stale_copies(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Two `Tables` sharing a PostgreSQL schema (no Redis: neither is told of the other's
    moves). The one that moves on a stale copy checks the move again against the stored
    table: a move still legal there is stored, one that is not is refused, and a table the
    other process ended is refused as over. A process moving on its own copy, clock and
    all, never finds its stored row changed."""
    url = database_url("postgresql", request, tmp_path)

    async def scenario() -> None:
        one, two = Store(url), Store(url)
        a, b = Tables(one, shared=True), Tables(two, shared=True)
        refused: list[Any] = []
        for store in (one, two):
            append = store.append

            def counted(*args: Any, _append: Any = append) -> Any:
                caught = _append(*args)
                if caught is not None:
                    refused.append(caught)
                return caught

            store.append = counted  # type: ignore[method-assign,assignment]  # a spy
        rng = random.Random(3)
        try:
            live, tokens = await a.create(
                "thermopyles",
                {"players": 2},
                [{"kind": "human"}, {"kind": "human"}],
                clock={"initial_s": 600, "increment_s": 5},
            )
            tid = live.row.id
            for _ in range(6):  # process one alone: its own copy is the stored table
                await _play(a, tid, tokens, rng)
            assert refused == []
            await b.get(tid)  # process two loads the table ...
            for _ in range(3):  # ... and one moves on: two's copy is stale
                await _play(a, tid, tokens, rng)
            stale = b.live[tid]
            assert stale.move < live.move
            # a move sent for the stored table's move number is checked again and stored
            mover = live.to_act()
            assert mover is not None
            action = live.game.format(rng.choice(list(live.game.legal(live.state))))
            await b.submit(tid, tokens[mover], live.move, action)
            assert b.live[tid].move == len(two.steps(tid)) > live.move
            # one's copy is now stale: its stale move number is refused ...
            stale_mover = live.to_act()
            assert stale_mover is not None
            with pytest.raises(TableError) as exc:
                await a.submit(tid, tokens[stale_mover], live.move, "pass")
            assert exc.value.status == 409
            # ... and a move on the stored table goes through after its catch-up
            await _play(a, tid, tokens, rng)
            assert a.live[tid].steps == one.steps(tid)
            # two catches up; then one ends the game for time, and two's copy does not know
            two_live = await b.get(tid)
            n = len(one.steps(tid))
            assert two_live.move == n
            assert one.change(tid, {"result": {"seat": 0, "reason": "time"}, "over": True})
            seat = two_live.to_act()
            assert seat is not None and seat >= 0  # the table's deal is drawn with each move
            action = two_live.game.format(next(iter(two_live.game.legal(two_live.state))))
            before = len(refused)
            with pytest.raises(TableError) as exc:
                await b.submit(tid, tokens[seat], n, action)
            assert exc.value.status == 409 and "over" in exc.value.detail
            assert len(refused) == before + 1  # the move was valid on the copy: the guard
            assert len(one.steps(tid)) == n  # nothing stored on the stale copy
        finally:
            await a.close()
            await b.close()
            one.dispose()
            two.dispose()

    asyncio.run(scenario())
