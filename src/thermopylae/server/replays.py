"""Replaying a finished table step by step, and tables made from record files.

A replay frame is the table's message at one step: the board as everyone (`all`: every
hand shown, the game's `open_view`), a spectator or one seat saw it then, and the log up
to that step as that viewer could read it. A frame is built only once the game is over,
so no hand of a game still in play is ever shown. Stepping back and forth must not replay
the game from its start at every click: each table's replay keeps a snapshot of the state
every `EVERY` steps and the events of every step, computed once (`Frames`).
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from thermopylae.engine import registry
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.protocol import Event, visible_events
from thermopylae.engine.record import Record, replay
from thermopylae.server import endings, messages
from thermopylae.server.live import Live, first_state
from thermopylae.server.seats import TableError
from thermopylae.server.store import TableRow, now

EVERY = 32  # steps between two snapshots of a replay
KEPT = 64  # replays held in memory, least recently used dropped first
ALL = "all"
SPECTATOR = "spectator"


@dataclass
class _Replay:
    snapshots: list[Any]  # the state after step 0, EVERY, 2 * EVERY, ...
    events: list[tuple[int, Event]]  # (step, event) of every step
    decisions: list[int]  # the steps a seat decided (not chance)


class Frames:
    """The replays of finished tables this process was asked for (bounded)."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._replays: OrderedDict[tuple[str, int, int], _Replay] = OrderedDict()

    def _replay(self, live: Live) -> _Replay:
        key = (live.row.id, live.row.epoch, live.move)
        found = self._replays.get(key)
        if found is not None:
            self._replays.move_to_end(key)
            return found
        g = live.game
        state = first_state(g, live.row)
        snapshots, events, decisions = [g.copy(state)], [], []
        for n, (who, text) in enumerate(live.steps, start=1):
            if who != "chance":
                decisions.append(n)
            events += [(n, e) for e in g.apply(state, g.parse(text))]
            if n % EVERY == 0:
                snapshots.append(g.copy(state))
        found = self._replays[key] = _Replay(snapshots, events, decisions)
        while len(self._replays) > self.kept:
            self._replays.popitem(last=False)
        return found

    def state_at(self, live: Live, step: int) -> Any:
        """A new copy of the table's state after `step` steps (0: its start)."""
        r = self._replay(live)
        g = live.game
        state = g.copy(r.snapshots[step // EVERY])
        for _who, text in live.steps[step - step % EVERY : step]:
            g.apply(state, g.parse(text), quiet=True)
        return state

    def frame(self, live: Live, step: int, viewer: str) -> dict[str, Any]:
        """The replay frame of a finished table at `step`, as `viewer` saw it (`all`,
        `spectator` or a seat's name); 409 before the end, 422 for a bad step or viewer."""
        if live.outcome() is None:
            raise TableError(409, "the replay opens once the game is over")
        total = live.move
        if not 0 <= step <= total:
            raise TableError(422, f"step {step} is not in this game: it has steps 0 to {total}")
        names = live.seat_names
        if viewer not in (ALL, SPECTATOR, *names):
            raise TableError(
                422, f"as={viewer!r}: give all, spectator or a seat ({', '.join(names)})"
            )
        seat = names.index(viewer) if viewer in names else None
        g = live.game
        state = self.state_at(live, step)
        r = self._replay(live)
        upto = [e for n, e in r.events if n <= step]
        seen = upto if viewer == ALL else visible_events(upto, seat)
        to_act = g.to_act(state)
        who, action = live.steps[step - 1] if step else (None, None)
        out = live.outcome() if step == total else None
        return {
            "type": "replay",
            "table": live.row.id,
            "game": g.id,
            "title": g.title,
            "options": live.options,
            "move": step,
            "step": step,
            "steps": total,
            "who": who,
            "action": action,
            "as": viewer,
            "decisions": r.decisions,
            "seat": None if seat is None else names[seat],
            "seats": messages.seats(live),
            "clock": None,
            "to_act": None
            if to_act is None or step == total
            else ("chance" if to_act < 0 else names[to_act]),
            "your_turn": False,
            "view": g.open_view(state) if viewer == ALL else g.view(state, seat),
            "legal": [],
            "log": [g.describe(e) for e in seen][-messages.LOG_SENT :],
            "outcome": None
            if out is None
            else {**out.to_json(), "reason_text": g.reason_text(out.reason)},
            "provisional": bool(g.provisional),
            **messages.community(live),
        }


MAX_RECORD = 2 * 1024 * 1024  # bytes of a record file sent to POST /api/replays (limits.py)


def record_table(data: Any) -> tuple[TableRow, list[tuple[str, str]]]:
    """The table a record file becomes: finished, its steps stored, nobody to act, its id
    taken from the record's content (the same file is the same table). 422 naming the
    problem for anything that is not a finished game this server can replay."""
    try:
        rec = Record.from_json(data, "the record")
    except ThermopylaeError as exc:
        raise TableError(422, str(exc)) from exc
    if rec.game not in registry.game_ids():
        raise TableError(422, f"unknown game {rec.game!r}; games: {', '.join(registry.game_ids())}")
    game = registry.get(rec.game)
    report = replay(game, rec)
    if not report.ok:
        raise TableError(422, f"the record does not replay: {report.problems[0]}")
    if report.outcome is None:
        raise TableError(422, "the record's game is not over: only finished games are replayed")
    canonical = json.dumps(rec.to_json(), sort_keys=True, separators=(",", ":"))
    table_id = "f" + hashlib.sha256(canonical.encode()).hexdigest()[:23]
    options = game.options(rec.options)
    row = TableRow(
        table_id,
        game.id,
        game.components_digest,
        options,
        [
            {"seat": s, "kind": "human", "agent": None, "token_hash": None}
            for s in game.seats(options)
        ],
        now(),
        True,
        result=rec.forfeit,
        **endings.columns(report.outcome, now()),
        start=None if rec.start is None else {"position": rec.start, "from": None, "step": None},
        kind="record",
    )
    return row, list(rec.steps)
