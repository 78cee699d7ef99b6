"""Finished games as the archive reads them: a player's games with their results, the
record of each (the format of `GET /api/tables/{id}/record`), the record against each
opponent and the co-operative team record.

A game's result is its row's `scores` (written when it ended); a game that ended before
the server wrote them is replayed from its steps once and its outcome kept in memory
(finished games never change). Blocking calls, made from worker threads.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from thermopylae.engine import registry
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.protocol import GenericGame, Outcome
from thermopylae.server.account_store import names_of
from thermopylae.server.db import steps as db_steps
from thermopylae.server.db import table_seats, tables
from thermopylae.server.live import first_state, record_json
from thermopylae.server.store import TableRow, _row

SCAN = 5000  # a player's finished games the archive reads at most (the newest)
CACHED = 4000  # outcomes of replayed old games kept in memory

_outcomes: OrderedDict[str, Ended] = OrderedDict()


@dataclass(frozen=True)
class Ended:
    """How a finished game ended: one result and one score per seat, and why."""

    results: tuple[str, ...]
    scores: tuple[float, ...]
    reason: str


@dataclass(frozen=True)
class Played:
    """One finished game of a player: its row, the seat the player held (the first, if
    several) and how it ended (None: it could not be replayed)."""

    row: TableRow
    seat: int
    ended: Ended | None


def game_of(row: TableRow) -> GenericGame | None:
    try:
        return registry.get(row.game)
    except ThermopylaeError:
        return None


def steps_of(conn: Connection, table_id: str) -> list[tuple[str, str]]:
    rows = conn.execute(
        select(db_steps.c.who, db_steps.c.action)
        .where(db_steps.c.table_id == table_id)
        .order_by(db_steps.c.n)
    ).all()
    return [(r.who, r.action) for r in rows]


def replayed(game: GenericGame, row: TableRow, steps: list[tuple[str, str]]) -> Any:
    """The state after a table's stored steps (each was checked when it was played)."""
    state = first_state(game, row)
    for _who, text in steps:
        game.apply(state, game.parse(text), quiet=True)
    return state


def outcome(game: GenericGame, row: TableRow, state: Any) -> Outcome | None:
    """The table's result: its forfeit's, or the rules'."""
    r = row.result
    if r is not None:
        return game.forfeit(state, int(r["seat"]), str(r["reason"]))
    return game.outcome(state)


def record_of(game: GenericGame, row: TableRow, steps: list[tuple[str, str]]) -> dict[str, Any]:
    """A finished table's record, as `messages.record` gives it for a live table."""
    return record_json(game, row, steps, replayed(game, row, steps))


def ended_of(conn: Connection, row: TableRow) -> Ended | None:
    """How a finished table ended: from its `scores`, else by replaying it (kept)."""
    s = row.scores
    if isinstance(s, dict) and isinstance(s.get("results"), list):
        return Ended(
            tuple(str(x) for x in s["results"]),
            tuple(float(x) for x in s.get("scores") or [0.0] * len(s["results"])),
            str(s.get("reason", "")),
        )
    hit = _outcomes.get(row.id)
    if hit is not None:
        _outcomes.move_to_end(row.id)
        return hit
    game = game_of(row)
    if game is None:
        return None
    try:
        out = outcome(game, row, replayed(game, row, steps_of(conn, row.id)))
    except (ThermopylaeError, KeyError, ValueError, TypeError):
        return None
    if out is None:
        return None
    found = Ended(out.results, out.scores, out.reason)
    _outcomes[row.id] = found
    while len(_outcomes) > CACHED:
        _outcomes.popitem(last=False)
    return found


def finished_of(conn: Connection, account_id: int, game_id: str | None = None) -> list[Played]:
    """The account's finished games (of `game_id`), newest first, at most SCAN."""
    q = (
        select(table_seats.c.seat, tables)
        .join(tables, tables.c.id == table_seats.c.table_id)
        .where(table_seats.c.account_id == account_id, tables.c.over.is_(True))
    )
    if game_id is not None:
        q = q.where(tables.c.game == game_id)
    rows = conn.execute(
        q.order_by(tables.c.updated.desc(), tables.c.id, table_seats.c.seat).limit(SCAN)
    ).all()
    out: list[Played] = []
    seen: set[str] = set()
    for r in rows:
        if r.id in seen:  # several seats of one table: the first
            continue
        seen.add(r.id)
        row = _row(r)
        out.append(Played(row, int(r.seat), ended_of(conn, row)))
    return out


def finished_ids(conn: Connection, account_id: int) -> list[str]:
    """The ids of the account's finished games, oldest first (the newest SCAN)."""
    q = (
        select(tables.c.id, tables.c.updated)
        .where(
            tables.c.over.is_(True),
            tables.c.id.in_(
                select(table_seats.c.table_id).where(table_seats.c.account_id == account_id)
            ),
        )
        .order_by(tables.c.updated.desc(), tables.c.id)
        .limit(SCAN)
    )
    return [r.id for r in conn.execute(q)][::-1]


