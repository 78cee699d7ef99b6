"""Faults (issue 8): the server under SIGKILL in the middle of concurrent play, with its
PostgreSQL stopped and started again under it, and with its Redis gone and back.

What is checked each time: every action answered 200 is in the table's record at its move
number; the record has no gap and replays through the engine; an action that was never
answered is either stored whole or not at all; an action refused (409, 503) is not stored;
a fault is answered with a clear status (503 with a `detail` naming the database), never a
500 and never a hang (every request has a timeout). See docs/reliability.md, "Faults"."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import subprocess
import time
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.cli_helpers import entry_point
from tests.reliability.fault_helpers import OwnPostgres, OwnRedis, check_record
from tests.server.conftest import BACKENDS, Postgres
from tests.server.conftest import kill_dir as kill_dir  # SQLite files of killed servers
from tests.server.conftest import postgres as postgres  # the shared PostgreSQL fixture
from tests.server.helpers import (
    PATIENCE,
    Api,
    Response,
    Seen,
    Server,
    all_running,
    check_messages,
    free_port,
    options_for,
    seat_specs,
    serve_in_process,
    tokens_of,
)
from thermopylae.engine import registry
from thermopylae.engine.record import Record, replay
from thermopylae.server.store import Store, StoreError

T = TypeVar("T")

TIMEOUT = 30.0  # seconds for any one request: a fault must never make the server hang
# Waits for progress (clients' acks, AI seats settling, health flipping) use PATIENCE, a
# limit that only catches a hang: on a busy machine they are slow, never wrong.

# -- 1. SIGKILL under load -------------------------------------------------------------------

# Tables played at once, each by CLIENTS racing for its moves: (game, seats).
LOAD = [
    ("thermopyles", "hh"),
    ("thermopyles", "hhh"),
    ("earth-and-water", "hh"),
    ("earth-and-water", "hA"),
    ("hot-gates", "hh"),
    ("hot-gates", "hAh"),
]
CLIENTS = 3


@dataclass
class Sent:
    """An action a client sent, and the status it was answered (None: never answered)."""

    table: str
    move: int
    seat: str
    action: str
    status: int | None = None


async def racer(
    client: httpx.AsyncClient,
    created: dict[str, Any],
    rng: random.Random,
    sent: list[Sent],
    errors: list[str],
    stop: asyncio.Event,
) -> None:
    """Plays the table's seats at random, as fast as the server answers, racing the other
    clients of the table for each move, until `stop`, the game's end or the server's death."""
    table = created["id"]
    tokens = tokens_of(created)
    try:
        while not stop.is_set():
            m = (await client.get(f"/api/tables/{table}")).json()
            if m["outcome"] is not None:
                return
            seat = m["to_act"]
            if seat not in tokens:  # AI or chance: they play by themselves
                await asyncio.sleep(0.01)
                continue
            r = await client.get(f"/api/tables/{table}", params={"token": tokens[seat]})
            mine = r.json()
            if not mine["your_turn"]:
                continue  # another client moved in between
            s = Sent(table, mine["move"], seat, rng.choice(mine["legal"])["action"])
            sent.append(s)
            r = await client.post(
                f"/api/tables/{table}/actions",
                json={"token": tokens[seat], "move": s.move, "action": s.action},
            )
            s.status = r.status_code
            if r.status_code not in (200, 409):  # 409: another client took the move
                errors.append(f"{r.status_code} {r.text}")
                return
    except httpx.TransportError:
        return  # the server died


async def load_then_kill(
    server: Server, tables: list[dict[str, Any]], acks: int, seed: int
) -> tuple[list[Sent], list[str]]:
    """Several clients per table play at once; once `acks` actions were answered 200, the
    server is killed with SIGKILL (clients still waiting for answers)."""
    sent: list[Sent] = []
    errors: list[str] = []
    stop = asyncio.Event()
    rng = random.Random(seed)
    limits = httpx.Limits(max_connections=len(tables) * CLIENTS)
    async with httpx.AsyncClient(base_url=server.url, timeout=TIMEOUT, limits=limits) as client:
        tasks = [
            asyncio.create_task(racer(client, t, random.Random(rng.random()), sent, errors, stop))
            for t in tables
            for _ in range(CLIENTS)
        ]
        deadline = time.monotonic() + PATIENCE
        while sum(s.status == 200 for s in sent) < acks and not errors:
            if all(t.done() for t in tasks):
                break
            assert time.monotonic() < deadline, "the clients made no progress"
            await asyncio.sleep(0.01)
        server.kill()
        stop.set()
        await asyncio.wait_for(asyncio.gather(*tasks), TIMEOUT)
    return sent, errors


def settle_database(store: Store, tables: list[dict[str, Any]], limit: float = 5.0) -> None:
    """Wait until the killed server's last transactions are done: PostgreSQL finishes a
    COMMIT it had received even when the client is gone, so a move may land just after
    the kill (it stands: it was whole). Two reads in a row that agree mean it is quiet."""
    end = time.monotonic() + limit
    last = None
    while time.monotonic() < end:
        counts = [len(store.steps(t["id"])) for t in tables]
        if counts == last:
            return
        last = counts
        time.sleep(0.3)


def check_after_kill(db: str, tables: list[dict[str, Any]], sent: list[Sent]) -> int:
    """With the server dead: each table's record is whole, every acknowledged action is in
    it, and every seat's step in it was sent and not refused. Returns the unanswered count."""
    store = Store(db)
    try:
        settle_database(store, tables)
        for t in tables:
            steps = [list(s) for s in store.steps(t["id"])]
            check_record(db, t, steps)
            mine = [s for s in sent if s.table == t["id"]]
            for s in mine:
                if s.status == 200:
                    assert steps[s.move] == [s.seat, s.action], f"lost ack {s}"
            # Every seat's step was sent by a client (a step is one row: whole, or absent)
            # and was not refused: acknowledged, or sent and never answered.
            humans = tokens_of(t)
            for n, (who, action) in enumerate(steps):
                if who in humans:
                    by = [s.status for s in mine if (s.move, s.seat, s.action) == (n, who, action)]
                    assert by, f"table {t['id']} move {n}: a step no client sent"
                    assert 200 in by or None in by, (
                        f"table {t['id']} move {n}: stored, yet refused {by}"
                    )
    finally:
        store.dispose()
    if db.startswith("sqlite"):
        with sqlite3.connect(db.removeprefix("sqlite:///")) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    return sum(s.status is None for s in sent)


