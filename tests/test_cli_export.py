"""`thermopylae export` (a server's finished games as JSON lines of records) and
`thermopylae ladder` (the bot levels rated against each other), with their errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sqlalchemy import select
from typer.testing import CliRunner

from tests.cli_helpers import flat
from tests.server.rating_helpers import bot, human, store_finished
from thermopylae.cli import app
from thermopylae.engine import registry
from thermopylae.engine.record import Record, replay
from thermopylae.server.account_store import Accounts
from thermopylae.server.db import rating_events, ratings
from thermopylae.server.names import name_key
from thermopylae.server.store import Store, TableRow

EW = "earth-and-water"
ENV = {"NO_COLOR": "1", "COLUMNS": "400", "LC_ALL": "C.UTF-8"}


class Done:
    """A command's exit code and everything it printed (stdout and stderr), run in this
    process (a subprocess per command costs seconds on a busy machine)."""

    def __init__(self, *args: str) -> None:
        r: Any = CliRunner().invoke(app, list(args), env=ENV)
        self.returncode: int = r.exit_code
        self.stdout = self.stderr = r.output


def run(*args: str) -> Done:
    return Done(*args)


def _database(tmp_path: Path) -> str:
    """A server's database: three finished games of Earth & Water (two of Xerxes), one
    of another game, one unfinished; returns its URL."""
    url = f"sqlite:///{tmp_path / 'tables.db'}"
    store = Store(url)
    acc = Accounts(store)
    x, lo, g = (acc.create(n, name_key(n), "h", "en").id for n in ("Xerxes", "Leonidas", "Gorgo"))
    store_finished(store, EW, [human(x), human(lo)], at=100.0)
    store_finished(store, EW, [bot("easy"), human(x)], seed=1, scores=False, at=200.0)
    store_finished(store, EW, [human(g), human(lo)], at=300.0)
    store_finished(store, "thermopyles", [human(x), human(g)], players=2, at=400.0)
    game = registry.get(EW)
    options = game.options({})
    seats = [
        {"seat": s, "kind": "human", "agent": None, "token_hash": None} for s in game.seats(options)
    ]
    store.create(TableRow("unfinished", EW, game.components_digest, options, seats, 50.0, False))
    store.dispose()
    return url


def test_export_writes_the_finished_games_records_oldest_first(tmp_path: Path) -> None:
    url = _database(tmp_path)
    out = tmp_path / "all.jsonl"
    done = run("export", "--db", url, "--game", EW, "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "3 finished games of earth-and-water written to" in flat(done.stdout)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 3
    game = registry.get(EW)
    for rec in records:
        assert rec["format"] == "thermopylae-record" and rec["game"] == EW
        assert rec["outcome"] is not None  # finished games only
        report = replay(game, Record.from_json(rec))
        assert report.ok, report.problems
    only = tmp_path / "xerxes.jsonl"
    done = run("export", "--db", url, "--game", EW, "--player", "XERXES", "--out", str(only))
    assert done.returncode == 0, done.stderr
    assert "2 finished games" in flat(done.stdout)
    assert only.read_text().splitlines() == out.read_text().splitlines()[:2]
    assert not list(tmp_path.glob("*.tmp"))


def test_export_errors_name_what_is_wrong_and_write_nothing(tmp_path: Path) -> None:
    url = _database(tmp_path)
    out = tmp_path / "x.jsonl"
    cases = [
        (["--db", "nonsense", "--game", EW], "--db nonsense: not a database URL"),
        (["--db", f"sqlite:///{tmp_path / 'none.db'}", "--game", EW], "no SQLite database file"),
        (["--db", url, "--game", "chess"], "unknown game 'chess'"),
        (["--db", url, "--game", EW, "--player", "Nobody"], "--player Nobody: no such account"),
    ]
    for args, text in cases:
        done = run("export", *args, "--out", str(out))
        assert done.returncode == 2, (args, done.stdout)
        assert text in flat(done.stderr), (args, done.stderr)
        assert not out.exists()
    assert not (tmp_path / "none.db").exists()  # an export makes no database
    helped = flat(run("export", "--help").stdout)
    assert "finished games" in helped and "--player" in helped and "SQLAlchemy URL" in helped


def test_the_ladder_rates_the_bot_levels_on_both_sides(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tables.db'}"
    done = run("ladder", "--db", url, "--game", EW, "--games", "4", "--levels", "easy,normal")
    assert done.returncode == 0, done.stderr
    assert "4 games of earth-and-water" in flat(done.stdout)
    store = Store(url)
    with store.engine.begin() as conn:
        got = {(r.subject, r.side): r for r in conn.execute(select(ratings))}
        n_events = len(conn.execute(select(rating_events)).all())
    store.dispose()
    # each pairing of (persia, greece) levels once: each level plays each side twice
    assert set(got) == {(f"bot:{lv}", s) for lv in ("easy", "normal") for s in ("persia", "greece")}
    assert all(r.games == 2 and r.game == EW for r in got.values())
    assert n_events == 8
    assert any(r.mu != 25.0 for r in got.values())
    again = run("ladder", "--db", url, "--game", EW, "--games", "2", "--levels", "easy")
    assert again.returncode == 0, again.stderr
    store = Store(url)
    with store.engine.begin() as conn:
        easy = {r.side: r.games for r in conn.execute(select(ratings)) if r.subject == "bot:easy"}
    store.dispose()
    assert easy == {"persia": 4, "greece": 4}


def test_the_ladder_refuses_a_cooperative_game_and_unknown_levels(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tables.db'}"
    for args, text in (
        (["--game", "thermopyles"], "thermopyles is co-operative"),
        (
            ["--game", EW, "--levels", "easy,best"],
            "--levels easy,best: the levels are easy, normal, hard",
        ),
        (["--game", "chess"], "unknown game 'chess'"),
    ):
        done = run("ladder", "--db", url, "--games", "1", *args)
        assert done.returncode == 2 and text in flat(done.stderr), (args, done.stderr)
    assert "bot levels play each other" in flat(run("ladder", "--help").stdout)
