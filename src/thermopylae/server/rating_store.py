"""Ratings in the database: settling a finished rated table (once), the bot ladder's
games, the leaderboard, a player's ratings and their history.

`settle` runs inside the transaction that stores a game's last step (or its forfeit), so
a game's ratings move exactly when it ends and never twice: the table is first claimed
(`rated_at` set where it is still null; a second call, or another process, finds it
claimed and does nothing), then the ratings it moves are read locked (FOR UPDATE, where
the database has it; SQLite serialises writers anyway) and written with one event each.

Whose ratings move: in a game of accounts only, the accounts'. In a "bot game" (a rated
table with server AI seats), only the bot levels' ("bot:hard" as Persia): the humans'
strength is what measures the bots, but a human's rating stays a measure of games
against humans. The ladder (`record_game`) moves bots against bots.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import String, and_, cast, insert, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from thermopylae.engine.protocol import GenericGame, Outcome
from thermopylae.server.db import accounts, rating_events, ratings, tables
from thermopylae.server.ratings import (
    NEW,
    Entrant,
    NotRated,
    Rating,
    entrants,
    rate,
    result_of,
)
from thermopylae.server.store import TableRow

HISTORY = 200  # points of a rating's history a player's page shows (the latest)
BOARD = 100  # players a leaderboard shows per side by default ...
MAX_BOARD = 500  # ... and at most


def settle(conn: Connection, row: TableRow, game: GenericGame, outcome: Outcome, at: float) -> None:
    """Move the ratings of a finished rated table, once (see the module's docstring).
    Does nothing for an unrated table, one already settled, or one that rates no one
    (co-operative, a guest seat, an AI agent that is no level: `ratings.NotRated`)."""
    if not row.rated:
        return
    try:
        people = entrants(game, row.options, row.seats)
    except NotRated:
        return
    claimed = conn.execute(
        update(tables)
        .where(tables.c.id == row.id, tables.c.rated_at.is_(None), tables.c.rated.is_(True))
        .values(rated_at=at)
    ).rowcount
    if claimed != 1:
        return
    bots = any(e.bot for e in people)
    record_game(conn, game.id, people, outcome.results, row.id, at, only_bots=bots)


def record_game(
    conn: Connection,
    game_id: str,
    people: Sequence[Entrant],
    results: Sequence[str],
    ref: str,
    at: float,
    only_bots: bool = False,
) -> dict[tuple[str, str], Rating]:
    """Rate one game and write the new ratings (of the bots only, with `only_bots`) and
    their events, `ref` naming the game (a table id, or a ladder game's). Returns the new
    ratings written."""
    keys = sorted({e.key for e in people if e.bot or not only_bots})
    _ensure(conn, game_id, keys, at)
    current = _locked(conn, game_id, keys)
    others = sorted({e.key for e in people} - set(keys))  # read, not written: not locked
    current.update(_read(conn, game_id, others))
    new = rate(people, results, {k: v[0] for k, v in current.items()})
    written: dict[tuple[str, str], Rating] = {}
    for e in people:
        if only_bots and not e.bot:
            continue
        before, games, wins = current[e.key]
        after = new[e.key]
        result = result_of(e, results)
        conn.execute(
            update(ratings)
            .where(_is(game_id, e.key))
            .values(
                mu=after.mu,
                sigma=after.sigma,
                games=games + 1,
                wins=wins + (result == "win"),
                updated=at,
            )
        )
        conn.execute(
            insert(rating_events).values(
                subject=e.subject,
                game=game_id,
                side=e.side,
                table_id=ref,
                mu=after.mu,
                sigma=after.sigma,
                mu_before=before.mu,
                sigma_before=before.sigma,
                result=result,
                at=at,
            )
        )
        written[e.key] = after
    return written


def _is(game_id: str, key: tuple[str, str]) -> Any:
    return and_(ratings.c.subject == key[0], ratings.c.game == game_id, ratings.c.side == key[1])


def _ensure(conn: Connection, game_id: str, keys: Iterable[tuple[str, str]], at: float) -> None:
    """A rating row for every key (a new subject starts at the model's default), made
    without racing another transaction that makes the same row: PostgreSQL and SQLite
    skip a row that exists (ON CONFLICT DO NOTHING); elsewhere a savepoint absorbs the
    duplicate."""
    rows = [
        {
            "subject": s,
            "game": game_id,
            "side": side,
            "mu": NEW.mu,
            "sigma": NEW.sigma,
            "games": 0,
            "wins": 0,
            "updated": at,
        }
        for s, side in keys
    ]
    if not rows:
        return
    name = conn.dialect.name
    if name == "postgresql":
        conn.execute(pg_insert(ratings).on_conflict_do_nothing(), rows)
        return
    if name == "sqlite":
        conn.execute(sqlite_insert(ratings).on_conflict_do_nothing(), rows)
        return
    for r in rows:  # pragma: no cover - no other database is tested
        try:
            with conn.begin_nested():
                conn.execute(insert(ratings).values(**r))
        except IntegrityError:
            pass


def _locked(
    conn: Connection, game_id: str, keys: Sequence[tuple[str, str]]
) -> dict[tuple[str, str], tuple[Rating, int, int]]:
    """The rows of `keys`, locked until the transaction ends (in key order, so two
    games that rate the same players never wait for each other in a circle)."""
    if not keys:
        return {}
    rows = conn.execute(
        select(ratings)
        .where(or_(*(_is(game_id, k) for k in keys)))
        .order_by(ratings.c.subject, ratings.c.side)
        .with_for_update()
    ).all()
    return {(r.subject, r.side): (Rating(r.mu, r.sigma), r.games, r.wins) for r in rows}


def _read(
    conn: Connection, game_id: str, keys: Sequence[tuple[str, str]]
) -> dict[tuple[str, str], tuple[Rating, int, int]]:
    """The ratings of `keys` as they are (NEW for a subject not rated yet)."""
    out = {k: (NEW, 0, 0) for k in keys}
    if keys:
        rows = conn.execute(select(ratings).where(or_(*(_is(game_id, k) for k in keys)))).all()
        out.update({(r.subject, r.side): (Rating(r.mu, r.sigma), r.games, r.wins) for r in rows})
    return out


# -- reading ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    subject: str
    game: str
    side: str
    rating: Rating
    games: int
    wins: int


def _standing(r: Any) -> Standing:
    return Standing(r.subject, r.game, r.side, Rating(r.mu, r.sigma), r.games, r.wins)


def board(conn: Connection, game_id: str, limit: int = BOARD) -> dict[str, list[dict[str, Any]]]:
    """The leaderboard of a game per side: live accounts with a rated game, by ordinal
    (mu - 3 sigma), best first; `rank` counts from 1."""
    rows = conn.execute(
        select(ratings, accounts.c.name)
        .join(accounts, ratings.c.subject == "account:" + _text_id())
        .where(ratings.c.game == game_id, ratings.c.games > 0, accounts.c.deleted.is_(False))
        .order_by(ratings.c.side, (ratings.c.mu - 3 * ratings.c.sigma).desc(), ratings.c.subject)
    ).all()
    out: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        side = out.setdefault(r.side, [])
        if len(side) >= limit:
            continue
        side.append(
            {
                "player": r.name,
                "mu": r.mu,
                "sigma": r.sigma,
                "games": r.games,
                "wins": r.wins,
                "rank": len(side) + 1,
            }
        )
    return out


def _text_id() -> Any:
    return cast(accounts.c.id, String)


def bots(conn: Connection, game_id: str) -> dict[str, list[dict[str, Any]]]:
    """The bot levels' ratings of a game per side, strongest (by mu) first."""
    rows = conn.execute(
        select(ratings)
        .where(ratings.c.game == game_id, ratings.c.subject.like("bot:%"), ratings.c.games > 0)
        .order_by(ratings.c.side, ratings.c.mu.desc())
    ).all()
    out: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        out.setdefault(r.side, []).append(
            {"level": r.subject[4:], "mu": r.mu, "sigma": r.sigma, "games": r.games}
        )
    return out


def of_subject(conn: Connection, subject: str) -> list[Standing]:
    rows = conn.execute(
        select(ratings)
        .where(ratings.c.subject == subject, ratings.c.games > 0)
        .order_by(ratings.c.game, ratings.c.side)
    ).all()
    return [_standing(r) for r in rows]


def history(
    conn: Connection, subject: str, game_id: str, side: str, limit: int = HISTORY
) -> list[dict[str, Any]]:
    """The subject's rating after each of its last `limit` rated games, oldest first."""
    rows = conn.execute(
        select(rating_events)
        .where(
            rating_events.c.subject == subject,
            rating_events.c.game == game_id,
            rating_events.c.side == side,
        )
        .order_by(rating_events.c.at.desc(), rating_events.c.id.desc())
        .limit(limit)
    ).all()
    return [{"at": r.at, "mu": r.mu, "sigma": r.sigma, "table": r.table_id} for r in reversed(rows)]


def nearest_bot(conn: Connection, game_id: str, side: str, mu: float) -> str | None:
    """The bot level whose rating on this side is nearest `mu` ("about as strong as the
    hard bot as Persia"), None while no level has played there."""
    rows = conn.execute(
        select(ratings.c.subject, ratings.c.mu).where(
            ratings.c.game == game_id,
            ratings.c.side == side,
            ratings.c.subject.like("bot:%"),
            ratings.c.games > 0,
        )
    ).all()
    if not rows:
        return None
    best = min(rows, key=lambda r: (abs(r.mu - mu), r.subject))
    return str(best.subject)[4:]
