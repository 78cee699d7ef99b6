"""Fixtures of the server tests: the databases (SQLite in a temporary folder, and the
local PostgreSQL), Redis, and an in-process server (FastAPI's TestClient).

PostgreSQL: every server under test gets a schema of its own (`thermopylae_test_<random>`,
chosen through the connection's `search_path`), dropped at the end of the session, so tests
on several xdist workers never see each other's tables and a server's start-up (which
resumes every unfinished table it finds) sees only its own. Nothing else in the database is
touched. Set THERMOPYLAE_TEST_PG / THERMOPYLAE_TEST_REDIS to use other servers.

PostgreSQL and Redis are required: when they cannot be reached the tests that need them
fail (never skip) with a message saying so.
"""

from __future__ import annotations

import os
import secrets
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

with warnings.catch_warnings():  # starlette's TestClient warns that it will move to httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tests.server.helpers import Api, serve_in_process
from tests.server.notify_helpers import Receiver, receiving
from thermopylae.server.ai_pool import AiLimits
from thermopylae.server.app import create_app

PG_URL = os.environ.get("THERMOPYLAE_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("THERMOPYLAE_TEST_REDIS", "redis://127.0.0.1:6379/0")
BACKENDS = ["sqlite", "postgresql"]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("filterwarnings", "ignore:Using `httpx` with `starlette.testclient`")


class Postgres:
    """The local PostgreSQL; `new_url()` is a URL whose tables live in a fresh schema."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = create_engine(url, connect_args={"connect_timeout": 5})
        self.schemas: list[str] = []
        try:
            with self.engine.connect() as conn:
                conn.execute(text("select 1"))
        except Exception as exc:
            self.engine.dispose()
            pytest.fail(
                f"PostgreSQL is required by the server tests and cannot be reached at "
                f"{make_url(url).render_as_string(hide_password=True)} "
                f"(set THERMOPYLAE_TEST_PG to another URL): {exc}",
                pytrace=False,
            )

    def new_url(self) -> str:
        schema = f"thermopylae_test_{secrets.token_hex(6)}"
        with self.engine.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        self.schemas.append(schema)
        sep = "&" if "?" in self.url else "?"
        return f"{self.url}{sep}options=-csearch_path%3D{schema}"

    def close(self) -> None:
        with self.engine.begin() as conn:
            conn.execute(text("SET lock_timeout = '20s'"))
            for schema in self.schemas:  # only the schemas these tests created
                conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        self.engine.dispose()


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    pg = Postgres(PG_URL)
    yield pg
    pg.close()


@pytest.fixture(scope="session")
def redis_url() -> str:
    import redis

    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=5)
    try:
        client.ping()
    except Exception as exc:
        pytest.fail(
            f"Redis is required by the scale tests and cannot be reached at {REDIS_URL}"
            f" (set THERMOPYLAE_TEST_REDIS to another URL): {exc}",
            pytrace=False,
        )
    finally:
        client.close()
    return REDIS_URL


def database_url(backend: str, request: pytest.FixtureRequest, folder: Path) -> str:
    """A fresh, empty database: a SQLite file in `folder`, or a new PostgreSQL schema."""
    if backend == "sqlite":
        return f"sqlite:///{folder / 'tables.db'}"
    pg: Postgres = request.getfixturevalue("postgres")
    return pg.new_url()


@pytest.fixture(scope="module", params=BACKENDS)
def api(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    """One in-process server per test module and database, each with an empty database."""
    url = database_url(request.param, request, tmp_path_factory.mktemp(request.param))
    yield from serve_in_process(url)


def memory_folder() -> Path | None:
    """/dev/shm when the system has it (memory-backed files), else None."""
    shm = Path("/dev/shm")
    return shm if shm.is_dir() and os.access(shm, os.W_OK) else None


@pytest.fixture
def kill_dir(tmp_path: Path) -> Iterator[Path]:
    """A folder for the SQLite files of a server that is killed with SIGKILL: in memory
    (/dev/shm) when the system has it, else `tmp_path`. What a killed process committed
    survives in the page cache exactly as it would on disk (only a power cut tells them
    apart, and no test cuts the power), so the test catches the same defects, without
    waiting for the disk at every commit (3-4 ms per fsync on this machine)."""
    shm = memory_folder()
    if shm is None:
        yield tmp_path
        return
    with tempfile.TemporaryDirectory(dir=shm, prefix="thermopylae-kill-") as folder:
        yield Path(folder)


@pytest.fixture(scope="module")
def sqlite_api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    """One in-process server per test module, on SQLite in memory-backed files when the
    system has them (/dev/shm): for tests about what is sent, not about what is kept,
    where waiting for the disk at every commit would only make them slow."""
    shm = memory_folder()
    if shm is not None:
        with tempfile.TemporaryDirectory(dir=shm, prefix="thermopylae-test-") as memory:
            yield from serve_in_process(f"sqlite:///{Path(memory) / 'tables.db'}")
    else:
        folder = tmp_path_factory.mktemp("sqlite")
        yield from serve_in_process(f"sqlite:///{folder / 'tables.db'}")


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A local HTTP receiver of webhooks (notify_helpers.receiving), stopped at the end."""
    with receiving() as r:
        yield r


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The app in this process on a fresh SQLite file, its AI seats in this process too
    (a test module may define a `client` of its own, which then serves it)."""
    app = create_app(db=f"sqlite:///{tmp_path / 't.db'}", ai=AiLimits(processes=False))
    with TestClient(app) as c:
        yield c
