"""Quick match: "play Earth & Water, correspondence, as either side". A request waits in
a queue stored in the database until a compatible one comes (same game, clock and
ratedness; sides that fit); the newcomer is paired with the waiting player whose rating
is closest (the longest waiting among equals), and a table is made for both. A waiting
request is claimed by a conditional UPDATE, so with several processes each is paired
once."""

from __future__ import annotations

import asyncio
import random
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from thermopylae.engine import registry
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.protocol import GenericGame
from thermopylae.server.account_store import Account, Accounts
from thermopylae.server.db import match_queue, ratings
from thermopylae.server.new_table import Terms
from thermopylae.server.seats import TableError
from thermopylae.server.store import now

if TYPE_CHECKING:
    from thermopylae.server.tables import Tables

PRESETS: dict[str, dict[str, Any] | None] = {
    "none": None,
    "live": {"initial_s": 600, "increment_s": 10},
    "correspondence": {"initial_s": 259200, "increment_s": 43200, "cap_s": 432000},
}
"""The time controls a quick match offers (the lobby's own presets)."""

DEFAULT_MU = 25.0  # openskill's starting rating, for a player not rated yet
PENDING = "pending"  # a waiting request claimed by a newcomer whose table is being made


@dataclass(frozen=True)
class Request:
    game: str
    options: dict[str, Any]
    clock: str
    side: str
    rated: bool


def two_seat_options(game: GenericGame) -> dict[str, Any]:
    """The game's options for two players (422 for a game that cannot seat two)."""
    for asked in ({}, {"players": 2}):
        try:
            options = game.options(asked)
        except ThermopylaeError:
            continue
        if len(game.seats(options)) == 2:
            return options
    raise TableError(422, f"quick match pairs two players; {game.title} has no two-player game")


def check(game_id: Any, clock: Any, side: Any, rated: Any) -> Request:
    """The request, or 422 naming what is wrong."""
    if not isinstance(game_id, str) or game_id not in registry.game_ids():
        raise TableError(422, f"unknown game {game_id!r}; games: {', '.join(registry.game_ids())}")
    game = registry.get(game_id)
    options = two_seat_options(game)
    if clock not in PRESETS:
        raise TableError(422, f"clock must be one of {', '.join(PRESETS)}, not {clock!r}")
    seats = list(game.seats(options))
    if side != "any" and side not in seats:
        raise TableError(422, f"side must be any or one of {', '.join(seats)}, not {side!r}")
    if rated and game.cooperative:
        raise TableError(422, f"{game.title} is co-operative: its games are not rated")
    return Request(game_id, options, str(clock), str(side), bool(rated))


def fits(mine: str, theirs: str) -> bool:
    return mine == "any" or theirs == "any" or mine != theirs


class Matchmaking:
    """The queue, over the tables' store."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.store = tables.store

    def _mu(self, account: int, game: str, side: str) -> float:
        with self.store._tx() as conn:
            q = select(ratings.c.mu).where(
                ratings.c.subject == f"account:{account}", ratings.c.game == game
            )
            if side != "any":
                q = q.where(ratings.c.side == side)
            found = [float(r[0]) for r in conn.execute(q)]
        return sum(found) / len(found) if found else DEFAULT_MU

    def _claim(self, account: int, req: Request, mu: float) -> tuple[int, int, str] | None:
        """Withdraw `account`'s old request and claim the closest compatible waiting one:
        (its id, its account, its side); None (and `account` now waits) when none fits."""
        with self.store._tx() as conn:
            conn.execute(delete(match_queue).where(match_queue.c.account_id == account))
            rows = conn.execute(
                select(match_queue).where(
                    match_queue.c.game == req.game,
                    match_queue.c.clock == req.clock,
                    match_queue.c.rated.is_(req.rated),
                    match_queue.c.table_id.is_(None),
                    match_queue.c.account_id != account,
                )
            ).all()
            fitting = sorted(
                (r for r in rows if fits(req.side, r.side) and dict(r.options) == req.options),
                key=lambda r: (abs(float(r.mu) - mu), r.created),
            )
            for r in fitting:
                claimed = conn.execute(
                    update(match_queue)
                    .where(match_queue.c.id == r.id, match_queue.c.table_id.is_(None))
                    .values(table_id=PENDING)
                ).rowcount
                if claimed == 1:
                    return int(r.id), int(r.account_id), str(r.side)
            conn.execute(
                insert(match_queue).values(
                    account_id=account,
                    game=req.game,
                    options=req.options,
                    clock=req.clock,
                    side=req.side,
                    rated=req.rated,
                    mu=mu,
                    created=now(),
                )
            )
        return None

    def _set(self, row_id: int, table_id: str | None) -> None:
        with self.store._tx() as conn:
            conn.execute(
                update(match_queue).where(match_queue.c.id == row_id).values(table_id=table_id)
            )

    async def ask(self, account: Account, req: Request) -> dict[str, Any]:
        """Pair `account` now ({"status": "matched", "table"}) or queue it ("waiting")."""
        call = self.tables._store_call
        mu = await asyncio.to_thread(call, self._mu, account.id, req.game, req.side)
        try:
            found = await asyncio.to_thread(call, self._claim, account.id, req, mu)
        except IntegrityError as exc:  # the same account asked twice at the same moment
            raise TableError(409, "you already asked for a quick match; wait or cancel") from exc
        if found is None:
            return {"status": "waiting", "game": req.game, "clock": req.clock, "side": req.side}
        row_id, other, their_side = found
        seats = self._sides(req, account.id, other, their_side)
        try:
            held = await asyncio.to_thread(call, Accounts(self.store).by_ids, seats)
            names = {a: held[a].name if a in held else "?" for a in seats}
            live, _tokens = await self.tables.create(
                req.game,
                req.options,
                [{"kind": "account", "name": names[a]} for a in seats],
                client="server",
                clock=PRESETS[req.clock],
                terms=Terms(rated=req.rated),
            )
        except BaseException:
            await asyncio.to_thread(call, self._set, row_id, None)  # back in the queue
            raise
        await asyncio.to_thread(call, self._set, row_id, live.row.id)
        return {"status": "matched", "table": live.row.id}

    def _sides(self, req: Request, me: int, other: int, their_side: str) -> list[int]:
        """The accounts in seat order."""
        game = registry.get(req.game)
        first = game.seats(req.options)[0]
        if req.side != "any":
            mine_first = req.side == first
        elif their_side != "any":
            mine_first = their_side != first
        else:
            mine_first = random.Random(secrets.randbits(64)).random() < 0.5
        return [me, other] if mine_first else [other, me]

    def status(self, account: int) -> dict[str, Any]:
        with self.store._tx() as conn:
            r = conn.execute(select(match_queue).where(match_queue.c.account_id == account)).first()
        if r is None:
            return {"status": "none"}
        if r.table_id is None or r.table_id == PENDING:
            return {
                "status": "waiting",
                "game": r.game,
                "clock": r.clock,
                "side": r.side,
                "since": r.created,
            }
        return {"status": "matched", "table": r.table_id}

    def cancel(self, account: int) -> dict[str, Any]:
        with self.store._tx() as conn:
            conn.execute(
                delete(match_queue).where(
                    match_queue.c.account_id == account, match_queue.c.table_id.is_(None)
                )
            )
        return self.status(account)
