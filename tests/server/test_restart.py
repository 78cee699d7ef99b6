"""Durability (issue 5): `thermopylae serve` is killed with SIGKILL in the middle of several
games played at once over HTTP, then started again on the same database (SQLite in a data
folder, and PostgreSQL). Every action the server acknowledged with a 200 is there at its
move number, every table serves exactly the state its stored steps give, AI seats and chance
carry on by themselves, and the games play on to the end with records that replay."""

from __future__ import annotations

import random
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.cli_helpers import entry_point
from tests.server.conftest import BACKENDS, Postgres
from tests.server.helpers import (
    PATIENCE,
    Api,
    Seen,
    Server,
    Truth,
    check_messages,
    free_port,
    options_for,
    seat_specs,
    tokens_of,
)
from thermopylae.engine import registry
from thermopylae.engine.protocol import CHANCE
from thermopylae.engine.record import Record, replay

# Tables played at once when the server is killed: (game, seats).
PLANS = [
    ("thermopyles", "hh"),
    ("thermopyles", "hAh"),
    ("earth-and-water", "hh"),
    ("earth-and-water", "hA"),
    ("hot-gates", "Ah"),
    ("hot-gates", "hAhA"),
]
assert {g for g, _ in PLANS} == set(registry.game_ids()), "every game needs its plans"
ACKS_BEFORE_KILL = 80
REQUEST = 60.0  # seconds for one request: only a hung server takes that long

Ack = tuple[int, str, str]  # (move number, seat, action) answered with 200


class Player(threading.Thread):
    """Plays one table's human seats at random over HTTP until the server dies (or the game
    ends), keeping every acknowledged action."""

    def __init__(
        self, url: str, created: dict[str, Any], seed: int, limit: int = 1_000_000
    ) -> None:
        super().__init__(daemon=True)
        self.limit = limit
        self.url = url
        self.created = created
        self.tokens = tokens_of(created)
        self.rng = random.Random(seed)
        self.acks: list[Ack] = []
        self.last_answer: int | None = None  # the move in the last 200 answer
        self.in_flight: Ack | None = None  # sent, never answered
        self.ended = ""
        self.stop = threading.Event()

    def run(self) -> None:
        table = self.created["id"]
        with httpx.Client(base_url=self.url, timeout=REQUEST) as client:
            try:
                while not self.stop.is_set():
                    if len(self.acks) >= self.limit:
                        self.ended = "enough"
                        return
                    m = client.get(f"/api/tables/{table}").json()
                    if m["outcome"] is not None:
                        self.ended = "game over"
                        return
                    seat = m["to_act"]
                    mine = client.get(
                        f"/api/tables/{table}", params={"token": self.tokens[seat]}
                    ).json()
                    action = self.rng.choice(mine["legal"])["action"]
                    self.in_flight = (mine["move"], seat, action)
                    r = client.post(
                        f"/api/tables/{table}/actions",
                        json={"token": self.tokens[seat], "move": mine["move"], "action": action},
                    )
                    if r.status_code != 200:
                        self.ended = f"refused: {r.status_code} {r.text}"
                        return
                    self.acks.append(self.in_flight)
                    self.in_flight = None
                    self.last_answer = r.json()["move"]
            except httpx.HTTPError as exc:
                self.ended = f"server gone: {type(exc).__name__}"


def settle(
    api: Api, table: str, humans: dict[str, str], timeout: float = PATIENCE
) -> dict[str, Any]:
    """The spectator's view once no AI and no chance must act (they play by themselves)."""
    deadline = time.monotonic() + timeout
    while True:
        m = api.view(table)
        if m["outcome"] is not None or m["to_act"] in humans:
            return m
        assert time.monotonic() < deadline, f"table {table} waits for {m['to_act']} forever"
        time.sleep(0.05)


def a_step_before_the_ai(api: Api, created: dict[str, Any]) -> tuple[int, str, str, bool]:
    """A human action after which an AI seat or chance must act, as the server would store
    it: (move, seat, action, game over)."""
    truth = Truth(created["game"], created["options"], api.steps(created["id"]))
    state = truth.at(len(truth.steps))
    g = truth.game
    seat = g.to_act(state)
    assert seat is not None and seat != CHANCE
    assert truth.seats[seat] in tokens_of(created)
    for a in g.legal(state):
        after = g.copy(state)
        g.apply(after, a, quiet=True)
        nxt = g.to_act(after)
        if nxt == CHANCE or (nxt is not None and truth.seats[nxt] not in tokens_of(created)):
            return truth.move, truth.seats[seat], g.format(a), g.outcome(after) is not None
    raise AssertionError("no action hands the turn to the AI or to chance")


