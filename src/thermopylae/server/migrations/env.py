"""Alembic's entry point, run by `thermopylae.server.migrate` with a connection of its own
(the server never reads an alembic.ini)."""

from __future__ import annotations

from alembic import context

from thermopylae.server.db import metadata

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=True,  # SQLite alters tables by copying them
)
with context.begin_transaction():
    context.run_migrations()
