"""Helpers of the fault tests: a PostgreSQL and a Redis of the test's own (so that they can be
stopped and started again without touching the shared ones), and checks of a table's stored
record (contiguous move numbers, a replay through the engine)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import warnings
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

with warnings.catch_warnings():  # starlette's TestClient warns that it will move to httpx2
    warnings.simplefilter("ignore")
    import starlette.testclient  # noqa: F401

from tests.server.helpers import PATIENCE, Truth, free_port, wait_ready

PG_BIN = Path(os.environ.get("THERMOPYLAE_PG_BIN", "/usr/lib/postgresql/15/bin"))


def _pg_tool(name: str) -> str | None:
    found = PG_BIN / name
    if found.is_file() and os.access(found, os.X_OK):
        return str(found)
    return shutil.which(name)


class OwnPostgres:
    """A PostgreSQL cluster in a temporary folder, on a free port of 127.0.0.1, run as the
    `postgres` user when the tests run as root (PostgreSQL refuses to run as root)."""

    def __init__(self) -> None:
        initdb, pg_ctl = _pg_tool("initdb"), _pg_tool("pg_ctl")
        if initdb is None or pg_ctl is None:
            pytest.skip(
                f"initdb and pg_ctl are needed to run a PostgreSQL of the test's own "
                f"(looked in {PG_BIN} and on PATH; set THERMOPYLAE_PG_BIN)"
            )
        self.pg_ctl = pg_ctl
        self.folder = Path(tempfile.mkdtemp(prefix="faults_pg_"))
        self.data = self.folder / "data"
        self.log = self.folder / "postgres.log"
        self.port = free_port()
        self.as_postgres: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
            self.as_postgres = ["runuser", "-u", "postgres", "--"]
        self._run(
            [
                initdb,
                "-D",
                str(self.data),
                "-A",
                "trust",
                "-U",
                "postgres",
                "--no-sync",
                "-E",
                "UTF8",
            ]
        )

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, cmd: list[str]) -> None:
        r = subprocess.run(
            [*self.as_postgres, *cmd],
            capture_output=True,
            text=True,
            timeout=PATIENCE + 60,
            stdin=subprocess.DEVNULL,
            cwd=self.folder,
        )
        assert r.returncode == 0, f"{' '.join(cmd)} failed:\n{r.stdout}\n{r.stderr}\n" + (
            self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""
        )

    def start(self) -> None:
        opts = f"-k {self.folder} -c listen_addresses=127.0.0.1 -p {self.port}"
        self._run(
            [
                self.pg_ctl,
                "-D",
                str(self.data),
                "-l",
                str(self.log),
                "-w",
                "-t",
                str(int(PATIENCE)),
                "-o",
                opts,
                "start",
            ]
        )

    def stop(self, mode: str = "fast") -> None:
        self._run(
            [self.pg_ctl, "-D", str(self.data), "-w", "-t", str(int(PATIENCE)), "-m", mode, "stop"]
        )

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def close(self) -> None:
        if self.running():
            subprocess.run(
                [*self.as_postgres, self.pg_ctl, "-D", str(self.data), "-m", "immediate", "stop"],
                capture_output=True,
                timeout=60,
                stdin=subprocess.DEVNULL,
                cwd=self.folder,
            )
        shutil.rmtree(self.folder, ignore_errors=True)


class OwnRedis:
    """`redis-server` on a free port of 127.0.0.1, with nothing saved to disk."""

    def __init__(self, log: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server is needed to run a Redis of the test's own")
        self.binary = binary
        self.port = free_port()
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, limit: float = PATIENCE) -> None:
        """Start it and return once it answers a ping (its exit is seen at once)."""
        import redis

        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [
                    self.binary,
                    "--port",
                    str(self.port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--daemonize",
                    "no",
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )
        client = redis.Redis(host="127.0.0.1", port=self.port, socket_connect_timeout=1)

        def pong() -> bool:
            try:
                return bool(client.ping())
            except redis.RedisError:
                return False

        try:
            wait_ready(
                self.proc,
                pong,
                lambda: self.log.read_text(errors="replace"),
                limit,
                what="redis-server",
            )
        finally:
            client.close()

    def stop(self) -> None:
        """Gone at once (SIGKILL): connections drop as in a crash."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


# -- a table's record --------------------------------------------------------------------


def stored_moves(db: str, table: str) -> list[int]:
    """The move numbers stored for `table`, in order, read with plain SQL."""
    engine = create_engine(db)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text("SELECT n FROM thermopylae_steps WHERE table_id = :t ORDER BY n"), {"t": table}
            ).all()
    finally:
        engine.dispose()
    return [r[0] for r in rows]


def check_record(db: str, created: dict[str, Any], steps: list[list[str]]) -> Truth:
    """The table's record is whole: move numbers 0, 1, 2, ... with no gap, and the steps
    replay through the engine (each one legal, by the seat that had to act)."""
    table = created["id"]
    assert stored_moves(db, table) == list(range(len(steps))), f"table {table}: gaps"
    truth = Truth(created["game"], created["options"], steps)
    truth.at(len(steps))
    return truth
