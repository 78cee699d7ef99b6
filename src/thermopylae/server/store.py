"""Durable tables: each table is its options, its seats and the list of its steps.

A table's state is never stored: it is rebuilt by replaying its steps, so what is in the
database is exactly what was acknowledged. A step is committed before anyone is told of
it; the primary key (table, move number) makes two servers that race for the same move
fail loudly instead of forking a game.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError, ProgrammingError, SQLAlchemyError

metadata = MetaData()

tables = Table(
    "thermopylae_tables",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("components", String(40), nullable=False),
    Column("options", JSON, nullable=False),
    Column("seats", JSON, nullable=False),  # [{"seat", "kind", "agent", "token_hash"}]
    Column("created", Float, nullable=False),
    Column("over", Boolean, nullable=False, default=False),
)

steps = Table(
    "thermopylae_steps",
    metadata,
    Column("table_id", String(40), ForeignKey("thermopylae_tables.id"), primary_key=True),
    Column("n", Integer, primary_key=True),  # the move number: 0, 1, 2, ...
    Column("who", String(40), nullable=False),
    Column("action", String(200), nullable=False),
)


CONNECT_TIMEOUT = 5  # seconds to reach a database server before answering 503
RECYCLE = 1800  # seconds a pooled connection is kept before a fresh one replaces it


class StoreError(Exception):
    """The database cannot be reached or refused to store: nothing was stored, unless
    `maybe_stored` (the connection died while committing: whether the commit happened is
    unknown until the database is back; the table must then be read again)."""

    def __init__(self, message: str, maybe_stored: bool = False) -> None:
        super().__init__(message)
        self.maybe_stored = maybe_stored


class Conflict(Exception):
    """Another server stored these move numbers first."""


@dataclass(frozen=True)
class TableRow:
    id: str
    game: str
    components: str
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    created: float
    over: bool


def default_url(data_dir: Path) -> str:
    data_dir.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{data_dir / 'tables.db'}"


class Store:
    """The database behind the tables (SQLite by default, any SQLAlchemy URL)."""

    def __init__(self, url: str) -> None:
        self.url = url
        sqlite = url.startswith("sqlite")
        connect_args: dict[str, Any] = {}
        if sqlite:
            connect_args = {"check_same_thread": False, "timeout": 30}
        elif url.startswith("postgresql"):
            # A database that is down or unreachable fails within seconds (then 503), and
            # a connection whose peer vanished is noticed by the kernel's keepalives.
            connect_args = {
                "connect_timeout": CONNECT_TIMEOUT,
                "keepalives": 1,
                "keepalives_idle": 30,
                "keepalives_interval": 10,
                "keepalives_count": 3,
            }
        # pool_pre_ping: a pooled connection that died with a database restart is replaced
        # before use, so the first action after the database is back succeeds.
        self.engine: Engine = create_engine(
            url, future=True, pool_pre_ping=True, pool_recycle=RECYCLE, connect_args=connect_args
        )
        if sqlite:

            @event.listens_for(self.engine, "connect")
            def _pragmas(conn: Any, _record: Any) -> None:
                cur = conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=FULL")  # a commit survives a power cut
                cur.execute("PRAGMA foreign_keys=ON")
                cur.close()

        self._create_tables()

    def _create_tables(self) -> None:
        """The tables, made if missing. Two servers starting at once on an empty database
        both find them missing and race to make them; the loser's CREATE fails on a
        duplicate name (PostgreSQL: pg_type), so it looks again and finds them made."""
        for attempt in range(3):
            try:
                metadata.create_all(self.engine)
                return
            except (IntegrityError, ProgrammingError) as exc:  # made by the other: look again
                if attempt == 2:
                    raise StoreError(f"cannot open the database {self._safe_url()}: {exc}") from exc
            except SQLAlchemyError as exc:
                raise StoreError(f"cannot open the database {self._safe_url()}: {exc}") from exc

    def _safe_url(self) -> str:
        return self.engine.url.render_as_string(hide_password=True)

    def create(self, row: TableRow) -> None:
        with self._tx() as conn:
            conn.execute(
                insert(tables).values(
                    id=row.id,
                    game=row.game,
                    components=row.components,
                    options=row.options,
                    seats=row.seats,
                    created=row.created,
                    over=row.over,
                )
            )

    def table(self, table_id: str) -> TableRow | None:
        with self._tx() as conn:
            r = conn.execute(select(tables).where(tables.c.id == table_id)).first()
        if r is None:
            return None
        return TableRow(
            r.id, r.game, r.components, dict(r.options), list(r.seats), r.created, bool(r.over)
        )

    def steps(self, table_id: str, start: int = 0) -> list[tuple[str, str]]:
        with self._tx() as conn:
            rows = conn.execute(
                select(steps.c.n, steps.c.who, steps.c.action)
                .where(steps.c.table_id == table_id, steps.c.n >= start)
                .order_by(steps.c.n)
            ).all()
        out = []
        for i, r in enumerate(rows):
            if r.n != start + i:
                raise StoreError(f"table {table_id}: move {start + i} is missing in the database")
            out.append((r.who, r.action))
        return out

    def append(self, table_id: str, start: int, new: list[tuple[str, str]], over: bool) -> None:
        """Store moves `start`, `start + 1`, ... in one transaction."""
        if not new:
            return
        try:
            with self._tx() as conn:
                conn.execute(
                    insert(steps),
                    [
                        {"table_id": table_id, "n": start + i, "who": who, "action": action}
                        for i, (who, action) in enumerate(new)
                    ],
                )
                if over:
                    conn.execute(update(tables).where(tables.c.id == table_id).values(over=True))
        except IntegrityError as exc:
            raise Conflict(f"table {table_id}: move {start} was stored by another server") from exc

    def unfinished(self) -> list[str]:
        with self._tx() as conn:
            return [r.id for r in conn.execute(select(tables.c.id).where(tables.c.over.is_(False)))]

    def _tx(self) -> Any:
        return _Tx(self)

    def dispose(self) -> None:
        self.engine.dispose()


class _Tx:
    """A transaction whose database errors become `StoreError` (integrity errors pass, for
    `Conflict`): a database that is down, restarting or refusing never surfaces as a 500."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.cm: Any = None

    def __enter__(self) -> Any:
        try:
            self.cm = self.store.engine.begin()
            return self.cm.__enter__()
        except SQLAlchemyError as exc:
            raise StoreError(f"the database is unavailable: {_short(exc)}") from exc

    def __exit__(self, *exc: Any) -> None:
        failed = exc[1]
        try:
            self.cm.__exit__(*exc)
        except IntegrityError:
            raise
        except SQLAlchemyError as err:
            if isinstance(failed, IntegrityError):
                raise
            # No error inside the block: the commit itself failed, maybe after the database
            # wrote it; an error inside the block: it was rolled back (or never sent).
            raise StoreError(
                f"the database is unavailable: {_short(err)}",
                maybe_stored=failed is None and isinstance(err, DBAPIError),
            ) from err
        if isinstance(failed, SQLAlchemyError) and not isinstance(failed, IntegrityError):
            raise StoreError(f"the database is unavailable: {_short(failed)}") from failed


def _short(exc: BaseException) -> str:
    return str(exc).splitlines()[0][:200]


def now() -> float:
    return time.time()
