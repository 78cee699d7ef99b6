"""Helpers for the server tests: the engine's account of a table (to check what the server
says), random play, WebSocket reads with a timeout, and server subprocesses."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
from starlette.testclient import TestClient, WebSocketTestSession

from tests.cli_helpers import entry_point
from thermopylae.engine import registry
from thermopylae.engine.protocol import CHANCE, Event
from thermopylae.server.ai_pool import AiLimits
from thermopylae.server.app import create_app
from thermopylae.server.live import LOG_KEPT
from thermopylae.server.messages import LOG_SENT
from thermopylae.server.store import Store

Response = httpx.Response | httpx2.Response
"""An answer of `Api`'s client: Starlette's TestClient now answers with httpx2's."""


def player_counts(game_id: str) -> range:
    """The player counts a game takes, as the registry says."""
    _title, lo, hi = registry.summary(game_id)
    return range(lo, hi + 1)


def game_counts() -> list[tuple[str, int]]:
    """Every registered game at every player count it takes."""
    return [(g, n) for g in registry.game_ids() for n in player_counts(g)]


def options_for(game_id: str, players: int) -> dict[str, Any]:
    """The options a client sends for `players` seats (none for a game of one count)."""
    return {} if len(player_counts(game_id)) == 1 else {"players": players}


def seat_names(game_id: str, players: int) -> list[str]:
    """The seats of a table of `players`, in the order of `game.seats` (what the server
    must list)."""
    g = registry.get(game_id)
    return list(g.seats(g.options(options_for(game_id, players))))


def seat_specs(kinds: str) -> list[dict[str, Any]]:
    """`"hAh"` -> human, AI (normal), human. Letters: h human, e/n/H AI easy/normal/hard."""
    level = {"e": "easy", "n": "normal", "A": "normal", "H": "hard"}
    return [{"kind": "human"} if k == "h" else {"kind": "ai", "level": level[k]} for k in kinds]


def jsonable(x: Any) -> Any:
    """What `x` looks like after a trip through JSON (tuples become lists, keys strings)."""
    return json.loads(json.dumps(x))


# -- the engine's account of a table -------------------------------------------------------


class Truth:
    """A table's steps replayed by the engine, forward only: the state after any move number
    and the events of every step, to compare with what the server sent."""

    def __init__(self, game_id: str, options: dict[str, Any], steps: list[list[str]]) -> None:
        self.game = registry.get(game_id)
        self.options = self.game.options(options)
        self.seats = list(self.game.seats(self.options))
        self.steps = [tuple(s) for s in steps]
        self.state = self.game.new(self.options)
        self.move = 0
        # (step number, event, its log line) of every step so far
        self.events: list[tuple[int, Event, str]] = []
        self.private: dict[int, set[str]] = {}  # the lines of events only one seat may see

    def at(self, move: int) -> Any:
        """The state after `move` steps (moves must be asked in increasing order)."""
        assert move >= self.move, f"Truth goes forward only ({self.move} -> {move})"
        assert move <= len(self.steps), f"move {move} is beyond the record's {len(self.steps)}"
        g = self.game
        while self.move < move:
            who, text = self.steps[self.move]
            to_act = g.to_act(self.state)
            assert to_act is not None, f"step {self.move + 1} comes after the game's end"
            assert who == ("chance" if to_act == CHANCE else self.seats[to_act])
            self.move += 1
            for e in g.apply(self.state, g.parse(text)):
                line = g.describe(e)
                self.events.append((self.move, e, line))
                if e.to is not None:
                    self.private.setdefault(e.to, set()).add(line)
        return self.state

    def seat_index(self, name: str | None) -> int | None:
        return None if name is None else self.seats.index(name)

    def log_lines(self, seat: int | None, since: int | None) -> list[str]:
        """The log a message at the current move should carry (see `Tables.message`)."""
        lines = [
            line
            for n, e, line in self.events[-LOG_KEPT:]
            if (since is None or n > since) and (e.to is None or e.to == seat)
        ]
        return lines[-LOG_SENT:] if since is None else lines

    def private_lines_of_others(self, seat: int | None) -> set[str]:
        """Log lines of events only another seat may see (e.g. `p2 drew 15` for p1)."""
        out: set[str] = set()
        for to, lines in self.private.items():
            if to != seat:
                out |= lines
        return out


