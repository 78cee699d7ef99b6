"""Who is watching which table, and telling them when it changes.

Each WebSocket is a `Watcher`; a change of a table wakes its watchers, and each builds
its own message from its seat's view. With Redis, every server process
publishes the tables it changed and listens for the others' changes, so players connected
to different processes see the same game.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from typing import Any

log = logging.getLogger("thermopylae.server")
CHANNEL = "thermopylae:tables"


class Watcher:
    """One socket's interest in a table: `poke` marks the table changed and wakes the
    socket's writer, which reads the table as it is then (so changes that came while it
    was busy are told once, in one update). A flag and a future rather than an
    `asyncio.Queue` of move numbers: the writer only ever wanted the newest, and the
    queue's bookkeeping was a few percent of the server's CPU an action."""

    __slots__ = ("_loop", "_waiter", "changed", "seat", "table")

    def __init__(self, table: str, seat: int | None) -> None:
        self.table = table
        self.seat = seat
        self.changed = False
        self._waiter: asyncio.Future[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None  # its socket's, once it waited

    def poke(self) -> None:
        self.changed = True
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def wait(self) -> None:
        """Return once the table changed since the last return (at once if it did)."""
        while not self.changed:
            # The loop is looked up once: `get_running_loop` is a getpid system call in
            # CPython 3.11, and a socket's writer waits here after every push.
            loop = self._loop
            if loop is None:
                loop = self._loop = asyncio.get_running_loop()
            self._waiter = loop.create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        self.changed = False


PUBLISH_TIMEOUT = 2.0  # seconds a publish may take before Redis counts as down
RETRY = 1.0  # seconds between attempts to reach Redis again
PING_EVERY = 5.0  # seconds of silence on the subscription before it is pinged ...
SILENT_FOR = 15.0  # ... and after which it counts as dead (a hung Redis, a lost route)


class Hub:
    """Watchers per table, and with Redis the updates shared between processes.

    Redis is an accelerator, never a dependency: an action never waits for it (a background
    task publishes the tables changed here), and when it is down actions are still stored
    and each process still tells its own watchers; the other processes' watchers may miss
    pushes meanwhile. Publishing and the subscription are tried again every `RETRY` seconds;
    once Redis is back, the tables changed here in the meantime are published and the tables
    watched here are caught up with the database, so no watcher stays behind."""

    def __init__(self, redis_url: str | None = None) -> None:
        self.watchers: dict[str, set[Watcher]] = {}
        self.redis_url = redis_url
        self.origin = secrets.token_hex(6)  # this process, to ignore its own messages
        self._redis: Any = None
        self._tasks: list[asyncio.Task[None]] = []
        self.on_remote: Any = None  # async (table_id) -> None, set by the app
        self.redis_ok = redis_url is None  # subscribed, and publishing goes through
        self._subscribed = False
        self._publish_ok = True
        self._was_ok = False  # Redis answered once (so a recovery is worth a log line)
        self._unsent: dict[str, int] = {}  # tables changed here that Redis was not told of
        self._pending = asyncio.Event()

    def watch(self, table: str, seat: int | None) -> Watcher:
        w = Watcher(table, seat)
        self.watchers.setdefault(table, set()).add(w)
        return w

    def unwatch(self, w: Watcher) -> None:
        ws = self.watchers.get(w.table)
        if ws is not None:
            ws.discard(w)
            if not ws:
                del self.watchers[w.table]

    def wake(self, table: str, move: int) -> None:
        for w in self.watchers.get(table, ()):  # poke neither adds nor removes watchers
            w.poke()

    async def publish(self, table: str, move: int) -> None:
        """A table changed here: wake local watchers now; the other processes are told by
        the publishing task (at once, or once Redis answers again)."""
        self.wake(table, move)
        if self._redis is not None:
            self._unsent[table] = move
            self._pending.set()

    async def _publisher(self) -> None:
        while True:
            await self._pending.wait()
            self._pending.clear()
            while self._unsent:
                table, move = next(iter(self._unsent.items()))
                try:
                    async with asyncio.timeout(PUBLISH_TIMEOUT):  # no task per publish
                        await self._redis.publish(
                            CHANNEL,
                            json.dumps({"table": table, "move": move, "origin": self.origin}),
                        )
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # Redis down: this process still serves its own
                    self._publish_ok = False
                    self._status(f"publish failed ({_why(exc)})")
                    await asyncio.sleep(RETRY)
                    continue
                if self._unsent.get(table) == move:
                    del self._unsent[table]
                self._publish_ok = True
                self._status("")

    def _status(self, why: str) -> None:
        ok = self._subscribed and self._publish_ok
        if self.redis_ok and not ok:
            log.warning("Redis: %s; updates stay in this process until it is back", why)
        elif ok and not self.redis_ok and self._was_ok:
            log.warning("Redis is reachable again")
        self._was_ok = self._was_ok or ok
        self.redis_ok = ok

    async def start(self) -> None:
        if self.redis_url is None:
            return
        import redis.asyncio as aioredis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        # No retries inside the client (its default retries for seconds): a failure is
        # handled here, by trying again every RETRY seconds.
        self._redis = aioredis.from_url(
            self.redis_url,
            socket_connect_timeout=PUBLISH_TIMEOUT,
            socket_timeout=PUBLISH_TIMEOUT,
            retry=Retry(NoBackoff(), 0),
        )
        self._tasks = [asyncio.create_task(self._listen()), asyncio.create_task(self._publisher())]

    async def _listen(self) -> None:
        loop = asyncio.get_running_loop()
        lost = False
        while True:
            pubsub = self._redis.pubsub()
            try:
                await pubsub.subscribe(CHANNEL)
                self._subscribed = True
                self._status("")
                if lost:
                    lost = False
                    await self._resync()
                heard = pinged = loop.time()
                while True:
                    msg = await pubsub.get_message(timeout=1.0)
                    now = loop.time()
                    if msg is not None:
                        heard = now
                        if msg.get("type") == "message":
                            await self._received(msg["data"])
                    elif now - heard > SILENT_FOR:
                        raise ConnectionError(f"no answer from Redis for {SILENT_FOR:.0f} s")
                    elif now - heard > PING_EVERY and now - pinged > PING_EVERY:
                        pinged = now
                        await pubsub.ping()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._subscribed = False
                self._status(f"subscription lost ({_why(exc)})")
                lost = True
            finally:
                self._subscribed = False
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(pubsub.aclose(), PUBLISH_TIMEOUT)
            await asyncio.sleep(RETRY)

    async def _received(self, data: Any) -> None:
        try:
            msg = json.loads(data)
            table = msg.get("table")
            if msg.get("origin") == self.origin:
                return
        except (ValueError, AttributeError):
            return
        if table in self.watchers and self.on_remote is not None:
            try:
                await self.on_remote(table)
            except Exception as exc:  # e.g. the database is down: the next update catches up
                log.warning("table %s: cannot catch up with another process (%s)", table, exc)

    async def _resync(self) -> None:
        """After an outage: what other processes stored meanwhile reaches our watchers, and
        what this process stored reaches theirs."""
        self._pending.set()
        if self.on_remote is None:
            return
        for table in list(self.watchers):
            try:
                await self.on_remote(table)
            except Exception as exc:
                log.warning("table %s: cannot catch up after the Redis outage (%s)", table, exc)

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()


def _why(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__
