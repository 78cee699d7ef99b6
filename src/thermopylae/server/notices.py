"""Which notices a change of a table causes, and for whom.

Each function returns a `NoticeWriter` (or None: nobody to tell) that the store calls
inside the transaction of the change, so a notice is queued exactly when its move is
stored (and once: its key is unique). Bodies carry the table's link and public facts only
(the game, the seat whose turn it is): never a token, a hand or the deck. Delivery is
`notify.Deliverer`'s, later and elsewhere; a move never waits for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.engine import Connection

from thermopylae.engine.protocol import CHANCE
from thermopylae.server import notify, outbox
from thermopylae.server.db import accounts
from thermopylae.server.store import NoticeWriter

if TYPE_CHECKING:
    from thermopylae.server.live import Live


def _writer(live: Live, event: str, seats: list[int], key: str) -> NoticeWriter | None:
    """Queue `event` for the accounts holding `seats` (the account's channels and chosen
    events decide what is sent)."""
    held = {s: live.row.seats[s].get("account") for s in seats}
    held = {s: a for s, a in held.items() if a}
    if not held:
        return None
    table_id = live.row.id
    title = live.game.title
    link = live.row.public_link or f"/table/{table_id}"

    def write(conn: Connection) -> None:
        rows = {
            r.id: r
            for r in conn.execute(select(accounts).where(accounts.c.id.in_(list(held.values()))))
        }
        for seat, account in held.items():
            r = rows.get(account)
            if r is None or r.deleted:
                continue
            seat_name = live.seat_names[seat]
            body = {
                "event": event,
                "game": live.game.id,
                "title": title,
                "table": table_id,
                "link": link,
                "seat": seat_name,
                "text": notify.text(event, title, table_id, seat_name, r.lang),
            }
            outbox.queue(
                conn, outbox.endpoints(dict(r._mapping)), event, table_id, body, f"{key}:{seat}"
            )

    return write


def your_turn(live: Live, new: list[tuple[str, str]], to_act: int | None) -> NoticeWriter | None:
    """After a batch of steps: the seat that must now decide is told, once per turn: when
    the last decision before was another seat's (not after its own decisions in a row,
    nor after chance steps; the first turn of a game is the invitation's)."""
    if to_act is None or to_act == CHANCE or to_act in live.agents:
        return None
    last = next((who for who, _ in reversed(new) if who != "chance"), None)
    if last is None:
        last = next((who for who, _ in reversed(live.steps) if who != "chance"), None)
    if last is None or last == live.seat_names[to_act]:
        return None
    move = live.move + len(new)
    return _writer(live, "your_turn", [to_act], f"{live.row.id}:{move}:your_turn")


def game_over(live: Live, table_id: str) -> NoticeWriter | None:
    return _writer(live, "game_over", list(range(len(live.row.seats))), f"{table_id}:over")


def time_low(live: Live, table_id: str, seat: int) -> NoticeWriter | None:
    return _writer(live, "time_low", [seat], f"{table_id}:{live.move}:time_low")


def invitation(live: Live, creator: int | None) -> NoticeWriter | None:
    """The accounts invited to a new table (not its creator's own seats)."""
    seats = [
        i for i, s in enumerate(live.row.seats) if s.get("account") and s.get("account") != creator
    ]
    return _writer(live, "invitation", seats, f"{live.row.id}:invitation")


def combine(*writers: NoticeWriter | None) -> NoticeWriter | None:
    chosen = [w for w in writers if w is not None]
    if not chosen:
        return None

    def write(conn: Connection) -> None:
        for w in chosen:
            w(conn)

    return write
