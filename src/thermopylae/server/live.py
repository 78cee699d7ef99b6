"""A table in memory: the cache of its stored row and steps that the server plays on.

Its state is the replay of its steps; `row` is the stored row as last read or written
(seats, clock, a forfeit, stand-ins). What it answers, `to_act` and `outcome`, takes a
forfeit into account, so every face that asks the table (not the game) sees a game that
ended for time as over.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from thermopylae.engine.protocol import Event, GenericGame, Outcome
from thermopylae.engine.record import Record
from thermopylae.server.store import TableRow

LOG_KEPT = 400  # events kept in memory per table for screens (the record keeps all)


def first_state(game: GenericGame, row: TableRow) -> Any:
    """The state a table's steps are played from: the game's start, or the position a
    "play from here" table was made from (checked when it was stored)."""
    if row.start is not None:
        return game.state_from_json(row.start["position"])
    return game.new(row.options)


def record_json(
    game: GenericGame, row: TableRow, steps: list[tuple[str, str]], state: Any
) -> dict[str, Any]:
    """A finished table's record (`state`: after its `steps`), from its start position
    when it has one, with its forfeit if it ended by one."""
    rec = Record.begin(game, row.options)
    rec.start = None if row.start is None else row.start["position"]
    rec.steps = list(steps)
    r = row.result
    rec.close(game, state, None if r is None else (int(r["seat"]), str(r["reason"])))
    return rec.to_json()


@dataclass
class Batch:
    """Steps played on a copy of a table's state and not stored yet: each step once,
    with its events (the store, the log and the table's new state all come from it)."""

    state: Any
    steps: list[tuple[str, str]] = field(default_factory=list)  # (who, action's text)
    events: list[list[Event]] = field(default_factory=list)  # each step's


@dataclass
class Live:
    row: TableRow
    game: GenericGame
    options: dict[str, Any]
    state: Any
    steps: list[tuple[str, str]] = field(default_factory=list)
    log: list[tuple[int, Event]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    agents: dict[int, str] = field(default_factory=dict)  # seat -> agent spec
    client: str = "server"  # the address whose request last gave the AI work here
    rng: random.Random = field(default_factory=lambda: random.Random(secrets.randbits(64)))
    used: float = field(default_factory=time.monotonic)  # when it was last asked for
    changes: int = 0  # changes of the table's row that are not steps (a forfeit, a stand-in)
    names: dict[int, str] = field(default_factory=dict)  # account id -> name
    shares: dict[int, float] = field(default_factory=dict)  # account id -> "time low" share
    chat_last: int = 0  # the id of the table's last chat message (0: none)
    # the texts of the latest log lines told, for the table's other sockets (messages.py)
    lines: tuple[Any, dict[int, tuple[Event, str]]] | None = field(
        default=None, repr=False, compare=False
    )
    # the seats as updates list them, and what they were made from (messages.py)
    seats_message: tuple[Any, Any, Any, list[dict[str, Any]]] | None = field(
        default=None, repr=False, compare=False
    )
    _names: list[str] = field(default_factory=list, repr=False, compare=False)
    _names_of: list[dict[str, Any]] | None = field(default=None, repr=False, compare=False)

    @property
    def move(self) -> int:
        return len(self.steps)

    @property
    def version(self) -> int:
        """Grows with every change a screen must be told of (a step or a row change)."""
        return len(self.steps) + self.changes

    def to_act(self) -> int | None:
        """The deciding seat, CHANCE, or None once over (by the rules or a forfeit)."""
        if self.row.result is not None:
            return None
        return self.game.to_act(self.state)

    def outcome(self) -> Outcome | None:
        """The result: a forfeit's (a seat ran out of time) or the rules'."""
        r = self.row.result
        if r is not None:
            return self.game.forfeit(self.state, int(r["seat"]), str(r["reason"]))
        return self.game.outcome(self.state)

    def open_seats(self) -> list[str]:
        """The seats nobody has taken yet (the game starts once there are none)."""
        return [r["seat"] for r in self.row.seats if r["kind"] == "open"]

    @property
    def seat_names(self) -> list[str]:
        """The seats' names, made again only when the row's seats are another list (an
        action asks for them several times, each push too); not to be changed."""
        seats = self.row.seats
        if seats is not self._names_of:
            self._names = [s["seat"] for s in seats]
            self._names_of = seats
        return self._names
