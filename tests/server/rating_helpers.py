"""Finished tables for the rating and archive tests, stored as the server stores them
(a row, its seats held by accounts, its steps), without playing them through the API: the
games are played by random agents, so their records are real and replay."""

from __future__ import annotations

import functools
import random
import secrets
from typing import Any

from sqlalchemy import update

from thermopylae.ai.base import make_agent
from thermopylae.engine import registry
from thermopylae.engine.protocol import GenericGame, Outcome
from thermopylae.engine.record import Record
from thermopylae.server import rating_store
from thermopylae.server.db import tables
from thermopylae.server.store import Store, TableRow
from thermopylae.sim import match


@functools.cache
def played(
    game_id: str, players: int | None = None, seed: int = 0
) -> tuple[dict[str, Any], tuple[tuple[str, str], ...], Outcome]:
    """A whole game of random agents: its options, steps and outcome."""
    game = registry.get(game_id)
    options = game.options({} if players is None else {"players": players})
    rec = Record.begin(game, options)
    agents = [make_agent("random", game) for _ in game.seats(options)]
    state, _n = match.play(
        game, options, agents, random.Random(seed), random.Random(seed + 99), rec
    )
    out = game.outcome(state)
    assert out is not None
    return options, tuple(rec.steps), out


def human(account: int) -> dict[str, Any]:
    return {"kind": "human", "account": account}


def bot(level: str | None = "hard", agent: str = "random") -> dict[str, Any]:
    return {"kind": "ai", "level": level, "agent": agent}


def store_finished(
    store: Store,
    game_id: str,
    who: list[dict[str, Any]],
    *,
    players: int | None = None,
    seed: int = 0,
    rated: bool = True,
    scores: bool = True,
    forfeit: dict[str, Any] | None = None,
    at: float = 1000.0,
) -> tuple[TableRow, Outcome]:
    """A finished table of `game_id` whose seats are `who` (human/bot above), stored with
    its steps and (when `scores`) the `scores` the core writes at a game's end; `forfeit`
    ({"seat", "reason"}): it ended so, its outcome the game's forfeit. Returns the stored
    row and its outcome."""
    game = registry.get(game_id)
    options, steps, outcome = played(game_id, players, seed)
    names = list(game.seats(options))
    assert len(who) == len(names)
    seats = [
        {"seat": n, "token_hash": None, "agent": None, **w} for n, w in zip(names, who, strict=True)
    ]
    kept = list(steps)
    if forfeit is not None:
        kept = kept[: len(kept) // 2]
        state = game.new(options)
        for _w, text in kept:
            game.apply(state, game.parse(text), quiet=True)
        outcome = game.forfeit(state, int(forfeit["seat"]), str(forfeit["reason"]))
    table_id = "t" + secrets.token_hex(6)
    row = TableRow(table_id, game.id, game.components_digest, options, seats, at - 100, False)
    row = TableRow(**{**row.__dict__, "rated": rated})
    store.create(row)
    values: dict[str, Any] = {"ended": at}
    if scores:
        values["scores"] = {
            "results": list(outcome.results),
            "scores": list(outcome.scores),
            "reason": outcome.reason,
        }
    if forfeit is not None:
        values["result"] = forfeit
    store.append(table_id, 0, kept, over=True, values=values)
    with store.engine.begin() as conn:  # the order of a player's list: by `updated`
        conn.execute(update(tables).where(tables.c.id == table_id).values(updated=at))
    found = store.table(table_id)
    assert found is not None
    return found, outcome


def settle(store: Store, row: TableRow, outcome: Outcome, at: float | None = None) -> None:
    """What the core does when a game ends: settle in a transaction of its own."""
    game: GenericGame = registry.get(row.game)
    with store.engine.begin() as conn:
        when = at if at is not None else row.ended
        assert when is not None
        rating_store.settle(conn, row, game, outcome, when)