def check_hidden(
    game_id: str, options: dict[str, Any], view: dict[str, Any], seat: str | None
) -> None:
    """No hand another seat holds and no deck's order or content is in `view`, whatever
    the engine's `view` says (an independent reading of each game's hidden information)."""
    if game_id == "thermopyles":
        for h in view["hands"]:
            if h["seat"] != seat and not options.get("open_hands"):
                assert h["cards"] is None, f"{seat} sees {h['seat']}'s hand"
            assert isinstance(h["count"], int)
            if h["cards"] is not None:
                assert len(h["cards"]) == h["count"]
        assert isinstance(view["spartan_deck"], int)
        assert isinstance(view["persian_deck"], int)
    elif game_id == "earth-and-water":
        for side, h in view["hands"].items():
            if h["cards"] is not None and side != seat:
                # Hippias: Persia looks at the Greek hand while it picks a card.
                assert (seat, side, view["phase"]) == ("persia", "greece", "choose"), (
                    f"{seat} sees {side}'s hand in phase {view['phase']}"
                )
            assert isinstance(h["count"], int)
        assert isinstance(view["draw_pile"], int)
    elif game_id == "hot-gates":
        for h in view["hands"]:
            if h["seat"] != seat:
                assert h["cards"] is None, f"{seat} sees {h['seat']}'s hand"
            assert isinstance(h["count"], int)
        assert all(isinstance(n, int) for n in view["decks"].values())
    else:  # pragma: no cover - a new game needs its own reading here
        raise AssertionError(f"no hidden-information check for {game_id}")


@dataclass
class Seen:
    """A message a seat (None: a spectator) was sent, and the move its log starts after."""

    seat: str | None
    since: int | None
    msg: dict[str, Any]
    channel: str  # "http" or "ws", for messages in failures


def check_messages(
    game_id: str, options: dict[str, Any], steps: list[list[str]], seen: list[Seen]
) -> int:
    """Every message is the engine's view of the true state at its move for its seat, with
    the seat's legal actions and exactly the log lines it may see. Returns the count."""
    truth = Truth(game_id, options, steps)
    g = truth.game
    for s in sorted(seen, key=lambda s: s.msg["move"]):
        m = s.msg
        where = f"{s.channel} message to {s.seat or 'a spectator'} at move {m['move']}"
        state = truth.at(m["move"])
        seat = truth.seat_index(s.seat)
        assert m["type"] == "update", where
        assert m["seat"] == s.seat, where
        assert m["view"] == jsonable(g.view(state, seat)), f"{where}: view differs"
        check_hidden(game_id, truth.options, m["view"], s.seat)
        to_act = g.to_act(state)
        assert m["to_act"] == (
            "chance" if to_act == CHANCE else None if to_act is None else truth.seats[to_act]
        ), where
        mine = seat is not None and to_act == seat
        assert m["your_turn"] is mine, where
        assert [x["action"] for x in m["legal"]] == (
            [g.format(a) for a in g.legal(state)] if mine else []
        ), f"{where}: legal differs"
        assert m["log"] == truth.log_lines(seat, s.since), f"{where}: log differs"
        leaked = truth.private_lines_of_others(seat) & set(m["log"])
        assert not leaked, f"{where}: private lines of other seats: {sorted(leaked)}"
        out = g.outcome(state)
        # English messages: the reason in words is the reason itself
        assert m["outcome"] == (
            None if out is None else jsonable({**out.to_json(), "reason_text": out.reason})
        ), where
    return len(seen)


# -- the API through a TestClient ---------------------------------------------------------


