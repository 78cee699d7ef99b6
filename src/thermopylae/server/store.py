"""Durable tables: each table is its options, its seats and the list of its steps.

A table's state is never stored: it is rebuilt by replaying its steps, so what is in the
database is exactly what was acknowledged. A step is committed before anyone is told of
it; the primary key (table, move number) makes two servers that race for the same move
fail loudly instead of forking a game.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from sqlalchemy import and_, bindparam, delete, event, func, insert, select, update
from sqlalchemy.engine import Connection, Engine, create_engine
from sqlalchemy.exc import DBAPIError, DisconnectionError, IntegrityError, SQLAlchemyError
from sqlalchemy.sql.dml import Update

from thermopylae.server import driver, migrate
from thermopylae.server.db import chat, metadata, steps, table_seats, tables
from thermopylae.server.due_floor import DueFloor

__all__ = ["Conflict", "Store", "StoreError", "TableRow", "metadata", "now"]


CONNECT_TIMEOUT = 5  # seconds to reach a database server before answering 503
RECYCLE = 1800  # seconds a pooled connection is kept before a fresh one replaces it


_INSERT_STEPS = insert(steps)
"""Built once: a statement built for each move costs more CPU than storing the move."""
_INSERT_TABLE = insert(tables)  # the values bound at execution: no statement built a table
_SELECT_ROW = select(tables).where(tables.c.id == bindparam("w_id"))
_SELECT_ROW_LOCKED = _SELECT_ROW.with_for_update()
"""The row, locked until the transaction ends (FOR UPDATE; SQLite has one writer anyway)."""
_SELECT_STEPS = (
    select(steps.c.n, steps.c.who, steps.c.action)
    .where(steps.c.table_id == bindparam("w_id"), steps.c.n >= bindparam("w_start"))
    .order_by(steps.c.n)
)
_LAST_CHAT = select(func.max(chat.c.id)).where(chat.c.table_id == bindparam("w_id"))

NoticeWriter = Callable[[Connection], None]
"""Writes the notices a change causes, inside that change's transaction (notify.queue)."""

Caught = tuple[list[tuple[str, str]], "TableRow | None"]
"""What another process changed: the steps from a move on, and the table's row."""


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
    clock: dict[str, Any] | None = None
    clock_state: dict[str, Any] | None = None
    deadline: float | None = None
    low_at: float | None = None
    result: dict[str, Any] | None = None
    standin: list[int] = field(default_factory=list)
    turn: int | None = None
    updated: float | None = None
    public_link: str | None = None
    public: bool = False
    open_seats: int = 0
    rated: bool = False
    takebacks: bool = True
    spectator_chat: bool = False
    epoch: int = 0
    takeback: dict[str, Any] | None = None
    rematch: dict[str, Any] | None = None
    rated_at: float | None = None
    ended: float | None = None
    scores: dict[str, Any] | None = None
    hints: bool = False  # the seat to move may ask for a hint ("Suggest"); never rated
    start: dict[str, Any] | None = None  # {"position": state JSON, "from": id, "step": n}
    kind: str = "game"  # "game", or "record": a finished game sent as a record file

    def accounts(self) -> dict[int, int]:
        """seat index -> account id, for the seats held by accounts."""
        return {i: s["account"] for i, s in enumerate(self.seats) if s.get("account")}

    def with_values(self, values: dict[str, Any]) -> TableRow:
        """This row with `values` (columns by name), as `dataclasses.replace` makes it but
        without running `__init__` again over every field (a seventh of its CPU, and
        every stored move makes one)."""
        unknown = values.keys() - _ROW_FIELDS
        if unknown:
            raise TypeError(f"TableRow has no field(s) {sorted(unknown)}")
        new = object.__new__(TableRow)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(values)
        return new