def _finished_query(game_id: str, account_id: int | None, what: Any) -> Any:
    # Record files opened on the replay board are studies, not games played here.
    q = select(what).where(
        tables.c.game == game_id, tables.c.over.is_(True), tables.c.kind == "game"
    )
    if account_id is not None:
        q = q.where(
            tables.c.id.in_(
                select(table_seats.c.table_id).where(table_seats.c.account_id == account_id)
            )
        )
    return q


def finished(conn: Connection, game_id: str, account_id: int | None = None) -> Iterator[TableRow]:
    """Every finished table of a game (of one account), oldest first: the export."""
    q = _finished_query(game_id, account_id, tables)
    for r in conn.execute(q.order_by(tables.c.created, tables.c.id)):
        yield _row(r)


def count_finished(conn: Connection, game_id: str, account_id: int | None = None) -> int:
    q = _finished_query(game_id, account_id, func.count())
    return int(conn.execute(q).scalar() or 0)


# -- what a player's page shows -----------------------------------------------------------


def side_of(game: GenericGame | None, row: TableRow, seat: int) -> str:
    if game is None:
        return str(row.seats[seat]["seat"])
    return game.side(row.options, seat)


def seat_label(seat: dict[str, Any], names: dict[int, str]) -> str:
    """Who held a seat, for a list: the account's name, "bot:<level>", or "guest"."""
    if seat.get("kind") == "ai":
        return f"bot:{seat.get('level') or 'agent'}"
    account = seat.get("account")
    return names.get(account, "guest") if isinstance(account, int) else "guest"


def entry(p: Played, names: dict[int, str]) -> dict[str, Any]:
    """One game of a player's list."""
    row = p.row
    game = game_of(row)
    mine = side_of(game, row, p.seat)
    coop = game is not None and game.cooperative
    others = [
        seat_label(s, names)
        for i, s in enumerate(row.seats)
        if i != p.seat
        and (coop or side_of(game, row, i) != mine)
        and row.accounts().get(i) != row.accounts().get(p.seat)
    ]
    return {
        "id": row.id,
        "game": row.game,
        "title": row.game if game is None else game.title,
        "ended": row.ended if row.ended is not None else row.updated,
        "side": mine,
        "seat": row.seats[p.seat]["seat"],
        "result": None if p.ended is None else p.ended.results[p.seat],
        "opponents": [] if coop else others,
        "partners": others if coop else [],
        "rated": row.rated,
        "record_url": f"/api/tables/{row.id}/record",
        "replay_url": f"/table/{row.id}/replay",
    }


def names_in(conn: Connection, played: list[Played]) -> dict[int, str]:
    ids = {a for p in played for a in p.row.accounts().values()}
    return names_of(conn, sorted(ids))


def opponents(played: list[Played], me: int, names: dict[int, str]) -> list[dict[str, Any]]:
    """Wins, losses and draws against each account met on another side, per game (most
    games first)."""
    tally: dict[tuple[int, str], dict[str, int]] = {}
    for p in played:
        game = game_of(p.row)
        if game is None or game.cooperative or p.ended is None:
            continue
        mine = side_of(game, p.row, p.seat)
        result = p.ended.results[p.seat]
        met = {
            a for i, a in p.row.accounts().items() if a != me and side_of(game, p.row, i) != mine
        }
        for a in met:
            t = tally.setdefault((a, p.row.game), {"wins": 0, "losses": 0, "draws": 0})
            key = {"win": "wins", "loss": "losses", "draw": "draws"}.get(result)
            if key is not None:
                t[key] += 1
    order = sorted(tally.items(), key=lambda kv: (-sum(kv[1].values()), kv[0][1], kv[0][0]))
    return [{"player": names.get(a, "deleted player"), "game": g, **t} for (a, g), t in order]


def team(played: list[Played]) -> dict[str, dict[str, Any]]:
    """The co-operative record per game: games, wins per player count, the best score."""
    out: dict[str, dict[str, Any]] = {}
    for p in played:
        game = game_of(p.row)
        if game is None or not game.cooperative or p.ended is None:
            continue
        t = out.setdefault(p.row.game, {"games": 0, "wins": {}, "best": None})
        t["games"] += 1
        players = str(len(p.row.seats))
        wins = t["wins"]
        wins.setdefault(players, 0)
        if p.ended.results[p.seat] == "win":
            wins[players] += 1
        score = p.ended.scores[p.seat]
        t["best"] = score if t["best"] is None else max(t["best"], score)
    return out
