"""The leaderboards and the players' pages over HTTP: `GET /api/ratings/{game}`,
`GET /api/players/{name}`, its games (filtered, a page at a time) and all their records
as JSON lines.

Everything here is public (a player's page shows what any spectator of their games saw)
and read-only, so no login is asked for. Every list is bounded by the server, whatever
the request asks; an unknown or deleted player is 404, a bad filter 422 naming it.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any, cast

from fastapi import APIRouter, Query
from fastapi.responses import StreamingResponse
from sqlalchemy import select
from sqlalchemy.engine import Connection

from thermopylae.engine import registry
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.protocol import GenericGame
from thermopylae.server import archive, rating_store
from thermopylae.server.account_store import Account, Accounts
from thermopylae.server.db import tables
from thermopylae.server.names import name_key
from thermopylae.server.ratings import account_subject, sides
from thermopylae.server.schema import errors
from thermopylae.server.seats import TableError
from thermopylae.server.store import Store, StoreError, _row

log = logging.getLogger("thermopylae.server")

PAGE = 20  # games a page of a player's list holds by default ...
MAX_PAGE = 100  # ... and at most
RESULTS = ("win", "loss", "draw")
EXPORT_BATCH = 20  # records built per trip to a worker thread while streaming games.jsonl


def router(accounts: Callable[[], Accounts]) -> APIRouter:
    """The routes, over the app's `Accounts` (and through it the store)."""
    r = APIRouter()

    def store() -> Store:
        return accounts().store

    async def read(fn: Callable[[Connection], Any]) -> Any:
        """`fn(conn)` in a worker thread, in one transaction; a database that is down
        answers 503."""

        def run() -> Any:
            with store()._tx() as conn:
                return fn(conn)

        try:
            return await asyncio.to_thread(run)
        except StoreError as exc:
            raise TableError(503, f"{exc}; try again") from exc

    async def player(name: str) -> Account:
        if len(name) > 200:
            raise TableError(404, "no player by that name")
        try:
            found = await asyncio.to_thread(accounts().by_key, name_key(name))
        except StoreError as exc:
            raise TableError(503, f"{exc}; try again") from exc
        if found is None or found.deleted:
            raise TableError(404, f"no player {name!r}")
        return found

    @r.get(
        "/api/ratings/{game_id}",
        summary="The leaderboard of a game, per side, and its bot levels' ratings",
        responses=errors(404, 422, 503),
    )
    async def leaderboard(
        game_id: str,
        limit: int = Query(
            rating_store.BOARD, ge=1, le=rating_store.MAX_BOARD, description="players per side"
        ),
    ) -> dict[str, Any]:
        game = _game(game_id, 404)
        if game.cooperative:
            return {"game": game.id, "cooperative": True, "sides": {}, "bots": {}}

        def fn(conn: Connection) -> dict[str, Any]:
            board = rating_store.board(conn, game.id, limit)
            return {
                "game": game.id,
                "cooperative": False,
                "sides": {s: board.get(s, []) for s in sides(game)},
                "bots": rating_store.bots(conn, game.id),
            }

        out: dict[str, Any] = await read(fn)
        return out

    @r.get(
        "/api/players/{name}",
        summary="A player's ratings per game and side, their record against each "
        "opponent, and their co-operative team record",
        responses=errors(404, 422, 503),
    )
    async def page(name: str) -> dict[str, Any]:
        account = await player(name)
        subject = account_subject(account.id)

        def fn(conn: Connection) -> dict[str, Any]:
            rated: dict[str, dict[str, Any]] = {}
            for s in rating_store.of_subject(conn, subject):
                rated.setdefault(s.game, {})[s.side] = {
                    "mu": s.rating.mu,
                    "sigma": s.rating.sigma,
                    "games": s.games,
                    "wins": s.wins,
                    "history": rating_store.history(conn, subject, s.game, s.side),
                    "like_bot": rating_store.nearest_bot(conn, s.game, s.side, s.rating.mu),
                }
            played = archive.finished_of(conn, account.id)
            names = archive.names_in(conn, played)
            return {
                "player": account.name,
                "ratings": rated,
                "opponents": archive.opponents(played, account.id, names),
                "team": archive.team(played),
            }

        out: dict[str, Any] = await read(fn)
        return out

    @r.get(
        "/api/players/{name}/games",
        summary="A player's finished games, newest first, filtered and a page at a time",
        responses=errors(404, 422, 503),
    )
    async def games(
        name: str,
        game: str | None = Query(
            None,
            max_length=40,
            description="a game id",
            json_schema_extra={"enum": cast(Any, registry.game_ids())},
        ),
        side: str | None = Query(
            None,
            max_length=40,
            description="a side of the game (each game's sides: GET /api/ratings/{game})",
            json_schema_extra={"enum": cast(Any, all_sides())},
        ),
        result: str | None = Query(
            None, description="win, loss or draw", json_schema_extra={"enum": list(RESULTS)}
        ),
        limit: int = Query(PAGE, ge=1, le=MAX_PAGE),
        offset: int = Query(0, ge=0, le=archive.SCAN),
    ) -> dict[str, Any]:
        wanted = None if game is None else _game(game, 422)
        _check_filters(wanted, side, result)
        account = await player(name)

        def fn(conn: Connection) -> dict[str, Any]:
            played = archive.finished_of(conn, account.id, None if wanted is None else wanted.id)
            keep = [
                p
                for p in played
                if (side is None or archive.side_of(archive.game_of(p.row), p.row, p.seat) == side)
                and (result is None or (p.ended is not None and p.ended.results[p.seat] == result))
            ]
            shown = keep[offset : offset + limit]
            names = archive.names_in(conn, shown)
            return {"games": [archive.entry(p, names) for p in shown], "total": len(keep)}

        out: dict[str, Any] = await read(fn)
        return out

    @r.get(
        "/api/players/{name}/games.jsonl",
        summary="The record of every finished game of a player, one JSON object a line",
        responses=errors(404, 422, 503),
        response_class=StreamingResponse,
    )
    async def records(name: str) -> StreamingResponse:
        account = await player(name)
        ids: list[str] = await read(lambda conn: archive.finished_ids(conn, account.id))

        async def lines() -> AsyncIterator[str]:
            for start in range(0, len(ids), EXPORT_BATCH):
                batch = ids[start : start + EXPORT_BATCH]
                for rec in await read(functools.partial(_records, ids=batch)):
                    yield json.dumps(rec, separators=(",", ":")) + "\n"

        return StreamingResponse(lines(), media_type="application/x-ndjson")

    return r