class Api:
    """The JSON API of one server (a TestClient or an httpx client on a live one)."""

    def __init__(self, client: TestClient | httpx.Client, db: str) -> None:
        self.client = client
        self.db = db
        self._store: Store | None = None

    @property
    def test_client(self) -> TestClient:
        """The in-process server's client (WebSockets)."""
        assert isinstance(self.client, TestClient)
        return self.client

    @property
    def store(self) -> Store:
        """The server's database, opened beside it (to count rows and read the steps)."""
        if self._store is None:
            self._store = Store(self.db)
        return self._store

    def steps(self, table: str) -> list[list[str]]:
        """The table's steps as stored: the truth the server's state is rebuilt from."""
        return [list(s) for s in self.store.steps(table)]

    def close(self) -> None:
        if self._store is not None:
            self._store.dispose()

    def create(
        self,
        game: str,
        options: dict[str, Any] | None = None,
        seats: list[dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"game": game}
        if options is not None:
            body["options"] = options
        if seats is not None:
            body["seats"] = seats
        r = self.client.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        out: dict[str, Any] = r.json()
        return out

    def view(self, table: str, token: str | None = None) -> dict[str, Any]:
        r = self.client.get(
            f"/api/tables/{table}", params={} if token is None else {"token": token}
        )
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out

    def act(self, table: str, token: str, move: int, action: str) -> Response:
        return self.client.post(
            f"/api/tables/{table}/actions", json={"token": token, "move": move, "action": action}
        )

    def record(self, table: str) -> dict[str, Any]:
        r = self.client.get(f"/api/tables/{table}/record")
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out


def serve_in_process(url: str, **settings: Any) -> Iterator[Api]:
    """A server on the database `url` in this process (FastAPI's TestClient). Its AI
    thinks in threads unless `ai` says otherwise: an in-process server is started by many
    tests, and worker processes cost each a second to start (the real `serve` processes
    of the tests, and tests/server/test_hardening.py, use the process pool)."""
    settings.setdefault("ai", AiLimits(processes=False))
    with TestClient(create_app(db=url, **settings)) as client:
        api = Api(client, url)
        yield api
        api.close()


def tokens_of(created: dict[str, Any]) -> dict[str, str]:
    return {s["seat"]: s["token"] for s in created["seats"] if s["token"]}


def play_random(
    api: Api,
    created: dict[str, Any],
    rng: random.Random,
    max_actions: int = 10_000,
    seen: list[Seen] | None = None,
) -> tuple[dict[str, Any], list[tuple[int, str, str]]]:
    """Play a table to the end (or `max_actions`) through POST .../actions, each human seat
    choosing at random among the legal actions the server lists. Returns the last answer
    and every accepted (move, seat, action); the answers are added to `seen`."""
    table = created["id"]
    tokens = tokens_of(created)
    m = api.view(table)
    played: list[tuple[int, str, str]] = []
    mine: dict[str, Any] | None = None
    while m["outcome"] is None and len(played) < max_actions:
        seat = m["to_act"]
        assert seat in tokens, f"the server waits for {seat}, which is no human seat"
        if mine is None or mine["seat"] != seat or mine["move"] != m["move"]:
            mine = api.view(table, tokens[seat])
        action = rng.choice(mine["legal"])["action"]
        r = api.act(table, tokens[seat], mine["move"], action)
        assert r.status_code == 200, r.text
        played.append((mine["move"], seat, action))
        m = mine = r.json()
        if seen is not None:
            seen.append(Seen(seat, played[-1][0], m, "http"))
    return m, played


def not_legal(game_id: str, legal: list[str]) -> str:
    """An action in the game's notation that parses but is not among `legal`."""
    g = registry.get(game_id)
    for i in range(g.num_actions):
        text: str = g.format(g.decode(i))
        if text not in legal and g.format(g.parse(text)) == text:
            return text
    raise AssertionError("every action is legal")


# -- WebSockets through a TestClient ------------------------------------------------------


def ws_receive(ws: WebSocketTestSession, timeout: float = 10.0) -> dict[str, Any]:
    """The next message from the server as JSON, failing after `timeout` seconds (the
    TestClient's own `receive_json` waits forever)."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    try:
        message = ws.portal.call(get)
    except TimeoutError:
        raise AssertionError(f"no WebSocket message within {timeout} s") from None
    if message["type"] == "websocket.close":
        raise Closed(message.get("code", 1000), message.get("reason", ""))
    assert message["type"] == "websocket.send", message
    out: dict[str, Any] = json.loads(message["text"])
    return out


def ws_silent(ws: WebSocketTestSession, seconds: float = 0.3) -> bool:
    """True if the server sends nothing for `seconds`."""
    try:
        ws_receive(ws, seconds)
    except AssertionError:
        return True
    return False


class Closed(Exception):
    def __init__(self, code: int, reason: str) -> None:
        super().__init__(f"closed {code} {reason}")
        self.code = code
        self.reason = reason


# -- server subprocesses ------------------------------------------------------------------

# Waiting for a process to get ready (a server start-up, a Redis, a table that plays on)
# is never a measure of speed: on a busy machine (2 cores, several test workers and other
# jobs) a start-up that takes 2 s when quiet can take a minute. So tests wait for the
# signal itself and the limit only catches a process that hangs; one that dies is
# reported at once. THERMOPYLAE_TEST_PATIENCE (seconds) sets another limit.
PATIENCE = float(os.environ.get("THERMOPYLAE_TEST_PATIENCE", "300"))
PROBE_TIMEOUT = 5.0  # one health request; a refused connection fails at once anyway


def wait_ready(
    proc: subprocess.Popen[bytes],
    ready: Callable[[], bool],
    output: Callable[[], str],
    limit: float = PATIENCE,
    what: str = "the process",
    every: float = 0.05,
) -> None:
    """Return once `ready()` is true. If `proc` exits first, fail at once with its exit
    status and `output()` (it is watched between probes, not only at a deadline); if it
    is not ready within `limit` seconds, kill it and fail with its output."""
    deadline = time.monotonic() + limit
    while True:
        if proc.poll() is not None:
            raise AssertionError(
                f"{what} exited with {proc.returncode} before it was ready:\n{output()}"
            )
        if ready():
            return
        if time.monotonic() > deadline:
            proc.kill()
            proc.wait(30)
            raise AssertionError(f"{what} did not get ready within {limit:g} s:\n{output()}")
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(every)  # returns at once if it exits meanwhile


def wait_until_over(
    client: Api | TestClient | httpx.Client, table_id: str, timeout: float = PATIENCE
) -> dict[str, Any]:
    """The spectator's view of a table once its game is over, polling
    GET /api/tables/{id}: a table of AI seats plays by itself, and may do so after the
    POST that created it has answered (the answer may be at move 0)."""
    http = client.client if isinstance(client, Api) else client
    deadline = time.monotonic() + timeout
    while True:
        r = http.get(f"/api/tables/{table_id}")
        assert r.status_code == 200, r.text
        m: dict[str, Any] = r.json()
        if m["outcome"] is not None:
            return m
        assert time.monotonic() < deadline, (
            f"table {table_id} is not over within {timeout:g} s (at move {m['move']})"
        )
        time.sleep(0.05)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Server:
    """`thermopylae serve` in a subprocess; `start`, `kill` (SIGKILL) and `start` again."""

    args: list[str]
    log: Path
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, limit: float | None = None, redis: bool = False) -> None:
        """Start the process and return once `/api/health` answers (with Redis connected
        when `redis`): see `wait_ready` for the limit and what a failure reports."""
        self.launch()
        self.wait_ready(limit, redis)

    def launch(self) -> None:
        """Start the process without waiting for it (`wait_ready` then): several servers
        start side by side."""
        assert self.proc is None or self.proc.poll() is not None, "already running"
        cmd = [*entry_point(), "serve", "--host", "127.0.0.1", "--port", str(self.port), *self.args]
        env = {**os.environ, "NO_COLOR": "1"}  # PYTHONPATH too: the tree under test
        with self.log.open("ab") as out:
            out.write(f"\n$ {' '.join(cmd)}\n".encode())
            out.flush()
            self.proc = subprocess.Popen(
                cmd, stdout=out, stderr=subprocess.STDOUT, env=env, stdin=subprocess.DEVNULL
            )

    def wait_ready(self, limit: float | None = None, redis: bool = False) -> None:
        assert self.proc is not None, "not launched"
        wait_ready(
            self.proc,
            lambda: self.healthy(redis),
            self.output,
            PATIENCE if limit is None else limit,
            what=f"the server on port {self.port}",
        )

    def healthy(self, redis: bool = False) -> bool:
        """`/api/health` answers 200 (and says Redis is connected, when `redis`)."""
        try:
            r = httpx.get(f"{self.url}/api/health", timeout=PROBE_TIMEOUT)
        except httpx.HTTPError:
            return False
        return r.status_code == 200 and (not redis or bool(r.json().get("redis")))

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flushing, as a power cut or the OOM killer would."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]


@contextmanager
def running(server: Server, redis: bool = False) -> Iterator[Server]:
    with all_running(server, redis=redis):
        yield server


@contextmanager
def all_running(
    *servers: Server, redis: bool = False, db: str | None = None
) -> Iterator[tuple[Server, ...]]:
    """The servers started side by side (one start-up's wait for them all, not one each),
    and stopped at the end. Servers that share the database `db` need its tables made
    first: two processes that create them at once on an empty PostgreSQL schema race
    (one exits: duplicate key in pg_type), so `db`'s tables are created here before."""
    if db is not None and len(servers) > 1:
        Store(db).dispose()
    try:
        for server in servers:
            server.launch()
        for server in servers:
            server.wait_ready(redis=redis)
        yield servers
    finally:
        for server in servers:
            server.stop()


class User:
    """One browser: its own cookie jar, over the one in-process client of the server."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.jar = type(client.cookies)()  # the cookie jar of the client's HTTP library

    def __getattr__(self, verb: str) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            self.client.cookies = self.jar
            try:
                r = getattr(self.client, verb)(*args, **kwargs)
            finally:
                self.jar = self.client.cookies
            return r

        return call


def run_async(coro: Any) -> Any:
    """Run a coroutine to its end on a fresh event loop in a thread of its own: a test
    worker that ran the browser tests has Playwright's loop running in this thread, where
    `asyncio.run` is refused."""
    import asyncio
    import threading

    out: dict[str, Any] = {}

    def main() -> None:
        try:
            out["value"] = asyncio.run(coro)
        except BaseException as exc:  # re-raised in the caller's thread
            out["error"] = exc

    thread = threading.Thread(target=main, name="run-async")
    thread.start()
    thread.join()
    if "error" in out:
        raise out["error"]
    return out.get("value")
