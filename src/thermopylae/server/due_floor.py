"""A time before which nothing stored can fall due, so that a background look for due rows
(the timekeeper's deadlines) is skipped while it could find nothing.

A look at the database gives the earliest time stored; every write made meanwhile or
later through this process lowers it (`note`). It is only a lower bound: a write that
removes or postpones a deadline leaves it where it was, and the next look, finding
nothing due yet, raises it again. Only for a process alone on its database: another
process's writes are not noted here.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import TypeVar

R = TypeVar("R")

NOW = -math.inf
"""A floor that makes the next look happen, whatever the time."""


class DueFloor:
    """The earliest time anything stored may fall due, as far as this process knows;
    thread-safe (writes are noted in the database threads)."""

    __slots__ = ("_asked", "_floor", "_lock", "_looks")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._floor = NOW  # nothing looked at yet: look
        self._looks: list[list[float]] = []  # the notes made during each look in progress
        self._asked = -math.inf  # when `due` last answered "look" (time.monotonic)

    def passed(self, t: float) -> bool:
        """Something may be due at `t`: look."""
        return t >= self._floor

    def due(self, t: float, every: float) -> bool:
        """Whether the one background look of this floor should look now: something may be
        due at `t`, or `every` seconds have passed since it last looked (a row written
        behind this process's back is found then)."""
        clock = time.monotonic()
        if self.passed(t) or clock - self._asked >= every:
            self._asked = clock
            return True
        return False

    def look(self, read: Callable[[], tuple[R, float | None]]) -> R:
        """What `read()` found: a look at the database that answers its result and the
        earliest time stored (None: nothing), which becomes the floor (`begin`, `end`;
        `abandon` should the read fail)."""
        look = self.begin()
        try:
            found, earliest = read()
        except BaseException:
            self.abandon(look)
            raise
        self.end(look, earliest)
        return found

    def note(self, *times: float | None) -> None:
        """Times just written (after their transaction ended, committed or not): the
        floor is lowered to the earliest, and so is each look in progress (its database
        read may have begun before the write)."""
        earliest = min((t for t in times if t is not None), default=None)
        if earliest is None:
            return
        with self._lock:
            if earliest < self._floor:
                self._floor = earliest
            for look in self._looks:
                if earliest < look[0]:
                    look[0] = earliest

    def begin(self) -> list[float]:
        """A look at the database begins (before its read): the writes noted from now on
        are kept for `end`."""
        look = [math.inf]
        with self._lock:
            self._looks.append(look)
        return look

    def end(self, look: list[float], earliest: float | None) -> None:
        """The look found `earliest` the earliest time stored (None: nothing stored to
        fall due): the floor, unless a write noted during the look is earlier."""
        with self._lock:
            self._looks.remove(look)
            found = math.inf if earliest is None else earliest
            self._floor = min(found, look[0])

    def abandon(self, look: list[float]) -> None:
        """The look failed: the next one happens whatever the time."""
        with self._lock:
            self._looks.remove(look)
            self._floor = NOW
