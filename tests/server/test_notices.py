"""Notices as the tables cause them, on SQLite and PostgreSQL: over random games of every
game and player count, every notice is made of public facts only (its body is exactly the
one the game, table, seat and event give: never a hand, the deck or a token), "your turn"
comes once a turn; "time low" once; the settings page's test sends now."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update
from starlette.testclient import TestClient

from tests.server.conftest import BACKENDS, database_url
from tests.server.helpers import User, game_counts, options_for
from tests.server.notify_helpers import Receiver, receiving
from thermopylae.engine import registry
from thermopylae.server import notify
from thermopylae.server.ai_pool import AiLimits
from thermopylae.server.app import create_app
from thermopylae.server.db import notices
from thermopylae.server.db import tables as db_tables

QUICK = AiLimits(processes=False, seconds=0.05, reply_wait=5.0)
NAMES = ["Leonidas", "Gorgo", "Xerxes", "Artemisia"]


@pytest.fixture(params=BACKENDS)
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[TestClient, Receiver]]:
    url = database_url(request.param, request, tmp_path)
    with receiving() as hook:
        app = create_app(
            db=url, ai=QUICK, allow_private_webhooks=True, public_url="http://x.example"
        )
        with TestClient(app) as c:
            yield c, hook


def accounts(c: TestClient, hook: Receiver, n: int) -> list[User]:
    users = []
    for name in NAMES[:n]:
        u = User(c)
        r = u.post("/api/accounts", json={"name": name, "password": "a long secret"})
        assert r.status_code == 201, r.text
        csrf = r.json()["csrf"]
        r = u.put(
            "/api/me/notifications",
            json={"webhook": hook.url(f"/{name}")},
            headers={"X-CSRF-Token": csrf},
        )
        assert r.status_code == 200, r.text
        users.append(u)
    return users


def rows(c: TestClient, table: str | None = None) -> list[Any]:
    store = c.app.state.tables.store  # type: ignore[attr-defined]
    q = select(notices)
    if table is not None:
        q = q.where(notices.c.table_id == table)
    with store.engine.connect() as conn:
        return list(conn.execute(q.order_by(notices.c.id)))


def test_every_notice_of_random_games_is_made_of_public_facts_only(server: Any) -> None:
    c, hook = server
    users = accounts(c, hook, 4)
    rng = random.Random(18)
    for game_id, players in game_counts():
        if players < 2:
            continue
        g = registry.get(game_id)
        seats = [{"kind": "account", "name": NAMES[i]} for i in range(players)]
        r = users[0].post(
            "/api/tables",
            json={"game": game_id, "options": options_for(game_id, players), "seats": seats},
            headers={"X-CSRF-Token": users[0].get("/api/me").json()["csrf"]},
        )
        assert r.status_code == 201, r.text
        table = r.json()["id"]
        names = r.json()["seats"]
        by_seat = {s["seat"]: users[i] for i, s in enumerate(names)}
        turns = {s["seat"]: 0 for s in names}
        for _ in range(40):
            m = users[0].get(f"/api/tables/{table}").json()
            if m["to_act"] is None:
                break
            who = by_seat[m["to_act"]]
            mine = who.get(f"/api/tables/{table}").json()
            action = rng.choice(mine["legal"])["action"]
            csrf = who.get("/api/me").json()["csrf"]
            r = who.post(
                f"/api/tables/{table}/actions",
                json={"move": mine["move"], "action": action},
                headers={"X-CSRF-Token": csrf},
            )
            assert r.status_code == 200, r.text
        store = c.app.state.tables.store
        decisions = [who for who, _ in store.steps(table) if who != "chance"]
        for a, b in itertools.pairwise(decisions):
            if a != b:
                turns[b] += 1
        final = users[0].get(f"/api/tables/{table}").json()
        last = decisions[-1] if decisions else None
        if final["to_act"] not in (None, "chance") and final["to_act"] != last:
            turns[final["to_act"]] += 1
        got = rows(c, table)
        for row in got:
            body = dict(row.body)
            assert set(body) <= notify.BODY_KEYS
            expected = {
                "event": row.event,
                "game": game_id,
                "title": g.title,
                "table": table,
                "link": f"http://x.example/table/{table}",
                "seat": body["seat"],
                "text": notify.text(row.event, g.title, table, body["seat"], "en"),
            }
            assert body == expected, (game_id, body)
            assert body["seat"] in by_seat
        for seat, n in turns.items():
            mine = [r for r in got if r.event == "your_turn" and r.body["seat"] == seat]
            assert len(mine) == n, (game_id, players, seat)  # once a turn
        if final["to_act"] is None:
            assert len([r for r in got if r.event == "game_over"]) == players


def test_time_low_is_told_once(server: Any) -> None:
    c, hook = server
    u, _v = accounts(c, hook, 2)
    seats = [{"kind": "account", "name": NAMES[0]}, {"kind": "account", "name": NAMES[1]}]
    r = u.post(
        "/api/tables",
        json={"game": "earth-and-water", "seats": seats, "clock": {"initial_s": 600}},
        headers={"X-CSRF-Token": u.get("/api/me").json()["csrf"]},
    )
    table = r.json()["id"]
    store = c.app.state.tables.store
    row = store.table(table)
    assert row.low_at == pytest.approx(row.deadline - 60, abs=0.01)  # a tenth of 600 s left
    with store.engine.begin() as conn:
        conn.execute(update(db_tables).where(db_tables.c.id == table).values(low_at=time.time()))
    end = time.monotonic() + 5
    while time.monotonic() < end and store.table(table).low_at is not None:
        time.sleep(0.05)
    time.sleep(0.6)
    low = [r for r in rows(c, table) if r.event == "time_low"]
    assert len(low) == 1 and low[0].body["seat"] == "persia"
    end = time.monotonic() + 5
    while time.monotonic() < end and not any(p == "/Leonidas" for p, _ in hook.posts):
        time.sleep(0.05)
    assert [b["event"] for p, b in hook.posts if p == "/Leonidas"] == ["time_low"]


def test_the_test_button_sends_now_and_says_what_happened(server: Any) -> None:
    c, hook = server
    (u,) = accounts(c, hook, 1)
    csrf = u.get("/api/me").json()["csrf"]
    r = u.post("/api/me/notifications/test", headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200, r.text
    assert r.json()["sent"] == [
        {"status": "sent", "attempts": 1, "error": None, "channel": "webhook"}
    ]
    assert [b["event"] for p, b in hook.posts if p == "/Leonidas"] == ["test"]


def test_a_private_webhook_is_refused_without_the_flag(tmp_path: Path) -> None:
    with TestClient(create_app(db=f"sqlite:///{tmp_path / 'p.sqlite'}", ai=QUICK)) as c:
        u = User(c)
        csrf = u.post("/api/accounts", json={"name": "Cleomenes", "password": "a long secret"})
        token = csrf.json()["csrf"]
        r = u.put(
            "/api/me/notifications",
            json={"webhook": "http://127.0.0.1:9/hook"},
            headers={"X-CSRF-Token": token},
        )
        assert r.status_code == 422 and "127.0.0.1" in r.json()["detail"], r.text
        r = u.put(
            "/api/me/notifications",
            json={"email": "me@example.org"},
            headers={"X-CSRF-Token": token},
        )
        assert r.status_code == 422 and "email is off" in r.json()["detail"]
        assert u.get("/api/me").json()["email_available"] is False