_ROW_FIELDS = frozenset(f.name for f in fields(TableRow))


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
        # A pooled connection that died with a database restart is replaced before use, so
        # the first action after the database is back succeeds: SQLite's by the pool's own
        # ping, a database server's by `_ping_if_idle` (a ping only after a pause).
        self.engine: Engine = create_engine(
            url,
            future=True,
            pool_pre_ping=sqlite,
            pool_recycle=RECYCLE,
            connect_args=connect_args,
            json_deserializer=json_loads,
        )
        if not sqlite:
            _ping_if_idle(self.engine)
        # SQLite: each thread keeps its connection (`_Tx`) instead of taking one from the
        # pool for every transaction (a ping, a check-out, a rollback at check-in: more
        # CPU than the move it stores). A file has no server to restart under it.
        self._kept: threading.local | None = threading.local() if sqlite else None
        self._in_process = sqlite  # the database runs in this process: no round trips
        self._kept_all: list[_Kept] = []
        self._kept_lock = threading.Lock()
        self._updates: dict[tuple[tuple[str, ...], bool], Update] = {}
        # The earliest deadline or "time low" mark stored, as far as this process knows
        # (`due_both` looks, every write here lowers it): a timekeeper alone on the
        # database skips its look while nothing can be due.
        self.due_floor = DueFloor()
        # Told after every transaction that wrote notices (committed or not): the outbox's
        # deliverer looks for due rows then, not at its next poll.
        self.on_notices: Callable[[], None] | None = None
        # The statements of a move straight through the driver (driver.py), or None: a
        # driver it does not speak to, whose statements SQLAlchemy runs.
        self._driver = driver.for_dialect(
            self.engine.dialect, _SELECT_ROW, _SELECT_ROW_LOCKED, _SELECT_STEPS, _LAST_CHAT
        )
        self._driver_dues = (
            {}
            if self._driver is None
            else {c: driver.Statement(q, self.engine.dialect) for c, q in _DUE.items()}
        )
        self._driver_earliest = (
            {}
            if self._driver is None
            else {c: driver.Statement(q, self.engine.dialect) for c, q in _EARLIEST.items()}
        )
        self._driver_updates: dict[
            tuple[tuple[str, ...], bool],
            tuple[driver.Statement, list[tuple[driver.Processor, Any]]],
        ] = {}
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
        """The schema, made or upgraded by the migrations (`migrate.py`)."""
        try:
            migrate.upgrade(self.engine)
        except SQLAlchemyError as exc:
            raise StoreError(f"cannot open the database {self._safe_url()}: {exc}") from exc

    def _safe_url(self) -> str:
        return self.engine.url.render_as_string(hide_password=True)

    def create(
        self,
        row: TableRow,
        notices: NoticeWriter | None = None,
        played: list[tuple[str, str]] | None = None,
    ) -> None:
        """Store a new table, its seats held by accounts, the notices it causes (an
        invitation) and the steps it was `played` with (a record file), in one
        transaction."""
        due = {"deadline": row.deadline, "low_at": row.low_at}
        with self._written(due, notices), self._tx() as conn:
            conn.execute(
                _INSERT_TABLE,
                dict(
                    id=row.id,
                    game=row.game,
                    components=row.components,
                    options=row.options,
                    seats=row.seats,
                    created=row.created,
                    over=row.over,
                    clock=row.clock,
                    clock_state=row.clock_state,
                    deadline=row.deadline,
                    low_at=row.low_at,
                    standin=row.standin,
                    turn=row.turn,
                    updated=row.created,
                    public_link=row.public_link,
                    public=row.public,
                    open_seats=row.open_seats,
                    rated=row.rated,
                    takebacks=row.takebacks,
                    spectator_chat=row.spectator_chat,
                    epoch=row.epoch,
                    rematch=row.rematch,
                    hints=row.hints,
                    start=row.start,
                    kind=row.kind,
                    result=row.result,
                    ended=row.ended,
                    scores=row.scores,
                ),
            )
            held = row.accounts()
            if held:
                conn.execute(
                    insert(table_seats),
                    [{"table_id": row.id, "seat": i, "account_id": a} for i, a in held.items()],
                )
            if played:
                conn.execute(
                    insert(steps),
                    [
                        {"table_id": row.id, "n": n, "who": who, "action": action}
                        for n, (who, action) in enumerate(played)
                    ],
                )
            if notices is not None:
                notices(conn)

    def table(self, table_id: str) -> TableRow | None:
        with self._tx() as conn:
            return self._row_in(conn, table_id)

    def steps(self, table_id: str, start: int = 0) -> list[tuple[str, str]]:
        with self._tx() as conn:
            return self._steps_in(conn, table_id, start)

    def since(
        self, table_id: str, start: int, row_too: bool
    ) -> tuple[list[tuple[str, str]], TableRow | None]:
        """The steps from move `start` on, then (if there are any, or with `row_too`) the
        table's row, read in that order in one transaction: what another process changed
        since this one last looked (a process catching up before each move pays for one
        round of the pool, not two)."""
        with self._tx() as conn:
            new = self._steps_in(conn, table_id, start)
            return new, self._row_in(conn, table_id) if new or row_too else None

    def since_and_chat(
        self, table_id: str, start: int
    ) -> tuple[list[tuple[str, str]], TableRow | None, int]:
        """`since` with the row, and the id of the table's last chat message (0: none), in
        one transaction: what a process told of another's change reads (one round of the
        pool, not two)."""
        with self._tx() as conn:
            new = self._steps_in(conn, table_id, start)
            return new, self._row_in(conn, table_id), self._last_chat_in(conn, table_id)

    def _row_in(self, conn: Connection, table_id: str, lock: bool = False) -> TableRow | None:
        """The table's row, read in `conn`'s transaction (None: no such table); with
        `lock`, locked until the transaction ends."""
        d = self._driver
        if d is None:
            return _row_in(conn, table_id, lock)
        statement = d.select_row_locked if lock else d.select_row
        r = d.row(d.execute(conn, statement, {"w_id": table_id}))
        return None if r is None else _row(r)

    def _last_chat_in(self, conn: Connection, table_id: str) -> int:
        """The id of the table's last chat message (0: none), in `conn`'s transaction."""
        d = self._driver
        if d is None:
            return last_chat_in(conn, table_id)
        return int(d.execute(conn, d.last_chat, {"w_id": table_id}).fetchone()[0] or 0)

    def _steps_in(self, conn: Connection, table_id: str, start: int) -> list[tuple[str, str]]:
        params = {"w_id": table_id, "w_start": start}
        d = self._driver
        if d is None:
            rows = conn.execute(_SELECT_STEPS, params).all()
        else:
            rows = d.execute(conn, d.select_steps, params).fetchall()
        out = []
        for i, (n, who, action) in enumerate(rows):
            if n != start + i:
                raise StoreError(f"table {table_id}: move {start + i} is missing in the database")
            out.append((who, action))
        return out

    def append(
        self,
        table_id: str,
        start: int,
        new: list[tuple[str, str]],
        over: bool,
        values: dict[str, Any] | None = None,
        notices: NoticeWriter | None = None,
        epoch: int | None = None,
        seen: TableRow | None = None,
    ) -> Caught | None:
        """Store moves `start`, `start + 1`, ... with the table's new `values` (turn,
        clock, deadline; `updated` now unless given) and the notices they cause, in one
        transaction; with `epoch`, only if no takeback happened since the caller read the
        table (`take_back`).

        With `seen`, the row as the caller checked the moves against: the row is locked
        first, and the moves are stored only if it is still `seen` and no step follows
        move `start - 1`. Otherwise nothing is written, and what another process changed
        is returned (the steps from `start` and the row, read under the lock) for the
        caller to apply and check its moves again: a catch-up and a store in one
        transaction, where a catch-up before the check took one of its own."""
        if not new:
            return None
        try:
            with self._move_tx(notices is None and seen is None) as conn:
                return self._append_in(
                    conn, table_id, start, new, over, values, notices, epoch, seen
                )
        except IntegrityError as exc:
            raise Conflict(f"table {table_id}: move {start} was stored by another server") from exc
        finally:  # (`_written`'s work without its generator: every move comes here)
            self._after_write(values, notices)

    def append_group(self, calls: list[tuple[Any, ...]]) -> list[Any]:
        """Several `append`s (each its arguments) in one transaction: one commit, and on
        SQLite one flush to the disk, for all. Each outcome is what its `append` returned,
        or the exception it raised. Should one of them fail, the transaction is rolled
        back and each is done again alone, so that each ends as it would have alone; a
        commit whose outcome is unknown is told to each."""
        plain = all(
            len(call) < 6 or (call[5] is None and (len(call) < 8 or call[7] is None))
            for call in calls
        )
        try:
            with self._move_tx(plain) as conn:
                return [self._append_in(conn, *call) if call[2] else None for call in calls]
        except StoreError as exc:
            if exc.maybe_stored:
                return [exc for _call in calls]
        except Exception:  # rolled back: each is done again on its own
            pass
        finally:
            self._note_group(calls)
        outcomes: list[Any] = []
        for call in calls:
            try:
                outcomes.append(self.append(*call))
            except Exception as exc:  # handed to that move's caller
                outcomes.append(exc)
        return outcomes

    @contextlib.contextmanager
    def _written(
        self, values: dict[str, Any] | None, notices: NoticeWriter | None
    ) -> Iterator[None]:
        """Around a write's transaction: once it ended, committed or not, the deadline and
        "time low" mark it gave a table are noted (`due_floor`) and the deliverer is told
        of the notices it wrote."""
        try:
            yield
        finally:
            self._after_write(values, notices)

    def _after_write(self, values: dict[str, Any] | None, notices: NoticeWriter | None) -> None:
        if values:
            self._note_due(values)
        self._notices_written(notices)

    def _note_due(self, values: dict[str, Any]) -> None:
        """Note the deadline and "time low" mark a write gave a table, if any (after its
        transaction, committed or not)."""
        deadline = values.get("deadline")
        low = values.get("low_at")
        if deadline is not None or low is not None:
            self.due_floor.note(deadline, low)

    def _note_group(self, calls: list[tuple[Any, ...]]) -> None:
        """`_after_write` for each `append` of a group (its arguments: `values` 5th,
        `notices` 6th)."""
        for call in calls:
            values = call[4] if len(call) > 4 else None
            self._after_write(values, call[5] if len(call) > 5 else None)

    def _notices_written(self, notices: NoticeWriter | None) -> None:
        """A transaction that ran `notices` ended: the deliverer is told."""
        if notices is not None and self.on_notices is not None:
            self.on_notices()

    def _append_in(
        self,
        conn: Connection,
        table_id: str,
        start: int,
        new: list[tuple[str, str]],
        over: bool,
        values: dict[str, Any] | None = None,
        notices: NoticeWriter | None = None,
        epoch: int | None = None,
        seen: TableRow | None = None,
    ) -> Caught | None:
        """`append`'s work in `conn`'s transaction."""
        fields = dict(values or {})
        fields.setdefault("updated", now())
        if over:
            fields["over"] = True
        columns = tuple(sorted(fields))
        if seen is not None:
            row = self._row_in(conn, table_id, lock=True)
            caught = self._steps_in(conn, table_id, start)
            if caught or row != seen:
                return caught, row
        if self._driver is not None:  # straight to the driver (below)
            done = self._append_raw(conn, table_id, start, new, fields, columns, epoch)
        else:
            conn.execute(
                _INSERT_STEPS,
                [
                    {"table_id": table_id, "n": start + i, "who": who, "action": a}
                    for i, (who, a) in enumerate(new)
                ],
            )
            params = {f"v_{k}": v for k, v in fields.items()}
            params["w_id"] = table_id
            if epoch is not None:
                params["w_epoch"] = epoch
            done = conn.execute(self._update_of(columns, epoch is not None), params).rowcount
        if done != 1:  # rolled back: these moves followed moves taken back since
            raise Conflict(f"table {table_id}: moves were taken back meanwhile")
        if notices is not None:
            notices(conn)
        return None

    def _append_raw(
        self,
        conn: Connection,
        table_id: str,
        start: int,
        new: list[tuple[str, str]],
        fields: dict[str, Any],
        columns: tuple[str, ...],
        epoch: int | None,
    ) -> int:
        """`append`'s statements through the driver (driver.py), in the transaction of
        `conn`: the same SQL that SQLAlchemy sends, without building an execution context
        for each. The steps go in one INSERT of them all: one round trip to a database
        server; on SQLite one step of one statement where `executemany` stepped and reset
        it once a step (fewer instructions in the writer thread, and fewer times it lets
        go of the interpreter's lock and must take it back). Returns the UPDATE's row
        count. `columns`: the names of `fields`, sorted."""
        d = self._driver
        assert d is not None
        rows: dict[str, Any] = {}
        for i, (who, a) in enumerate(new):
            rows[f"table_id_{i}"] = table_id
            rows[f"n_{i}"] = start + i
            rows[f"who_{i}"] = who
            rows[f"action_{i}"] = a
        d.execute(conn, d.insert_steps_many(len(new)), rows)
        statement, processors = self._driver_update_of(columns, epoch is not None)
        params = {
            f"v_{c}": v if p is None else null if v is None else p(v)
            for c, (p, null), v in zip(
                columns, processors, (fields[c] for c in columns), strict=True
            )
        }
        params["w_id"] = table_id
        if epoch is not None:
            params["w_epoch"] = epoch
        done: int = d.execute(conn, statement, params).rowcount
        return done

    def _driver_update_of(
        self, columns: tuple[str, ...], with_epoch: bool
    ) -> tuple[driver.Statement, list[tuple[driver.Processor, Any]]]:
        """The UPDATE of `_update_of` as the driver's SQL text, with each column's
        conversion of a value (JSON, booleans) as SQLAlchemy's type does it, and what it
        makes of None, worked out once (most of a move's JSON columns are None: JSON's
        `null` without the encoder)."""
        key = (columns, with_epoch)
        got = self._driver_updates.get(key)
        if got is None:
            d = self._driver
            assert d is not None
            got = (
                driver.Statement(self._update_of(columns, with_epoch), d.dialect),
                [(p, None if p is None else p(None)) for p in d.bind_processors(columns)],
            )
            self._driver_updates[key] = got
        return got

    def _update_of(self, columns: tuple[str, ...], with_epoch: bool) -> Update:
        """The UPDATE of a table's row setting `columns` (bound as `v_<column>`), where its
        id is `w_id` (and its epoch `w_epoch`): one statement per set of columns, built
        once (the sets are the server's own, a handful)."""
        key = (columns, with_epoch)
        stmt = self._updates.get(key)
        if stmt is None:
            where = [tables.c.id == bindparam("w_id")]
            if with_epoch:
                where.append(tables.c.epoch == bindparam("w_epoch"))
            stmt = (
                update(tables)
                .where(*where)
                .values({c: bindparam(f"v_{c}", type_=tables.c[c].type) for c in columns})
            )
            self._updates[key] = stmt
        return stmt

    def take_back(
        self,
        table_id: str,
        seen: tuple[int, int, dict[str, Any] | None],
        values: dict[str, Any],
        back_to: int | None = None,
    ) -> None:
        """Change a table's takeback request (`values`), or with `back_to` take its moves
        back: the steps from `back_to` on are deleted and the epoch grows, with `values`
        (the clock, the cleared request, unrated), in one transaction. Done only if the
        table is still as the caller saw it, `seen` = (epoch, number of steps, pending
        request), else Conflict: the row is locked first (FOR UPDATE where the dialect
        has it), so processes that race for it take turns, and a move stored meanwhile
        (which `append` with its epoch refuses once the epoch grew) is seen."""
        epoch, moves, request = seen
        with self._written(values, None), self._tx() as conn:
            r = conn.execute(
                select(tables.c.epoch, tables.c.takeback)
                .where(tables.c.id == table_id)
                .with_for_update()
            ).first()
            count = conn.execute(
                select(func.count()).select_from(steps).where(steps.c.table_id == table_id)
            ).scalar_one()
            if r is None or r.epoch != epoch or count != moves or r.takeback != request:
                raise Conflict(f"table {table_id}: a move or another answer was stored meanwhile")
            fields = dict(values)
            if back_to is not None:
                conn.execute(
                    delete(steps).where(steps.c.table_id == table_id, steps.c.n >= back_to)
                )
                fields["epoch"] = epoch + 1
            fields["updated"] = now()
            conn.execute(update(tables).where(tables.c.id == table_id).values(**fields))

    def change(
        self,
        table_id: str,
        values: dict[str, Any],
        *,
        when: dict[str, Any] | None = None,
        notices: NoticeWriter | None = None,
    ) -> bool:
        """Set a table's `values` if its columns still hold `when` (a claim: of several
        processes that see a deadline fall due, exactly one changes the row). True if
        this call changed it."""
        cond = [tables.c.id == table_id]
        for name, value in (when or {}).items():
            col = tables.c[name]
            cond.append(col.is_(None) if value is None else col == value)
        with self._written(values, notices), self._tx() as conn:
            done = conn.execute(update(tables).where(and_(*cond)).values(**values)).rowcount
            if done == 1 and notices is not None:
                notices(conn)
        return bool(done == 1)

    def due(self, when: float, column: str = "deadline") -> list[tuple[str, float]]:
        """Unfinished tables whose `deadline` (or `low_at`) is at or before `when`."""
        with self._tx() as conn:
            return self._due_in(conn, when, column)

    def due_both(
        self, when: float, floor: bool = False
    ) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
        """`due` for `deadline` and for `low_at`, in one transaction (the timekeeper looks
        four times a second: one round of the pool, not two). With `floor` (a timekeeper
        alone on the database), the earliest of both columns stored, due or not, becomes
        the `due_floor` (two more statements, not worth a process that looks anyway)."""

        def read() -> tuple[tuple[list[tuple[str, float]], list[tuple[str, float]]], float | None]:
            with self._tx() as conn:
                found = self._due_in(conn, when, "deadline"), self._due_in(conn, when, "low_at")
                if not floor:
                    return found, None
                earliest = [self._earliest_in(conn, c) for c in ("deadline", "low_at")]
            return found, min((t for t in earliest if t is not None), default=None)

        return self.due_floor.look(read) if floor else read()[0]

    def _earliest_in(self, conn: Connection, column: str) -> float | None:
        """The earliest `column` of the unfinished tables (None: none has one)."""
        d = self._driver
        if d is None:
            value = conn.execute(_EARLIEST[column]).scalar()
        else:
            value = d.execute(conn, self._driver_earliest[column], {}).fetchone()[0]
        return None if value is None else float(value)

    def _due_in(self, conn: Connection, when: float, column: str) -> list[tuple[str, float]]:
        """`due`'s look in `conn`'s transaction, through the driver when it can (the
        timekeeper looks four times a second in every process, idle or not)."""
        d = self._driver
        statement = None if d is None else self._driver_dues.get(column)
        if d is None or statement is None:
            return _due_in(conn, when, column)
        return [(r[0], float(r[1])) for r in d.execute(conn, statement, {"w_when": when})]

    def hold_seat(
        self, table_id: str, seat: int, seats: list[dict[str, Any]], account: int
    ) -> None:
        """A seat now held by an account (an account claiming a guest seat by its token)."""
        with self._tx() as conn:
            conn.execute(update(tables).where(tables.c.id == table_id).values(seats=seats))
            conn.execute(
                table_seats.delete().where(
                    table_seats.c.table_id == table_id, table_seats.c.seat == seat
                )
            )
            conn.execute(
                insert(table_seats).values(table_id=table_id, seat=seat, account_id=account)
            )

    def join(
        self,
        table_id: str,
        seat: int,
        seats: list[dict[str, Any]],
        account: int,
        open_before: int,
        values: dict[str, Any],
        notices: NoticeWriter | None = None,
    ) -> bool:
        """An account takes an open seat: the table's seats, its open count and `values`
        (the clock, once the last seat is taken), if nobody took a seat meanwhile (the
        open count still `open_before`). True if this call took it."""
        with self._written(values, notices), self._tx() as conn:
            done = conn.execute(
                update(tables)
                .where(tables.c.id == table_id, tables.c.open_seats == open_before)
                .values(seats=seats, open_seats=open_before - 1, **values)
            ).rowcount
            if done != 1:
                return False
            conn.execute(
                insert(table_seats).values(table_id=table_id, seat=seat, account_id=account)
            )
            if notices is not None:
                notices(conn)
        return True

    def open_tables(self, limit: int) -> list[TableRow]:
        """Public, unfinished tables with a seat anyone may take, newest first."""
        with self._tx() as conn:
            rows = conn.execute(
                select(tables)
                .where(tables.c.public.is_(True), tables.c.over.is_(False), tables.c.open_seats > 0)
                .order_by(tables.c.created.desc())
                .limit(limit)
            ).all()
        return [_row(r) for r in rows]

    def unfinished(self) -> list[str]:
        with self._tx() as conn:
            return [r.id for r in conn.execute(select(tables.c.id).where(tables.c.over.is_(False)))]

    def _tx(self) -> Any:
        return _Tx(self)

    def _move_tx(self, plain: bool) -> Any:
        """A move's transaction: on SQLite, when it runs only the driver's statements
        (`plain`: no notices, no row to lock), begun and committed on the driver's own
        connection (`_DriverTx`); else `_tx`."""
        if plain and self._in_process and self._driver is not None:
            return _DriverTx(self)
        return _Tx(self)

    def dispose(self) -> None:
        with self._kept_lock:
            kept, self._kept_all = self._kept_all, []
        for one in kept:  # each once its transaction in hand (if any) is over
            if one.lock.acquire(timeout=DISPOSE_WAIT):
                try:
                    with contextlib.suppress(SQLAlchemyError):
                        one.conn.close()
                finally:
                    one.lock.release()
        self.engine.dispose()

    def _connection(self) -> tuple[Any, _Kept | None]:
        """A transaction's connection: this thread's own (SQLite: kept open, with the
        lock that `dispose` takes before closing it), or one from the pool (None)."""
        if self._kept is None:
            return self.engine.begin(), None
        one: _Kept | None = getattr(self._kept, "one", None)
        if one is None or one.conn.closed or one.conn.invalidated:
            one = _Kept(self.engine.connect())
            self._kept.one = one
            with self._kept_lock:
                self._kept_all = [k for k in self._kept_all if not k.conn.closed]
                self._kept_all.append(one)
        return one.conn, one

    def _drop_kept(self) -> None:
        """After an error, this thread's kept connection is closed (the next transaction
        opens a fresh one)."""
        kept = self._kept
        one: _Kept | None = None if kept is None else getattr(kept, "one", None)
        if kept is not None and one is not None:
            kept.one = None
            with contextlib.suppress(SQLAlchemyError):
                one.conn.close()


