"""Scale (issue 5): two `thermopylae serve` processes share one PostgreSQL database and
fan table updates out through Redis. A table's seats are connected to different processes
(real WebSockets, the `websockets` client); each seat plays through the process it is
connected to, and each socket is told the other's moves (a spectator asking for patches
too). Two processes racing for the same move store it once."""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.server.conftest import Postgres
from tests.server.helpers import (
    Api,
    Seen,
    Server,
    all_running,
    check_messages,
    tokens_of,
)
from thermopylae.server import patches

WAIT = 60.0  # seconds for a request or an update: only a hung server takes that long


@pytest.fixture(scope="module")
def pair(
    postgres: Postgres, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Server, Server, str]]:
    """Two server processes on one PostgreSQL schema and one Redis."""
    db = postgres.new_url()
    folder = tmp_path_factory.mktemp("scale")
    args = ["--db", db, "--redis", redis_url]
    with all_running(
        Server(args, folder / "one.log"), Server(args, folder / "two.log"), redis=True, db=db
    ) as (one, two):
        yield one, two, db
    for server in (one, two):
        assert "Traceback" not in server.output(), server.output()


class Socket:
    """A seat's WebSocket to one server process, and every update it was sent."""

    def __init__(
        self,
        stack: ExitStack,
        server: Server,
        table: str,
        seat: str | None,
        token: str | None,
        seen: list[Seen],
        *,
        as_patches: bool = False,
    ) -> None:
        query = "?patches=1" if as_patches else "?patches=0"
        query += "" if token is None else f"&token={token}"
        self.ws: ClientConnection = stack.enter_context(
            connect(f"{server.ws_url}/ws/tables/{table}{query}", open_timeout=WAIT)
        )
        self.server = server
        self.seat = seat
        self.seen = seen
        self.as_patches = as_patches
        self.last: int | None = None
        self.latest: dict[str, Any] = {}
        self.latest = self.receive()

    def receive(self) -> dict[str, Any]:
        m: dict[str, Any] = json.loads(self.ws.recv(timeout=WAIT))
        if self.as_patches and self.latest:  # rebuilt on the socket's last update
            assert m["type"] == "patch", m
            m = patches.apply(self.latest, m)
        assert m["type"] == "update", m
        self.seen.append(Seen(self.seat, self.last, m, f"ws to {self.server.port}"))
        self.last = m["move"]
        self.latest = m
        return m

    def until(self, move: int) -> dict[str, Any]:
        """Read until the update at `move` arrives (the other process's move included)."""
        while self.latest["move"] < move:
            self.receive()
        assert self.latest["move"] == move, (self.latest["move"], move)
        return self.latest


def test_seats_on_two_processes_see_each_others_moves(pair: tuple[Server, Server, str]) -> None:
    one, two, db = pair
    with (
        httpx.Client(base_url=one.url, timeout=WAIT) as c1,
        httpx.Client(base_url=two.url, timeout=WAIT) as c2,
        ExitStack() as stack,
    ):
        created = Api(c1, db).create("earth-and-water")
        table = created["id"]
        tokens = tokens_of(created)
        seen: list[Seen] = []
        home = {"persia": (one, c1), "greece": (two, c2)}  # each seat's process
        sockets = {
            seat: Socket(stack, home[seat][0], table, seat, tokens[seat], seen) for seat in tokens
        }
        spectator = Socket(stack, two, table, None, None, seen)
        # a spectator of the other process, asking for patches: its updates rebuilt from
        # them are checked with the others' (check_messages) and against the plain one's
        patched = Socket(stack, one, table, None, None, seen, as_patches=True)
        rng = random.Random(4)
        acted = dict.fromkeys(tokens, 0)
        move = sockets["persia"].latest["move"]
        for n in range(60):
            if min(acted.values()) >= 3:
                break
            seat = sockets["persia"].latest["to_act"]
            mine = sockets[seat].latest
            assert mine["your_turn"] and mine["move"] == move
            action = rng.choice(mine["legal"])["action"]
            if n % 2:  # through the WebSocket of the seat's process ...
                sockets[seat].ws.send(
                    json.dumps({"type": "action", "move": move, "action": action})
                )
                while not (
                    sockets[seat].latest["move"] > move
                    and (
                        sockets[seat].latest["to_act"] in tokens
                        or sockets[seat].latest["outcome"] is not None
                    )
                ):
                    sockets[seat].receive()
                move = sockets[seat].latest["move"]
            else:  # ... or through its HTTP API
                r = home[seat][1].post(
                    f"/api/tables/{table}/actions",
                    json={"token": tokens[seat], "move": move, "action": action},
                )
                assert r.status_code == 200, r.text
                move = r.json()["move"]
            acted[seat] += 1
            for s in [*sockets.values(), spectator, patched]:  # both processes tell everyone
                s.until(move)
            assert {**patched.latest, "log": None} == {**spectator.latest, "log": None}
        assert min(acted.values()) >= 3
        # Both processes serve the same table.
        assert c1.get(f"/api/tables/{table}").json() == c2.get(f"/api/tables/{table}").json()
        api = Api(c1, db)
        check_messages("earth-and-water", created["options"], api.steps(table), seen)
        api.close()


