"""What the server tells a seat or a spectator about a table: the update message (built
through the game's `view` and `visible_events`, nowhere else) and the finished game's
record."""

from __future__ import annotations

from bisect import bisect_right
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from thermopylae.engine.protocol import CHANCE, visible_events
from thermopylae.server import timekeeper
from thermopylae.server.live import record_json
from thermopylae.server.seats import TableError

if TYPE_CHECKING:
    from thermopylae.server.live import Live

LOG_SENT = 120  # log lines sent to a screen that connects or reloads
_move = itemgetter(0)  # of a (move, event) line of a table's log


def update(live: Live, seat: int | None, since: int | None = None) -> dict[str, Any]:
    """The table as `seat` (None: a spectator) sees it; `log` holds the lines of the
    steps after move `since` (all kept lines when None). Hidden information is filtered
    by the game's `view` and `visible_events`, nowhere else."""
    g = live.game
    s = live.state
    to_act = live.to_act()
    log = live.log  # in move order: the lines after `since` are its tail
    events = (
        [e for _n, e in log[bisect_right(log, since, key=_move) :]]
        if since is not None
        else [e for _n, e in log]
    )
    lines = [g.describe(e) for e in visible_events(events, seat)]
    if since is None:
        lines = lines[-LOG_SENT:]
    waiting = bool(live.row.open_seats)  # the game starts once every seat is taken
    mine = seat is not None and to_act == seat and not waiting
    legal = [{"action": g.format(a), "label": g.label(a)} for a in g.legal(s)] if mine else []
    out = live.outcome()
    return {
        "type": "update",
        "table": live.row.id,
        "game": g.id,
        "title": g.title,
        "options": live.options,
        "move": live.move,
        "seat": None if seat is None else live.seat_names[seat],
        "seats": seats(live),
        "clock": timekeeper.clock_message(live),
        "to_act": (
            "chance" if to_act == CHANCE else None if to_act is None else live.seat_names[to_act]
        ),
        "your_turn": mine,
        "view": g.view(s, seat),
        "legal": legal,
        "log": lines,
        "outcome": None
        if out is None
        else {**out.to_json(), "reason_text": g.reason_text(out.reason)},
        "provisional": bool(g.provisional),
        **community(live),
    }


def seats(live: Live) -> list[dict[str, Any]]:
    """Who sits at each seat: its kind, bot level or agent, account name, stand-in bot."""
    return [
        {
            "seat": r["seat"],
            "kind": r["kind"],
            "level": r.get("level"),
            "agent": r.get("agent"),
            "player": live.names.get(r["account"]) if r.get("account") else None,
            "standin": i in live.row.standin,
        }
        for i, r in enumerate(live.row.seats)
    ]


def created(live: Live, tokens: list[str | None], base: str) -> dict[str, Any]:
    """The answer to a request that made a table: its links and each seat's token (shown
    once, to the maker)."""
    tid = live.row.id
    return {
        "id": tid,
        "game": live.game.id,
        "options": live.options,
        "move": live.move,
        "seats": [
            {
                "seat": r["seat"],
                "kind": r["kind"],
                "level": r.get("level"),
                "token": tok,
                "invite_url": f"{base}/table/{tid}#token={tok}" if tok else None,
                "player": live.names.get(r["account"]) if r.get("account") else None,
            }
            for r, tok in zip(live.row.seats, tokens, strict=True)
        ],
        "clock": live.row.clock,
        "terms": community(live)["terms"],
        "url": f"{base}/table/{tid}",
        "spectator_url": f"{base}/table/{tid}",
    }


def community(live: Live) -> dict[str, Any]:
    """What the community features add to a table's message: the terms agreed at
    creation, the seats still open, a pending takeback request and rematch offer, and
    the number of the table's last chat message (screens fetch the chat when it grows)."""
    row = live.row
    names = live.seat_names
    tb = row.takeback
    rm = row.rematch
    return {
        "terms": {
            "public": row.public,
            "rated": row.rated,
            "takebacks": row.takebacks,
            "spectator_chat": row.spectator_chat,
            "hints": row.hints,
        },
        "kind": row.kind,
        "start_step": None
        if row.start is None
        else {"from": row.start.get("from"), "step": row.start.get("step")},
        "open_seats": live.open_seats(),
        "takeback": None
        if tb is None
        else {
            "seat": names[int(tb["seat"])],
            "to": tb["to"],
            "waiting_for": [names[int(i)] for i in tb.get("waiting_for", [])],
        },
        "rematch": None
        if rm is None
        else {
            "by": names[int(rm["by"])],
            "swap": bool(rm.get("swap", True)),
            "table": rm.get("table"),
            "declined": bool(rm.get("declined", False)),
        },
        "chat_last": live.chat_last,
    }


def record(live: Live) -> dict[str, Any]:
    """The table's record, once its game is over (409 before: it would tell the hands)."""
    if live.outcome() is None:
        raise TableError(409, "the record is published once the game is over")
    return record_json(live.game, live.row, live.steps, live.state)