class _Kept:
    """A thread's own connection (SQLite), and the lock its transactions hold, so that
    `dispose` does not close it under one of them."""

    __slots__ = ("conn", "lock")

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.lock = threading.Lock()


DISPOSE_WAIT = 5.0
"""Seconds `dispose` waits for a transaction in hand before leaving its connection."""


def _due_select(column: str) -> Any:
    col = tables.c[column]
    return select(tables.c.id, col).where(
        col.is_not(None), col <= bindparam("w_when"), tables.c.over.is_(False)
    )


_DUE = {column: _due_select(column) for column in ("deadline", "low_at")}
"""Built once: the timekeeper runs them four times a second, idle or not."""
_EARLIEST = {
    column: select(func.min(tables.c[column])).where(
        tables.c[column].is_not(None), tables.c.over.is_(False)
    )
    for column in ("deadline", "low_at")
}


def _due_in(conn: Connection, when: float, column: str) -> list[tuple[str, float]]:
    stmt = _DUE.get(column)
    if stmt is None:
        stmt = _due_select(column)
    return [(r[0], float(r[1])) for r in conn.execute(stmt, {"w_when": when})]


def last_chat_in(conn: Connection, table_id: str) -> int:
    """The id of the table's last chat message (0: none), read in `conn`'s transaction."""
    return int(conn.execute(_LAST_CHAT, {"w_id": table_id}).scalar() or 0)