def settle(client: httpx.Client, created: dict[str, Any], timeout: float = PATIENCE) -> None:
    """Wait until no AI and no chance must act at the table (they play by themselves)."""
    deadline = time.monotonic() + timeout
    while True:
        m = client.get(f"/api/tables/{created['id']}").json()
        if m["outcome"] is not None or m["to_act"] in tokens_of(created):
            return
        assert time.monotonic() < deadline, f"table {created['id']} waits for {m['to_act']}"
        time.sleep(0.05)


def run_in_own_loop(coro: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run` in a thread of its own: in the whole suite, a browser test may leave
    Playwright's event loop running in this worker's main thread, where asyncio.run is
    refused."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


@pytest.mark.parametrize("backend", BACKENDS)
def test_sigkill_under_concurrent_load(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path, kill_dir: Path
) -> None:
    """Three clients per table race for the moves of six tables; the server is killed with
    SIGKILL in the middle (on SQLite, the default path, twice: a kill after a restart too),
    and restarted on the same database each time."""
    if backend == "sqlite":
        db = f"sqlite:///{kill_dir / 'tables.db'}"
    else:
        pg: Postgres = request.getfixturevalue("postgres")
        db = pg.new_url()
    server = Server(["--db", db], tmp_path / "server.log")
    rng = random.Random(8)
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=TIMEOUT) as client:
            api = Api(client, db)
            tables = [api.create(g, options_for(g, len(k)), seat_specs(k)) for g, k in LOAD]
            all_sent: list[Sent] = []
            for round_ in range(2 if backend == "sqlite" else 1):
                sent, errors = run_in_own_loop(
                    load_then_kill(server, tables, rng.randrange(30, 60), seed=round_)
                )
                assert not errors, errors  # before the kill: only 200 and 409 answers
                assert sum(s.status == 200 for s in sent) > 0
                all_sent += sent
                check_after_kill(db, tables, all_sent)
                server.start()
            # The kills came mid-stream: some actions were sent and never answered.
            assert any(s.status is None for s in all_sent)
            # Restarted: each table serves what its record gives, and plays on.
            for t in tables:
                settle(client, t)
                steps = api.steps(t["id"])
                seen = [Seen(None, None, api.view(t["id"]), "http")]
                seen += [
                    Seen(s, None, api.view(t["id"], tok), "http") for s, tok in tokens_of(t).items()
                ]
                assert seen[0].msg["move"] == len(steps)
                check_messages(t["game"], t["options"], steps, seen)
                for _ in range(3):
                    m = api.view(t["id"])
                    if m["outcome"] is not None:
                        rec = api.record(t["id"])
                        assert rec["steps"] == api.steps(t["id"])
                        assert replay(registry.get(t["game"]), Record.from_json(rec)).ok
                        break
                    tok = tokens_of(t)[m["to_act"]]
                    mine = api.view(t["id"], tok)
                    r = api.act(t["id"], tok, mine["move"], rng.choice(mine["legal"])["action"])
                    assert r.status_code == 200, r.text
                    settle(client, t)
            api.close()
    finally:
        server.stop()
    assert "Traceback" not in server.output(), server.output()


# -- 2. PostgreSQL stopped and started again under a running server --------------------------


@pytest.fixture
def own_postgres() -> Iterator[OwnPostgres]:
    pg = OwnPostgres()
    try:
        pg.start()
        yield pg
    finally:
        pg.close()


def act_once(
    client: httpx.Client, created: dict[str, Any], pick: int = 0
) -> tuple[httpx.Response, tuple[int, str, str]]:
    """The seat that must act plays its `pick`-th legal action (wrapping around)."""
    table = created["id"]
    m = client.get(f"/api/tables/{table}").json()
    seat = m["to_act"]
    tok = tokens_of(created)[seat]
    mine = client.get(f"/api/tables/{table}", params={"token": tok}).json()
    action = mine["legal"][pick % len(mine["legal"])]["action"]
    r = client.post(
        f"/api/tables/{table}/actions", json={"token": tok, "move": mine["move"], "action": action}
    )
    return r, (mine["move"], seat, action)


def assert_unavailable(r: Response) -> str:
    assert r.status_code == 503, f"{r.status_code} {r.text}"
    detail = r.json()["detail"]
    assert isinstance(detail, str) and "database is unavailable" in detail, detail
    return detail


def assert_nothing_stored(r: httpx.Response) -> None:
    detail = assert_unavailable(r)
    assert "nothing was stored" in detail or "was not stored" in detail, detail


def test_database_stopped_and_started_under_a_running_server(
    own_postgres: OwnPostgres, tmp_path: Path
) -> None:
    """The server's PostgreSQL stops (fast, then immediate shutdown) while the server runs:
    actions are refused with 503 naming the database, nothing refused is stored, reads of
    tables held in memory still work; once PostgreSQL is back the same server process
    accepts actions again, and every acknowledged action is there."""
    db = own_postgres.url
    server = Server(["--db", db], tmp_path / "server.log")
    server.start()
    pid = server.proc.pid if server.proc else None
    rng = random.Random(3)
    try:
        with httpx.Client(base_url=server.url, timeout=TIMEOUT) as client:
            api = Api(client, db)
            tables = [
                api.create("thermopyles", {"players": 2}, seat_specs("hh")),
                api.create("earth-and-water", {}, seat_specs("hA")),
            ]
            acks: dict[str, list[tuple[int, str, str]]] = {t["id"]: [] for t in tables}

            def play(n: int) -> None:
                for t in tables:
                    for _ in range(n):
                        settle(client, t)
                        r, sent = act_once(client, t, rng.randrange(100))
                        assert r.status_code == 200, r.text
                        acks[t["id"]].append(sent)
                    settle(client, t)

            play(3)
            for mode in ("fast", "immediate"):
                moves = {
                    t["id"]: client.get(f"/api/tables/{t['id']}").json()["move"] for t in tables
                }
                own_postgres.stop(mode)
                for t in tables:
                    table = t["id"]
                    r, (move, _seat, _a) = act_once(client, t, rng.randrange(100))
                    assert_nothing_stored(r)
                    assert move == moves[table]
                    # Reads: from memory (this process holds the table), or a clear 503.
                    for tok in [None, *tokens_of(t).values()]:
                        got = client.get(
                            f"/api/tables/{table}", params={} if tok is None else {"token": tok}
                        )
                        assert got.status_code in (200, 503), got.text
                        if got.status_code == 200:
                            assert got.json()["move"] == moves[table]
                        else:
                            assert_unavailable(got)
                    r = client.get(f"/api/tables/{table}/record")
                    assert r.status_code in (409, 503), r.text  # the game is not over
                # A table this process does not hold cannot be looked up: 503, not 404.
                assert_unavailable(client.get("/api/tables/NotInMemory"))
                r = client.post(
                    "/api/tables", json={"game": "thermopyles", "options": {"players": 2}}
                )
                assert_nothing_stored(r)
                assert client.get("/api/health").status_code == 200
                # WebSockets: a held table is shown from memory; another is refused (503).
                with connect(
                    f"{server.ws_url}/ws/tables/{tables[0]['id']}", open_timeout=TIMEOUT
                ) as ws:
                    m = json.loads(ws.recv(timeout=TIMEOUT))
                    assert m["type"] == "update" and m["move"] == moves[tables[0]["id"]], m
                with connect(f"{server.ws_url}/ws/tables/NotInMemory", open_timeout=TIMEOUT) as ws:
                    m = json.loads(ws.recv(timeout=TIMEOUT))
                    assert (m["type"], m["status"]) == ("error", 503), m
                    assert "database is unavailable" in m["detail"], m

                own_postgres.start()
                # Nothing refused was stored: each table is where it was.
                store = Store(db)
                try:
                    for t in tables:
                        assert len(store.steps(t["id"])) == moves[t["id"]]
                finally:
                    store.dispose()
                # The same process (not restarted) takes actions again, at once.
                assert server.proc is not None and server.proc.pid == pid
                assert server.proc.poll() is None
                play(2)

            for t in tables:
                steps = api.steps(t["id"])
                check_record(db, t, steps)
                humans = tokens_of(t)
                stored = [(n, who, a) for n, (who, a) in enumerate(steps) if who in humans]
                assert stored == acks[t["id"]]  # every ack, and nothing else by a seat
            api.close()
    finally:
        server.stop()
    assert "Traceback" not in server.output(), server.output()
    # A server started while the database is down says so and stops (no traceback).
    own_postgres.stop("immediate")
    run = subprocess.run(
        [*entry_point(), "serve", "--port", str(free_port()), "--db", db],
        capture_output=True,
        text=True,
        timeout=PATIENCE,
        stdin=subprocess.DEVNULL,
    )
    assert run.returncode == 2, run.stderr
    assert "error: cannot open the database" in run.stderr and "Traceback" not in run.stderr


def test_an_acknowledged_action_stands_when_the_ai_cannot_be_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database fails after a seat's action is stored and before the AI's answer is:
    the seat is told 200 (its action is stored: a 503 would say it was not), and the AI
    plays by itself once the database is back."""
    failing = {"on": False, "refused": 0}
    append = Store.append

    def flaky(
        self: Store, table_id: str, start: int, new: list[tuple[str, str]], over: bool, *rest: Any
    ) -> None:
        if failing["on"] and all(who != "persia" for who, _a in new):  # the AI's reply
            failing["refused"] += 1
            raise StoreError("the database is unavailable: (test) connection refused")
        append(self, table_id, start, new, over, *rest)

    monkeypatch.setattr(Store, "append", flaky)
    with contextmanager(serve_in_process)(f"sqlite:///{tmp_path / 'tables.db'}") as api:
        created = api.create("earth-and-water", {}, seat_specs("hA"))
        table = created["id"]
        tok = tokens_of(created)["persia"]
        failing["on"] = True
        rng = random.Random(5)
        for _ in range(200):
            mine = api.view(table, tok)
            assert mine["your_turn"], mine["to_act"]
            r = api.act(table, tok, mine["move"], rng.choice(mine["legal"])["action"])
            assert r.status_code == 200, r.text
            assert api.steps(table)[mine["move"]][0] == "persia"
            if failing["refused"]:
                break
        assert failing["refused"], "the AI never had to answer"
        stuck = api.view(table)
        assert stuck["to_act"] != "persia" and stuck["move"] == len(api.steps(table))
        failing["on"] = False
        # The retry plays the AI's moves one commit at a time: the record is read once it
        # is done (a human must act, or the game is over), not while it still writes.
        deadline = time.monotonic() + PATIENCE
        while (now := api.view(table))["outcome"] is None and now["to_act"] != "persia":
            assert time.monotonic() < deadline, "the AI never played once the db was back"
            time.sleep(0.05)
        assert now["move"] > stuck["move"]
        steps = api.steps(table)
        assert len(steps) == now["move"]
        check_record(api.db, created, steps)


def test_a_commit_of_unknown_outcome_is_told_and_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The connection dies during the commit, after the database wrote the step: the seat
    is told 503 saying the action may or may not have been stored (not that it was not),
    and the server reads the table again, so it serves the stored step."""
    append = Store.append
    lost = {"on": False}

    def dies_in_commit(
        self: Store, table_id: str, start: int, new: list[tuple[str, str]], over: bool, *rest: Any
    ) -> None:
        append(self, table_id, start, new, over, *rest)
        if lost["on"]:
            lost["on"] = False
            raise StoreError(
                "the database is unavailable: (test) connection lost in commit", maybe_stored=True
            )

    monkeypatch.setattr(Store, "append", dies_in_commit)
    with contextmanager(serve_in_process)(f"sqlite:///{tmp_path / 'tables.db'}") as api:
        created = api.create("thermopyles", {"players": 2}, seat_specs("hh"))
        table = created["id"]
        seat = api.view(table)["to_act"]
        tok = tokens_of(created)[seat]
        mine = api.view(table, tok)
        action = mine["legal"][0]["action"]
        lost["on"] = True
        r = api.act(table, tok, mine["move"], action)
        detail = assert_unavailable(r)
        assert "may or may not have been stored" in detail, detail
        steps = api.steps(table)
        assert steps[mine["move"]] == [seat, action]
        assert api.view(table)["move"] == len(steps)  # the server read the table again
        again = api.act(table, tok, mine["move"], action)  # a retry: stale, changes nothing
        assert again.status_code == 409, again.text
        assert api.steps(table) == steps
        check_record(api.db, created, steps)


# -- 3. Redis gone and back under two server processes ---------------------------------------


class Socket:
    """A WebSocket to one server process, and the latest update it was sent."""

    def __init__(
        self,
        stack: ExitStack,
        server: Server,
        table: str,
        seat: str | None,
        token: str | None,
        seen: list[Seen],
    ) -> None:
        query = "" if token is None else f"?token={token}"
        self.ws: ClientConnection = stack.enter_context(
            connect(f"{server.ws_url}/ws/tables/{table}{query}", open_timeout=TIMEOUT)
        )
        self.seat = seat
        self.seen = seen
        self.where = f"ws to {server.port}"
        self.last: int | None = None
        self.latest = self.receive(TIMEOUT)

    def receive(self, timeout: float) -> dict[str, Any]:
        m: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        assert m["type"] == "update", m
        self.seen.append(Seen(self.seat, self.last, m, self.where))
        self.last = m["move"]
        self.latest = m
        return m

    def until(self, move: int, timeout: float = TIMEOUT) -> None:
        """Updates are read until the one at `move` (fails after `timeout` seconds)."""
        deadline = time.monotonic() + timeout
        while self.latest["move"] < move:
            left = deadline - time.monotonic()
            assert left > 0, f"{self.where}: no update at move {move}"
            try:
                self.receive(left)
            except TimeoutError:
                raise AssertionError(
                    f"{self.where}: no update at move {move} (at {self.latest['move']})"
                ) from None
        assert self.latest["move"] == move, (self.latest["move"], move)


def wait_health(server: Server, redis: bool, timeout: float = PATIENCE) -> None:
    deadline = time.monotonic() + timeout
    while httpx.get(f"{server.url}/api/health", timeout=TIMEOUT).json()["redis"] is not redis:
        assert time.monotonic() < deadline, f"{server.url}: redis never {redis} in health"
        time.sleep(0.1)


def test_redis_gone_and_back_under_two_processes(postgres: Postgres, tmp_path: Path) -> None:
    """Two processes share a database and a Redis of the test's own, which is killed: both
    still take and store actions, each tells its own WebSockets; once Redis is back the
    missed moves reach the other process's sockets without any new action, and pushes
    across processes go on."""
    redis = OwnRedis(tmp_path / "redis.log")
    redis.start()
    db = postgres.new_url()
    args = ["--db", db, "--redis", redis.url]
    try:
        with (
            all_running(
                Server(args, tmp_path / "one.log"),
                Server(args, tmp_path / "two.log"),
                redis=True,
                db=db,
            ) as (one, two),
            httpx.Client(base_url=one.url, timeout=TIMEOUT) as c1,
            httpx.Client(base_url=two.url, timeout=TIMEOUT) as c2,
            ExitStack() as stack,
        ):
            api = Api(c1, db)
            created = api.create("earth-and-water")
            table = created["id"]
            tokens = tokens_of(created)
            home = {"persia": (one, c1), "greece": (two, c2)}  # each seat's process
            seen: list[Seen] = []
            sockets = {
                seat: Socket(stack, home[seat][0], table, seat, tokens[seat], seen)
                for seat in tokens
            }
            watch1 = Socket(stack, one, table, None, None, seen)
            watch2 = Socket(stack, two, table, None, None, seen)
            local = {one.port: watch1, two.port: watch2}
            rng = random.Random(11)
            acks: list[tuple[int, str, str]] = []

            def step(every: list[Socket]) -> tuple[int, Server]:
                """The seat that must act plays through its own process's HTTP API; the
                sockets in `every` must be told."""
                m = c1.get(f"/api/tables/{table}").json()
                seat = m["to_act"]
                server, client = home[seat]
                mine = client.get(f"/api/tables/{table}", params={"token": tokens[seat]}).json()
                assert mine["move"] == m["move"], "the two processes disagree"
                action = rng.choice(mine["legal"])["action"]
                r = client.post(
                    f"/api/tables/{table}/actions",
                    json={"token": tokens[seat], "move": mine["move"], "action": action},
                )
                assert r.status_code == 200, r.text
                acks.append((mine["move"], seat, action))
                move: int = r.json()["move"]
                for s in every:
                    s.until(move)
                return move, server

            all_sockets = [*sockets.values(), watch1, watch2]
            for _ in range(4):
                step(all_sockets)

            redis.stop()
            wait_health(one, False)
            wait_health(two, False)
            # Degraded: both processes take actions and tell their own sockets.
            acted = set()
            for _ in range(16):
                move, server = step([])
                local[server.port].until(move)
                acted.add(server.port)
                if len(acted) == 2 and len(acks) >= 10:
                    break
            assert acted == {one.port, two.port}, "the game stayed on one process"
            last = move
            steps = api.steps(table)
            assert len(steps) == last
            for n, seat, action in acks:
                assert steps[n] == [seat, action]
            # Both processes serve the whole table (they read the database before answering).
            v1, v2 = c1.get(f"/api/tables/{table}").json(), c2.get(f"/api/tables/{table}").json()
            assert v1 == v2 and v1["move"] == last

            redis.start()
            wait_health(one, True)
            wait_health(two, True)
            # What a socket missed reaches it now, with no new action.
            for s in all_sockets:
                s.until(last)
            # And pushes across processes go on.
            for _ in range(4):
                step(all_sockets)
            steps = api.steps(table)
            check_record(db, created, steps)
            for n, seat, action in acks:
                assert steps[n] == [seat, action]
            check_messages("earth-and-water", created["options"], steps, seen)
            api.close()
        for server in (one, two):
            assert "Traceback" not in server.output(), server.output()
    finally:
        redis.stop()
