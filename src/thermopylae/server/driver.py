"""The statements of a move, sent straight to the database's driver (sqlite3, psycopg).

SQLAlchemy builds an execution context for every statement it runs (its parameters
processed, a cursor wrapped, a result object made): more CPU than SQLite's own work bar
the commit, and about a fifth of a PostgreSQL server process's CPU per move. The few
statements every move runs (store the steps and update the row; catch up with another
process's steps) are compiled once here by SQLAlchemy for the dialect, so the SQL text
is exactly SQLAlchemy's (its quoting, PostgreSQL's casts), and run on the transaction's
own driver connection with each column's conversions as SQLAlchemy's types do them.
Driver errors come out as SQLAlchemy's (`IntegrityError`: a move already stored); a
connection the error shows dead is invalidated, so the pool replaces it.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Sequence
from typing import Any, cast

from sqlalchemy import bindparam, insert
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

from thermopylae.server.db import steps, tables

Processor = Callable[[Any], Any] | None

DRIVERS = {("sqlite", "pysqlite"), ("postgresql", "psycopg")}
"""The (dialect, driver) pairs whose connections `Driver` speaks to: both take a
sequence or a mapping of parameters as SQLAlchemy compiles them, and have `execute`."""

RowTuple = namedtuple("RowTuple", [c.name for c in tables.c])  # type: ignore[misc]
"""A table's row read by the driver, its columns by name as in SQLAlchemy's rows."""


class Statement:
    """One statement as the dialect's SQL text, with the order of its parameters when the
    driver takes them by position (`?`), or none when it takes them by name."""

    __slots__ = ("names", "sql")

    def __init__(self, stmt: ClauseElement, dialect: Dialect) -> None:
        compiled = cast(SQLCompiler, stmt.compile(dialect=dialect))
        self.sql: str = compiled.string
        self.names: list[str] | None = (
            list(compiled.positiontup) if compiled.positiontup is not None else None
        )

    def args(self, params: dict[str, Any]) -> Sequence[Any] | dict[str, Any]:
        return params if self.names is None else [params[n] for n in self.names]


class Driver:
    """A dialect's statements of a move, run on a SQLAlchemy connection's own driver
    connection, in its transaction."""

    def __init__(
        self,
        dialect: Dialect,
        select_row: Any,
        select_row_locked: Any,
        select_steps: Any,
        last_chat: Any,
    ):
        self.dialect = dialect
        self.error: type[Exception] = dialect.loaded_dbapi.Error
        self.select_row = Statement(select_row, dialect)
        self.select_row_locked = Statement(select_row_locked, dialect)
        self.select_steps = Statement(select_steps, dialect)
        self.last_chat = Statement(last_chat, dialect)
        self._inserts: dict[int, Statement] = {}
        self._row_processors: list[Processor] | None = None

    def execute(self, conn: Connection, statement: Statement, params: dict[str, Any]) -> Any:
        """The driver's cursor after running `statement` in `conn`'s transaction."""
        raw: Any = conn.connection.dbapi_connection
        args = statement.args(params)
        try:
            return raw.execute(statement.sql, args)
        except self.error as exc:
            raise self.wrapped(conn, raw, statement.sql, args, exc) from exc

    def wrapped(self, conn: Connection, raw: Any, sql: str, args: Any, exc: Any) -> Any:
        """`exc` as SQLAlchemy raises it; a connection it shows dead is invalidated first
        (the pool opens a fresh one for the next transaction), as SQLAlchemy does."""
        dead = bool(self.dialect.is_disconnect(exc, raw, None))
        if dead:
            conn.invalidate(exc)
        return DBAPIError.instance(
            sql, args, exc, self.error, connection_invalidated=dead, dialect=self.dialect
        )

    def insert_steps_many(self, count: int) -> Statement:
        """One INSERT of `count` steps (a round trip to a database server, where the
        driver's `executemany` is a pipeline of `count` statements; one statement's step
        on SQLite); its parameters are `table_id_i`, `n_i`, `who_i`, `action_i`."""
        got = self._inserts.get(count)
        if got is None:
            names = ("table_id", "n", "who", "action")
            rows: list[dict[str, Any]] = [
                {c: bindparam(f"{c}_{i}") for c in names} for i in range(count)
            ]
            got = Statement(insert(steps).values(rows), self.dialect)
            self._inserts[count] = got
        return got

    def row(self, cursor: Any) -> RowTuple | None:
        """The table's row from `cursor` (of `select_row`), each column converted as
        SQLAlchemy's type converts it for this dialect (JSON, booleans); None: no row."""
        r = cursor.fetchone()
        if r is None:
            return None
        processors = self._row_processors
        if processors is None:
            kinds = [d[1] for d in cursor.description]
            processors = [
                c.type.dialect_impl(self.dialect).result_processor(self.dialect, kind)
                for c, kind in zip(tables.c, kinds, strict=True)
            ]
            self._row_processors = processors
        return RowTuple._make(v if p is None else p(v) for v, p in zip(r, processors, strict=True))

    def bind_processors(self, columns: Sequence[str]) -> list[Processor]:
        """Each column's conversion of a value as SQLAlchemy's type does it (JSON, booleans)."""
        return [
            tables.c[c].type.dialect_impl(self.dialect).bind_processor(self.dialect)
            for c in columns
        ]


def for_dialect(
    dialect: Dialect, select_row: Any, select_row_locked: Any, select_steps: Any, last_chat: Any
) -> Driver | None:
    """A `Driver` for the dialect, or None for a driver it does not speak to (SQLAlchemy
    then runs every statement)."""
    if (dialect.name, dialect.driver) not in DRIVERS:
        return None
    return Driver(dialect, select_row, select_row_locked, select_steps, last_chat)
