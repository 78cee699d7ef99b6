"""A table's chat and each account's mutes: what a message may hold, the rate a seat may
post at, and their rows in the database.

A message is stored as typed and never interpreted (the browser shows it as text), and it
never carries game state: only the seats write, spectators read when the table's terms
let them. The rate limit is counted in the database, in the transaction that stores the
message and under a lock on the table's row, so several server processes share it.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, delete, func, insert, or_, select
from sqlalchemy.exc import IntegrityError

from thermopylae.server.db import accounts, chat, mutes, tables
from thermopylae.server.seats import TableError
from thermopylae.server.store import last_chat_in

if TYPE_CHECKING:
    from thermopylae.server.store import Store

MAX_TEXT = 500  # characters of a message, after trimming
RATE_COUNT = 5  # messages a seat may post ...
RATE_WINDOW = 10.0  # ... within this many seconds
PAGE = 200  # messages one read returns at most
MAX_MUTES = 500  # accounts one account may mute
BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}
"""Bidirectional embeddings, overrides and isolates: they can make a message look like
another's (or hide a part of it) and no language needs them typed by hand."""


class RateLimited(Exception):
    """A seat posted RATE_COUNT messages within the last RATE_WINDOW seconds."""

    def __init__(self, wait: int) -> None:
        super().__init__(wait)
        self.wait = wait


@dataclass(frozen=True)
class Message:
    id: int
    seat: int
    account: int | None
    player: str | None
    text: str
    at: float


def checked_text(text: Any) -> str:
    """The message as stored: trimmed of surrounding white space, 1 to MAX_TEXT
    characters, no control characters (nor lone surrogates, nor bidirectional overrides);
    else a 422 naming what is wrong."""
    if not isinstance(text, str):
        raise TableError(422, "text must be a string")
    out = text.strip()
    if not out:
        raise TableError(422, "text is empty (or only white space)")
    if len(out) > MAX_TEXT:
        raise TableError(
            422, f"text is {len(out)} characters long; a message holds at most {MAX_TEXT}"
        )
    for i, ch in enumerate(out):
        if unicodedata.category(ch) in ("Cc", "Cs") or ch in BIDI:
            raise TableError(
                422,
                f"text holds a control character (U+{ord(ch):04X} at position {i}); "
                "a message is one line of plain text",
            )
    return out


def last_id(store: Store, table_id: str) -> int:
    """The id of the table's last message (0: none): screens fetch the chat when it grows."""
    with store._tx() as conn:
        return last_chat_in(conn, table_id)


def post(store: Store, table_id: str, seat: int, account: int | None, text: str, at: float) -> int:
    """Store a seat's message (already `checked_text`) and return its id; RateLimited if
    the seat posted RATE_COUNT messages in the last RATE_WINDOW seconds."""
    with store._tx() as conn:
        # The table's row is locked first: posts to one table take turns across processes,
        # so none slips past the count.
        conn.execute(select(tables.c.id).where(tables.c.id == table_id).with_for_update())
        recent = (
            conn.execute(
                select(chat.c.at)
                .where(
                    chat.c.table_id == table_id,
                    chat.c.seat == seat,
                    chat.c.at > at - RATE_WINDOW,
                )
                .order_by(chat.c.at.desc())
                .limit(RATE_COUNT)
            )
            .scalars()
            .all()
        )
        if len(recent) >= RATE_COUNT:
            oldest = min(float(t) for t in recent)
            raise RateLimited(max(1, int(oldest + RATE_WINDOW - at + 0.999)))
        done = conn.execute(
            insert(chat).values(table_id=table_id, seat=seat, account_id=account, text=text, at=at)
        )
        return int(done.inserted_primary_key[0])


def messages(
    store: Store, table_id: str, after: int, limit: int, viewer: int | None
) -> list[Message]:
    """The table's messages after id `after`, oldest first, at most `limit`; those of
    accounts the `viewer` (an account id, None: not logged in) muted are left out."""
    cond = [chat.c.table_id == table_id, chat.c.id > after]
    if viewer is not None:
        muted = select(mutes.c.muted_id).where(mutes.c.account_id == viewer)
        cond.append(or_(chat.c.account_id.is_(None), chat.c.account_id.not_in(muted)))
    query = (
        select(chat, accounts.c.name)
        .select_from(chat.outerjoin(accounts, accounts.c.id == chat.c.account_id))
        .where(and_(*cond))
        .order_by(chat.c.id)
        .limit(limit)
    )
    with store._tx() as conn:
        rows = conn.execute(query).all()
    return [Message(r.id, r.seat, r.account_id, r.name, r.text, r.at) for r in rows]


def muted(store: Store, account: int) -> list[str]:
    """The names of the accounts `account` muted, in alphabetical order."""
    with store._tx() as conn:
        rows = conn.execute(
            select(accounts.c.name)
            .select_from(mutes.join(accounts, accounts.c.id == mutes.c.muted_id))
            .where(mutes.c.account_id == account)
        ).all()
    return sorted((r.name for r in rows), key=str.casefold)


def mute(store: Store, account: int, other: int) -> None:
    """`account` no longer reads `other`'s messages (muting twice is muting once); a 422
    past MAX_MUTES."""
    try:
        with store._tx() as conn:
            already = conn.execute(
                select(mutes.c.muted_id).where(
                    mutes.c.account_id == account, mutes.c.muted_id == other
                )
            ).first()
            if already is not None:
                return
            count = conn.execute(
                select(func.count()).select_from(mutes).where(mutes.c.account_id == account)
            ).scalar_one()
            if count >= MAX_MUTES:
                raise TableError(422, f"you muted {MAX_MUTES} accounts already, the most one may")
            conn.execute(insert(mutes).values(account_id=account, muted_id=other))
    except IntegrityError:  # muted at the same moment from another page: done
        return


def unmute(store: Store, account: int, other: int) -> None:
    with store._tx() as conn:
        conn.execute(delete(mutes).where(mutes.c.account_id == account, mutes.c.muted_id == other))
