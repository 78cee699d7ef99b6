"""The outbox: every notice waiting to be sent is a row, written in the same transaction as
the move that causes it, so a restart loses none and a move never waits for a webhook.

A `Deliverer` in each server process sends the rows that are due. It claims a row with a
conditional UPDATE (only a row nobody holds, or whose hold has lapsed) before sending it,
so with several processes on one database each row is sent by one of them. A send that
fails is retried at once a few times (tenacity, short backoff); a failed attempt puts the
row back with a growing delay, and after `max_attempts` the row is "failed".

Disabling a dead endpoint: the count of consecutive failed rows is kept on the account
(`webhook_failures` / `email_failures`) by the `on_result` callback, which answers the new
count; when it reaches `disable_after`, `on_disable` marks the channel disabled on the
account and the channel's other waiting rows are dropped. Saving the settings again (the
lead's route) clears both. `account_callbacks(accounts)` implements the two callbacks on
the accounts table. A row is sent at least once: if the database cannot record a send, the
row's hold lapses and it is sent again.

A deliverer `alone` on its database (no other server process) skips its look while no row
can be due: every row is queued through this process, whose store wakes it after the
transaction (`Store.on_notices`), and the rows it holds or will retry are noted
(`due_floor.DueFloor`); it still looks every `LOOK_ANYWAY` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Table,
    and_,
    bindparam,
    case,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from tenacity import Retrying, retry_if_exception, stop_after_attempt, wait_exponential

from thermopylae.server import wakeup
from thermopylae.server.db import notices
from thermopylae.server.due_floor import NOW, DueFloor
from thermopylae.server.notify import (
    EVENTS,
    WEBHOOK_TIMEOUT,
    DeliveryError,
    Mailer,
    NotifyError,
    check_body,
    send_email,
    send_webhook,
)

log = logging.getLogger("thermopylae.server")

CHANNELS = ("webhook", "email")

_DUE = (
    select(notices.c.id)
    .where(
        notices.c.status == "pending",
        notices.c.next_try <= bindparam("w_now"),
        or_(notices.c.claimed_until.is_(None), notices.c.claimed_until < bindparam("w_now")),
    )
    .order_by(notices.c.next_try, notices.c.id)
    .limit(bindparam("w_limit"))
)
"""Built once: the deliverer looks twice a second, idle or not."""
_EARLIEST = select(
    func.min(
        case(
            (notices.c.claimed_until > notices.c.next_try, notices.c.claimed_until),
            else_=notices.c.next_try,
        )
    )
).where(notices.c.status == "pending")
"""When the first waiting row falls due: its next try, or when its hold lapses if later."""
LOOK_ANYWAY = 5.0
"""Seconds between looks of a deliverer alone on its database when no row can be due."""


OnResult = Callable[[Connection, int, str, bool], int]
"""(conn, account_id, channel, ok) -> the channel's consecutive failed rows, after this one."""
OnDisable = Callable[[Connection, int, str, str], None]
"""(conn, account_id, channel, why): stop queueing for this channel."""


@dataclass(frozen=True)
class Endpoint:
    """One channel of one account, as `queue` needs it: where to send, which events the
    player chose, and why it is disabled (None when it is not)."""

    account_id: int
    channel: str
    target: str
    events: frozenset[str]
    disabled: str | None = None


def endpoints(account: Mapping[str, Any]) -> list[Endpoint]:
    """The channels of an account row (`id`, `webhook`, `email`, `events`,
    `webhook_disabled`, `email_disabled`) that have a target."""
    events = frozenset(account.get("events") or ())
    out = []
    for channel in CHANNELS:
        target = account.get(channel)
        if target:
            out.append(
                Endpoint(
                    int(account["id"]),
                    channel,
                    str(target),
                    events,
                    account.get(f"{channel}_disabled"),
                )
            )
    return out


def queue(
    conn: Connection,
    targets: Sequence[Endpoint],
    event: str,
    table_id: str | None,
    body: Mapping[str, Any],
    key: str,
    now: float | None = None,
) -> list[int]:
    """Add one notice per endpoint that is enabled and chose `event` (a `test` goes to every
    enabled one), inside the caller's transaction; answers the new rows' ids. The row's key
    is `key:channel`: a key already queued is skipped, so "once per turn" holds across
    processes. `NotifyError` for an unknown event or a body with anything but the allowed
    keys (a token, a view, a hand or a deck never leave the server this way)."""
    if event not in EVENTS:
        raise NotifyError(f"unknown notification event {event!r} (one of {', '.join(EVENTS)})")
    clean = check_body(body)
    if not key or len(key) > 190:
        raise NotifyError("a notice's key must be 1 to 190 characters")
    at = time.time() if now is None else now
    ids: list[int] = []
    for ep in targets:
        if ep.channel not in CHANNELS:
            raise NotifyError(f"unknown channel {ep.channel!r} (one of {', '.join(CHANNELS)})")
        if ep.disabled or not ep.target or (event != "test" and event not in ep.events):
            continue
        row = {
            "key": f"{key}:{ep.channel}",
            "account_id": ep.account_id,
            "channel": ep.channel,
            "target": ep.target,
            "event": event,
            "table_id": table_id,
            "body": clean,
            "created": at,
            "status": "pending",
            "attempts": 0,
            "next_try": at,
        }
        new = _insert_once(conn, row)
        if new is not None:
            ids.append(new)
    return ids


