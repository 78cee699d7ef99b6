"""Open seats: a table made with seats anyone may take, listed in the lobby when it is
public, and taken by a logged-in player in one request. The game and its clock start
when the last open seat is taken (nothing moves before: Tables._kick and submit wait)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from thermopylae.server import notices, timekeeper
from thermopylae.server.account_store import Account, Accounts
from thermopylae.server.seats import TableError
from thermopylae.server.store import TableRow, now

if TYPE_CHECKING:
    from thermopylae.server.tables import Tables

LISTED = 100  # open tables the lobby lists at most


async def join(tables: Tables, table_id: str, seat_name: Any, account: Account) -> str:
    """`account` takes the open seat `seat_name`; its name. 409 when the seat is not
    open (taken meanwhile, or never open) or the account already plays at the table."""
    live = await tables.get(table_id)
    async with live.lock:
        await tables._catch_up(live, row_too=True)
        names = live.seat_names
        if not isinstance(seat_name, str) or seat_name not in names:
            raise TableError(422, f"no seat {seat_name!r} at this table; seats: {', '.join(names)}")
        seat = names.index(seat_name)
        if live.row.seats[seat]["kind"] != "open":
            free = live.open_seats()
            raise TableError(
                409,
                f"seat {seat_name} is taken"
                + (f"; open seats: {', '.join(free)}" if free else "; no seat is open"),
            )
        mine = [names[i] for i, a in live.row.accounts().items() if a == account.id]
        if mine:
            raise TableError(409, f"you already play {', '.join(mine)} at this table")
        seats = [dict(s) for s in live.row.seats]
        seats[seat] = {"seat": seat_name, "kind": "human", "agent": None, "token_hash": None}
        seats[seat]["account"] = account.id
        before = live.row.open_seats
        trial = replace(live.row, seats=seats, open_seats=before - 1)
        live.names[account.id] = account.name
        live.shares[account.id] = account.low_share
        values: dict[str, Any] = {}
        writer = None
        if trial.open_seats == 0:  # the last seat: the game and its clock start now
            held, live.row = live.row, trial
            try:
                values = timekeeper.after(live, live.to_act(), now())
                writer = notices.invitation(live, account.id)
            finally:
                live.row = held
        done = await asyncio.to_thread(
            tables._store_call,
            tables.store.join,
            table_id,
            seat,
            seats,
            account.id,
            before,
            values,
            writer,
        )
        if not done:
            tables.live.pop(table_id, None)  # read again next time
            raise TableError(409, "another player joined at the same moment; reload and try again")
        live.row = replace(trial, **values)
        live.changes += 1
    await tables.changed(live)
    return seat_name


def listing(rows: list[TableRow], accounts: Accounts, base: str) -> list[dict[str, Any]]:
    """The lobby's open games: game, options, clock, terms, the seats still open and the
    players who wait at each table."""
    from thermopylae.engine import registry

    ids = sorted({a for r in rows for a in r.accounts().values()})
    names = {i: a.name for i, a in accounts.by_ids(ids).items()} if ids else {}
    out = []
    for r in rows:
        if r.game not in registry.game_ids():
            continue
        out.append(
            {
                "id": r.id,
                "game": r.game,
                "title": registry.get(r.game).title,
                "options": r.options,
                "clock": r.clock,
                "rated": r.rated,
                "takebacks": r.takebacks,
                "open_seats": [s["seat"] for s in r.seats if s["kind"] == "open"],
                "players": [
                    {"seat": s["seat"], "player": names.get(s["account"])}
                    for s in r.seats
                    if s.get("account")
                ],
                "bots": [
                    {"seat": s["seat"], "level": s.get("level")}
                    for s in r.seats
                    if s["kind"] == "ai"
                ],
                "created": r.created,
                "url": f"{base}/table/{r.id}",
            }
        )
    return out
