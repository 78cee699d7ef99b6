"""The commands on a server's database: `export` (its finished games as JSON lines of
records) and `ladder` (the server's bot levels play each other, so that they have
ratings before any human plays them). The database libraries are imported by the
commands that use them, so that every other command starts without them."""

from __future__ import annotations

import itertools
import json
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from thermopylae.ai.base import make_agent
from thermopylae.cli_common import fail, load_game, out, with_progress
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.protocol import GenericGame
from thermopylae.i18n import _, ngettext
from thermopylae.server.seats import LEVELS, level_agent
from thermopylae.sim import match

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from thermopylae.server.store import Store

DbOpt = Annotated[
    str,
    typer.Option(
        "--db",
        help="The server's database, as a SQLAlchemy URL: sqlite:///path/to/tables.db or "
        "postgresql+psycopg://user@host/name.",
    ),
]
GameOpt = Annotated[str, typer.Option("--game", help="Game id (see `thermopylae games`).")]


def export(
    db: DbOpt,
    game_id: GameOpt,
    out_file: Annotated[
        Path, typer.Option("--out", help="The file to write, one game record a line.")
    ],
    player: Annotated[
        str | None, typer.Option("--player", help="Only the games of this account.")
    ] = None,
) -> None:
    """Write a server's finished games of one game as JSON lines, oldest first: each line
    is the game's record (what GET /api/tables/ID/record answers), which
    `thermopylae replay` checks and `thermopylae play --from` continues. Unfinished games
    are left out (their records would show the hands). The database is only read."""
    from sqlalchemy.exc import SQLAlchemyError

    from thermopylae.server import archive

    game = load_game(game_id, None)
    engine = _read_only(db)
    try:
        with engine.connect() as conn:
            who = None if player is None else _account(conn, player)
            total = archive.count_finished(conn, game.id, who)
    except SQLAlchemyError as exc:
        engine.dispose()
        raise _unreadable(db, exc) from exc

    def work(advance: Any) -> int:
        n = 0
        tmp = out_file.with_name(out_file.name + ".tmp")
        try:
            with engine.connect() as conn, tmp.open("w", encoding="utf-8") as f:
                for row in archive.finished(conn, game.id, who):
                    rec = archive.record_of(game, row, archive.steps_of(conn, row.id))
                    f.write(json.dumps(rec, separators=(",", ":")) + "\n")
                    n += 1
                    advance(1)
            tmp.replace(out_file)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        return n

    try:
        n = with_progress(_("export {game}").format(game=game.id), total, True, work)
    except OSError as exc:
        raise fail(_("cannot write {file}: {error}").format(file=out_file, error=exc)) from exc
    except SQLAlchemyError as exc:
        raise _unreadable(db, exc) from exc
    finally:
        engine.dispose()
    out.print(
        ngettext(
            "{n} finished game of {game} written to {file}",
            "{n} finished games of {game} written to {file}",
            n,
        ).format(n=n, game=game.id, file=out_file),
        markup=False,
    )


def ladder(
    db: DbOpt,
    game_id: GameOpt,
    games: Annotated[int, typer.Option("--games", min=1, max=100_000, help="Games to play.")],
    levels: Annotated[
        str,
        typer.Option(
            "--levels",
            help="The levels that play, comma-separated (each meets each, as each side).",
        ),
    ] = ",".join(LEVELS),
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the run (random if not given).")] = None,
) -> None:
    """Let the server's bot levels play each other and move their ratings ("bot:hard" as
    Persia, ...), both sides being bots: a human's first rated game against a bot then
    meets a rating that means something. Each game's pairing of levels goes round every
    combination of the levels over the seats."""
    from thermopylae.server import rating_store
    from thermopylae.server.store import StoreError

    game = load_game(game_id, None)
    if game.cooperative:
        raise fail(_("{game} is co-operative: its games are never rated").format(game=game.id))
    chosen = [lv.strip() for lv in levels.split(",") if lv.strip()]
    bad = [lv for lv in chosen if lv not in LEVELS]
    if bad or not chosen:
        raise fail(
            _("--levels {levels}: the levels are {known}").format(
                levels=levels, known=", ".join(LEVELS)
            )
        )
    try:
        options = game.options({} if players is None else {"players": players})
    except ThermopylaeError as exc:
        raise fail(str(exc)) from exc
    seats = list(game.seats(options))
    # every combination of levels over the seats, the first seat's changing fastest, so
    # that a short run still gives each side each level
    combos = itertools.product(dict.fromkeys(chosen), repeat=len(seats))
    pairings = [tuple(reversed(c)) for c in combos]
    store = _store(db)
    run = secrets.token_hex(4)
    seed = secrets.randbits(32) if seed is None else seed

    def work(advance: Any) -> None:
        for i in range(games):
            _ladder_game(store, game, options, pairings[i % len(pairings)], seed, i, run)
            advance(1)

    try:
        with_progress(_("ladder {game}").format(game=game.id), games, True, work)
    except StoreError as exc:
        raise fail(str(exc)) from exc
    try:
        with store._tx() as conn:
            board = rating_store.bots(conn, game.id)
    except StoreError as exc:
        raise fail(str(exc)) from exc
    finally:
        store.dispose()
    done = ngettext("{n} game of {game} (seed {seed})", "{n} games of {game} (seed {seed})", games)
    out.print(done.format(n=games, game=game.id, seed=seed))
    for side, rows in board.items():
        for r in rows:
            out.print(
                f"  {side:<8} {r['level']:<7} {r['mu']:5.1f} ± {r['sigma']:.1f}  "
                + ngettext("{n} game", "{n} games", r["games"]).format(n=r["games"]),
                markup=False,
            )


