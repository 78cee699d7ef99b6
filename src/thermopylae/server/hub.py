"""Who is watching which table, and telling them when it changes.

Each WebSocket is a `Watcher` with its own queue; a change of a table wakes its watchers,
and each builds its own message from its seat's view. With Redis, every server process
publishes the tables it changed and listens for the others' changes, so players connected
to different processes see the same game.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("thermopylae.server")
CHANNEL = "thermopylae:tables"


@dataclass(eq=False)
class Watcher:
    table: str
    seat: int | None
    queue: asyncio.Queue[int] = field(default_factory=lambda: asyncio.Queue(maxsize=64))


class Hub:
    def __init__(self, redis_url: str | None = None) -> None:
        self.watchers: dict[str, set[Watcher]] = {}
        self.redis_url = redis_url
        self.origin = secrets.token_hex(6)  # this process, to ignore its own messages
        self._redis: Any = None
        self._task: asyncio.Task[None] | None = None
        self.on_remote: Any = None  # async (table_id) -> None, set by the app
        self.redis_ok = redis_url is None

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
        for w in list(self.watchers.get(table, ())):
            with contextlib.suppress(asyncio.QueueFull):  # it will read the newest anyway
                w.queue.put_nowait(move)

    async def publish(self, table: str, move: int) -> None:
        """A table changed here: wake local watchers, then tell the other processes."""
        self.wake(table, move)
        if self._redis is not None:
            try:
                await self._redis.publish(CHANNEL, json.dumps(
                    {"table": table, "move": move, "origin": self.origin}))
                self.redis_ok = True
            except Exception as exc:  # Redis down: this process still serves its watchers
                if self.redis_ok:
                    log.warning("Redis publish failed (%s); updates stay in this process", exc)
                self.redis_ok = False

    async def start(self) -> None:
        if self.redis_url is None:
            return
        import redis.asyncio as aioredis

        self._redis = aioredis.from_url(self.redis_url)
        self._task = asyncio.create_task(self._listen())

    async def _listen(self) -> None:
        while True:
            try:
                pubsub = self._redis.pubsub()
                await pubsub.subscribe(CHANNEL)
                self.redis_ok = True
                async for msg in pubsub.listen():
                    if msg.get("type") != "message":
                        continue
                    data = json.loads(msg["data"])
                    if data.get("origin") == self.origin:
                        continue
                    table = data.get("table")
                    if table in self.watchers and self.on_remote is not None:
                        await self.on_remote(table)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.redis_ok:
                    log.warning("Redis subscription lost (%s); retrying", exc)
                self.redis_ok = False
                await asyncio.sleep(1.0)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()
