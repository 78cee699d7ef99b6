"""The community's routes over the tables: the lobby's open games, joining an open seat,
resigning, rematches and the quick-match queue (takebacks and chat are in routes_table,
ratings and players' pages in routes_players)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from thermopylae.server import forfeits, open_tables, rematch
from thermopylae.server.account_store import Accounts
from thermopylae.server.matchmaking import Matchmaking, check
from thermopylae.server.routes_accounts import Session, acting_seat, logged_in
from thermopylae.server.schema import JoinIn, MatchIn, RematchIn, errors
from thermopylae.server.seats import TableError
from thermopylae.server.tables import Tables


class ResignIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    token: str | None = Field(default=None, max_length=200, description="a guest seat's token")


def router(
    tables: Callable[[], Tables], accounts: Accounts, limit: Callable[[Request], None]
) -> APIRouter:
    r = APIRouter()
    queue: dict[str, Matchmaking] = {}

    def matchmaking() -> Matchmaking:
        if "m" not in queue:
            queue["m"] = Matchmaking(tables())
        return queue["m"]

    async def login(request: Request, acting: bool = True) -> Session:
        return await logged_in(request, accounts, acting)

    async def seat_of(request: Request, table_id: str, token: str | None) -> int | None:
        t = tables()
        return await acting_seat(request, accounts, t, await t.get(table_id), token)

    @r.get(
        "/api/tables",
        summary="The lobby's open games: public tables with a free seat",
        responses=errors(422, 503),
    )
    async def open_games(
        request: Request,
        open: int = Query(
            ge=1,
            le=1,
            description="1: the open tables (the only list there is: a private table is "
            "reached by its link)",
        ),
    ) -> dict[str, Any]:
        t = tables()
        rows = await asyncio.to_thread(t._store_call, t.store.open_tables, open_tables.LISTED)
        base = str(request.base_url).rstrip("/")
        listed = await asyncio.to_thread(t._store_call, open_tables.listing, rows, accounts, base)
        return {"tables": listed}

    @r.post(
        "/api/tables/{table_id}/join",
        summary="Take an open seat (with your login)",
        responses=errors(401, 403, 404, 409, 422, 503),
    )
    async def join(table_id: str, body: JoinIn, request: Request) -> dict[str, Any]:
        limit(request)
        s = await login(request)
        seat = await open_tables.join(tables(), table_id, body.seat, s.account)
        return {"table": table_id, "seat": seat, "url": f"/table/{table_id}"}

    @r.post(
        "/api/tables/{table_id}/resign",
        summary="Give the game up (your side loses)",
        responses=errors(403, 404, 409, 422, 503),
    )
    async def resign(table_id: str, body: ResignIn, request: Request) -> dict[str, Any]:
        limit(request)
        seat = await seat_of(request, table_id, body.token)
        if seat is None:
            raise TableError(
                403, "only a player of this table can resign (give its token or log in)"
            )
        name = (await tables().get(table_id)).seat_names[seat]
        done = await forfeits.forfeit(tables(), table_id, seat, "resigned")
        if not done:
            raise TableError(409, "the game is over")
        return {"table": table_id, "resigned": name}

    @r.post(
        "/api/tables/{table_id}/rematch",
        summary="Offer, accept or decline a rematch of a finished game",
        responses=errors(403, 404, 409, 422, 503),
    )
    async def rematch_route(table_id: str, body: RematchIn, request: Request) -> dict[str, Any]:
        limit(request)
        seat = await seat_of(request, table_id, body.token)
        state = await rematch.act(tables(), table_id, seat, body.action, body.swap)
        return {"table": table_id, "rematch": state}

    @r.post(
        "/api/match",
        summary="Quick match: wait for a compatible player, or be paired now",
        responses=errors(401, 403, 409, 422, 503),
    )
    async def ask(body: MatchIn, request: Request) -> dict[str, Any]:
        limit(request)
        s = await login(request)
        req = check(body.game, body.clock, body.side, body.rated)
        return await matchmaking().ask(s.account, req)

    @r.get("/api/match", summary="Your quick-match request", responses=errors(401, 503))
    async def status(request: Request) -> dict[str, Any]:
        s = await login(request, acting=False)
        m = matchmaking()
        return await asyncio.to_thread(tables()._store_call, m.status, s.account.id)

    @r.delete(
        "/api/match", summary="Withdraw your quick-match request", responses=errors(401, 403, 503)
    )
    async def cancel(request: Request) -> dict[str, Any]:
        s = await login(request)
        m = matchmaking()
        return await asyncio.to_thread(tables()._store_call, m.cancel, s.account.id)

    return r