def _ladder_game(
    store: Store,
    game: GenericGame,
    options: dict[str, Any],
    pairing: tuple[str, ...],
    seed: int,
    index: int,
    run: str,
) -> None:
    """One game of the ladder, played and rated in a transaction of its own."""
    from thermopylae.server import rating_store
    from thermopylae.server.ratings import entrants
    from thermopylae.server.store import now

    names = list(game.seats(options))
    specs = [
        level_agent(game, lv, len(names), name) for lv, name in zip(pairing, names, strict=True)
    ]
    agents = [make_agent(str(s), game) for s in specs]
    chance_rng, agent_rng = match.rngs(seed, index)
    state, _steps = match.play(game, options, agents, chance_rng, agent_rng)
    result = game.outcome(state)
    assert result is not None
    seat_rows = [
        {"seat": n, "kind": "ai", "level": lv} for n, lv in zip(names, pairing, strict=True)
    ]
    people = entrants(game, options, seat_rows)
    with store._tx() as conn:
        rating_store.record_game(
            conn, game.id, people, result.results, f"ladder-{run}-{index}", now(), only_bots=True
        )


def _read_only(db: str) -> Engine:
    """An engine on an existing database (the export makes and migrates nothing)."""
    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    from thermopylae.server.store import CONNECT_TIMEOUT

    try:
        url = make_url(db)
        if url.get_backend_name() == "sqlite":
            path = url.database
            if not path or path == ":memory:" or not Path(path).is_file():
                raise fail(_("no SQLite database file at {url}").format(url=db))
        args = (
            {"connect_timeout": CONNECT_TIMEOUT} if url.get_backend_name() == "postgresql" else {}
        )
        return create_engine(url, connect_args=args)
    except (ArgumentError, ValueError, ImportError) as exc:
        raise fail(
            _("--db {url}: not a database URL the server can open ({error})").format(
                url=db, error=_short(exc)
            )
        ) from exc


def _store(db: str) -> Store:
    from sqlalchemy.exc import ArgumentError

    from thermopylae.server.store import Store, StoreError

    try:
        return Store(db)
    except StoreError as exc:
        raise fail(str(exc)) from exc
    except (ArgumentError, ValueError, ImportError) as exc:
        raise fail(
            _("--db {url}: not a database URL the server can open ({error})").format(
                url=db, error=_short(exc)
            )
        ) from exc


def _account(conn: Any, name: str) -> int:
    from sqlalchemy import select

    from thermopylae.server.db import accounts
    from thermopylae.server.names import name_key

    r = conn.execute(
        select(accounts.c.id).where(accounts.c.key == name_key(name), accounts.c.deleted.is_(False))
    ).first()
    if r is None:
        raise fail(_("--player {name}: no such account").format(name=name))
    return int(r.id)


def _unreadable(db: str, exc: BaseException) -> typer.Exit:
    return fail(
        _("cannot read the database {url}: {error}").format(url=_safe(db), error=_short(exc))
    )


def _safe(db: str) -> str:
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(db).render_as_string(hide_password=True)
    except ArgumentError:
        return db


def _short(exc: BaseException) -> str:
    return str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
