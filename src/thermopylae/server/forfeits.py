"""A seat that gives the game up outside the clock: its player resigned, or deleted the
account. The game ends as the game's `forfeit` says (the seat's side loses), with the
game-over notices and the rating update written in the same conditional change, so a
game ends once even when two processes are asked at the same moment."""

from __future__ import annotations

import asyncio
import functools
from dataclasses import replace
from typing import TYPE_CHECKING

from thermopylae.server.seats import TableError
from thermopylae.server.store import now
from thermopylae.server.timekeeper import forfeit_values, forfeit_writer

if TYPE_CHECKING:
    from thermopylae.server.tables import Tables

REASONS = ("resigned", "left")


async def forfeit(tables: Tables, table_id: str, seat: int, reason: str) -> bool:
    """End the game of `table_id` with `seat` forfeiting for `reason`; False when it was
    over already."""
    live = await tables.get(table_id)
    async with live.lock:
        await tables._catch_up(live, row_too=True)
        if live.outcome() is not None:
            return False
        if live.row.open_seats:
            raise TableError(409, "the game has not started: nobody can resign yet")
        t = now()
        values = forfeit_values(live, seat, reason, t)
        writer = forfeit_writer(live, seat, reason, t)
        done = await asyncio.to_thread(
            tables._store_call,
            functools.partial(
                tables.store.change, table_id, values, when={"over": False}, notices=writer
            ),
        )
        if done:
            live.row = replace(live.row, **values)
            live.changes += 1
    if done:
        await tables.changed(live)
    return bool(done)
