"""Helpers of the notification tests: local receivers on 127.0.0.1 (an HTTP server that
records each POST, an SMTP server with aiosmtpd), accounts and notices in a database, and
deliverers with waits of a few milliseconds."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from email import policy
from email.parser import BytesParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from aiosmtpd.controller import Controller
from sqlalchemy import insert, select
from sqlalchemy.engine import Engine

from tests.server.helpers import run_async
from thermopylae.server.db import notices
from thermopylae.server.notify import CHOSEN, Mailer, make_body
from thermopylae.server.outbox import Deliverer, endpoints, queue
from thermopylae.server.store import Store, metadata

accounts = metadata.tables["thermopylae_accounts"]


def fast(engine: Engine, mailer: Mailer | None = None, **options: Any) -> Deliverer:
    """A deliverer whose waits are a few milliseconds (so a test takes well under 5 s)."""
    return Deliverer(engine, mailer, poll=0.02, retry_delays=(0.01,), first_wait=0.01, **options)


# --- local receivers ----------------------------------------------------------------


class Receiver:
    """An HTTP server on 127.0.0.1 that records every POST; `/status/N` answers N,
    `/moved` redirects to `/hook`, `/slow` answers once `gate` is set."""

    def __init__(self) -> None:
        self.posts: list[tuple[str, dict[str, Any]]] = []
        self.hosts: list[str | None] = []
        self.lock = threading.Lock()
        self.gate = threading.Event()  # `/slow` answers once it is set
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                size = int(self.headers.get("Content-Length") or 0)
                data = json.loads(self.rfile.read(size) or b"null")
                with outer.lock:
                    outer.posts.append((self.path, data))
                    outer.hosts.append(self.headers.get("Host"))
                if self.path == "/slow":
                    outer.gate.wait(5)
                if self.path.startswith("/status/"):
                    self.send_response(int(self.path.rsplit("/", 1)[1]))
                elif self.path == "/moved":
                    self.send_response(302)
                    self.send_header("Location", "/hook")
                else:
                    self.send_response(204)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def close(self) -> None:
        self.gate.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


@contextmanager
def receiving() -> Iterator[Receiver]:
    r = Receiver()
    try:
        yield r
    finally:
        r.close()


class Mailbox:
    """An aiosmtpd handler that keeps every message it is given."""

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.got.append(
            (
                list(envelope.rcpt_tos),
                BytesParser(policy=policy.default).parsebytes(envelope.content),
            )
        )
        return "250 OK"

    def __init__(self) -> None:
        self.got: list[tuple[list[str], Any]] = []


def free_port() -> int:
    """A port nothing listens on (just now)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def mail_server() -> Iterator[tuple[Mailbox, int]]:
    box = Mailbox()
    controller = Controller(box, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield box, controller.port
    finally:
        controller.stop()


# --- the database -------------------------------------------------------------------


@contextmanager
def database(url: str) -> Iterator[Engine]:
    store = Store(url)
    try:
        yield store.engine
    finally:
        store.dispose()


def add_account(
    engine: Engine,
    webhook: str | None = None,
    email: str | None = None,
    events: tuple[str, ...] = CHOSEN,
) -> int:
    with engine.begin() as conn:
        pk = conn.execute(
            insert(accounts).values(
                name=f"ann{time.monotonic_ns()}",
                key=f"ann{time.monotonic_ns()}",
                created=time.time(),
                deleted=False,
                lang="en",
                email=email,
                webhook=webhook,
                events=list(events),
                low_share=0.1,
                webhook_failures=0,
                email_failures=0,
            )
        ).inserted_primary_key
    assert pk is not None
    return int(pk[0])


def account(engine: Engine, account_id: int) -> dict[str, Any]:
    with engine.begin() as conn:
        row = conn.execute(select(accounts).where(accounts.c.id == account_id)).one()
    return dict(row._mapping)


def queue_for(
    engine: Engine, account_id: int, event: str, table_id: str, key: str | None = None
) -> list[int]:
    body = make_body(
        event, "earth_and_water", "300: Earth & Water", table_id, "http://x", "p1", "en"
    )
    with engine.begin() as conn:
        return queue(
            conn, endpoints(account(engine, account_id)), event, table_id, body, key or table_id
        )


def rows(engine: Engine) -> list[Any]:
    with engine.begin() as conn:
        return list(conn.execute(select(notices).order_by(notices.c.id)))


def run_until(deliverers: list[Deliverer], done: Callable[[], bool], limit: float = 5.0) -> None:
    """Run the deliverers' loops until `done()` (checked every 20 ms), at most `limit` s."""

    async def main() -> None:
        tasks = [asyncio.create_task(d.run()) for d in deliverers]
        try:
            end = time.monotonic() + limit
            while not done():
                assert time.monotonic() < end, "the deliverers did not finish in time"
                await asyncio.sleep(0.02)
        finally:
            for d in deliverers:
                d.stop()
            await asyncio.gather(*tasks)

    run_async(main())


def settled(engine: Engine) -> Callable[[], bool]:
    return lambda: all(r.status != "pending" for r in rows(engine))


BODY = make_body(
    "your_turn", "earth_and_water", "300: Earth & Water", "t1", "http://g.example", "persia", "en"
)
