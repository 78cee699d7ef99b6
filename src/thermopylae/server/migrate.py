"""Bring a database to the current schema with the Alembic migrations of this release.

Run by the store at start-up: an empty database is made, a database of an earlier release
is upgraded in place with every table and move kept. A database made before migrations
existed (tables made by `create_all`, no `alembic_version`) is first stamped with the
first revision, whose schema it has. Several servers starting at once take turns:
PostgreSQL through an advisory lock, SQLite through its one writer (a server that loses
the race finds the work done when it looks again).
"""

from __future__ import annotations

import time
from importlib import resources

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

FIRST = "0001"
LOCK_ID = 0x7E53_0300  # pg_advisory_lock key of thermopylae's migrations


def _config(conn: Connection | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option(
        "script_location", str(resources.files("thermopylae.server").joinpath("migrations"))
    )
    cfg.attributes["connection"] = conn
    return cfg


def head() -> str:
    """The revision of this release's schema."""
    script = ScriptDirectory.from_config(_config())
    current = script.get_current_head()
    assert current is not None
    return current


def revision(engine: Engine) -> str | None:
    """The database's revision (None: empty, or made before migrations)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine, attempts: int = 5) -> None:
    """Migrate the database to `head()`; raises SQLAlchemyError when it cannot."""
    target = head()
    for attempt in range(attempts):
        try:
            _upgrade_once(engine)
            return
        except SQLAlchemyError:
            # Another server may be migrating the same database: wait, then look again.
            time.sleep(0.2 * (attempt + 1))
            try:
                if revision(engine) == target:
                    return
            except SQLAlchemyError:
                pass
            if attempt == attempts - 1:
                raise


def _upgrade_once(engine: Engine) -> None:
    postgres = engine.dialect.name == "postgresql"
    with engine.connect() as conn:
        if postgres:
            conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": LOCK_ID})
            conn.commit()
        try:
            cfg = _config(conn)
            names = set(inspect(conn).get_table_names())
            if "thermopylae_tables" in names and "alembic_version" not in names:
                command.stamp(cfg, FIRST)  # made by create_all before migrations
                conn.commit()
            command.upgrade(cfg, "head")
            conn.commit()
        finally:
            if postgres:
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": LOCK_ID})
                conn.commit()
