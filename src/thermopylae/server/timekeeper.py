"""The server's clocks: each table's time control charged as its steps are stored, and
the deadlines enforced.

Nothing here keeps time in memory: a table's clock (`clock_state`), its `deadline` and its
`low_at` mark are columns written in the same transaction as the step that starts the
turn, so they survive restarts. Every server process looks for deadlines fallen due a few
times a second (`Timekeeper.run`); the one whose conditional UPDATE changes the row
(`Store.change(..., when={"deadline": ...})`) enforces it, so each deadline is enforced
exactly once however many processes share the database.

A process alone on its database (no Redis) skips the look while nothing stored can be due:
every deadline and "time low" mark is written through its store, which keeps the earliest
one known (`Store.due_floor`, lowered by each write, raised by each look), and looks at
least every `LOOK_ANYWAY` seconds (a row changed by hand). Its looks were most of an idle
server's CPU, and at 100 tables a few percent of a busy one's.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from thermopylae.engine.clock import (
    ClockState,
    TimeControl,
    advance,
    deadline,
    low_at,
    remaining_now,
    start,
)
from thermopylae.engine.protocol import CHANCE
from thermopylae.server import endings, notices
from thermopylae.server.seats import TableError, level_agent
from thermopylae.server.store import NoticeWriter, StoreError, TableRow, now

if TYPE_CHECKING:
    from thermopylae.server.live import Live
    from thermopylae.server.tables import Tables

log = logging.getLogger("thermopylae.server")

TICK = 0.25  # seconds between looks for deadlines fallen due (enforced within a second)
LOOK_ANYWAY = 5.0  # seconds between looks, alone on the database, when nothing can be due
STANDIN_LEVEL = "normal"  # the bot that plays for a seat whose time ran out ("ai")
LATE_GRACE = 0.0  # seconds after the deadline a move is still taken (none: authoritative)


def control(live: Live) -> TimeControl | None:
    return None if live.row.clock is None else TimeControl.from_json(live.row.clock)


def _state(live: Live, tc: TimeControl) -> ClockState:
    if live.row.clock_state is not None:
        return ClockState.from_json(live.row.clock_state)
    return start(tc, len(live.row.seats), now(), None)


def _share(live: Live, seat: int | None) -> float | None:
    """The "time low" share of the account holding `seat` (None: nobody to warn)."""
    if seat is None:
        return None
    account = live.row.seats[seat].get("account")
    return None if not account else live.shares.get(account)


def after(live: Live, to_act: int | None, t: float) -> dict[str, Any]:
    """The table's columns once the next decider is `to_act` (CHANCE, a seat, or None
    when the game is over): whose turn it is, and with a clock its charged banks, the new
    deadline and low mark. Only a human seat that must decide is charged."""
    values: dict[str, Any] = {"turn": to_act}
    tc = control(live)
    if tc is None:
        return values
    decider = to_act if to_act is not None and to_act != CHANCE else None
    cs = advance(tc, _state(live, tc), t, decider, lambda s: s not in live.agents)
    share = _share(live, cs.running)
    values.update(
        clock_state=cs.to_json(),
        deadline=deadline(cs),
        low_at=None if share is None else low_at(cs, tc, share),
    )
    return values


def clock_of(row: TableRow, t: float) -> dict[str, Any] | None:
    """A table's clock as screens and "My games" show it: the control, each seat's bank
    as of `t` (the server's time, sent along to correct the browser's), the running seat
    and its deadline; None without a clock."""
    if row.clock is None or row.clock_state is None:
        return None
    cs = ClockState.from_json(row.clock_state)
    running = None if row.over else cs.running
    return {
        "control": row.clock,
        "remaining": remaining_now(cs, t) if running is not None else list(cs.remaining),
        "running": None if running is None else row.seats[running]["seat"],
        "deadline": row.deadline if running is not None else None,
        "now": t,
    }


def clock_message(live: Live) -> dict[str, Any] | None:
    return clock_of(live.row, now())


def forfeit_values(live: Live, seat: int, reason: str, t: float) -> dict[str, Any]:
    """The table's columns once `seat` forfeits (time ran out, its account was deleted,
    it resigned): over, with nobody to decide and no clock running, and the result
    stored for the archive."""
    outcome = live.game.forfeit(live.state, seat, reason)
    return {
        "result": {"reason": reason, "seat": seat},
        "over": True,
        "turn": None,
        "deadline": None,
        "low_at": None,
        "takeback": None,  # a request pending at the end has nothing left to take back
        **endings.columns(outcome, t),
    }


def forfeit_writer(live: Live, seat: int, reason: str, t: float) -> NoticeWriter | None:
    """The notices and the rating update of a forfeit, written with it."""
    outcome = live.game.forfeit(live.state, seat, reason)
    return notices.combine(
        notices.game_over(live, live.row.id), endings.settle(live.row, live.game, outcome, t)
    )


def too_late(live: Live, seat: int) -> None:
    """Refuse a move that arrives after the seat's deadline (the server's clock decides,
    even before the timekeeper has enforced it)."""
    d = live.row.deadline
    if d is None or live.row.turn != seat:
        return
    late = now() - d
    if late > LATE_GRACE:
        raise TableError(
            409,
            f"time ran out for {live.seat_names[seat]}: the move came {late:.1f} s after "
            "the deadline and was not played",
        )


class Timekeeper:
    """Enforces the deadlines and the "time low" warnings of every table in the database."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.store = tables.store

    async def run(self) -> None:
        alone = not self.tables.shared  # every deadline stored was written here
        while True:
            try:
                if not alone or self.store.due_floor.due(now(), LOOK_ANYWAY):
                    await self.tick()
            except (StoreError, TableError):
                pass  # the database is away: the next tick tries again
            except Exception:  # a defect: logged, and the clocks keep being looked at
                log.exception("the timekeeper failed; trying again")
            await asyncio.sleep(TICK)

    async def tick(self, t: float | None = None) -> None:
        t = now() if t is None else t
        alone = not self.tables.shared  # the floor is kept only where it is used
        deadlines, lows = await asyncio.to_thread(self.store.due_both, t, alone)
        for tid, when in deadlines:
            await self.expire(tid, when)
        if deadlines:  # a game that ended just now is warned of no more
            lows = await asyncio.to_thread(self.store.due, t, "low_at")
        for tid, when in lows:
            await self.warn(tid, when)

    async def expire(self, table_id: str, when: float) -> bool:
        """The deciding seat's bank ran out at `when`: forfeit, or a stand-in bot plays
        its moves. True if this process enforced it (False: another did, or the table
        moved on in time)."""
        live = await self.tables.get(table_id)
        async with live.lock:
            await self.tables._catch_up(live, row_too=True)  # the stored row decides
            tc = control(live)
            seat = live.row.turn
            if tc is None or seat is None or seat < 0 or live.row.deadline != when:
                return False
            cs = _state(live, tc)
            banks = list(cs.remaining)
            banks[seat] = 0.0
            spent = ClockState(banks, None, when)
            values: dict[str, Any] = {"clock_state": spent.to_json()}
            if tc.on_timeout == "forfeit":
                values.update(forfeit_values(live, seat, "time", when))
                writer = forfeit_writer(live, seat, "time", when)
            else:
                values.update(standin=[*live.row.standin, seat], deadline=None, low_at=None)
                writer = None
            changed = await asyncio.to_thread(
                self.store.change, table_id, values, when={"deadline": when}, notices=writer
            )
            if not changed:
                return False
            live.row = replace(live.row, **values)
            live.changes += 1
            self.tables._make_agents(live)  # with "ai", a stand-in bot plays the seat
        log.info("table %s: time ran out for %s (%s)", table_id, seat, tc.on_timeout)
        await self.tables.changed(live)
        return True

    async def warn(self, table_id: str, when: float) -> bool:
        """The deciding seat's bank fell under its account's "time low" share."""
        live = await self.tables.get(table_id)
        async with live.lock:
            await self.tables._catch_up(live, row_too=True)
        seat = live.row.turn
        if seat is None or seat < 0 or live.row.low_at != when:
            return False
        writer = notices.time_low(live, table_id, seat)
        changed = await asyncio.to_thread(
            self.store.change, table_id, {"low_at": None}, when={"low_at": when}, notices=writer
        )
        if changed:
            live.row = replace(live.row, low_at=None)
        return bool(changed)

    async def give_back(self, live: Live, seat: int) -> None:
        """The player of `seat` is back (opened the table as that seat): the stand-in bot
        stops at once (a move it is still thinking about is dropped, see Tables._step),
        and the seat's clock runs again."""
        if seat not in live.row.standin:
            return
        t = self.tables
        async with live.lock:
            values = self._back(live, seat)
            if values is None:
                return
            live.row = replace(live.row, **values)
            t._make_agents(live)
            values.update(after(live, live.to_act(), now()))
            await asyncio.to_thread(t._store_call, self.store.change, live.row.id, values)
            live.row = replace(live.row, **values)
            live.changes += 1
        await t.changed(live)

    def _back(self, live: Live, seat: int) -> dict[str, Any] | None:
        """A player whose seat a stand-in bot plays is back: the values that give the seat
        back (its bank restarts at one increment, or a tenth of the initial time)."""
        tc = control(live)
        if tc is None or seat not in live.row.standin:
            return None
        cs = _state(live, tc)
        banks = list(cs.remaining)
        banks[seat] = max(tc.increment_s, tc.initial_s / 10)
        return {
            "standin": [s for s in live.row.standin if s != seat],
            "clock_state": ClockState(banks, cs.running, cs.since, cs.turn).to_json(),
        }


def standin_agent(live: Live, seat: int) -> str | None:
    return level_agent(live.game, STANDIN_LEVEL, len(live.row.seats), live.seat_names[seat])