def _records(conn: Connection, ids: list[str]) -> list[dict[str, Any]]:
    rows = {r.id: _row(r) for r in conn.execute(select(tables).where(tables.c.id.in_(ids)))}
    out = []
    for tid in ids:
        row = rows.get(tid)
        game = None if row is None else archive.game_of(row)
        if row is None or game is None:
            continue
        try:
            out.append(archive.record_of(game, row, archive.steps_of(conn, tid)))
        except ThermopylaeError:  # steps the rules no longer accept: left out, logged
            log.exception("table %s: its record cannot be rebuilt", tid)
    return out


def all_sides() -> list[str]:
    """The sides of every game, sorted."""
    return sorted({s for g in registry.game_ids() for s in sides(registry.get(g))})


def _game(game_id: str, status: int) -> GenericGame:
    try:
        return registry.get(game_id)
    except ThermopylaeError as exc:
        raise TableError(status, str(exc)) from exc


def _check_filters(game: GenericGame | None, side: str | None, result: str | None) -> None:
    if result is not None and result not in RESULTS:
        raise TableError(422, f"result: {result!r} is not one of {', '.join(RESULTS)}")
    if side is None:
        return
    known = sides(game) if game is not None else all_sides()
    if side not in known:
        where = f"of {game.id}" if game is not None else "of any game"
        raise TableError(
            422, f"side: {side!r} is not a side {where}; the sides: {', '.join(known)}"
        )
