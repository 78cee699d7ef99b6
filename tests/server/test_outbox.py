"""The outbox: what `queue` refuses and skips, and delivery through local receivers (an
HTTP server and an SMTP server on 127.0.0.1, started and stopped here): one send per
notice, answers other than 2xx, retries recorded, a dead endpoint disabled, a held row
left alone, the test button, two deliverers sending each row once."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import update
from sqlalchemy.engine import Engine

from tests.server.conftest import database_url
from tests.server.helpers import run_async
from tests.server.notify_helpers import (
    BODY,
    Mailbox,
    Receiver,
    account,
    accounts,
    add_account,
    database,
    fast,
    free_port,
    mail_server,
    queue_for,
    rows,
    run_until,
    settled,
)
from thermopylae.server.db import notices
from thermopylae.server.notify import BODY_KEYS, CHOSEN, Mailer, NotifyError, make_body
from thermopylae.server.outbox import Endpoint, account_callbacks, endpoints, queue
from thermopylae.server.store import Store


@pytest.fixture
def smtp() -> Iterator[tuple[Mailbox, int]]:
    with mail_server() as server:
        yield server


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Engine]:
    with database(f"sqlite:///{tmp_path / 'tables.db'}") as engine:
        yield engine


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
    with database(database_url(request.param, request, tmp_path)) as engine:
        yield engine


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


def test_a_slow_endpoint_holds_only_its_own_row(db: Engine, receiver: Receiver) -> None:
    slow = add_account(db, webhook=receiver.url("/slow"))
    quick = add_account(db, webhook=receiver.url())
    (held,) = queue_for(db, slow, "your_turn", "t1")
    (sent,) = queue_for(db, quick, "your_turn", "t2")

    seen: list[bool] = []

    def quick_sent_while_slow_waits_then_both() -> bool:
        got = {r.id: r.status for r in rows(db)}
        if not seen and got[sent] == "sent" and got[held] == "pending":
            seen.append(True)
            receiver.gate.set()  # now let the slow endpoint answer
        return bool(seen) and set(got.values()) == {"sent"}

    run_until([fast(db, None, allow_private=True)], quick_sent_while_slow_waits_then_both)
    assert {r.id: r.status for r in rows(db)} == {held: "sent", sent: "sent"}
    assert [p for p, _ in receiver.posts].count("/slow") == 1


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
    got = run_async(d.deliver_now(n))
    assert (got.status, got.attempts) == ("sent", 2)
    again = run_async(d.deliver_now(n))  # already sent: its outcome, no second send
    assert again.status == "sent" and len(receiver.posts) == 1
    with pytest.raises(NotifyError, match="no notice"):
        run_async(d.deliver_now(n + 100))


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


def test_a_deliverer_stopped_before_it_runs_stays_stopped(db: Engine) -> None:
    d = fast(db, None)
    d.wake()  # nothing to wake yet: no error
    d.stop()
    run_async(asyncio.wait_for(d.run(), 5))  # returns instead of looping
