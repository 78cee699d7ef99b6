"""Schema migrations: a database made by the release before accounts and clocks (the SQL
dump in data/tables_v0.sql, made by that code) upgrades in place with every table and move
kept, and play goes on at its tables; a new database (SQLite and PostgreSQL) is made at
the current revision; starting again changes nothing."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, inspect
from starlette.testclient import TestClient

from thermopylae.server import migrate
from thermopylae.server.ai_pool import AiLimits
from thermopylae.server.app import create_app
from thermopylae.server.store import Store

V0 = Path(__file__).parent / "data" / "tables_v0.sql"


def v0_database(path: Path) -> tuple[str, dict[tuple[str, str], str], dict[str, int]]:
    """The old database, its seat tokens and each table's number of moves."""
    text = V0.read_text()
    conn = sqlite3.connect(path)
    conn.executescript(text)
    moves = dict(
        conn.execute(
            "select table_id, count(*) from thermopylae_steps group by table_id"
        ).fetchall()
    )
    conn.close()
    tokens = {
        (t, seat): tok for t, seat, tok in re.findall(r"^-- token (\S+) (\S+) (\S+)$", text, re.M)
    }
    return f"sqlite:///{path}", tokens, moves


def test_a_database_of_the_release_before_upgrades_in_place(tmp_path: Path) -> None:
    url, tokens, moves = v0_database(tmp_path / "old.sqlite")
    assert migrate.revision(create_engine(url)) is None  # made before migrations
    quick = AiLimits(processes=False, seconds=0.05, reply_wait=5.0)
    with TestClient(create_app(db=url, ai=quick)) as c:
        assert migrate.revision(create_engine(url)) == migrate.head()
        for table, n in moves.items():
            m = c.get(f"/api/tables/{table}").json()
            assert m["move"] >= n, table  # every move kept (an AI seat may have played on)
            assert m["clock"] is None
        over = c.get("/api/tables/v0table3").json()
        assert over["outcome"] is not None
        assert c.get("/api/tables/v0table3/record").json()["steps"]
        # Play goes on with the old seat tokens.
        for table in ("v0table0", "v0table1"):
            seat = c.get(f"/api/tables/{table}").json()["to_act"]
            token = tokens[(table, seat)]
            m = c.get(f"/api/tables/{table}", params={"token": token}).json()
            r = c.post(
                f"/api/tables/{table}/actions",
                json={"token": token, "move": m["move"], "action": m["legal"][0]["action"]},
            )
            assert r.status_code == 200, r.text
        # The new features work on the old database.
        r = c.post("/api/accounts", json={"name": "Miltiades", "password": "a long secret"})
        assert r.status_code == 201
        assert c.get("/api/me").json()["tables"] == {"active": [], "finished": []}
    Store(url).dispose()  # starting again: nothing to do
    assert migrate.revision(create_engine(url)) == migrate.head()


def test_a_new_database_is_made_at_the_current_revision(tmp_path: Path, postgres: Any) -> None:
    for url in (f"sqlite:///{tmp_path / 'new.sqlite'}", postgres.new_url()):
        store = Store(url)
        names = set(inspect(store.engine).get_table_names())
        assert {"thermopylae_accounts", "thermopylae_notices", "alembic_version"} <= names
        assert migrate.revision(store.engine) == migrate.head()
        store.dispose()