@pytest.mark.parametrize("backend", BACKENDS)
def test_kill_in_the_middle_and_restart(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path, kill_dir: Path
) -> None:
    if backend == "sqlite":
        data = kill_dir / "data"
        args = ["--data-dir", str(data)]
        db = f"sqlite:///{data / 'tables.db'}"
    else:
        pg: Postgres = request.getfixturevalue("postgres")
        db = pg.new_url()
        args = ["--db", db]
    server = Server(args, tmp_path / "server.log")
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=REQUEST) as client:
            api = Api(client, db)
            tables = [api.create(g, options_for(g, len(k)), seat_specs(k)) for g, k in PLANS]
            # A table whose human has played and whose AI has not yet when the server dies
            # (made below by storing the human's step as the server does).
            pending = api.create("thermopyles", {"players": 2}, seat_specs("hA"))
            players = [Player(server.url, t, i) for i, t in enumerate(tables)]
            for p in players:
                p.start()
            deadline = time.monotonic() + PATIENCE  # only a hang: the machine may be busy
            while sum(len(p.acks) for p in players) < ACKS_BEFORE_KILL:
                assert time.monotonic() < deadline, [p.ended for p in players]
                assert all(p.is_alive() or p.ended == "game over" for p in players), [
                    p.ended for p in players
                ]
                time.sleep(0.01)
            server.kill()
            for p in players:
                p.stop.set()
                p.join(PATIENCE)
                assert not p.is_alive()
                assert p.ended.startswith("server gone") or p.ended == "game over", p.ended

            # While the server is dead: every acknowledged action is in the database.
            for p in players:
                steps = api.steps(p.created["id"])
                assert p.last_answer is None or len(steps) >= p.last_answer
                for move, seat, action in p.acks:
                    assert steps[move] == [seat, action], (p.created["game"], move)
                if p.in_flight is not None:  # sent, never answered: stored whole, or not at all
                    move, seat, action = p.in_flight
                    assert len(steps) == move or steps[move] == [seat, action]
            move, seat, action, over = a_step_before_the_ai(api, pending)
            api.store.append(pending["id"], move, [(seat, action)], over)
            api.close()

            server.start()
            # Every table is served as its steps give it; AI seats and chance carry on.
            for t in [*tables, pending]:
                humans = tokens_of(t)
                settle(api, t["id"], humans)
                steps = api.steps(t["id"])
                seen = [Seen(None, None, api.view(t["id"]), "http")]
                seen += [Seen(s, None, api.view(t["id"], tok), "http") for s, tok in humans.items()]
                assert seen[0].msg["move"] == len(steps)
                check_messages(t["game"], t["options"], steps, seen)
            after = api.steps(pending["id"])
            assert after[move] == [seat, action] and len(after) > move + 1
            assert all(who not in tokens_of(pending) for who, _a in after[move + 1 :])
            # A retry of an acknowledged action is refused as stale, and changes nothing.
            for p in players:
                if p.acks:
                    m, s, a = p.acks[-1]
                    before = api.steps(p.created["id"])
                    r = api.act(p.created["id"], p.tokens[s], m, a)
                    assert r.status_code == 409, r.text
                    assert api.steps(p.created["id"]) == before

            # The games go on, on the restarted server: to the end (300: The Board Game's
            # long games for 30 more actions), and their records replay.
            again = [
                Player(server.url, t, 100 + i, 30 if t["game"] == "hot-gates" else 1_000_000)
                for i, t in enumerate([*tables, pending])
            ]
            for p in again:
                p.start()
            for p in again:
                p.join(PATIENCE)
                assert p.ended in ("game over", "enough"), p.ended
            before_kill: list[list[Ack]] = [p.acks for p in players] + [[]]
            for acks, q in zip(before_kill, again, strict=True):
                t = q.created
                steps = api.steps(t["id"])
                for m, s, a in acks + q.acks:
                    assert steps[m] == [s, a]
                if q.ended == "game over":
                    rec = api.record(t["id"])
                    assert rec["steps"] == steps
                    assert replay(registry.get(t["game"]), Record.from_json(rec)).ok
            api.close()
    finally:
        server.stop()
    assert "Traceback" not in server.output(), server.output()


def test_serve_names_a_database_it_cannot_open(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "folder" / "tables.db"
    r = subprocess.run(
        [*entry_point(), "serve", "--port", str(free_port()), "--db", f"sqlite:///{missing}"],
        capture_output=True,
        text=True,
        timeout=PATIENCE,
        stdin=subprocess.DEVNULL,
    )
    assert r.returncode == 2
    assert "error: cannot open the database" in r.stderr
    assert "Traceback" not in r.stderr