def _row_in(conn: Connection, table_id: str, lock: bool = False) -> TableRow | None:
    """The table's row, read in `conn`'s transaction (None: no such table); with `lock`,
    locked until the transaction ends."""
    r = conn.execute(_SELECT_ROW_LOCKED if lock else _SELECT_ROW, {"w_id": table_id}).first()
    return None if r is None else _row(r)


def _row(r: Any) -> TableRow:
    return TableRow(
        r.id,
        r.game,
        r.components,
        dict(r.options),
        list(r.seats),
        r.created,
        bool(r.over),
        clock=r.clock,
        clock_state=r.clock_state,
        deadline=r.deadline,
        low_at=r.low_at,
        result=r.result,
        standin=list(r.standin or []),
        turn=r.turn,
        updated=r.updated,
        public_link=r.public_link,
        public=bool(r.public),
        open_seats=int(r.open_seats or 0),
        rated=bool(r.rated),
        takebacks=bool(r.takebacks),
        spectator_chat=bool(r.spectator_chat),
        epoch=int(r.epoch or 0),
        takeback=r.takeback,
        rematch=r.rematch,
        rated_at=r.rated_at,
        ended=r.ended,
        scores=r.scores,
        hints=bool(r.hints),
        start=r.start,
        kind=str(r.kind or "game"),
    )


