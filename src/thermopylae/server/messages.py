"""What the server tells a seat or a spectator about a table: the update message (built
through the game's `view` and `visible_events`, nowhere else) and the finished game's
record."""

from __future__ import annotations

from bisect import bisect_right
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from thermopylae import i18n
from thermopylae.engine.protocol import CHANCE, Event, GenericGame, visible_events
from thermopylae.server import timekeeper
from thermopylae.server.live import record_json
from thermopylae.server.seats import TableError

if TYPE_CHECKING:
    from thermopylae.server.live import Live

LOG_SENT = 120  # log lines sent to a screen that connects or reloads
_move = itemgetter(0)  # of a (move, event) line of a table's log

ENTRIES_KEPT = 20_000  # legal-action entries kept per game and language, at most
# (id(game), language) -> (the game, {action: its entry {"action", "label"}})
_entries: dict[tuple[int, str], tuple[GenericGame, dict[Any, dict[str, str]]]] = {}


def update(live: Live, seat: int | None, since: int | None = None) -> dict[str, Any]:
    """The table as `seat` (None: a spectator) sees it; `log` holds the lines of the
    steps after move `since` (all kept lines when None). Hidden information is filtered
    by the game's `view` and `visible_events`, nowhere else."""
    g = live.game
    s = live.state
    to_act = live.to_act()
    log = live.log  # in move order: the lines after `since` are its tail
    if since is not None:
        lines = _lines_since(live, since, seat)
    else:
        lines = [g.describe(e) for e in visible_events([e for _n, e in log], seat)]
        lines = lines[-LOG_SENT:]
    waiting = bool(live.row.open_seats)  # the game starts once every seat is taken
    mine = seat is not None and to_act == seat and not waiting
    legal = _legal(g, s) if mine else []
    out = live.outcome()
    return {
        "type": "update",
        "table": live.row.id,
        "game": g.id,
        "title": g.title,
        "options": live.options,
        "move": live.move,
        "seat": None if seat is None else live.seat_names[seat],
        "seats": _seats_kept(live),
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


def _lines_since(live: Live, since: int, seat: int | None) -> list[str]:
    """The log lines of the events after move `since` that `seat` may see. Each event is
    described once for all the table's sockets that ask for the same moves in the same
    language (both seats after a move; a line was ~13 us an update to describe again at
    100 tables): the texts are kept on the table until it moves on."""
    log = live.log
    events = [e for _n, e in log[bisect_right(log, since, key=_move) :]]
    key = (since, len(live.steps), live.row.epoch, i18n.current())
    kept = live.lines
    if kept is None or kept[0] != key:
        texts: dict[int, tuple[Event, str]] = {}
        live.lines = (key, texts)
    else:
        texts = kept[1]
    lines = []
    for e in visible_events(events, seat):
        got = texts.get(id(e))
        if got is None or got[0] is not e:  # (the event is kept with its text: ids are not reused)
            got = texts[id(e)] = (e, live.game.describe(e))
        lines.append(got[1])
    return lines


def _legal(g: GenericGame, s: Any) -> list[dict[str, str]]:
    """The entries of the legal actions (`{"action", "label"}`). Format and label are the
    game's functions of an action (and the language), so each entry is made once per game,
    language and action and then shared by every update that lists it: not to be changed.
    Making them anew was ~20 us of an update at 100 tables, and a socket's patch compares
    shared entries by identity. Unhashable actions are not kept."""
    key = (id(g), i18n.current())
    kept = _entries.get(key)
    if kept is None or kept[0] is not g:
        kept = _entries[key] = (g, {})
    cache = kept[1]
    out = []
    try:
        for a in g.legal(s):
            entry = cache.get(a)
            if entry is None:
                entry = {"action": g.format(a), "label": g.label(a)}
                if len(cache) < ENTRIES_KEPT:
                    cache[a] = entry
            out.append(entry)
    except TypeError:  # an action that cannot be a key
        return [{"action": g.format(a), "label": g.label(a)} for a in g.legal(s)]
    return out


def _seats_kept(live: Live) -> list[dict[str, Any]]:
    """`seats(live)`, made again only when the row's seats, its stand-ins or the seats'
    account names changed (the rows are replaced, never changed in place; the names are
    compared): every update lists the seats, and a socket's patch then compares the same
    list. Not to be changed."""
    row = live.row
    names = tuple(live.names.items()) if live.names else ()
    kept = live.seats_message
    if kept is not None and kept[0] is row.seats and kept[1] is row.standin and kept[2] == names:
        return kept[3]
    made = seats(live)
    live.seats_message = (row.seats, row.standin, names, made)
    return made


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
