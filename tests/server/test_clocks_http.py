"""Clocks on the server: only the deciding seat is charged, deadlines are stored and
enforced by the timekeeper (forfeit, or a stand-in bot), late moves are refused, and the
clock survives a restart. Time is moved on by calling the timekeeper with a later time
(`tick(t=...)`) and by the background loop on deadlines that are due now."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from anyio.from_thread import BlockingPortal
from sqlalchemy import update
from starlette.testclient import TestClient

from thermopylae.server import timekeeper
from thermopylae.server.ai_pool import AiLimits
from thermopylae.server.app import create_app
from thermopylae.server.db import tables as db_tables

QUICK = AiLimits(processes=False, seconds=0.05, reply_wait=5.0)
LIVE = {"initial_s": 600, "increment_s": 10}


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'c.sqlite'}"


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db=db, ai=QUICK)) as c:
        yield c


def new_table(c: TestClient, clock: Any, seats: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"game": "earth-and-water", "clock": clock}
    if seats is not None:
        body["seats"] = seats
    r = c.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def view(c: TestClient, tid: str, token: str | None = None) -> dict[str, Any]:
    r = c.get(f"/api/tables/{tid}", params={"token": token} if token else {})
    assert r.status_code == 200, r.text
    return dict(r.json())


def mover(c: TestClient, created: dict[str, Any]) -> tuple[int, str]:
    tokens = [s["token"] for s in created["seats"]]
    for i, tok in enumerate(tokens):
        if tok and view(c, created["id"], tok)["your_turn"]:
            return i, tok
    raise AssertionError("nobody to move")


def play_one(c: TestClient, created: dict[str, Any]) -> dict[str, Any]:
    _seat, tok = mover(c, created)
    m = view(c, created["id"], tok)
    r = c.post(
        f"/api/tables/{created['id']}/actions",
        json={"token": tok, "move": m["move"], "action": m["legal"][0]["action"]},
    )
    assert r.status_code == 200, r.text
    return dict(r.json())


def keeper(c: TestClient) -> Any:
    return c.app.state.tables.timekeeper  # type: ignore[attr-defined]


def portal(c: TestClient) -> BlockingPortal:
    """The client's portal into the app's event loop (open while the client is)."""
    assert c.portal is not None
    return c.portal


def test_a_clock_is_refused_with_a_clear_text_when_absurd(client: TestClient) -> None:
    for clock, text in [
        ({"initial_s": 1}, "initial_s must be from"),
        ({"initial_s": 600, "increment_s": -1}, "increment_s"),
        ({"initial_s": 600, "cap_s": 60}, "cap_s must be at least initial_s"),
        ({"initial_s": 600, "on_timeout": "pause"}, "on_timeout"),
        ({"initial_s": 600, "speed": 2}, "unknown key"),
    ]:
        r = client.post("/api/tables", json={"game": "earth-and-water", "clock": clock})
        assert r.status_code == 422 and text in r.json()["detail"], (clock, r.text)


def test_only_the_seat_that_must_decide_is_charged(client: TestClient) -> None:
    created = new_table(client, LIVE)
    seat, _tok = mover(client, created)
    time.sleep(0.3)
    clock = view(client, created["id"])["clock"]
    assert clock["running"] == created["seats"][seat]["seat"]
    assert clock["remaining"][seat] < 600 - 0.25
    assert clock["remaining"][1 - seat] == 600  # the other seat's bank is untouched
    assert clock["deadline"] == pytest.approx(clock["now"] + clock["remaining"][seat], abs=0.05)


def test_the_turn_passing_gives_the_increment(client: TestClient) -> None:
    created = new_table(client, LIVE)
    first, _ = mover(client, created)
    while mover(client, created)[0] == first:
        msg = play_one(client, created)
    clock = msg["clock"]
    assert clock["remaining"][first] > 600  # 600 - a few ms + 10 s
    assert clock["running"] != created["seats"][first]["seat"]


def test_a_timeout_with_forfeit_ends_the_game_for_time(client: TestClient) -> None:
    created = new_table(client, LIVE)
    seat, tok = mover(client, created)
    deadline = view(client, created["id"])["clock"]["deadline"]
    assert portal(client).call(keeper(client).expire, created["id"], deadline - 1) is False
    assert portal(client).call(keeper(client).expire, created["id"], deadline) is True
    assert portal(client).call(keeper(client).expire, created["id"], deadline) is False  # once
    m = view(client, created["id"], tok)
    assert m["outcome"]["reason"] == "time"
    assert m["outcome"]["results"][seat] == "loss" and m["outcome"]["results"][1 - seat] == "win"
    assert m["to_act"] is None and m["legal"] == []
    r = client.post(
        f"/api/tables/{created['id']}/actions",
        json={"token": tok, "move": m["move"], "action": "pass"},
    )
    assert r.status_code == 409 and "over" in r.json()["detail"]
    record = client.get(f"/api/tables/{created['id']}/record").json()
    assert record["forfeit"] == {"seat": seat, "reason": "time"}
    assert record["outcome"]["reason"] == "time"


def assert_forfeited_on_time(store: Any, table_id: str) -> None:
    """The table is over, lost on time, within 5 s from now."""
    start = time.monotonic()
    while time.monotonic() - start < 5:
        if store.table(table_id).result is not None:
            break
        time.sleep(0.05)
    row = store.table(table_id)
    assert row.result is not None and row.result["reason"] == "time" and row.over


def test_the_background_timekeeper_enforces_a_deadline_nobody_watches(
    client: TestClient,
) -> None:
    created = new_table(client, LIVE)
    store = client.app.state.tables.store  # type: ignore[attr-defined]
    store.change(created["id"], {"deadline": time.time() + 0.5})  # runs out in half a second
    start = time.monotonic()
    assert_forfeited_on_time(store, created["id"])
    assert time.monotonic() - start < 1.5  # within a second of falling due


def test_a_deadline_written_by_hand_is_enforced_at_the_next_look_anyway(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alone on its database the timekeeper skips its look while no deadline it knows of
    is due, but still looks every `LOOK_ANYWAY` seconds: a row changed by hand (not through
    the store) is enforced then."""
    monkeypatch.setattr(timekeeper, "LOOK_ANYWAY", 0.5)
    created = new_table(client, LIVE)
    store = client.app.state.tables.store  # type: ignore[attr-defined]
    with store.engine.begin() as conn:  # behind the store's back: not noted
        conn.execute(
            update(db_tables).where(db_tables.c.id == created["id"]).values(deadline=time.time())
        )
    start = time.monotonic()
    assert_forfeited_on_time(store, created["id"])
    assert time.monotonic() - start < 1.5