class _Tx:
    """A transaction whose database errors become `StoreError` (integrity errors pass, for
    `Conflict`): a database that is down, restarting or refusing never surfaces as a 500."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.cm: Any = None
        self.kept: _Kept | None = None

    def __enter__(self) -> Any:
        source, kept = _connect_locked(self.store)
        if kept is None:
            try:
                self.cm = source
                return self.cm.__enter__()
            except SQLAlchemyError as exc:
                raise StoreError(f"the database is unavailable: {_short(exc)}") from exc
        # this thread's own connection: the transaction is its `begin`, under its lock
        self.kept = kept
        try:
            self.cm = source.begin()
            self.cm.__enter__()
        except SQLAlchemyError as exc:
            self.kept = None
            kept.lock.release()
            self.store._drop_kept()
            raise StoreError(f"the database is unavailable: {_short(exc)}") from exc
        return source

    def __exit__(self, *exc: Any) -> None:
        kept, self.kept = self.kept, None
        try:
            self._end(exc, kept is not None)
        finally:
            if kept is not None:
                kept.lock.release()

    def _end(self, exc: tuple[Any, ...], kept: bool) -> None:
        failed = exc[1]
        try:
            self.cm.__exit__(*exc)
        except IntegrityError:
            raise
        except SQLAlchemyError as err:
            if kept:
                self.store._drop_kept()
            if isinstance(failed, IntegrityError):
                raise
            # No error inside the block: the commit itself failed, maybe after the database
            # wrote it; an error inside the block: it was rolled back (or never sent).
            raise StoreError(
                f"the database is unavailable: {_short(err)}",
                maybe_stored=failed is None and isinstance(err, DBAPIError),
            ) from err
        _raise_failed(failed)


def _connect_locked(store: Store) -> tuple[Any, _Kept | None]:
    """The store's connection for this thread, and its kept connection (SQLite) with the
    kept connection's lock held; database errors as `StoreError`."""
    try:
        source, kept = store._connection()
    except SQLAlchemyError as exc:
        raise StoreError(f"the database is unavailable: {_short(exc)}") from exc
    if kept is not None:
        kept.lock.acquire()
        if kept.conn.closed:  # `dispose` closed it meanwhile: the server is stopping
            kept.lock.release()
            raise StoreError("the server is closing its database; nothing was stored")
    return source, kept


