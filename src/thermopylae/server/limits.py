"""The HTTP request bounds every route shares: a body size limit (an ASGI middleware that
answers 413 before the app reads the body) and a token bucket per client address (the
rate of actions and new tables)."""

from __future__ import annotations

import json
import logging
import os
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("thermopylae.server")

MAX_BODY = 16 * 1024  # bytes of an HTTP request body
LARGE_BODIES = {"/api/replays": 2 * 1024 * 1024}  # the routes that take more: a record file
HTTP_RATE_ENV = "THERMOPYLAE_HTTP_RATE"  # POSTs a second per client address (unset: no limit)


class BodyLimit:
    """Refuse request bodies over `MAX_BODY` bytes with 413, before the app sees them: a
    declared length is checked at once, a chunked body is read up to the limit first."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        limit = LARGE_BODIES.get(scope.get("path", ""), MAX_BODY)
        if length is not None:
            if not length.isdigit() or int(length) > limit:
                return await _too_large(send, limit)
            return await self.app(scope, receive, send)
        if scope.get("method") in ("GET", "HEAD", "DELETE", "OPTIONS"):
            return await self.app(scope, receive, send)
        messages: list[Message] = []
        seen = 0
        while True:
            msg = await receive()
            messages.append(msg)
            if msg["type"] != "http.request":
                break
            seen += len(msg.get("body", b""))
            if seen > limit:
                return await _too_large(send, limit)
            if not msg.get("more_body"):
                break

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)


class _TooLarge(Exception):
    pass


class RateLimit:
    """A token bucket per client address: `rate` requests a second on average, bursts of
    `burst`. An address whose bucket is full is forgotten, so the memory stays bounded by
    the addresses active in the last `burst / rate` seconds."""

    def __init__(self, rate: float, burst: float | None = None) -> None:
        self.rate = rate
        self.burst = burst if burst is not None else max(1.0, 3 * rate)
        self.buckets: dict[str, tuple[float, float]] = {}  # address -> (allowance, stamp)

    def allow(self, key: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        allowance, stamp = self.buckets.get(key, (self.burst, now))
        allowance = min(self.burst, allowance + (now - stamp) * self.rate)
        if len(self.buckets) > 10_000:
            self._forget(now)
        if allowance < 1:
            self.buckets[key] = (allowance, now)
            return False
        self.buckets[key] = (allowance - 1, now)
        return True

    def _forget(self, now: float) -> None:
        for key, (allowance, stamp) in list(self.buckets.items()):
            if allowance + (now - stamp) * self.rate >= self.burst:
                del self.buckets[key]


def rate_from_env() -> float | None:
    value = os.environ.get(HTTP_RATE_ENV, "").strip()
    try:
        rate = float(value) if value else 0.0
    except ValueError:
        log.warning("%s=%r is not a number; no HTTP rate limit", HTTP_RATE_ENV, value)
        return None
    return rate if rate > 0 else None


async def _too_large(send: Send, limit: int) -> None:
    body = json.dumps({"detail": f"request body over {limit} bytes"}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json")],
        }
    )
    await send({"type": "http.response.body", "body": body})
