"""What an account does with tables: its list ("My games"), claiming a guest seat it holds
the token of, leaving its games when it is deleted, and the settings page's test notice.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from thermopylae.engine import registry
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.server import forfeits, notify, outbox
from thermopylae.server.account_store import DELETED_NAME, Account
from thermopylae.server.db import accounts, notices
from thermopylae.server.seats import TableError
from thermopylae.server.store import TableRow, now
from thermopylae.server.timekeeper import clock_of

if TYPE_CHECKING:
    from thermopylae.server.tables import Tables


def _entry(seat: int, row: TableRow, t: float) -> dict[str, Any]:
    try:
        title = registry.get(row.game).title
    except ThermopylaeError:
        title = row.game
    clock = clock_of(row, t)
    return {
        "id": row.id,
        "game": row.game,
        "title": title,
        "seat": row.seats[seat]["seat"],
        "seats": [s["seat"] for s in row.seats],
        "your_turn": (not row.over) and row.turn == seat,
        "over": row.over,
        "result": row.result,
        "scores": row.scores,
        "rated": row.rated,
        "open_seats": [s["seat"] for s in row.seats if s["kind"] == "open"],
        "clock": clock,
        "created": row.created,
        "updated": row.updated,
        "link": f"/table/{row.id}",
    }


def listing(mine: list[tuple[int, TableRow]]) -> dict[str, list[dict[str, Any]]]:
    """The account's tables: the active ones with "your turn" first (the nearest deadline
    first among them), then the finished ones, newest first."""
    t = now()
    entries = [_entry(seat, row, t) for seat, row in mine]
    active = [e for e in entries if not e["over"]]
    active.sort(
        key=lambda e: (
            not e["your_turn"],
            (e["clock"] or {}).get("deadline") or float("inf"),
            -(e["updated"] or 0.0),
        )
    )
    finished = [e for e in entries if e["over"]]
    return {"active": active, "finished": finished}


async def claim(tables: Tables, table_id: str, token: str, account: Account) -> str:
    """The guest seat that `token` holds becomes held by `account` too (the token keeps
    working: the link a player kept still opens the seat)."""
    live = await tables.get(table_id)
    async with live.lock:
        seat = tables.seat_of(live, token)
        if seat is None:
            raise TableError(403, "give the token of the seat to claim")
        held = live.row.seats[seat].get("account")
        if held == account.id:
            return live.seat_names[seat]
        if held:
            raise TableError(409, "another account holds this seat")
        seats = [dict(s) for s in live.row.seats]
        seats[seat]["account"] = account.id
        await asyncio.to_thread(
            tables._store_call, tables.store.hold_seat, table_id, seat, seats, account.id
        )
        live.row = replace(live.row, seats=seats)
        live.names[account.id] = account.name
        live.shares[account.id] = account.low_share
        live.changes += 1
    await tables.changed(live)
    return live.seat_names[seat]


async def leave_all(tables: Tables, account_id: int, mine: list[tuple[int, TableRow]]) -> None:
    """A deleted account's unfinished games end: its seat forfeits (reason "left"); the
    tables in memory show it as a deleted player from now on."""
    for _seat, row in mine:
        held = tables.live.get(row.id)
        if held is not None and account_id in held.names:
            held.names[account_id] = DELETED_NAME
            held.changes += 1
    for seat, row in mine:
        if not row.over:
            with contextlib.suppress(TableError):  # a table that cannot load stays as it is
                await forfeits.forfeit(tables, row.id, seat, "left")


async def test_notice(
    tables: Tables, account: Account, deliverer: outbox.Deliverer | None
) -> dict[str, Any]:
    """Queue a test notice to each of the account's channels and send it now; answers
    what happened on each."""
    if deliverer is None:
        raise TableError(503, "notifications are not running on this server")
    key = f"test:{account.id}:{time.time():.6f}"
    body = notify.make_body(
        "test", "", "thermopylae", None, tables.link_base or "", None, account.lang
    )

    def write() -> list[int]:
        with tables.store._tx() as conn:
            r = conn.execute(accounts.select().where(accounts.c.id == account.id)).first()
            if r is None:
                return []
            return outbox.queue(conn, outbox.endpoints(dict(r._mapping)), "test", None, body, key)

    ids = await asyncio.to_thread(tables._store_call, write)
    if not ids:
        raise TableError(422, "set a webhook or an email address first (and save)")
    results = []
    for notice_id in ids:
        out = await deliverer.deliver_now(notice_id, wait=20.0)
        results.append({"status": out.status, "attempts": out.attempts, "error": out.last_error})
    channels = await asyncio.to_thread(tables._store_call, _channels, tables, ids)
    for result, channel in zip(results, channels, strict=True):
        result["channel"] = channel
    return {"sent": results}


def _channels(tables: Tables, ids: list[int]) -> list[str]:
    with tables.store._tx() as conn:
        found = dict(
            conn.execute(select(notices.c.id, notices.c.channel).where(notices.c.id.in_(ids))).all()
        )
    return [str(found.get(i, "")) for i in ids]