def _insert_once(conn: Connection, row: dict[str, Any]) -> int | None:
    """Insert `row` unless its key is taken; never spoils the caller's transaction."""
    dialect = conn.dialect.name
    if dialect in ("sqlite", "postgresql"):
        if dialect == "sqlite":
            from sqlalchemy.dialects.sqlite import insert as upsert
        else:
            from sqlalchemy.dialects.postgresql import insert as upsert  # type: ignore[assignment]
        stmt = upsert(notices).values(**row).on_conflict_do_nothing(index_elements=["key"])
        got = conn.execute(stmt.returning(notices.c.id)).first()
        return None if got is None else int(got[0])
    if conn.execute(select(notices.c.id).where(notices.c.key == row["key"])).first():
        return None
    try:
        with conn.begin_nested():
            pk = conn.execute(insert(notices).values(**row)).inserted_primary_key
    except IntegrityError:
        return None
    return None if pk is None else int(pk[0])


def account_callbacks(accounts: Table) -> tuple[OnResult, OnDisable]:
    """`on_result` and `on_disable` on the accounts table: `<channel>_failures` counts the
    consecutive failed rows (a sent one resets it), `<channel>_disabled` holds why."""

    def on_result(conn: Connection, account_id: int, channel: str, ok: bool) -> int:
        count = accounts.c[f"{channel}_failures"]
        where = accounts.c.id == account_id
        conn.execute(update(accounts).where(where).values({count: 0 if ok else count + 1}))
        return int(conn.execute(select(count).where(where)).scalar_one_or_none() or 0)

    def on_disable(conn: Connection, account_id: int, channel: str, why: str) -> None:
        column = accounts.c[f"{channel}_disabled"]
        conn.execute(
            update(accounts).where(accounts.c.id == account_id).values({column: why[:200]})
        )

    return on_result, on_disable


@dataclass(frozen=True)
class Outcome:
    """Where a notice stands after a delivery attempt."""

    id: int
    status: str
    attempts: int
    last_error: str | None
    sent_at: float | None


