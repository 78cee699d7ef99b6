"""Accounts, their sessions and their tables in the database (the store's engine).

Blocking calls, made from worker threads by the routes. Errors of the database become
`StoreError` as everywhere in the store; a name that is taken becomes `AccountError(409)`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from thermopylae.server.account_errors import AccountError
from thermopylae.server.db import accounts, sessions, table_seats, tables
from thermopylae.server.store import Store, TableRow, _row, now

EVENTS = ("your_turn", "invitation", "game_over", "time_low")
"""The events a player can be told of (the settings page's boxes)."""
DELETED_NAME = "deleted player"


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    created: float
    lang: str = "en"
    email: str | None = None
    webhook: str | None = None
    events: list[str] = field(default_factory=lambda: list(EVENTS))
    low_share: float = 0.1
    webhook_disabled: str | None = None
    email_disabled: str | None = None
    password_hash: str | None = None
    deleted: bool = False

    def public(self) -> dict[str, Any]:
        """What the account's own page shows of it (never the password hash)."""
        return {
            "name": self.name,
            "created": self.created,
            "lang": self.lang,
            "notifications": {
                "webhook": self.webhook,
                "email": self.email,
                "events": list(self.events),
                "low_share": self.low_share,
                "webhook_disabled": self.webhook_disabled,
                "email_disabled": self.email_disabled,
            },
        }


def _account(r: Any) -> Account:
    return Account(
        id=r.id,
        name=r.name,
        created=r.created,
        lang=r.lang,
        email=r.email,
        webhook=r.webhook,
        events=list(r.events or []),
        low_share=float(r.low_share),
        webhook_disabled=r.webhook_disabled,
        email_disabled=r.email_disabled,
        password_hash=r.password_hash,
        deleted=bool(r.deleted),
    )


class Accounts:
    """The accounts of one store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def create(self, name: str, key: str, password_hash: str, lang: str) -> Account:
        try:
            with self.store._tx() as conn:
                rid = conn.execute(
                    insert(accounts).values(
                        name=name,
                        key=key,
                        password_hash=password_hash,
                        created=now(),
                        deleted=False,
                        lang=lang,
                        events=list(EVENTS),
                        low_share=0.1,
                        webhook_failures=0,
                        email_failures=0,
                    )
                ).inserted_primary_key[0]
        except IntegrityError as exc:
            raise AccountError(
                409, f"the name {name!r} is taken (or too like a name that is); choose another"
            ) from exc
        found = self.by_id(int(rid))
        assert found is not None
        return found

    def by_key(self, key: str) -> Account | None:
        with self.store._tx() as conn:
            r = conn.execute(select(accounts).where(accounts.c.key == key)).first()
        return None if r is None else _account(r)

    def by_id(self, account_id: int) -> Account | None:
        with self.store._tx() as conn:
            r = conn.execute(select(accounts).where(accounts.c.id == account_id)).first()
        return None if r is None else _account(r)

    def by_ids(self, ids: list[int]) -> dict[int, Account]:
        if not ids:
            return {}
        with self.store._tx() as conn:
            rows = conn.execute(select(accounts).where(accounts.c.id.in_(ids))).all()
        return {r.id: _account(r) for r in rows}

    # -- sessions -------------------------------------------------------------------------

    def open_session(self, account_id: int, token_hash: str, csrf: str, seconds: float) -> None:
        t = now()
        with self.store._tx() as conn:
            conn.execute(delete(sessions).where(sessions.c.expires < t))  # the expired go
            conn.execute(
                insert(sessions).values(
                    token_hash=token_hash,
                    account_id=account_id,
                    csrf=csrf,
                    created=t,
                    expires=t + seconds,
                )
            )

    def session(self, token_hash: str) -> tuple[Account, str] | None:
        """The account of a live session and the session's CSRF token."""
        with self.store._tx() as conn:
            s = conn.execute(
                select(sessions.c.account_id, sessions.c.csrf, sessions.c.expires).where(
                    sessions.c.token_hash == token_hash
                )
            ).first()
            if s is None or s.expires < now():
                return None
            r = conn.execute(select(accounts).where(accounts.c.id == s.account_id)).first()
        if r is None or r.deleted:
            return None
        return _account(r), s.csrf

    def close_session(self, token_hash: str) -> None:
        with self.store._tx() as conn:
            conn.execute(delete(sessions).where(sessions.c.token_hash == token_hash))

    # -- changes ------------------------------------------------------------------------

    def set_password(self, account_id: int, password_hash: str, keep: str | None) -> None:
        """A new password; every other session of the account ends (`keep`: this one)."""
        with self.store._tx() as conn:
            conn.execute(
                update(accounts)
                .where(accounts.c.id == account_id)
                .values(password_hash=password_hash)
            )
            q = delete(sessions).where(sessions.c.account_id == account_id)
            if keep is not None:
                q = q.where(sessions.c.token_hash != keep)
            conn.execute(q)

    def delete(self, account_id: int) -> None:
        """The account is anonymised, not removed: its finished games keep their seats,
        shown as a deleted player; its name becomes free."""
        with self.store._tx() as conn:
            conn.execute(
                update(accounts)
                .where(accounts.c.id == account_id)
                .values(
                    name=DELETED_NAME,
                    key=None,
                    password_hash=None,
                    deleted=True,
                    email=None,
                    webhook=None,
                    events=[],
                )
            )
            conn.execute(delete(sessions).where(sessions.c.account_id == account_id))

    def set_notifications(
        self,
        account_id: int,
        webhook: str | None,
        email: str | None,
        events: list[str],
        low_share: float,
        lang: str | None,
    ) -> None:
        """New settings; a channel disabled after failures is enabled again by saving."""
        values: dict[str, Any] = {
            "webhook": webhook,
            "email": email,
            "events": events,
            "low_share": low_share,
            "webhook_failures": 0,
            "email_failures": 0,
            "webhook_disabled": None,
            "email_disabled": None,
        }
        if lang is not None:
            values["lang"] = lang
        with self.store._tx() as conn:
            conn.execute(update(accounts).where(accounts.c.id == account_id).values(**values))

    def delivered(self, account_id: int, channel: str, ok: bool, why: str, limit: int) -> bool:
        """Count a delivery's result on the account's channel; after `limit` failures in a
        row the channel is disabled (True then), a success resets the count."""
        col = accounts.c[f"{channel}_failures"]
        with self.store._tx() as conn:
            if ok:
                conn.execute(update(accounts).where(accounts.c.id == account_id).values({col: 0}))
                return False
            conn.execute(update(accounts).where(accounts.c.id == account_id).values({col: col + 1}))
            n = conn.execute(select(col).where(accounts.c.id == account_id)).scalar()
            if n is not None and n >= limit:
                conn.execute(
                    update(accounts)
                    .where(accounts.c.id == account_id)
                    .values({f"{channel}_disabled": why[:200]})
                )
                return True
        return False

    # -- tables -------------------------------------------------------------------------

    def tables_of(self, account_id: int, limit: int = 200) -> list[tuple[int, TableRow]]:
        """The tables where the account holds a seat, newest first: (seat, table)."""
        with self.store._tx() as conn:
            rows = conn.execute(
                select(table_seats.c.seat, tables)
                .join(tables, tables.c.id == table_seats.c.table_id)
                .where(table_seats.c.account_id == account_id)
                .order_by(tables.c.updated.desc())
                .limit(limit)
            ).all()
        return [(r.seat, _row(r)) for r in rows]


def names_of(conn: Connection, ids: list[int]) -> dict[int, str]:
    """Account names by id, inside another transaction."""
    if not ids:
        return {}
    rows = conn.execute(select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(ids)))
    return {r.id: r.name for r in rows}
