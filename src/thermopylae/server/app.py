"""The HTTP and WebSocket API, and the browser client's files (documented in docs/api.md).

Every refusal is a 4xx answer whose `detail` names what was wrong; nothing changes then.
Every message to a seat or a spectator is built by `Tables.message`, through the game's
`view`.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson
from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.websockets import WebSocketState
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from thermopylae import i18n
from thermopylae.engine import registry
from thermopylae.server import messages, notify, outbox, patches, routes_community, routes_study
from thermopylae.server.account_errors import AccountError
from thermopylae.server.account_store import Accounts
from thermopylae.server.ai_pool import AiLimits, AiPool
from thermopylae.server.analysis_jobs import AnalysisLimits, Runner, release_claims
from thermopylae.server.db import accounts as db_accounts
from thermopylae.server.headers import SecurityHeaders
from thermopylae.server.hub import Hub
from thermopylae.server.limits import BodyLimit, RateLimit, rate_from_env
from thermopylae.server.new_table import Terms
from thermopylae.server.routes_accounts import (
    AccountSettings,
    acting_session,
    router,
    session_of,
)
from thermopylae.server.routes_analysis import router as analysis_router
from thermopylae.server.routes_players import router as players_router
from thermopylae.server.routes_table import router as table_router
from thermopylae.server.schema import LANG_DOC, ActionIn, TableIn, errors, table_body_schema
from thermopylae.server.seats import LEVELS, TableError
from thermopylae.server.store import Store, default_url
from thermopylae.server.tables import Tables
from thermopylae.server.timekeeper import Timekeeper
from thermopylae.server.ws_protocol import PUSH, Push

log = logging.getLogger("thermopylae.server")

MAX_WS_MESSAGE = 4 * 1024  # characters of a WebSocket message from a client
RATE = 10.0  # WebSocket messages per second a connection may send, on average
BURST = 30.0  # ... and in a burst
EVICT_EVERY = 10.0  # seconds between sweeps of the tables held in memory (Tables.evict)
GC_YOUNG = 10_000  # allocations between collections of the collector's youngest generation
WEB = resources.files("thermopylae.server").joinpath("web")


def create_app(
    db: str | None = None,
    redis: str | None = None,
    data_dir: Path | None = None,
    origins: tuple[str, ...] = (),
    http_rate: float | None = None,
    http_burst: float | None = None,
    ai: AiLimits | None = None,
    trusted_proxies: tuple[str, ...] = (),
    smtp: str | None = None,
    mail_from: str = "thermopylae@localhost.localdomain",
    allow_private_webhooks: bool = False,
    public_url: str | None = None,
    analysis: AnalysisLimits | None = None,
) -> FastAPI:
    """The server. `db`: a SQLAlchemy URL (default: a SQLite file in `data_dir`);
    `redis`: share table updates with other processes; `origins`: extra origins whose
    pages may open WebSockets (the server's own is always allowed); `http_rate`: actions
    and new tables a second allowed per client address over HTTP, in bursts of
    `http_burst` (default three times the rate), answered 429 past it (default: the
    THERMOPYLAE_HTTP_RATE environment variable; unset or 0, no limit); `ai`: the bounds
    of the AI seats' work (`AiLimits`: a pool of processes by default); `trusted_proxies`:
    the addresses of reverse proxies whose X-Forwarded-For / X-Forwarded-Proto name the
    client (from any other peer those headers are ignored); `smtp`: HOST:PORT of the mail
    server that sends notifications from `mail_from` (None: email is off);
    `allow_private_webhooks`: let webhooks reach loopback and private addresses (tests, home
    set-ups); `public_url`: the site's address for links in notifications (default: the
    address of the request that created the table); `analysis`: the bounds of the
    analyses of finished games (`AnalysisLimits`: budget, queue, runs at once)."""
    if db is None:
        if data_dir is None:
            from platformdirs import user_data_path

            data_dir = user_data_path("thermopylae")
        db = default_url(data_dir)
    hub = Hub(redis)
    store = Store(db)  # raises StoreError now, naming a database it cannot open
    holder: dict[str, Any] = {}
    limits = ai if ai is not None else AiLimits()
    analysis_limits = analysis if analysis is not None else AnalysisLimits()
    rate = http_rate if http_rate is not None else rate_from_env()
    limiter = RateLimit(rate, http_burst) if rate else None
    mailer = None if smtp is None else notify.Mailer.from_spec(smtp, mail_from)
    accounts = Accounts(store)
    settings = AccountSettings(
        allow_private_webhooks=allow_private_webhooks,
        mail=mailer,
        deliverer=lambda: holder.get("deliverer"),
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pool = AiPool(limits)  # its workers start at the first AI move, each once
        tables = Tables(
            store,
            hub.publish,
            shared=redis is not None,
            pinned=lambda table_id: table_id in hub.watchers,
            ai=pool,
        )
        holder["tables"] = tables
        app.state.tables = tables
        tables.link_base = public_url.rstrip("/") if public_url else None
        keeper = Timekeeper(tables)
        tables.timekeeper = keeper
        on_result, on_disable = outbox.account_callbacks(db_accounts)
        deliverer = outbox.Deliverer(
            store.engine,
            mailer=mailer,
            allow_private=allow_private_webhooks,
            on_result=on_result,
            on_disable=on_disable,
            alone=redis is None,  # every row is queued here, and the store tells of each
        )
        holder["deliverer"] = deliverer
        tables.on_notice = deliverer.wake
        store.on_notices = deliverer.wake
        if redis is None:  # alone on the database: holds of a crashed life are stale
            with contextlib.suppress(Exception):
                await asyncio.to_thread(deliverer.release_claims)

        async def sweep() -> None:  # tables nobody uses leave memory
            while True:
                await asyncio.sleep(EVICT_EVERY)
                tables.evict()

        async def remote(table_id: str) -> None:
            live = await tables.refresh(table_id)
            if live is not None:
                hub.wake(table_id, live.move)

        hub.on_remote = remote
        await hub.start()
        resume = asyncio.create_task(tables.resume_all())
        sweeper = asyncio.create_task(sweep())
        ticker = asyncio.create_task(keeper.run())
        sender = asyncio.create_task(deliverer.run())
        analyst = Runner(tables, analysis_limits)  # the finished games' analyses
        if redis is None:  # alone on the database: the jobs of a crashed life are due
            with contextlib.suppress(Exception):
                await asyncio.to_thread(release_claims, store.engine)
        holder["analysis"] = analyst
        analyst.start()
        # What start-up made (modules, routes, models) lives as long as the process: out of
        # the collector's way, its full collections no longer go through it each time.
        gc.freeze()
        # Every action leaves new containers that live on (the table's new state, its log
        # lines), so at Python's default (700) the young generation was collected several
        # times a second under load, each time going through the tables' fresh objects:
        # 40-50 us of CPU an action at 100 tables (gc.callbacks), 10-12 us at 10,000.
        young = gc.get_threshold()
        gc.set_threshold(GC_YOUNG, young[1], young[2])
        yield
        gc.set_threshold(*young)
        gc.unfreeze()  # (a process that serves again, as the tests do, collects it all)
        deliverer.stop()
        store.on_notices = None
        await analyst.close()  # its jobs in hand go back to the queue
        for task in (resume, sweeper, ticker, sender):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await tables.close()  # the AI's searches end now, not when they would finish
        await hub.stop()
        store.dispose()

    app = FastAPI(
        title="thermopylae",
        version="0.1.0",
        lifespan=lifespan,
        description="Play the three '300' board games: tables, seats, actions.",
    )
    app.add_middleware(BodyLimit)
    app.add_middleware(SecurityHeaders)
    if trusted_proxies:
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(trusted_proxies))

    def tables() -> Tables:
        t: Tables = holder["tables"]
        return t

    @app.exception_handler(TableError)
    async def _table_error(request: Request, exc: TableError) -> JSONResponse:
        headers = {"Retry-After": "1"} if exc.status == 429 else None
        return JSONResponse({"detail": exc.detail}, status_code=exc.status, headers=headers)

    def limit(request: Request) -> None:
        """429 for a client address past the HTTP rate (nothing is done then)."""
        if limiter is None:
            return
        address = _address(request)
        if not limiter.allow(address):
            raise TableError(
                429,
                f"too many requests from {address}: at most "
                f"{limiter.rate:g} actions and new tables a second "
                f"(bursts of {limiter.burst:g}); wait a moment and try "
                "again",
            )

    @app.exception_handler(AccountError)
    async def _account_error(request: Request, exc: AccountError) -> JSONResponse:
        headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
        return JSONResponse({"detail": exc.detail}, status_code=exc.status, headers=headers)

    @app.exception_handler(RecursionError)
    async def _deep(request: Request, exc: RecursionError) -> JSONResponse:
        return JSONResponse({"detail": "the request body is nested too deeply"}, 400)

    @app.exception_handler(Exception)
    async def _defect(request: Request, exc: Exception) -> JSONResponse:
        log.exception("%s %s failed", request.method, request.url.path)
        return JSONResponse(
            {
                "detail": "the server failed to answer this request (a defect, "
                "logged); nothing was changed"
            },
            500,
        )

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            return JSONResponse({"detail": "the request body is not valid JSON"}, 400)
        parts = []
        for e in errors:
            where = ".".join(str(p) for p in e.get("loc", ()) if p != "body")
            parts.append(f"{where}: {e.get('msg')}" if where else str(e.get("msg")))
        return JSONResponse({"detail": "; ".join(parts)}, status_code=422)

    # -- the API ---------------------------------------------------------------------------

    @app.get("/api/games", summary="The games, their seats and options")
    async def games() -> list[dict[str, Any]]:
        out = []
        for gid in registry.game_ids():
            g = registry.get(gid)
            title, lo, hi = registry.summary(gid)
            counts = (
                {n: list(g.seats(g.options({"players": n}))) for n in range(lo, hi + 1)}
                if lo != hi
                else {lo: list(g.seats(g.options({})))}
            )
            out.append(
                {
                    "id": gid,
                    "title": title,
                    "min_players": lo,
                    "max_players": hi,
                    "seats": counts,
                    "provisional": bool(g.provisional),
                    "cooperative": g.cooperative,
                    "levels": list(LEVELS),
                }
            )
        return out

    @app.post(
        "/api/tables",
        status_code=201,
        summary="Create a table",
        responses=errors(400, 403, 404, 413, 422, 429, 503),
        openapi_extra={"requestBody": table_body_schema()},
    )
    async def create(body: TableIn, request: Request) -> dict[str, Any]:
        limit(request)
        seats = (
            None if body.seats is None else [s.model_dump(exclude_none=True) for s in body.seats]
        )
        session = await acting_session(request, accounts)
        base = str(request.base_url).rstrip("/")
        live, tokens = await tables().create(
            body.game,
            body.options,
            seats,
            client=_address(request),
            clock=body.clock,
            creator=None if session is None else session.account.id,
            link_base=base,
            terms=Terms(body.public, body.rated, body.takebacks, body.spectator_chat, body.hints),
        )
        return messages.created(live, tokens, base)

    @app.get(
        "/api/tables/{table_id}",
        summary="A table as one seat (or a spectator) sees it",
        responses=errors(403, 404, 422, 503),
    )
    async def table(
        table_id: str,
        request: Request,
        token: str | None = None,
        lang: str | None = Query(None, description=LANG_DOC),
    ) -> dict[str, Any]:
        t = tables()
        live = await t.get(table_id)
        session = None if token else await session_of(request, accounts)
        seat = t.seat_of(live, token, None if session is None else session.account.id)
        if seat is not None and seat in live.row.standin:
            await t.back(live, seat)
        with i18n.language(_lang(request, lang)):
            return t.message(live, seat)

    @app.post(
        "/api/tables/{table_id}/actions",
        summary="Play an action",
        responses=errors(400, 403, 404, 409, 413, 422, 429, 503),
    )
    async def action(
        table_id: str,
        body: ActionIn,
        request: Request,
        lang: str | None = Query(None, description=LANG_DOC),
    ) -> dict[str, Any]:
        limit(request)
        t = tables()
        session = None if body.token else await acting_session(request, accounts)
        account = None if session is None else session.account.id
        live = await t.submit(
            table_id, body.token, body.move, body.action, client=_address(request), account=account
        )
        with i18n.language(_lang(request, lang)):
            return t.message(live, t.seat_of(live, body.token, account), since=body.move)

    @app.get(
        "/api/tables/{table_id}/record",
        summary="The game record, once the game is over",
        responses=errors(404, 409, 422, 503),
    )
    async def record(table_id: str) -> dict[str, Any]:
        t = tables()
        return t.record(await t.get(table_id))

    @app.get("/api/health", include_in_schema=False)
    async def health() -> dict[str, Any]:
        return {"ok": True, "redis": hub.redis_ok}

    # -- the WebSocket -------------------------------------------------------------------

    async def socket(ws: WebSocket) -> None:
        """`/ws/tables/{table_id}?token=...&lang=...&patches=1`: a seat's (or a
        spectator's) socket; with `patches=1`, updates after the first are sent as patches
        (`server/patches.py`). A plain Starlette route: FastAPI's would solve its
        parameters' dependencies at every connection (a sixth of a connection's CPU), for
        three optional strings."""
        table_id: str = ws.path_params["table_id"]
        token = ws.query_params.get("token")
        lang = ws.query_params.get("lang")
        as_patches = ws.query_params.get("patches", "0")
        origin = ws.headers.get("origin")
        if origin and not _same_origin(origin, ws.headers.get("host", ""), origins):
            await ws.close(code=1008, reason="origin not allowed")
            return
        t = tables()
        try:
            if as_patches not in ("0", "1"):
                raise TableError(422, f"patches must be 0 or 1, not {as_patches[:20]!r}")
            live = await t.get(table_id)
            account = None
            if not token:
                found = await session_of(ws, accounts)
                account = None if found is None else found.account.id
            seat = t.seat_of(live, token, account)
            if seat is not None and seat in live.row.standin:
                await t.back(live, seat)
        except TableError as exc:
            await ws.accept()
            await _send(ws, {"type": "error", "status": exc.status, "detail": exc.detail})
            await ws.close(code=4000 + exc.status, reason=exc.detail[:120])
            return
        await ws.accept()
        watcher = hub.watch(table_id, seat)
        last, version, epoch = live.move, live.version, live.row.epoch
        language = i18n.negotiate(lang or ws.headers.get("accept-language"))
        with i18n.language(language):
            first = t.message(live, seat)
            await _send(ws, first)
        # the update the socket's next patch is made from (None: the socket wants no patches)
        sent = first if as_patches == "1" else None
        # the socket's own send of a short message (serve's protocol; None under others)
        push: Push | None = ws.scope.get("extensions", {}).get(PUSH)

        async def push_or_send(message: dict[str, Any]) -> None:
            """An update as `_send` sends it; short ones by the socket's `push` when it can
            (Starlette's state checked first, as its `send` checks it)."""
            data = json_bytes(message)
            connected = ws.application_state is WebSocketState.CONNECTED
            if push is None or not connected or not push(data):
                await ws.send_text(data.decode())

        async def writer() -> None:
            nonlocal last, version, epoch, sent
            # The task runs in a copy of the socket's context: its every message is built
            # in the socket's language, set once (not a context manager per push).
            i18n.set_language(language)
            while True:
                await watcher.wait()
                try:
                    # No catch-up here: a change was applied (here) or caught up with (from
                    # another process, by `hub.on_remote`) before the wake-up.
                    current = await t.get(table_id, catch_up=False)
                except TableError:  # the database is unavailable: wake up again soon
                    await asyncio.sleep(0.5)
                    watcher.poke()
                    continue
                if current.version == version:
                    continue
                since = last if current.row.epoch == epoch else None  # after a takeback: all
                msg = t.message(current, seat, since=since)
                last, version, epoch = current.move, current.version, current.row.epoch
                if sent is None:
                    await push_or_send(msg)
                    continue
                part = patches.patch(sent, msg) if since is not None else None  # takeback: whole
                sent = msg
                await push_or_send(msg if part is None else part)

        send_task = asyncio.create_task(writer())
        allowance, stamp = BURST, time.monotonic()
        client = ws.client.host if ws.client else "unknown"  # the connection's, once
        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                if text is None:
                    await _send(
                        ws,
                        {"type": "error", "status": 400, "detail": "send text frames holding JSON"},
                    )
                    continue
                now = time.monotonic()
                allowance = min(BURST, allowance + (now - stamp) * RATE)
                stamp = now
                if allowance < 1:
                    await _send(
                        ws,
                        {"type": "error", "status": 429, "detail": "too many messages; slow down"},
                    )
                    continue
                allowance -= 1
                await _client_message(
                    t,
                    ws,
                    table_id,
                    token,
                    text,
                    client,
                    account,
                )
        except WebSocketDisconnect:
            pass
        finally:
            send_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await send_task
            hub.unwatch(watcher)

    app.router.add_websocket_route("/ws/tables/{table_id}", socket)

    # -- the browser client ----------------------------------------------------------------

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(str(WEB.joinpath("index.html")))

    @app.api_route("/table/{table_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(str(WEB.joinpath("index.html")))

    @app.api_route("/table/{table_id}/replay", methods=["GET", "HEAD"], include_in_schema=False)
    @app.api_route("/replay", methods=["GET", "HEAD"], include_in_schema=False)
    async def replay_page() -> FileResponse:  # a finished game's replay, a record file's
        return FileResponse(str(WEB.joinpath("index.html")))

    @app.api_route("/account", methods=["GET", "HEAD"], include_in_schema=False)
    async def account_page() -> FileResponse:
        return FileResponse(str(WEB.joinpath("index.html")))

    @app.api_route("/player/{name}", methods=["GET", "HEAD"], include_in_schema=False)
    @app.api_route("/ratings/{game}", methods=["GET", "HEAD"], include_in_schema=False)
    async def community_page() -> FileResponse:  # a player's page, a leaderboard
        return FileResponse(str(WEB.joinpath("index.html")))

    app.include_router(router(tables, lambda: accounts, settings))
    app.include_router(routes_community.router(tables, accounts, limit))
    app.include_router(players_router(lambda: accounts))
    app.include_router(table_router(tables, lambda: accounts))
    app.include_router(routes_study.router(tables, lambda: accounts, limit))
    app.include_router(
        analysis_router(tables, lambda: holder.get("analysis"), lambda: analysis_limits)
    )
    app.mount("/static", StaticFiles(directory=str(WEB)), name="static")
    return app


async def _client_message(
    t: Tables,
    ws: WebSocket,
    table_id: str,
    token: str | None,
    text: str,
    client: str,
    account: int | None = None,
) -> None:
    """`{"type": "action", "move": N, "action": "..."}` from a seat; `{"type": "ping"}`."""
    if len(text) > MAX_WS_MESSAGE:
        await _send(
            ws,
            {"type": "error", "status": 413, "detail": f"message over {MAX_WS_MESSAGE} characters"},
        )
        return
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nested deeper than Python reads
        await _send(
            ws, {"type": "error", "status": 400, "detail": "not valid JSON (or nested too deeply)"}
        )
        return
    if not isinstance(data, dict) or data.get("type") not in ("action", "ping"):
        await _send(
            ws,
            {
                "type": "error",
                "status": 400,
                "detail": 'messages are {"type": "action", "move": N, '
                '"action": "..."} or {"type": "ping"}',
            },
        )
        return
    if data["type"] == "ping":
        await _send(ws, {"type": "pong"})
        return
    extra = set(data) - {"type", "move", "action"}
    if extra:
        await _send(
            ws, {"type": "error", "status": 422, "detail": f"unknown field(s) {sorted(extra)}"}
        )
        return
    try:
        await t.submit(
            table_id, token, data.get("move"), data.get("action"), client=client, account=account
        )
    except TableError as exc:
        await _send(ws, {"type": "error", "status": exc.status, "detail": exc.detail})


_ENCODER = json.JSONEncoder(ensure_ascii=False, check_circular=False, separators=(",", ":"))


def json_bytes(message: dict[str, Any]) -> bytes:
    """A message as compact JSON in UTF-8, as Starlette's `send_json` writes it, through
    orjson (a fifth of the standard library's CPU for an update); what orjson refuses (an
    integer past 64 bits) goes through the standard library, whose text it would have
    been. Keys that are not strings (none in an update) are tried second: orjson's option
    for them makes every message dearer (3.3 -> 1.8 us an update without it), for the
    same text. A socket's `push` writes these bytes."""
    try:
        return orjson.dumps(message)
    except orjson.JSONEncodeError:
        pass
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)
    except orjson.JSONEncodeError:
        return _ENCODER.encode(message).encode()


def json_text(message: dict[str, Any]) -> str:
    """`json_bytes` as text (what `send_text` takes)."""
    return json_bytes(message).decode()


async def _send(ws: WebSocket, message: dict[str, Any]) -> None:
    """Send a message as one text frame of JSON."""
    await ws.send_text(json_text(message))


def _address(request: Request) -> str:
    """The client's address (its proxy's, unless the proxy is trusted)."""
    return request.client.host if request.client else "unknown"


def _lang(request: Request, lang: str | None) -> str:
    return i18n.negotiate(lang or request.headers.get("accept-language"))


def _same_origin(origin: str, host: str, allowed: tuple[str, ...]) -> bool:
    if origin in allowed:
        return True
    return urlsplit(origin).netloc == host
