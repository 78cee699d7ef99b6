"""Studying games: tables that allow hints, tables that start from a position ("play from
here"), tables made from a record file, and the stored analyses of finished games.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

NEW_TABLE_COLUMNS: list[sa.Column[Any]] = [
    sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("start", sa.JSON, nullable=True),
    sa.Column("kind", sa.String(10), nullable=False, server_default="game"),
]


def upgrade() -> None:
    for column in NEW_TABLE_COLUMNS:
        op.add_column("thermopylae_tables", column)
    op.create_table(
        "thermopylae_analyses",
        sa.Column(
            "table_id", sa.String(40), sa.ForeignKey("thermopylae_tables.id"), primary_key=True
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("budget", sa.Integer, nullable=False),
        sa.Column("done", sa.Integer, nullable=False, server_default="0"),
        sa.Column("total", sa.Integer, nullable=False, server_default="0"),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("claimed_by", sa.String(64), nullable=True),
        sa.Column("claimed_until", sa.Float, nullable=True),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("error", sa.String(300), nullable=True),
    )
    op.create_index("ix_thermopylae_analyses_status", "thermopylae_analyses", ["status", "created"])


def downgrade() -> None:
    op.drop_index("ix_thermopylae_analyses_status", "thermopylae_analyses")
    op.drop_table("thermopylae_analyses")
    with op.batch_alter_table("thermopylae_tables") as batch:
        for column in reversed(NEW_TABLE_COLUMNS):
            batch.drop_column(column.name)
