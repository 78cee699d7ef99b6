"""Takebacks on the server: a seat asks to take back its own decisions, the other players
whose decisions it undoes consent, and the table goes back.

What may be taken back is `engine.takeback`'s one policy (never past a reveal, only the
seat's own decisions). Who must consent is decided here: the human seats whose decisions
the takeback undoes (bots never object); when it undoes none, the other human seats
(they watch the game too). With nobody to ask it happens at once. A pending request is
stored in the table's row (`takeback`: {"seat", "to", "at", "waiting_for"}) and any move
played answers it "no" (Tables._commit clears it).

Taking back deletes the steps from the move `to` on, grows the table's `epoch`, starts the
clock of the seat that now decides and makes the game unrated, in one transaction that
holds only if the table is still as this process saw it (`Store.take_back`); other
processes rebuild the table when they see the new epoch (`Tables._catch_up`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from thermopylae.engine.takeback import takebacks
from thermopylae.server import timekeeper
from thermopylae.server.live import Live, first_state
from thermopylae.server.seats import TableError
from thermopylae.server.store import Conflict, StoreError, now
from thermopylae.server.tables import Tables

ACTIONS = ("request", "accept", "decline", "cancel")


async def answer(
    t: Tables,
    table_id: str,
    token: str | None,
    account: int | None,
    action: str,
    to: int | None = None,
) -> tuple[Live, int]:
    """A seat's takeback `action` (one of ACTIONS; `to` only with "request"): the table
    and the seat, once done; refused with a TableError naming why."""
    if action not in ACTIONS:
        raise TableError(422, f"action must be one of {', '.join(ACTIONS)}")
    if to is not None and action != "request":
        raise TableError(422, f'"to" goes with "request" only, not with "{action}"')
    live = await t.get(table_id, catch_up=False)
    mine = t.seat_of(live, token, account)
    if mine is not None and mine in live.row.standin:  # the player is back (as on a GET)
        await t.back(live, mine)
    async with live.lock:
        if t.shared:  # another process may have moved, asked or answered
            await t._catch_up(live, row_too=True)
        seat = t.seat_of(live, token, account)
        if seat is None:
            raise TableError(
                403, "only a player at this table takes back (a seat's token or login)"
            )
        if live.to_act() is None:
            raise TableError(409, "the game is over: nothing is taken back any more")
        if action == "request":
            await _request(t, live, seat, to)
        else:
            await _reply(t, live, seat, action)
    await t.changed(live)  # screens and other processes are told; a bot may now move
    return live, seat


def consent(live: Live, seat: int, undone: set[int]) -> list[int]:
    """The seats whose players must agree to a takeback by `seat` that undoes the
    decisions of `undone`: its human seats (not those the same account holds), or with
    none undone every other human seat. Empty: it happens at once."""
    rows = live.row.seats
    mine = rows[seat].get("account")
    humans = {
        i
        for i, r in enumerate(rows)
        if i != seat and r["kind"] == "human" and not (mine and r.get("account") == mine)
    }
    return sorted(undone & humans if undone else humans)


async def _request(t: Tables, live: Live, seat: int, to: int | None) -> None:
    if not live.row.takebacks:
        raise TableError(403, "this table was created without takebacks")
    pending = live.row.takeback
    if pending is not None:
        raise TableError(
            409,
            f"{live.seat_names[int(pending['seat'])]} already asked for a takeback to move "
            f"{pending['to']}: it must be answered (or cancelled) first",
        )
    tb = takebacks(live.game, live.options, live.steps)
    if to is None:
        to = tb.last_own(seat)
        if to is None:
            raise TableError(
                409,
                "you have no decision to take back since the last revealed card or die roll "
                "(a takeback never goes past revealed information)",
            )
    why = tb.refusal(seat, to)
    if why is not None:
        raise TableError(409, why)
    waiting = consent(live, seat, tb.others(seat, to))
    if not waiting:
        await _take_back(t, live, seat, to)
        return
    request = {"seat": seat, "to": to, "at": now(), "waiting_for": waiting}
    await _store(t, live, {"takeback": request})


async def _reply(t: Tables, live: Live, seat: int, action: str) -> None:
    pending = live.row.takeback
    if pending is None:
        raise TableError(409, "no takeback is asked for at this table")
    by, waiting = int(pending["seat"]), [int(i) for i in pending["waiting_for"]]
    if action == "cancel":
        if seat != by:
            raise TableError(409, "only the seat that asked for the takeback cancels it")
        await _store(t, live, {"takeback": None})
        return
    if seat not in waiting:
        raise TableError(
            409,
            "you asked for this takeback: cancel it instead"
            if seat == by
            else "this takeback does not wait for your answer",
        )
    if action == "decline":
        await _store(t, live, {"takeback": None})
        return
    rest = [i for i in waiting if i != seat]
    if rest:
        await _store(t, live, {"takeback": {**pending, "waiting_for": rest}})
        return
    why = takebacks(live.game, live.options, live.steps).refusal(by, int(pending["to"]))
    if why is not None:  # cannot happen while a move clears a request; never forced
        await _store(t, live, {"takeback": None})
        raise TableError(409, f"the takeback can no longer be done: {why}")
    await _take_back(t, live, by, int(pending["to"]))


async def _take_back(t: Tables, live: Live, seat: int, to: int) -> None:
    """Go back to move `to` (a decision of `seat`): stored, then replayed here."""
    g = live.game
    kept = live.steps[:to]
    state = first_state(g, live.row)
    for _who, text in kept:
        g.apply(state, g.parse(text), quiet=True)
    values = timekeeper.after(live, g.to_act(state), now())
    values.update(takeback=None, rated=False)  # a game with a takeback is never rated
    await _store(t, live, values, back_to=to)
    live.row = replace(live.row, epoch=live.row.epoch + 1)
    t.replay(live, kept)


async def _store(t: Tables, live: Live, values: dict[str, Any], back_to: int | None = None) -> None:
    """Store `values` (and a takeback to `back_to`) if the table is as seen here, then
    make them the row held in memory."""
    seen = (live.row.epoch, live.move, live.row.takeback)
    try:
        await t._write(t.store.take_back, live.row.id, seen, values, back_to)
    except Conflict as exc:
        t.live.pop(live.row.id, None)  # another process changed it: read it again next time
        raise TableError(409, f"{exc}; reload and try again") from exc
    except StoreError as exc:
        if exc.maybe_stored:
            t.live.pop(live.row.id, None)
            raise TableError(
                503, f"{exc}; it may or may not have been stored: reload once the database is back"
            ) from exc
        raise TableError(503, f"{exc}; nothing was changed, try again") from exc
    live.row = replace(live.row, **values)
    live.changes += 1  # a request or its answer changes no step: screens must be told too
