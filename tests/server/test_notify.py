"""Notifications: the webhook and email checks (SSRF refusals), the payload formats, the
texts in each language, the outbox's refusals, and delivery through local receivers (an
HTTP server and an SMTP server on 127.0.0.1, started and stopped here): one send per
notice, retries recorded, a dead endpoint disabled, two deliverers sending each row once.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Float,
    Integer,
    String,
    Table,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine

from tests.server.conftest import database_url
from thermopylae import i18n
from thermopylae.server.notify import (
    BODY_KEYS,
    CHOSEN,
    DeliveryError,
    Mailer,
    NotifyError,
    check_email,
    check_webhook,
    make_body,
    payload,
    send_webhook,
    text,
)
from thermopylae.server.outbox import (
    Deliverer,
    Endpoint,
    account_callbacks,
    endpoints,
    notices,
    queue,
)
from thermopylae.server.store import Store, metadata

# The lead's store.py defines the accounts table; until then, its columns as designed.
if "thermopylae_accounts" not in metadata.tables:
    Table(
        "thermopylae_accounts",
        metadata,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("name", String(32), nullable=False),
        Column("key", String(64), unique=True, nullable=True),
        Column("password_hash", String(200), nullable=True),
        Column("created", Float, nullable=False),
        Column("deleted", Boolean, nullable=False, default=False),
        Column("lang", String(8), nullable=False, default="en"),
        Column("email", String(254), nullable=True),
        Column("webhook", String(500), nullable=True),
        Column("events", JSON, nullable=False),
        Column("low_share", Float, nullable=False, default=0.1),
        Column("webhook_failures", Integer, nullable=False, default=0),
        Column("email_failures", Integer, nullable=False, default=0),
        Column("webhook_disabled", String(200), nullable=True),
        Column("email_disabled", String(200), nullable=True),
    )
accounts = metadata.tables["thermopylae_accounts"]


def fast(engine: Engine, mailer: Mailer | None = None, **options: Any) -> Deliverer:
    """A deliverer whose waits are a few milliseconds (so a test takes well under 5 s)."""
    return Deliverer(engine, mailer, poll=0.02, retry_delays=(0.01,), first_wait=0.01, **options)


# --- local receivers ----------------------------------------------------------------


class Receiver:
    """An HTTP server on 127.0.0.1 that records every POST; `/status/N` answers N,
    `/moved` redirects to `/hook`."""

    def __init__(self) -> None:
        self.posts: list[tuple[str, dict[str, Any]]] = []
        self.hosts: list[str | None] = []
        self.lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                size = int(self.headers.get("Content-Length") or 0)
                data = json.loads(self.rfile.read(size) or b"null")
                with outer.lock:
                    outer.posts.append((self.path, data))
                    outer.hosts.append(self.headers.get("Host"))
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
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.close()


class Mailbox:
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
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def smtp() -> Iterator[tuple[Mailbox, int]]:
    box = Mailbox()
    controller = Controller(box, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield box, controller.port
    controller.stop()


# --- the database -------------------------------------------------------------------


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Engine]:
    store = Store(f"sqlite:///{tmp_path / 'tables.db'}")
    yield store.engine
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

    asyncio.run(main())


def settled(engine: Engine) -> Callable[[], bool]:
    return lambda: all(r.status != "pending" for r in rows(engine))


# --- checks -------------------------------------------------------------------------

PRIVATE = [
    "http://127.0.0.1/hook",
    "http://127.8.9.10:8080/",
    "http://10.1.2.3/",
    "http://172.16.0.9/",
    "http://192.168.1.20/x",
    "http://169.254.169.254/latest/meta-data",
    "http://[::1]/",
    "http://[fe80::1]/",
    "http://[fd00::5]/",
    "http://[::ffff:127.0.0.1]/",
    "http://0.0.0.0/",
    "http://224.0.0.1/",
    "http://100.64.0.1/",
    "http://localhost/hook",
    "http://2130706433/",  # 127.0.0.1 written as one number
    "http://0x7f.0.0.1/",
]


@pytest.mark.parametrize("url", PRIVATE)
def test_non_public_webhook_targets_are_refused_unless_allowed(url: str) -> None:
    with pytest.raises(NotifyError, match="loopback, private or reserved"):
        check_webhook(url)
    assert check_webhook(url, allow_private=True).startswith("http://")


def test_a_public_address_passes_normalised() -> None:
    assert check_webhook("  HTTPS://8.8.8.8:8443/Hook?a=1 ") == "https://8.8.8.8:8443/Hook?a=1"
    assert check_webhook("http://8.8.4.4") == "http://8.8.4.4/"


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("", "empty"),
        ("ftp://8.8.8.8/x", "http:// or https://"),
        ("javascript:alert(1)", "http:// or https://"),
        ("8.8.8.8/hook", "http:// or https://"),
        ("http://user:secret@8.8.8.8/", "user name or password"),
        ("http:///only-a-path", "no host"),
        ("http://8.8.8.8:99999/", "malformed"),
        ("http://8.8.8.8/a b", "spaces or control"),
        ("http://8.8.8.8/" + "a" * 500, "longer than 500"),
    ],
)
def test_bad_webhook_urls_say_what_is_wrong(url: str, why: str) -> None:
    with pytest.raises(NotifyError, match=why):
        check_webhook(url, allow_private=True)


def fake_dns(monkeypatch: pytest.MonkeyPatch, answers: dict[str, str]) -> None:
    def lookup(host: str, port: Any, *args: Any, **kwargs: Any) -> list[Any]:
        if host not in answers:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (answers[host], port))]

    monkeypatch.setattr(socket, "getaddrinfo", lookup)


def test_names_are_resolved_and_checked_again_at_send_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake_dns(monkeypatch, {"hooks.example.org": "93.184.215.14"})
    assert check_webhook("https://Hooks.Example.org/x") == "https://hooks.example.org/x"
    with pytest.raises(NotifyError, match="cannot be resolved"):
        check_webhook("https://nowhere.example.org/x")
    # the name now points inside (DNS rebinding): the send refuses without connecting
    fake_dns(monkeypatch, {"hooks.example.org": "10.0.0.7"})
    with pytest.raises(DeliveryError, match="private") as refused:
        send_webhook("https://hooks.example.org/x", {"text": "hi"})
    assert not refused.value.transient


def test_a_send_connects_to_a_checked_address_under_the_name(
    monkeypatch: pytest.MonkeyPatch, receiver: Receiver
) -> None:
    real = socket.getaddrinfo
    asked: list[str] = []

    def lookup(host: str, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host != "hooks.example.test":
            return real(host, port, *args, **kwargs)
        asked.append(host)
        # nothing listens on the first address: the send goes on to the second
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port)) for a in LOOPBACKS]

    LOOPBACKS = ("127.0.0.2", "127.0.0.1")
    monkeypatch.setattr(socket, "getaddrinfo", lookup)
    send_webhook(f"http://hooks.example.test:{receiver.port}/hook", BODY, allow_private=True)
    assert asked == ["hooks.example.test"]  # looked up once, by the check, never again
    assert receiver.hosts == [f"hooks.example.test:{receiver.port}"]
    assert receiver.posts == [("/hook", BODY)]


def test_email_addresses() -> None:
    assert check_email(" Ann.B+games@Example.ORG ") == "Ann.B+games@example.org"
    for bad, why in [
        ("", "empty"),
        ("ann", "exactly one '@'"),
        ("a@b@example.org", "exactly one '@'"),
        ("ann@localhost", "domain"),
        ("ann@-x.org", "domain"),
        ("a b@example.org", "mailbox"),
        (".ann@example.org", "mailbox"),
        ("ann@example.org\r\nBcc: eve@example.org", "exactly one '@'"),
        ("ann@example.org\r\nBcc: x", "domain"),
        ("a" * 250 + "@example.org", "longer than 254"),
    ]:
        with pytest.raises(NotifyError, match=why):
            check_email(bad)


def test_smtp_spec() -> None:
    assert Mailer.from_spec("mail.example.org:587", "game@example.org") == Mailer(
        "mail.example.org", 587, "game@example.org"
    )
    for bad in ("mail.example.org", ":25", "host:0", "host:port"):
        with pytest.raises(NotifyError, match="HOST:PORT"):
            Mailer.from_spec(bad, "game@example.org")
    with pytest.raises(NotifyError):
        Mailer.from_spec("host:25", "not an address")


# --- payloads and texts -------------------------------------------------------------

BODY = make_body(
    "your_turn", "earth_and_water", "300: Earth & Water", "t1", "http://g.example", "persia", "en"
)


def test_the_body_holds_only_what_a_spectator_sees() -> None:
    assert set(BODY) == BODY_KEYS
    assert BODY["link"] == "http://g.example/table/t1"
    assert BODY["text"] == "Your turn in 300: Earth & Water (table t1, seat persia)."


@pytest.mark.parametrize(
    "url",
    ["https://discord.com/api/webhooks/123/abc", "https://discordapp.com/api/webhooks/1/x"],
)
def test_discord_payload(url: str) -> None:
    got = payload(url, BODY)
    assert got == {
        "content": f"{BODY['text']}\n{BODY['link']}",
        "allowed_mentions": {"parse": []},
    }


def test_slack_payload_escapes_its_markup() -> None:
    body = {**BODY, "text": "a <b> & c"}
    got = payload("https://hooks.slack.com/services/T0/B0/XX", body)
    assert got == {"text": f"a &lt;b&gt; &amp; c\n{BODY['link']}"}


def test_generic_payload_is_the_body() -> None:
    assert payload("https://example.org/hook", BODY) == BODY
    # a Discord host without its webhook path is not Discord's format
    assert payload("https://discord.com/other", BODY) == BODY


def test_texts_in_each_language() -> None:
    with i18n.language("fr"):
        title_fr = i18n._("300: Earth & Water")
    got = text("your_turn", "300: Earth & Water", "t9", "greece", "fr")
    assert got == f"À vous de jouer dans {title_fr} (table t9, place greece)."
    assert text("game_over", "300 Spartans", "t9", None, "pt").startswith("A partida de")
    assert text("invitation", "300 Spartans", "t9", "p2", "it").startswith("Hai ricevuto")
    assert "tempo" in text("time_low", "300 Spartans", "t9", "p2", "pt")
    assert text("test", "", None, None, "xx").startswith("This is a test")  # unknown: English
    assert i18n.current() == "en"  # the caller's language is left as it was
    with pytest.raises(NotifyError, match="unknown notification event"):
        text("moved", "300 Spartans", "t9", None, "en")


# --- the outbox ---------------------------------------------------------------------


@pytest.mark.parametrize("key", ["token", "view", "hand", "deck", "seat_token"])
def test_queue_refuses_a_body_with_secrets(db: Engine, key: str) -> None:
    ep = Endpoint(1, "webhook", "http://127.0.0.1/", frozenset(CHOSEN))
    with db.begin() as conn, pytest.raises(NotifyError, match=key):
        queue(conn, [ep], "your_turn", "t1", {**BODY, key: "x"}, "t1:1")
    with db.begin() as conn, pytest.raises(NotifyError, match="text or a number"):
        queue(conn, [ep], "your_turn", "t1", {**BODY, "text": ["a", "hand"]}, "t1:1")
    with db.begin() as conn, pytest.raises(NotifyError, match="unknown notification event"):
        queue(conn, [ep], "chat", "t1", BODY, "t1:1")
    assert rows(db) == []


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    store = Store(database_url(request.param, request, tmp_path))
    yield store.engine
    store.dispose()


def test_queue_skips_duplicates_disabled_channels_and_unchosen_events(any_db: Engine) -> None:
    db = any_db
    a = add_account(db, webhook="http://127.0.0.1:9/", email="ann@example.org")
    assert len(queue_for(db, a, "your_turn", "t1", "t1:4:your_turn:0")) == 2
    assert queue_for(db, a, "your_turn", "t1", "t1:4:your_turn:0") == []  # once per key
    b = add_account(db, webhook="http://127.0.0.1:9/", events=("game_over",))
    assert queue_for(db, b, "your_turn", "t2") == []
    assert len(queue_for(db, b, "test", "t2", "test:1")) == 1  # the button: always
    with db.begin() as conn:
        conn.execute(update(accounts).where(accounts.c.id == a).values(email_disabled="dead"))
    assert [r.channel for r in rows(db) if r.account_id == a] == ["webhook", "email"]
    got = queue_for(db, a, "game_over", "t1")
    assert [r.channel for r in rows(db) if r.id in got] == ["webhook"]


def test_each_queued_notice_is_posted_once(db: Engine, receiver: Receiver) -> None:
    a = add_account(db, webhook=receiver.url())
    for t in ("t1", "t2", "t3"):
        queue_for(db, a, "your_turn", t)
    run_until([fast(db, None, allow_private=True)], settled(db))
    assert sorted(body["table"] for _path, body in receiver.posts) == ["t1", "t2", "t3"]
    for _path, body in receiver.posts:
        assert set(body) <= BODY_KEYS
    for r in rows(db):
        assert (r.status, r.attempts, r.last_error) == ("sent", 1, None)
        assert r.sent_at is not None and r.claimed_until is None


def test_loopback_is_refused_at_send_time_without_the_flag(db: Engine, receiver: Receiver) -> None:
    a = add_account(db, webhook=receiver.url())
    queue_for(db, a, "your_turn", "t1")
    run_until([fast(db, None)], settled(db))
    assert receiver.posts == []
    (r,) = rows(db)
    assert r.status == "failed" and "private" in r.last_error


def test_answers_other_than_2xx(db: Engine, receiver: Receiver) -> None:
    cases = {"/status/500": 3, "/status/404": 1, "/moved": 1}  # tries made in 1 attempt
    ids = {}
    for path in cases:
        a = add_account(db, webhook=receiver.url(path))
        (ids[path],) = queue_for(db, a, "your_turn", path)
    d = fast(db, None, allow_private=True, max_attempts=1)
    run_until([d], settled(db))
    for path, tries in cases.items():
        assert [p for p, _ in receiver.posts].count(path) == tries
    got = {r.id: r for r in rows(db)}
    assert "HTTP 500" in got[ids["/status/500"]].last_error
    assert "HTTP 404" in got[ids["/status/404"]].last_error
    assert "redirects are not followed" in got[ids["/moved"]].last_error
    assert all(p != "/hook" for p, _ in receiver.posts)  # the redirect was not followed


def test_email_carries_the_link_and_no_token(db: Engine, smtp: tuple[Mailbox, int]) -> None:
    box, port = smtp
    a = add_account(db, email="ann@example.org")
    secret = "seat-token-abcdef"  # what a seat link would hold: never in a notice
    body = make_body(
        "your_turn",
        "earth_and_water",
        "300: Earth & Water",
        "t7",
        "http://g.example",
        "persia",
        "fr",
    )
    with db.begin() as conn:
        queue(conn, endpoints(account(db, a)), "your_turn", "t7", body, "t7:3")
    mailer = Mailer("127.0.0.1", port, "games@thermopylae.example")
    run_until([fast(db, mailer)], settled(db))
    ((to, msg),) = box.got
    assert to == ["ann@example.org"]
    assert msg["From"] == "games@thermopylae.example"
    assert msg["Auto-Submitted"] == "auto-generated"
    assert isinstance(msg, EmailMessage)
    assert str(msg["Subject"]).startswith("À vous de jouer dans")
    words = msg.get_content()
    assert "http://g.example/table/t7" in words and "À vous de jouer" in words
    assert secret not in words and "token" not in words.lower()
    assert rows(db)[0].status == "sent"


def test_email_without_smtp_fails_clearly(db: Engine) -> None:
    a = add_account(db, email="ann@example.org")
    queue_for(db, a, "your_turn", "t1")
    run_until([fast(db, None)], settled(db))
    assert "email is off" in rows(db)[0].last_error


def test_a_dead_endpoint_is_retried_then_failed_then_disabled(db: Engine) -> None:
    dead = f"http://127.0.0.1:{free_port()}/hook"  # nothing listens there
    a = add_account(db, webhook=dead)
    ids = [queue_for(db, a, "your_turn", f"t{i}")[0] for i in range(4)]
    on_result, on_disable = account_callbacks(accounts)
    d = fast(
        db,
        None,
        allow_private=True,
        on_result=on_result,
        on_disable=on_disable,
        disable_after=3,
        parallel=1,
        tries=2,
    )
    run_until([d], settled(db))
    got = {r.id: r for r in rows(db)}
    for i in ids[:3]:
        assert (got[i].status, got[i].attempts) == ("failed", 5)
        assert "cannot reach 127.0.0.1" in got[i].last_error
    assert got[ids[3]].status == "failed"
    assert got[ids[3]].last_error == "not sent: the channel was disabled"
    acc = account(db, a)
    assert acc["webhook_failures"] == 3
    assert "3 notices in a row could not be delivered" in acc["webhook_disabled"]
    assert queue_for(db, a, "your_turn", "t9") == []  # nothing more until settings are saved


def test_a_success_resets_the_failure_count(db: Engine, receiver: Receiver) -> None:
    a = add_account(db, webhook=receiver.url())
    with db.begin() as conn:
        conn.execute(update(accounts).where(accounts.c.id == a).values(webhook_failures=2))
    queue_for(db, a, "your_turn", "t1")
    on_result, on_disable = account_callbacks(accounts)
    d = fast(db, None, allow_private=True, on_result=on_result, on_disable=on_disable)
    run_until([d], settled(db))
    assert account(db, a)["webhook_failures"] == 0


def test_a_held_row_is_not_sent_twice(db: Engine, receiver: Receiver) -> None:
    a = add_account(db, webhook=receiver.url())
    (n,) = queue_for(db, a, "your_turn", "t1")
    with db.begin() as conn:  # another process holds it
        conn.execute(update(notices).values(claimed_until=time.time() + 60))
    d = fast(db, None, allow_private=True)
    assert d.deliver_one(n) is None
    assert d.deliver_one(n, force=True) is None
    assert receiver.posts == []
    with db.begin() as conn:  # its hold lapsed (that process died)
        conn.execute(update(notices).values(claimed_until=time.time() - 1))
    got = d.deliver_one(n)
    assert got is not None and got.status == "sent"
    assert d.deliver_one(n) is None  # sent: never again
    assert len(receiver.posts) == 1


def test_deliver_now_sends_a_row_that_is_not_due(db: Engine, receiver: Receiver) -> None:
    a = add_account(db, webhook=receiver.url())
    (n,) = queue_for(db, a, "test", "", "test:1")
    with db.begin() as conn:
        conn.execute(update(notices).values(next_try=time.time() + 3600, attempts=1))
    d = fast(db, None, allow_private=True)
    got = asyncio.run(d.deliver_now(n))
    assert (got.status, got.attempts) == ("sent", 2)
    again = asyncio.run(d.deliver_now(n))  # already sent: its outcome, no second send
    assert again.status == "sent" and len(receiver.posts) == 1
    with pytest.raises(NotifyError, match="no notice"):
        asyncio.run(d.deliver_now(n + 100))


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_two_deliverers_send_each_row_once(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path, receiver: Receiver
) -> None:
    first, second = Store(database_url(backend, request, tmp_path)), None
    try:
        second = Store(first.url)  # another process's connections to the same database
        a = add_account(first.engine, webhook=receiver.url())
        for i in range(30):
            queue_for(first.engine, a, "your_turn", f"t{i}")
        both = [
            fast(s.engine, None, allow_private=True, parallel=3, batch=5) for s in (first, second)
        ]
        run_until(both, settled(first.engine))
        tables = sorted(body["table"] for _path, body in receiver.posts)
        assert tables == sorted(f"t{i}" for i in range(30))
        assert all(r.status == "sent" and r.attempts == 1 for r in rows(first.engine))
    finally:
        first.dispose()
        if second is not None:
            second.dispose()