class Deliverer:
    """Sends the due rows of the outbox, in the background of one server process.

    `run()` polls every `poll` seconds (`wake()` makes it look at once; `alone`, it looks
    only when a row may be due, see the module's docstring); each claimed row is sent in
    a thread, `parallel` at most; `deliver_due()` is one pass of `batch` rows.
    `retry_delays` are the waits after the 1st, 2nd, ... failed attempt (the last one
    repeats); `tries` and `first_wait` govern the quick retries inside one attempt; `lease`
    is how long a claim holds (longer than one attempt can take). `base` makes a relative
    link in a body absolute.
    """

    def __init__(
        self,
        engine: Engine,
        mailer: Mailer | None,
        allow_private: bool = False,
        base: str = "",
        *,
        on_result: OnResult | None = None,
        on_disable: OnDisable | None = None,
        poll: float = 0.5,
        retry_delays: Sequence[float] = (30.0, 120.0, 600.0, 3600.0),
        max_attempts: int = 5,
        disable_after: int = 5,
        tries: int = 3,
        first_wait: float = 0.2,
        lease: float = 60.0,
        batch: int = 20,
        parallel: int = 4,
        webhook_timeout: float = WEBHOOK_TIMEOUT,
        alone: bool = False,
    ) -> None:
        if not retry_delays or max_attempts < 1 or tries < 1:
            raise ValueError("retry_delays, max_attempts and tries must not be empty or zero")
        self.engine = engine
        self.mailer = mailer
        self.allow_private = allow_private
        self.base = base.rstrip("/")
        self.on_result = on_result
        self.on_disable = on_disable
        self.poll = poll
        self.retry_delays = tuple(retry_delays)
        self.max_attempts = max_attempts
        self.disable_after = disable_after
        self.tries = tries
        self.first_wait = first_wait
        self.lease = lease
        self.batch = batch
        self.parallel = parallel
        self.webhook_timeout = webhook_timeout
        self.alone = alone  # no other process queues rows: look only when one may be due
        self.floor = DueFloor()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._event: asyncio.Event | None = None
        self._stopped = False

    def release_claims(self) -> int:
        """Free the holds on waiting rows (a server that is the only one on its database,
        starting again after a crash: the rows its last life held were never sent)."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(notices)
                .where(notices.c.status == "pending", notices.c.claimed_until.is_not(None))
                .values(claimed_until=None)
            ).rowcount
        return int(done or 0)

    # --- the loop ---------------------------------------------------------------------

    async def run(self) -> None:
        """Deliver due rows until `stop()` or cancellation: up to `parallel` at once, a
        slow endpoint holding only its own row; a database that is down is logged and
        tried again at the next poll. On `stop()`, the rows in hand are finished."""
        self._loop = asyncio.get_running_loop()
        self._event = asyncio.Event()
        busy: set[asyncio.Task[Outcome | None]] = set()
        try:
            while not self._stopped:
                self._event.clear()
                free = self.parallel - len(busy)
                if free > 0 and (not self.alone or self.floor.due(time.time(), LOOK_ANYWAY)):
                    try:
                        ids = await asyncio.to_thread(self._due, time.time(), free)
                    except SQLAlchemyError as exc:
                        log.warning("notifications: the database is unavailable: %s", exc)
                        ids = []
                    except Exception:  # a defect must not end every later delivery
                        log.exception("notifications: looking for due notices failed")
                        ids = []
                    for notice_id in ids:
                        task = asyncio.create_task(asyncio.to_thread(self.deliver_one, notice_id))
                        busy.add(task)
                        task.add_done_callback(self._finished(busy))
                    if len(ids) == free and not self._stopped:
                        continue  # more may be due: look again once a slot frees
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._event.wait(), self.poll)
        finally:
            if busy:
                await asyncio.gather(*busy, return_exceptions=True)

    def _finished(
        self, busy: set[asyncio.Task[Outcome | None]]
    ) -> Callable[[asyncio.Task[Outcome | None]], None]:
        def done(task: asyncio.Task[Outcome | None]) -> None:
            busy.discard(task)
            self.floor.note(NOW)  # more may be due: look again
            if not task.cancelled() and task.exception() is not None:
                log.error("notifications: a delivery failed", exc_info=task.exception())
            if self._event is not None:
                self._event.set()  # a slot is free

        return done

    def wake(self) -> None:
        """Look for due rows now (after a commit that queued some); safe from any thread."""
        self.floor.note(NOW)
        wakeup.wake(self._loop, self._event)

    def stop(self) -> None:
        """End `run()` after the rows in hand (at once if it has not started: a stopped
        deliverer stays stopped)."""
        self._stopped = True
        self.wake()

    async def deliver_due(self) -> int:
        """One pass: claim and send the rows due now (at most `batch`); answers how many
        were looked at."""
        ids = await asyncio.to_thread(self._due, time.time(), self.batch)
        gate = asyncio.Semaphore(self.parallel)

        async def one(notice_id: int) -> None:
            async with gate:
                await asyncio.to_thread(self.deliver_one, notice_id)

        await asyncio.gather(*(one(i) for i in ids))
        return len(ids)

    async def deliver_now(self, notice_id: int, wait: float = 60.0) -> Outcome:
        """Send this row now, whatever its next try (the settings page's test button), and
        answer how it went. When another process holds it, wait for that one's result."""
        got = await asyncio.to_thread(self.deliver_one, notice_id, True)
        if got is not None:
            return got
        end = time.monotonic() + wait
        while True:
            row = await asyncio.to_thread(self._row, notice_id)
            if row is None:
                raise NotifyError(f"there is no notice {notice_id}")
            held = row.claimed_until is not None and row.claimed_until > time.time()
            if not held or time.monotonic() > end:
                return _outcome(row)
            await asyncio.sleep(0.1)

    # --- one row (in a thread) --------------------------------------------------------

    def deliver_one(self, notice_id: int, force: bool = False) -> Outcome | None:
        """Claim, send and record one row; None when it is not ours to send (held by
        another process, not due, or no longer pending). `force`: due or not."""
        now = time.time()
        until = now + self.lease
        try:
            with self.engine.begin() as conn:
                cond = [
                    notices.c.id == notice_id,
                    notices.c.status == "pending",
                    or_(notices.c.claimed_until.is_(None), notices.c.claimed_until < now),
                ]
                if not force:
                    cond.append(notices.c.next_try <= now)
                claimed = conn.execute(
                    update(notices).where(and_(*cond)).values(claimed_until=until)
                ).rowcount
                row = conn.execute(select(notices).where(notices.c.id == notice_id)).first()
        except SQLAlchemyError as exc:
            log.warning("notifications: cannot claim notice %s: %s", notice_id, exc)
            return None
        if claimed != 1 or row is None:
            return None
        self.floor.note(until)  # should the outcome not be recorded, the hold lapses then
        error: DeliveryError | None = None
        try:
            self._send(row.channel, row.target, dict(row.body))
        except DeliveryError as exc:
            error = exc
        except Exception as exc:  # a defect in a sender must not stop the loop
            log.exception("notifications: sending notice %s failed", notice_id)
            error = DeliveryError(f"internal error: {type(exc).__name__}", transient=False)
        try:
            return self._record(row, until, error)
        except SQLAlchemyError as exc:
            log.warning("notifications: cannot record notice %s: %s", notice_id, exc)
            return None

    def _send(self, channel: str, target: str, body: dict[str, Any]) -> None:
        link = body.get("link")
        if self.base and isinstance(link, str) and link.startswith("/"):
            body["link"] = self.base + link
        if channel == "webhook":

            def attempt() -> None:
                send_webhook(target, body, self.allow_private, self.webhook_timeout)

        elif channel == "email":
            mailer = self.mailer
            if mailer is None:
                raise DeliveryError("email is off on this server (no --smtp)", transient=False)

            def attempt() -> None:
                send_email(mailer, target, body)

        else:
            raise DeliveryError(f"unknown channel {channel!r}", transient=False)
        retrying = Retrying(
            stop=stop_after_attempt(self.tries),
            wait=wait_exponential(multiplier=self.first_wait, max=max(self.first_wait, 5.0)),
            retry=retry_if_exception(lambda e: isinstance(e, DeliveryError) and e.transient),
            reraise=True,
        )
        retrying(attempt)

    def _record(self, row: Any, until: float, error: DeliveryError | None) -> Outcome:
        """Store how the attempt went (only while our claim holds) and tell the account."""
        now = time.time()
        attempts = int(row.attempts) + 1
        values: dict[str, Any] = {"attempts": attempts, "claimed_until": None}
        if error is None:
            values.update(status="sent", sent_at=now, last_error=None)
        elif not error.transient or attempts >= self.max_attempts:
            values.update(status="failed", last_error=str(error)[:300])
        else:
            delay = self.retry_delays[min(attempts, len(self.retry_delays)) - 1]
            values.update(status="pending", next_try=now + delay, last_error=str(error)[:300])
            self.floor.note(now + delay)
        with self.engine.begin() as conn:
            mine = conn.execute(
                update(notices)
                .where(notices.c.id == row.id, notices.c.claimed_until == until)
                .values(**values)
            ).rowcount
            if mine == 1 and values["status"] != "pending":
                self._account(conn, row, error)
            done = conn.execute(select(notices).where(notices.c.id == row.id)).one()
        return _outcome(done)

    def _account(self, conn: Connection, row: Any, error: DeliveryError | None) -> None:
        """A row has ended: count it on the account; disable the channel at the limit."""
        if self.on_result is None:
            return
        failures = self.on_result(conn, row.account_id, row.channel, error is None)
        if error is None or failures < self.disable_after or self.on_disable is None:
            return
        why = f"{failures} notices in a row could not be delivered (last: {error})"[:200]
        self.on_disable(conn, row.account_id, row.channel, why)
        conn.execute(
            update(notices)
            .where(
                notices.c.account_id == row.account_id,
                notices.c.channel == row.channel,
                notices.c.status == "pending",
                or_(notices.c.claimed_until.is_(None), notices.c.claimed_until < time.time()),
            )
            .values(status="failed", last_error="not sent: the channel was disabled")
        )

    def _due(self, now: float, limit: int) -> list[int]:
        """The rows due at `now` (at most `limit`); `alone`, the floor becomes the time
        the first waiting row falls due (now, if there may be more than `limit`)."""

        def read() -> tuple[list[int], float | None]:
            with self.engine.begin() as conn:
                ids = [int(r.id) for r in conn.execute(_DUE, {"w_now": now, "w_limit": limit})]
                if not self.alone:
                    return ids, None
                earliest = conn.execute(_EARLIEST).scalar()
            return ids, NOW if len(ids) >= limit else earliest

        return self.floor.look(read) if self.alone else read()[0]

    def _row(self, notice_id: int) -> Any:
        with self.engine.begin() as conn:
            return conn.execute(select(notices).where(notices.c.id == notice_id)).first()


def _outcome(row: Any) -> Outcome:
    return Outcome(int(row.id), row.status, int(row.attempts), row.last_error, row.sent_at)
