"""Waking a background task's event loop from any thread: the outbox's deliverer and the
analysis runner sleep on an `asyncio.Event` that a commit in a worker thread may set."""

from __future__ import annotations

import asyncio


def wake(loop: asyncio.AbstractEventLoop | None, event: asyncio.Event | None) -> None:
    """Set `event`, which belongs to `loop`, from this thread or any other (nothing when
    the task has not started or its loop is closed)."""
    if loop is None or event is None or loop.is_closed():
        return
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:
        event.set()
    else:
        loop.call_soon_threadsafe(event.set)