def test_a_move_after_the_deadline_is_refused(client: TestClient) -> None:
    created = new_table(client, LIVE)
    _seat, tok = mover(client, created)
    live = portal(client).call(client.app.state.tables.get, created["id"])  # type: ignore[attr-defined]
    live.row = replace(live.row, deadline=time.time() - 0.2)  # seen here before the keeper
    m = view(client, created["id"], tok)
    r = client.post(
        f"/api/tables/{created['id']}/actions",
        json={"token": tok, "move": m["move"], "action": m["legal"][0]["action"]},
    )
    assert r.status_code == 409 and "time ran out" in r.json()["detail"], r.text
    assert view(client, created["id"], tok)["move"] == m["move"]  # nothing was played


def test_a_timeout_with_ai_lets_a_bot_play_until_the_player_is_back(client: TestClient) -> None:
    created = new_table(client, {**LIVE, "on_timeout": "ai"})
    seat, tok = mover(client, created)
    deadline = view(client, created["id"])["clock"]["deadline"]
    before = view(client, created["id"])["move"]
    assert portal(client).call(keeper(client).expire, created["id"], deadline) is True
    deadline_moved = time.monotonic()
    while time.monotonic() - deadline_moved < 10:
        spectator = view(client, created["id"])
        if spectator["move"] > before:
            break
        time.sleep(0.05)
    assert spectator["move"] > before  # the stand-in played
    assert spectator["seats"][seat]["standin"] is True
    assert spectator["outcome"] is None
    back = view(client, created["id"], tok)  # the player opens the table as the seat
    assert back["seats"][seat]["standin"] is False
    assert back["clock"]["remaining"][seat] > 59  # a tenth of the bank to go on with


def test_a_player_back_while_the_stand_in_thinks_keeps_the_move(client: TestClient) -> None:
    """The stand-in's move still being thought about when the player takes the seat back is
    dropped: the player, told it is their turn, is not overtaken by the bot."""
    created = new_table(client, {**LIVE, "on_timeout": "ai"})
    seat, tok = mover(client, created)
    tables = client.app.state.tables  # type: ignore[attr-defined]
    thinking, release = threading.Event(), threading.Event()
    real = tables.ai.think

    async def slow_think(*args: Any) -> str:
        thinking.set()
        await asyncio.to_thread(release.wait, 10)
        return str(await real(*args))

    tables.ai.think = slow_think
    before = view(client, created["id"])
    assert portal(client).call(keeper(client).expire, created["id"], before["clock"]["deadline"])
    assert thinking.wait(10)  # the bot is choosing the seat's move
    back = view(client, created["id"], tok)  # the player opens the table as the seat
    assert back["seats"][seat]["standin"] is False and back["your_turn"]
    release.set()
    time.sleep(0.5)  # long enough for the bot's move to be stored, were it kept
    after = view(client, created["id"], tok)
    assert after["move"] == before["move"] and after["your_turn"]


def test_the_clock_survives_a_restart(db: str) -> None:
    with TestClient(create_app(db=db, ai=QUICK)) as c:
        created = new_table(c, LIVE)
        play_one(c, created)
        before = view(c, created["id"])["clock"]
    with TestClient(create_app(db=db, ai=QUICK)) as c:
        after = view(c, created["id"])["clock"]
        assert after["deadline"] == before["deadline"]
        assert after["running"] == before["running"]
        assert after["remaining"][0] <= before["remaining"][0]
        assert portal(c).call(keeper(c).expire, created["id"], after["deadline"]) is True
        assert view(c, created["id"])["outcome"]["reason"] == "time"


def test_two_processes_on_postgresql_enforce_a_deadline_exactly_once(
    postgres: Any, redis_url: str
) -> None:
    url = postgres.new_url()
    apps = [create_app(db=url, redis=redis_url, ai=QUICK) for _ in range(2)]
    with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
        created = new_table(one, LIVE)
        view(two, created["id"])  # both processes hold the table
        enforced: list[int] = []
        for i, c in enumerate((one, two)):
            k = keeper(c)
            real = k.expire

            async def counted(tid: str, when: float, real: Any = real, i: int = i) -> bool:
                done: bool = await real(tid, when)
                if done:
                    enforced.append(i)
                return done

            k.expire = counted
        store = one.app.state.tables.store  # type: ignore[attr-defined]
        with store.engine.begin() as conn:
            conn.execute(
                update(db_tables)
                .where(db_tables.c.id == created["id"])
                .values(deadline=time.time() + 0.3)
            )
        start = time.monotonic()
        while time.monotonic() - start < 5 and store.table(created["id"]).result is None:
            time.sleep(0.05)
        time.sleep(0.6)  # both timekeepers have looked again since
        assert len(enforced) == 1
        assert store.table(created["id"]).result["reason"] == "time"
        for c in (one, two):
            assert view(c, created["id"])["outcome"]["reason"] == "time"
