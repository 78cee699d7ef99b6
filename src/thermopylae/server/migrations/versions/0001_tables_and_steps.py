"""The first schema: tables and their steps (what releases before accounts created with
`create_all`; such a database is stamped with this revision, not migrated).

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "thermopylae_tables",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("components", sa.String(40), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("over", sa.Boolean, nullable=False),
    )
    op.create_table(
        "thermopylae_steps",
        sa.Column(
            "table_id", sa.String(40), sa.ForeignKey("thermopylae_tables.id"), primary_key=True
        ),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("who", sa.String(40), nullable=False),
        sa.Column("action", sa.String(200), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("thermopylae_steps")
    op.drop_table("thermopylae_tables")
