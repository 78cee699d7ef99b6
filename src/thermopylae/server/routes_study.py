"""Studying games on the server: hints for the seat to move, the replay of a finished
game step by step, record files dropped on the replay page, and "play from here".

Nothing here shows what a seat could not know: a hint is computed from the seat's own
information (`ai.hints`), a replay frame exists only once the game is over, and a table
made from a step of an unfinished game re-deals everything the seat could not see.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.exc import IntegrityError

from thermopylae import i18n
from thermopylae.server import ai_pool, messages, replays
from thermopylae.server.account_store import Accounts
from thermopylae.server.limits import RateLimit
from thermopylae.server.live import Live
from thermopylae.server.new_table import Terms
from thermopylae.server.routes_accounts import acting_seat, acting_session
from thermopylae.server.schema import LANG_DOC, SeatIn, errors
from thermopylae.server.seats import TableError
from thermopylae.server.tables import Tables

HINT_BUDGET = 24  # playouts for each move a hint weighs (Earth & Water: ~5 s in all)
HINT_BURST = 3  # hints a seat may ask for at once ...
HINT_EVERY_S = 10.0  # ... and then one per this many seconds


class HintIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    token: str | None = Field(default=None, max_length=200, description="the seat's token")


class BranchIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    step: int = Field(
        ge=0,
        le=1_000_000,
        strict=False,  # 12.0 is 12, as JSON Schema's integer has it
        description="the step to play on from (0: the start)",
    )
    seat: str = Field(max_length=40, description="the seat whose knowledge the position keeps")
    true_cards: bool = Field(
        default=False,
        description="keep the real hidden cards (a finished game only); default: what "
        "`seat` could not see is dealt anew",
    )
    seats: list[SeatIn] | None = Field(
        default=None,
        description="the new table's seats as in POST /api/tables (default: `seat` a "
        "person, every other seat a bot of level normal)",
    )
    hints: bool = Field(default=False, description="the new table allows hints")
    token: str | None = Field(default=None, max_length=200, description="a seat's token")


def router(
    tables: Callable[[], Tables], accounts: Callable[[], Accounts], limit: Callable[[Request], None]
) -> APIRouter:
    """The routes, over the app's `tables()` and `accounts()`; `limit` is the app's
    per-address rate of new tables and actions."""
    r = APIRouter()
    asks = RateLimit(1 / HINT_EVERY_S, HINT_BURST)  # in this process
    frames = replays.Frames()

    async def seat_of(request: Request, live: Live, token: str | None) -> int | None:
        return await acting_seat(request, accounts(), tables(), live, token)

    @r.post(
        "/api/tables/{table_id}/hint",
        summary="The bot's three best moves for your seat, with their win chances",
        responses=errors(403, 404, 409, 422, 429, 503),
    )
    async def hint(
        table_id: str,
        body: HintIn,
        request: Request,
        lang: str | None = Query(None, description=LANG_DOC),
    ) -> dict[str, Any]:
        t = tables()
        live = await t.get(table_id)
        if not live.row.hints:
            raise TableError(403, "this table does not allow hints")
        seat = await seat_of(request, live, body.token)
        if seat is None:
            raise TableError(403, "hints are for the players at this table")
        if live.to_act() != seat or live.row.open_seats:
            raise TableError(409, "a hint is for the seat that must decide now: not your turn")
        if not asks.allow(f"{table_id[:40]} {seat}"):
            raise HTTPException(
                429,
                f"too many hints: at most {HINT_BURST} at once, then one every {HINT_EVERY_S:g} s",
                headers={"Retry-After": str(int(HINT_EVERY_S))},
            )
        g = live.game
        move, state = live.move, g.copy(live.state)
        key = f"{table_id}:{live.row.epoch}:{move}".encode()
        seed = int.from_bytes(hashlib.sha256(key).digest()[:8], "big")  # the same hint twice
        client = request.client.host if request.client else "unknown"
        try:
            found = await t.ai.run(client, ai_pool.hint, g.id, state, seat, HINT_BUDGET, seed)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a worker died, the pool is closing
            raise TableError(503, "the bots are unavailable; try again in a moment") from exc
        with i18n.language(i18n.negotiate(lang or request.headers.get("accept-language"))):
            labelled = [{**h, "label": g.label(g.parse(h["action"]))} for h in found]
        return {"move": move, "seat": live.seat_names[seat], "hints": labelled}

    @r.get(
        "/api/tables/{table_id}/steps/{step}",
        summary="A finished game at one of its steps (the replay board)",
        responses=errors(404, 409, 422, 503),
    )
    async def step(
        table_id: str,
        step: int,
        request: Request,
        as_: str = Query(
            replays.ALL,
            alias="as",
            max_length=40,
            description="all (every hand shown), spectator, or a seat: what that seat saw then",
        ),
        lang: str | None = Query(None, description=LANG_DOC),
    ) -> dict[str, Any]:
        live = await tables().get(table_id)
        with i18n.language(i18n.negotiate(lang or request.headers.get("accept-language"))):
            return frames.frame(live, step, as_)

    @r.post(
        "/api/replays",
        status_code=201,
        summary="Open a record file (a finished game) on the replay board",
        responses=errors(400, 413, 422, 429, 503),
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": {
                            "type": "object",
                            "description": "a game record as `thermopylae play --record` "
                            f"writes it, at most {replays.MAX_RECORD} bytes",
                        }
                    }
                },
            }
        },
    )
    async def upload(request: Request) -> Any:
        limit(request)
        raw = await request.body()
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError) as exc:
            raise TableError(400, "the request body is not valid JSON") from exc
        row, played = await asyncio.to_thread(replays.record_table, data)
        t = tables()
        answer = {
            "id": row.id,
            "url": f"/table/{row.id}/replay",
            "steps": len(played),
            "game": row.game,
        }
        if await asyncio.to_thread(t._store_call, t.store.table, row.id) is not None:
            return _json(answer, 200)
        try:
            await asyncio.to_thread(t._store_call, t.store.create, row, None, played)
        except IntegrityError:  # the same file, sent at once to another process
            return _json(answer, 200)
        return answer

    @r.post(
        "/api/tables/{table_id}/branch",
        status_code=201,
        summary="Play on from a step of a game, at a new table",
        responses=errors(403, 404, 409, 422, 429, 503),
    )
    async def branch(table_id: str, body: BranchIn, request: Request) -> dict[str, Any]:
        limit(request)
        t = tables()
        live = await t.get(table_id)
        g = live.game
        names = live.seat_names
        if body.seat not in names:
            raise TableError(422, f"seat {body.seat!r}: the seats are {', '.join(names)}")
        seat = names.index(body.seat)
        if live.outcome() is None:  # a game in play: a player, as itself, never true cards
            mine = await seat_of(request, live, body.token)
            if mine is None:
                raise TableError(403, "a game in play is branched only by its players")
            if mine != seat:
                raise TableError(
                    403, f"you play {names[mine]} here: you may play on only as {names[mine]}"
                )
            if body.true_cards:
                raise TableError(403, "the true cards are shown only once the game is over")
        if not 0 <= body.step <= live.move:
            raise TableError(
                422, f"step {body.step} is not in this game: it has steps 0 to {live.move}"
            )
        state = replays.Frames(kept=1).state_at(live, body.step)
        if g.to_act(state) is None:
            raise TableError(422, f"the game is over at step {body.step}: nothing to play on")
        if not body.true_cards:
            state = g.determinize(state, seat, random.Random(t.chance_rng.getrandbits(64)))
        seats = (
            [s.model_dump(exclude_none=True) for s in body.seats]
            if body.seats is not None
            else [
                {"kind": "human"} if i == seat else {"kind": "ai", "level": "normal"}
                for i in range(len(names))
            ]
        )
        session = await acting_session(request, accounts()) if not body.token else None
        client = request.client.host if request.client else "unknown"
        base = str(request.base_url).rstrip("/")
        made, tokens = await t.create(
            g.id,
            dict(live.options),
            seats,
            client=client,
            creator=None if session is None else session.account.id,
            link_base=base,
            terms=Terms(hints=body.hints),
            start={"position": g.state_to_json(state), "from": table_id, "step": body.step},
        )
        return messages.created(made, tokens, base)

    return r


def _json(content: Any, status: int) -> JSONResponse:
    return JSONResponse(content, status)
