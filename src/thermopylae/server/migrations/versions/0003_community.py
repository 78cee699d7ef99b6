"""The community around the tables: public tables and open seats, rated games and
ratings per side, takebacks, rematches, chat and mutes, the quick-match queue, and each
finished game's scores for the archive.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

NEW_TABLE_COLUMNS: list[sa.Column[Any]] = [
    sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("open_seats", sa.Integer, nullable=False, server_default="0"),
    sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("takebacks", sa.Boolean, nullable=False, server_default=sa.true()),
    sa.Column("spectator_chat", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("epoch", sa.Integer, nullable=False, server_default="0"),
    sa.Column("takeback", sa.JSON, nullable=True),
    sa.Column("rematch", sa.JSON, nullable=True),
    sa.Column("rated_at", sa.Float, nullable=True),
    sa.Column("ended", sa.Float, nullable=True),
    sa.Column("scores", sa.JSON, nullable=True),
]


def upgrade() -> None:
    for column in NEW_TABLE_COLUMNS:
        op.add_column("thermopylae_tables", column)
    op.create_index(
        "ix_thermopylae_tables_open", "thermopylae_tables", ["public", "over", "open_seats"]
    )
    op.create_table(
        "thermopylae_ratings",
        sa.Column("subject", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("side", sa.String(40), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_thermopylae_ratings_board", "thermopylae_ratings", ["game", "side"])
    op.create_table(
        "thermopylae_rating_events",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("subject", sa.String(40), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("side", sa.String(40), nullable=False),
        sa.Column("table_id", sa.String(40), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("result", sa.String(10), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.UniqueConstraint("subject", "game", "side", "table_id"),
    )
    op.create_index(
        "ix_thermopylae_rating_events_subject", "thermopylae_rating_events", ["subject", "game"]
    )
    op.create_table(
        "thermopylae_chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "table_id", sa.String(40), sa.ForeignKey("thermopylae_tables.id"), nullable=False
        ),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("text", sa.String(500), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_thermopylae_chat_table", "thermopylae_chat", ["table_id", "id"])
    op.create_table(
        "thermopylae_mutes",
        sa.Column(
            "account_id", sa.Integer, sa.ForeignKey("thermopylae_accounts.id"), primary_key=True
        ),
        sa.Column(
            "muted_id", sa.Integer, sa.ForeignKey("thermopylae_accounts.id"), primary_key=True
        ),
    )
    op.create_table(
        "thermopylae_match_queue",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("thermopylae_accounts.id"),
            nullable=False,
            unique=True,
        ),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("clock", sa.String(20), nullable=False),
        sa.Column("side", sa.String(40), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("table_id", sa.String(40), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("thermopylae_match_queue")
    op.drop_table("thermopylae_mutes")
    op.drop_table("thermopylae_chat")
    op.drop_table("thermopylae_rating_events")
    op.drop_table("thermopylae_ratings")
    op.drop_index("ix_thermopylae_tables_open", "thermopylae_tables")
    with op.batch_alter_table("thermopylae_tables") as batch:
        for column in NEW_TABLE_COLUMNS:
            batch.drop_column(column.name)
