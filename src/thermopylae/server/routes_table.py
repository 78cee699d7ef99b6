"""What the players of a table say to each other over HTTP: takebacks (`takebacks.py`),
the table's chat and each account's mutes (`chat.py`).

A seat acts by its token or by the login that holds it; a request made with the login's
cookie repeats its CSRF token (as every state-changing request does, see auth.py).
Spectators never write; they read the chat only when the table's terms let them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from thermopylae import i18n
from thermopylae.server import chat, takebacks
from thermopylae.server.account_errors import AccountError
from thermopylae.server.account_store import Account, Accounts
from thermopylae.server.limits import RateLimit
from thermopylae.server.names import name_key
from thermopylae.server.routes_accounts import acting_session, logged_in, session_of
from thermopylae.server.schema import LANG_DOC, errors
from thermopylae.server.seats import TableError, token_hash
from thermopylae.server.store import now
from thermopylae.server.tables import Tables

TAKEBACK_BURST = 10  # takeback actions (ask, answer, cancel) a player may send at once ...
TAKEBACK_EVERY_S = 6.0  # ... and then one per this many seconds, per table


class TakebackIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    action: Literal["request", "accept", "decline", "cancel"] = Field(
        description="request a takeback; accept or decline one asked of you; cancel yours"
    )
    to: int | None = Field(
        default=None,
        ge=0,
        le=1_000_000,
        description="with request: the move to go back to (it must be one of your own "
        "decisions since the last reveal); default: your latest one",
    )
    token: str | None = Field(default=None, max_length=200, description="the seat's token")


class ChatIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    text: str = Field(
        max_length=4 * chat.MAX_TEXT,
        description=f"1 to {chat.MAX_TEXT} characters once trimmed, no control characters",
    )
    token: str | None = Field(default=None, max_length=200, description="the seat's token")


def router(tables: Callable[[], Tables], accounts: Callable[[], Accounts]) -> APIRouter:
    """The routes, over the app's `tables()` and `accounts()` (made at start-up)."""
    r = APIRouter()
    asks = RateLimit(1 / TAKEBACK_EVERY_S, TAKEBACK_BURST)  # in this process

    @r.post(
        "/api/tables/{table_id}/takeback",
        summary="Ask for, answer or cancel a takeback",
        responses=errors(403, 404, 409, 422, 429, 503),
    )
    async def takeback(
        table_id: str,
        body: TakebackIn,
        request: Request,
        lang: str | None = Query(None, description=LANG_DOC),
    ) -> dict[str, Any]:
        session = None if body.token else await acting_session(request, accounts())
        account = None if session is None else session.account.id
        if not body.token and account is None:
            raise TableError(403, "a seat's token (or a login that holds the seat) is required")
        who = f"account {account}" if account is not None else token_hash(str(body.token))[:24]
        if not asks.allow(f"{table_id[:40]} {who}"):
            raise HTTPException(
                429,
                f"too many takeback requests and answers: at most {TAKEBACK_BURST} at once, "
                f"then one every {TAKEBACK_EVERY_S:g} s",
                headers={"Retry-After": str(int(TAKEBACK_EVERY_S))},
            )
        t = tables()
        live, seat = await takebacks.answer(t, table_id, body.token, account, body.action, body.to)
        with i18n.language(i18n.negotiate(lang or request.headers.get("accept-language"))):
            return t.message(live, seat)

    @r.post(
        "/api/tables/{table_id}/chat",
        status_code=201,
        summary="Say something to the table (players only)",
        responses=errors(403, 404, 422, 429, 503),
    )
    async def say(table_id: str, body: ChatIn, request: Request) -> dict[str, Any]:
        text = chat.checked_text(body.text)
        session = None if body.token else await acting_session(request, accounts())
        account = None if session is None else session.account.id
        t = tables()
        live = await t.get(table_id)
        seat = t.seat_of(live, body.token, account)
        if seat is None:
            raise TableError(403, "only the players at this table write in its chat")
        holder = live.row.seats[seat].get("account") or None
        try:
            mid = await asyncio.to_thread(
                t._store_call, chat.post, t.store, table_id, seat, holder, text, now()
            )
        except chat.RateLimited as exc:
            raise HTTPException(
                429,
                f"at most {chat.RATE_COUNT} messages in {chat.RATE_WINDOW:g} s per seat; "
                f"wait {exc.wait} s",
                headers={"Retry-After": str(exc.wait)},
            ) from exc
        if mid > live.chat_last:
            live.chat_last = mid
            live.changes += 1  # screens are told the chat grew (`chat_last`)
        if t.publish is not None:
            await t.publish(table_id, live.version)
        return {"id": mid, "seat": live.seat_names[seat]}

    @r.get(
        "/api/tables/{table_id}/chat",
        summary="The table's chat",
        responses=errors(403, 404, 422, 503),
    )
    async def read(
        table_id: str,
        request: Request,
        token: str | None = Query(None, max_length=200),
        after: int = Query(0, ge=0, le=2**62, description="only messages with a larger id"),
        limit: int = Query(chat.PAGE, ge=1, le=chat.PAGE),
    ) -> dict[str, Any]:
        session = await session_of(request, accounts())
        viewer = None if session is None else session.account.id
        t = tables()
        live = await t.get(table_id)
        seat = t.seat_of(live, token, None if token else viewer)
        if seat is None and not live.row.spectator_chat:
            raise TableError(403, "this table's chat is for its players only")
        found = await asyncio.to_thread(
            t._store_call, chat.messages, t.store, table_id, after, limit, viewer
        )
        names = live.seat_names
        return {
            "messages": [
                {
                    "id": m.id,
                    "seat": names[m.seat] if 0 <= m.seat < len(names) else None,
                    "player": m.player,
                    "text": m.text,
                    "at": m.at,
                }
                for m in found
            ]
        }

    # -- mutes -------------------------------------------------------------------------

    async def db(fn: Callable[..., Any], *args: Any) -> Any:
        """A database call in a worker thread; the database away is a 503."""
        return await asyncio.to_thread(tables()._store_call, fn, *args)

    async def login(request: Request, acting: bool) -> int:
        return (await logged_in(request, accounts(), acting)).account.id

    async def other(me: int, name: str) -> int:
        found: Account | None = await db(accounts().by_key, name_key(name.strip()[:64]))
        if found is None or found.deleted:
            raise AccountError(404, f"no account {name!r}")
        if found.id == me:
            raise AccountError(422, "you cannot mute yourself")
        return found.id

    @r.get("/api/me/mutes", summary="The accounts you muted", responses=errors(401))
    async def my_mutes(request: Request) -> dict[str, Any]:
        me = await login(request, acting=False)
        return {"mutes": await db(chat.muted, accounts().store, me)}

    @r.put(
        "/api/me/mutes/{name}",
        summary="Mute an account: its chat messages are left out for you",
        responses=errors(401, 403, 404, 422),
    )
    async def mute(name: str, request: Request) -> dict[str, Any]:
        me = await login(request, acting=True)
        them = await other(me, name)
        await db(chat.mute, accounts().store, me, them)
        return {"mutes": await db(chat.muted, accounts().store, me)}

    @r.delete(
        "/api/me/mutes/{name}",
        summary="Read an account's chat messages again",
        responses=errors(401, 403, 404, 422),
    )
    async def unmute(name: str, request: Request) -> dict[str, Any]:
        me = await login(request, acting=True)
        them = await other(me, name)
        await db(chat.unmute, accounts().store, me, them)
        return {"mutes": await db(chat.muted, accounts().store, me)}

    return r
