"""The server's database tables, as SQLAlchemy Core definitions.

These definitions are what the code reads and writes; the schema itself is made and
changed only by the Alembic migrations in `server/migrations/` (`migrate.py` runs them at
start-up), so a database made by an earlier release upgrades in place. A change here
needs a new migration beside it.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
)

metadata = MetaData()

tables = Table(
    "thermopylae_tables",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("components", String(40), nullable=False),
    Column("options", JSON, nullable=False),
    # [{"seat", "kind", "agent", "level", "token_hash", "account"}]
    Column("seats", JSON, nullable=False),
    Column("created", Float, nullable=False),
    Column("over", Boolean, nullable=False, default=False),
    # Added by migration 0002 (accounts, clocks):
    Column("clock", JSON, nullable=True),  # the time control (clock.TimeControl.to_json)
    Column("clock_state", JSON, nullable=True),  # clock.ClockState.to_json
    Column("deadline", Float, nullable=True),  # epoch s the deciding seat's bank runs out
    Column("low_at", Float, nullable=True),  # epoch s it falls under the "time low" share
    Column("result", JSON, nullable=True),  # a forfeit: {"reason", "seat"}
    Column("standin", JSON, nullable=True),  # seats a bot plays after a timeout ("ai")
    Column("turn", Integer, nullable=True),  # the deciding seat (-1 chance, null: over)
    Column("updated", Float, nullable=True),  # epoch s of the last stored step
    Column("public_link", String(300), nullable=True),  # the table's page, for notices
    Index("ix_thermopylae_tables_deadline", "deadline"),
    Index("ix_thermopylae_tables_low_at", "low_at"),
)

steps = Table(
    "thermopylae_steps",
    metadata,
    Column("table_id", String(40), ForeignKey("thermopylae_tables.id"), primary_key=True),
    Column("n", Integer, primary_key=True),  # the move number: 0, 1, 2, ...
    Column("who", String(40), nullable=False),
    Column("action", String(200), nullable=False),
)

accounts = Table(
    "thermopylae_accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(32), nullable=False),  # as typed
    Column("key", String(64), nullable=True, unique=True),  # look-alike skeleton
    Column("password_hash", String(200), nullable=True),
    Column("created", Float, nullable=False),
    Column("deleted", Boolean, nullable=False, default=False),
    Column("lang", String(8), nullable=False, default="en"),
    Column("email", String(254), nullable=True),
    Column("webhook", String(500), nullable=True),
    Column("events", JSON, nullable=False),
    Column("low_share", Float, nullable=False, default=0.1),
    Column("webhook_failures", Integer, nullable=False, default=0),
    Column("email_failures", Integer, nullable=False, default=0),
    Column("webhook_disabled", String(200), nullable=True),
    Column("email_disabled", String(200), nullable=True),
)

sessions = Table(
    "thermopylae_sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("thermopylae_accounts.id"), nullable=False),
    Column("csrf", String(64), nullable=False),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
    Index("ix_thermopylae_sessions_account", "account_id"),
)

table_seats = Table(
    "thermopylae_table_seats",
    metadata,
    Column("table_id", String(40), ForeignKey("thermopylae_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("thermopylae_accounts.id"), nullable=False),
    Index("ix_thermopylae_table_seats_account", "account_id"),
)

notices = Table(
    "thermopylae_notices",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(200), nullable=False, unique=True),
    Column("account_id", Integer, ForeignKey("thermopylae_accounts.id"), nullable=False),
    Column("channel", String(10), nullable=False),
    Column("target", String(500), nullable=False),
    Column("event", String(20), nullable=False),
    Column("table_id", String(40), nullable=True),
    Column("body", JSON, nullable=False),
    Column("created", Float, nullable=False),
    Column("status", String(10), nullable=False),
    Column("attempts", Integer, nullable=False, default=0),
    Column("next_try", Float, nullable=False),
    Column("claimed_until", Float, nullable=True),
    Column("last_error", String(300), nullable=True),
    Column("sent_at", Float, nullable=True),
    Index("ix_thermopylae_notices_due", "status", "next_try"),
)