def test_two_processes_racing_for_a_move_store_it_once(pair: tuple[Server, Server, str]) -> None:
    """The same seat sends the same move number to both processes at once: one action is
    stored and answered 200, the other is refused with 409 (stale move, or the database's
    refusal of a second step at that number), and the game goes on on both."""
    one, two, db = pair
    with (
        httpx.Client(base_url=one.url, timeout=WAIT) as c1,
        httpx.Client(base_url=two.url, timeout=WAIT) as c2,
    ):
        clients = (c1, c2)
        api = Api(c1, db)
        created = api.create("thermopyles", {"players": 2})
        table = created["id"]
        tokens = tokens_of(created)
        c2.get(f"/api/tables/{table}")  # the second process holds the table too
        rng = random.Random(9)
        fresh = c1  # a process that knows the table's current move: the last winner
        for _round in range(8):
            m = fresh.get(f"/api/tables/{table}").json()
            if m["outcome"] is not None:
                break
            seat = m["to_act"]
            mine = fresh.get(f"/api/tables/{table}", params={"token": tokens[seat]}).json()
            legal = [x["action"] for x in mine["legal"]]
            picks = [rng.choice(legal), rng.choice(legal)]
            barrier = threading.Barrier(2)
            answers: list[httpx.Response | None] = [None, None]

            def post(
                i: int,
                seat: str = seat,
                move: int = mine["move"],
                barrier: threading.Barrier = barrier,
                answers: list[httpx.Response | None] = answers,
                picks: list[str] = picks,
            ) -> None:
                barrier.wait()
                answers[i] = clients[i].post(
                    f"/api/tables/{table}/actions",
                    json={"token": tokens[seat], "move": move, "action": picks[i]},
                )

            threads = [threading.Thread(target=post, args=(i,)) for i in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(WAIT)
            got = [a.status_code if a is not None else None for a in answers]
            assert sorted(got, key=str) == [200, 409], [a.text for a in answers if a]
            winner = got.index(200)
            steps = api.steps(table)
            assert steps[mine["move"]] == [seat, picks[winner]]
            answer = answers[winner]
            assert answer is not None and answer.json()["move"] == len(steps)
            fresh = clients[winner]
        api.close()


def test_a_process_serves_moves_made_through_the_other(pair: tuple[Server, Server, str]) -> None:
    one, two, db = pair
    with (
        httpx.Client(base_url=one.url, timeout=WAIT) as c1,
        httpx.Client(base_url=two.url, timeout=WAIT) as c2,
    ):
        created = Api(c1, db).create("thermopyles", {"players": 2})
        table = created["id"]
        tokens = tokens_of(created)
        before = c2.get(f"/api/tables/{table}").json()  # the second process loads it
        seat = before["to_act"]
        mine = c1.get(f"/api/tables/{table}", params={"token": tokens[seat]}).json()
        r = c1.post(
            f"/api/tables/{table}/actions",
            json={
                "token": tokens[seat],
                "move": mine["move"],
                "action": mine["legal"][0]["action"],
            },
        )
        assert r.status_code == 200
        # No wait for Redis: the second process reads the new steps before it answers.
        after = c2.get(f"/api/tables/{table}").json()
        assert after["move"] == r.json()["move"]
        assert after == c1.get(f"/api/tables/{table}").json()
