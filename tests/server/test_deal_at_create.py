"""A new table's deal (the chance steps it starts with) is drawn when the table is made
and stored with it in one transaction (issue 21, item 7): the table the creator gets is
the one a runner would have left, and the database holds the same steps and row."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from thermopylae.engine import registry
from thermopylae.engine.protocol import CHANCE, Outcome
from thermopylae.server.live import Live
from thermopylae.server.store import Store
from thermopylae.server.tables import Tables

HUMANS = [{"kind": "human"}, {"kind": "human"}]


class _Counting(Store):
    """A store that counts the calls that write a table."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.calls: list[str] = []

    def create(self, *args: Any, **kwargs: Any) -> None:
        self.calls.append("create")
        super().create(*args, **kwargs)

    def append(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append("append")
        return super().append(*args, **kwargs)


def _tables(tmp_path: Path, seed: int = 3) -> tuple[_Counting, Tables]:
    store = _Counting(f"sqlite:///{tmp_path / 't.db'}")
    tables = Tables(store)
    tables.chance_rng = random.Random(seed)  # type: ignore[assignment]  # seeded: a known deal
    return store, tables


def _on_a_new_table(
    store: Store,
    tables: Tables,
    check: Callable[[Live], Awaitable[None]],
    seats: list[dict[str, Any]] = HUMANS,
) -> None:
    """`check` the table a 2-seat Thermopyles request makes; then close and dispose."""

    async def go() -> None:
        live, _tokens = await tables.create("thermopyles", {"players": 2}, seats)
        try:
            await check(live)
        finally:
            await tables.close()

    try:
        asyncio.run(go())
    finally:
        store.dispose()


def test_the_deal_is_stored_with_the_table_in_one_write(tmp_path: Path) -> None:
    store, tables = _tables(tmp_path)

    async def check(live: Live) -> None:
        assert store.calls == ["create"]  # no second transaction for the deal
        assert live.move > 0 and live.to_act() not in (None, CHANCE)
        assert await asyncio.to_thread(store.steps, live.row.id) == live.steps
        row = await asyncio.to_thread(store.table, live.row.id)
        assert row is not None and row.turn == live.to_act() == live.row.turn
        assert row.updated == live.row.updated  # the row held is the stored one
        assert [n for n, _e in live.log] == sorted(n for n, _e in live.log)
        assert live.log and live.log[0][0] == 1  # each line carries its step's count

    _on_a_new_table(store, tables, check)


def test_the_deal_is_the_one_the_runner_drew_from_the_same_source(tmp_path: Path) -> None:
    """The same chance source gives the same deal as drawing it on the game's own start
    (what the table's runner did): same steps, same state."""
    store, tables = _tables(tmp_path, seed=11)
    g = registry.get("thermopyles")
    state = g.new({"players": 2})
    rng = random.Random(11)
    expected = []
    while g.to_act(state) == CHANCE:
        action = g.sample_chance(state, rng)
        expected.append(("chance", g.format(action)))
        g.apply(state, action)

    async def check(live: Live) -> None:
        assert live.steps == expected
        assert g.state_to_json(live.state) == g.state_to_json(state)

    _on_a_new_table(store, tables, check)


def test_open_seats_leave_the_deal_for_later(tmp_path: Path) -> None:
    store, tables = _tables(tmp_path)

    async def check(live: Live) -> None:
        assert live.move == 0 and live.to_act() == CHANCE
        assert store.calls == ["create"]
        assert await asyncio.to_thread(store.steps, live.row.id) == []

    _on_a_new_table(store, tables, check, [{"kind": "human"}, {"kind": "open"}])


def test_a_deal_that_ends_the_game_is_left_to_the_runner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No game's deal ends it; should one, the runner stores it with the game's ending
    (results, notices), as every other step that ends a game."""
    store, tables = _tables(tmp_path)

    async def check(live: Live) -> None:
        fresh = type(live)(live.row, live.game, live.options, live.game.new(live.options))
        over = Outcome(("loss", "loss"), (0.0, 0.0), "test", 0)
        monkeypatch.setattr(live.game, "outcome", lambda _s: over)
        assert tables._deal(fresh) is None
        monkeypatch.undo()
        assert tables._deal(fresh) is not None
        fresh.state = live.state  # past the deal: a seat must act, nothing to draw
        assert tables._deal(fresh) is None

    _on_a_new_table(store, tables, check)
