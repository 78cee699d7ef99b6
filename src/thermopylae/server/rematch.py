"""Rematch: after a game, a seat offers the same players the same game (options, clock,
terms) with the sides swapped or kept; another player accepts or declines. Against bots
alone the offer is taken at once. The new table's id is derived from the offer, so two
processes that accept the same offer make one table, not two."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError

from thermopylae.server.new_table import Terms
from thermopylae.server.seats import TableError
from thermopylae.server.store import now

if TYPE_CHECKING:
    from thermopylae.server.live import Live
    from thermopylae.server.tables import Tables

ACTIONS = ("offer", "accept", "decline")


def _people(live: Live) -> list[int]:
    return [i for i, r in enumerate(live.row.seats) if r["kind"] != "ai"]


def new_seats(live: Live, swap: bool) -> list[dict[str, Any]]:
    """The rematch's seats: each account (or bot) in the seat it had, or with `swap` in
    the seat order reversed (Persia plays Greece; in 300 with four, the Persian players
    take the Spartan seats)."""
    order = list(range(len(live.row.seats)))
    if swap:
        order.reverse()
    out: list[dict[str, Any]] = []
    for i in order:
        r = live.row.seats[i]
        if r["kind"] == "ai":
            out.append(
                {"kind": "ai", "level": r["level"]}
                if r.get("level")
                else {"kind": "ai", "agent": r["agent"]}
            )
        else:
            out.append({"kind": "account", "name": live.names[r["account"]]})
    return out


async def act(
    tables: Tables, table_id: str, seat: int | None, action: Any, swap: bool
) -> dict[str, Any] | None:
    """Offer, accept or decline the rematch of a finished table as `seat`; the table's
    rematch state after it."""
    if action not in ACTIONS:
        raise TableError(422, f"action must be one of {', '.join(ACTIONS)}, not {action!r}")
    live = await tables.get(table_id)
    if seat is None or live.row.seats[seat]["kind"] == "ai":
        raise TableError(403, "only a player of this table can offer or answer a rematch")
    async with live.lock:
        await tables._catch_up(live, row_too=True)
        if live.outcome() is None:
            raise TableError(409, "a rematch is offered once the game is over")
        guests = [live.seat_names[i] for i in _people(live) if not live.row.seats[i].get("account")]
        if guests:
            raise TableError(
                422,
                f"a rematch is made between accounts; {', '.join(guests)} played by link "
                "(start a new table from the lobby instead)",
            )
        offer = live.row.rematch
        if action == "offer":
            if offer is not None and offer.get("table"):
                raise TableError(409, "the rematch has been made already")
            offer = {"by": seat, "swap": bool(swap), "table": None, "declined": False, "at": now()}
            others = [i for i in _people(live) if i != seat]
            if others:
                await _store(tables, live, offer)
                done = offer
            else:  # against bots alone: taken at once
                done = await _make(tables, live, offer)
        else:
            if offer is None or offer.get("table") or offer.get("declined"):
                raise TableError(409, "there is no rematch offer to answer")
            if offer["by"] == seat:
                raise TableError(409, "your own offer waits for another player's answer")
            if action == "decline":
                done = {**offer, "declined": True}
                await _store(tables, live, done)
            else:
                done = await _make(tables, live, offer)
    await tables.changed(live)
    return done


async def _store(tables: Tables, live: Live, offer: dict[str, Any]) -> None:
    await asyncio.to_thread(
        tables._store_call, tables.store.change, live.row.id, {"rematch": offer}
    )
    live.row = replace(live.row, rematch=offer)
    live.changes += 1


async def _make(tables: Tables, live: Live, offer: dict[str, Any]) -> dict[str, Any]:
    """Create the rematch table (once: its id comes from the offer) and remember it."""
    row = live.row
    key = f"{row.id}:{offer['at']!r}:{offer['swap']}".encode()
    new_id = "r" + hashlib.sha256(key).hexdigest()[:15]
    terms = Terms(
        public=False,
        rated=row.rated,
        takebacks=row.takebacks,
        spectator_chat=row.spectator_chat,
    )
    existing = await asyncio.to_thread(tables._store_call, tables.store.table, new_id)
    if existing is None:
        with contextlib.suppress(IntegrityError):  # another process made it first
            await tables.create(
                row.game,
                dict(row.options),
                new_seats(live, bool(offer["swap"])),
                client=live.client,
                clock=row.clock,
                creator=None,
                terms=terms,
                table_id=new_id,
            )
    done = {**offer, "table": new_id}
    await _store(tables, live, done)
    return done