def _raise_failed(failed: BaseException | None) -> None:
    """A statement's database error, rolled back, as `StoreError` (integrity errors
    pass, for `Conflict`; other exceptions are the caller's own and pass too)."""
    if isinstance(failed, SQLAlchemyError) and not isinstance(failed, IntegrityError):
        raise StoreError(f"the database is unavailable: {_short(failed)}") from failed


class _DriverTx:
    """`_Tx` for SQLite's moves, without SQLAlchemy's transaction: sqlite3 begins one
    before the first INSERT (as under SQLAlchemy, which sends no BEGIN to it either), and
    it is committed or rolled back here on the driver's connection (15-25 us of
    SQLAlchemy's bookkeeping less a move, on the writer thread). Only for statements run
    by the driver (`driver.py`): a statement run by SQLAlchemy would begin a transaction
    of SQLAlchemy's that this one never ends. Errors as `_Tx` makes them."""

    __slots__ = ("kept", "raw", "store")

    def __init__(self, store: Store) -> None:
        self.store = store
        self.kept: _Kept | None = None
        self.raw: Any = None

    def __enter__(self) -> Connection:
        source, kept = _connect_locked(self.store)
        assert kept is not None  # SQLite: each thread keeps its connection
        try:
            self.raw = source.connection.dbapi_connection
        except SQLAlchemyError as exc:
            kept.lock.release()
            self.store._drop_kept()
            raise StoreError(f"the database is unavailable: {_short(exc)}") from exc
        self.kept = kept
        conn: Connection = source
        return conn

    def __exit__(self, *exc: Any) -> None:
        kept, self.kept = self.kept, None
        assert kept is not None
        failed = exc[1]
        try:
            if failed is None:
                try:
                    self.raw.commit()
                except Exception as err:  # maybe written: the table must be read again
                    self.store._drop_kept()
                    raise StoreError(
                        f"the database is unavailable: {_short(err)}", maybe_stored=True
                    ) from err
                return
            try:
                self.raw.rollback()
            except Exception:  # the connection is unusable: a fresh one next time
                self.store._drop_kept()
        finally:
            kept.lock.release()
        _raise_failed(failed)


