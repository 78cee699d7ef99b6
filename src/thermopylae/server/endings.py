"""What is stored when a game ends, in the same transaction as its last step (or its
forfeit): when it ended and each seat's result, for the archive's filters, and the
rating update of a rated game (`rating_store.settle`, which claims the game so that it is
rated exactly once however many processes see the end)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import Connection

from thermopylae.engine.protocol import GenericGame, Outcome
from thermopylae.server.store import NoticeWriter, TableRow


def columns(outcome: Outcome, at: float) -> dict[str, Any]:
    """The table's columns once its game ended with `outcome` at `at`."""
    return {
        "ended": at,
        "scores": {
            "results": list(outcome.results),
            "scores": list(outcome.scores),
            "reason": outcome.reason,
        },
    }


def settle(row: TableRow, game: GenericGame, outcome: Outcome, at: float) -> NoticeWriter | None:
    """The writer that rates the game of `row` (None for an unrated one)."""
    if not row.rated:
        return None
    from thermopylae.server import rating_store

    def write(conn: Connection) -> None:
        rating_store.settle(conn, row, game, outcome, at)

    return write
