"""Accounts and their sessions, seats held by accounts, clocks on tables, the outbox of
notifications.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

NEW_TABLE_COLUMNS = [
    sa.Column("clock", sa.JSON, nullable=True),
    sa.Column("clock_state", sa.JSON, nullable=True),
    sa.Column("deadline", sa.Float, nullable=True),
    sa.Column("low_at", sa.Float, nullable=True),
    sa.Column("result", sa.JSON, nullable=True),
    sa.Column("standin", sa.JSON, nullable=True),
    sa.Column("turn", sa.Integer, nullable=True),
    sa.Column("updated", sa.Float, nullable=True),
    sa.Column("public_link", sa.String(300), nullable=True),
]


def upgrade() -> None:
    for column in NEW_TABLE_COLUMNS:
        op.add_column("thermopylae_tables", column)
    op.create_index("ix_thermopylae_tables_deadline", "thermopylae_tables", ["deadline"])
    op.create_index("ix_thermopylae_tables_low_at", "thermopylae_tables", ["low_at"])
    op.execute("UPDATE thermopylae_tables SET updated = created")
    op.create_table(
        "thermopylae_accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("key", sa.String(64), nullable=True, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("deleted", sa.Boolean, nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("webhook", sa.String(500), nullable=True),
        sa.Column("events", sa.JSON, nullable=False),
        sa.Column("low_share", sa.Float, nullable=False),
        sa.Column("webhook_failures", sa.Integer, nullable=False),
        sa.Column("email_failures", sa.Integer, nullable=False),
        sa.Column("webhook_disabled", sa.String(200), nullable=True),
        sa.Column("email_disabled", sa.String(200), nullable=True),
    )
    op.create_table(
        "thermopylae_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "account_id", sa.Integer, sa.ForeignKey("thermopylae_accounts.id"), nullable=False
        ),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_thermopylae_sessions_account", "thermopylae_sessions", ["account_id"])
    op.create_table(
        "thermopylae_table_seats",
        sa.Column(
            "table_id", sa.String(40), sa.ForeignKey("thermopylae_tables.id"), primary_key=True
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column(
            "account_id", sa.Integer, sa.ForeignKey("thermopylae_accounts.id"), nullable=False
        ),
    )
    op.create_index("ix_thermopylae_table_seats_account", "thermopylae_table_seats", ["account_id"])
    op.create_table(
        "thermopylae_notices",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(200), nullable=False, unique=True),
        sa.Column(
            "account_id", sa.Integer, sa.ForeignKey("thermopylae_accounts.id"), nullable=False
        ),
        sa.Column("channel", sa.String(10), nullable=False),
        sa.Column("target", sa.String(500), nullable=False),
        sa.Column("event", sa.String(20), nullable=False),
        sa.Column("table_id", sa.String(40), nullable=True),
        sa.Column("body", sa.JSON, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("next_try", sa.Float, nullable=False),
        sa.Column("claimed_until", sa.Float, nullable=True),
        sa.Column("last_error", sa.String(300), nullable=True),
        sa.Column("sent_at", sa.Float, nullable=True),
    )
    op.create_index("ix_thermopylae_notices_due", "thermopylae_notices", ["status", "next_try"])


def downgrade() -> None:
    op.drop_table("thermopylae_notices")
    op.drop_table("thermopylae_table_seats")
    op.drop_table("thermopylae_sessions")
    op.drop_table("thermopylae_accounts")
    op.drop_index("ix_thermopylae_tables_low_at", "thermopylae_tables")
    op.drop_index("ix_thermopylae_tables_deadline", "thermopylae_tables")
    with op.batch_alter_table("thermopylae_tables") as batch:
        for column in NEW_TABLE_COLUMNS:
            batch.drop_column(column.name)