PING_AFTER = 0.5
"""Seconds a pooled connection may rest and still be used without a ping first."""


def _ping_if_idle(engine: Engine) -> None:
    """Ping a pooled connection at check-out only if it rested over `PING_AFTER` seconds
    since its last use: a database restart takes longer than that, so a connection that
    died with one is found and replaced (the pool tries a fresh one), while a server
    under load does not pay a round trip to the database for every transaction (it did
    with the pool's `pre_ping`: three pings an action with two processes)."""

    @event.listens_for(engine, "checkin")
    def _rested_from(_dbapi: Any, record: Any) -> None:
        record.info["checked_in"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _ping(dbapi: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("checked_in")
        if since is not None and time.monotonic() - since < PING_AFTER:
            return
        try:
            engine.dialect.do_ping(dbapi)
        except Exception as exc:  # a dead connection: the pool replaces it and tries again
            raise DisconnectionError(f"the connection did not answer a ping: {exc}") from exc


def json_loads(text: str | bytes) -> Any:
    """A JSON column's value: `json.loads`, with JSON's `null` answered at once (most of a
    table's JSON columns hold it, and every catch-up reads the row)."""
    if text == b"null" or text == "null":
        return None
    return json.loads(text)


def _short(exc: BaseException) -> str:
    return str(exc).splitlines()[0][:200]


def now() -> float:
    return time.time()
