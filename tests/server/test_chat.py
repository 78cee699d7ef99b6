"""A table's chat: only seats write, spectators read when the terms let them, text is
bounded and stored as typed, a seat's rate is limited, muted accounts are left out, and
screens (in this process and another) are told the chat grew through `chat_last`."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.server.conftest import BACKENDS, database_url
from tests.server.helpers import User, ws_receive
from thermopylae.server import chat
from thermopylae.server.ai_pool import AiLimits
from thermopylae.server.app import create_app
from thermopylae.server.store import Store

QUICK = AiLimits(processes=False, seconds=0.05, reply_wait=5.0)
GAME = "earth-and-water"


@pytest.fixture(params=BACKENDS)
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db=database_url(request.param, request, tmp_path), ai=QUICK)) as c:
        yield c


def store(c: Any) -> Store:
    s: Store = c.app.state.tables.store
    return s


def create(c: Any, seats: Any = None, headers: Any = None) -> tuple[str, list[str | None]]:
    body: dict[str, Any] = {"game": GAME}
    if seats is not None:
        body["seats"] = seats
    r = c.post("/api/tables", json=body, headers=headers or {})
    assert r.status_code == 201, r.text
    return r.json()["id"], [s["token"] for s in r.json()["seats"]]


def say(c: Any, tid: str, text: Any, token: str | None, headers: Any = None) -> Any:
    body: dict[str, Any] = {"text": text}
    if token is not None:
        body["token"] = token
    return c.post(f"/api/tables/{tid}/chat", json=body, headers=headers or {})


def read(c: Any, tid: str, token: str | None = None, **params: Any) -> Any:
    if token is not None:
        params["token"] = token
    return c.get(f"/api/tables/{tid}/chat", params=params)


def texts(r: Any) -> list[str]:
    assert r.status_code == 200, r.text
    return [m["text"] for m in r.json()["messages"]]


def test_seats_write_and_read_the_text_as_typed(client: TestClient) -> None:
    tid, (persia, greece) = create(client)
    typed = "  <b>good luck</b> & 'may the dice' — ⚔ γεια  "
    r = say(client, tid, typed, persia)
    assert r.status_code == 201, r.text
    assert r.json()["seat"] == "persia"
    assert say(client, tid, "thanks", greece).status_code == 201
    r = read(client, tid, greece)
    msgs = r.json()["messages"]
    assert [m["text"] for m in msgs] == [typed.strip(), "thanks"]
    assert [m["seat"] for m in msgs] == ["persia", "greece"]
    assert [m["player"] for m in msgs] == [None, None]  # guest seats
    assert msgs[0]["id"] < msgs[1]["id"] and msgs[0]["at"] <= msgs[1]["at"]
    assert texts(read(client, tid, persia, after=msgs[0]["id"])) == ["thanks"]
    assert texts(read(client, tid, persia, limit=1)) == [typed.strip()]
    view = client.get(f"/api/tables/{tid}").json()
    assert view["chat_last"] == msgs[1]["id"]


def test_spectators_never_write_and_read_only_when_the_terms_say(client: TestClient) -> None:
    tid, (persia, _greece) = create(client)
    assert say(client, tid, "hello", persia).status_code == 201
    r = say(client, tid, "hello from the stands", None)
    assert r.status_code == 403 and "only the players" in r.json()["detail"]
    r = read(client, tid)
    assert r.status_code == 403 and "players only" in r.json()["detail"]
    assert store(client).change(tid, {"spectator_chat": True})
    client.app.state.tables.live.pop(tid, None)  # type: ignore[attr-defined]
    assert texts(read(client, tid)) == ["hello"]
    assert say(client, tid, "still not", None).status_code == 403
    assert say(client, tid, "a wrong seat", "not-a-token").status_code == 403


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty"),
        (" \t ", "empty"),
        ("x" * (chat.MAX_TEXT + 1), "at most 500"),
        ("bell\x07", "U+0007"),
        ("two\nlines", "U+000A"),
        ("evil \u202e txt.exe", "U+202E"),
        ("nul\x00", "U+0000"),
        (42, "string"),
        ("y" * (4 * chat.MAX_TEXT + 1), "text"),
    ],
)
def test_a_bad_text_is_refused_naming_what_is_wrong(text: Any, words: str, tmp_path: Path) -> None:
    with TestClient(create_app(db=f"sqlite:///{tmp_path / 'c.db'}", ai=QUICK)) as c:
        tid, (persia, _g) = create(c)
        r = say(c, tid, text, persia)
        assert r.status_code == 422, r.text
        assert words in r.json()["detail"]
        assert chat.last_id(store(c), tid) == 0


def test_the_longest_message_and_unknown_fields(tmp_path: Path) -> None:
    with TestClient(create_app(db=f"sqlite:///{tmp_path / 'c.db'}", ai=QUICK)) as c:
        tid, (persia, _g) = create(c)
        assert say(c, tid, "é" * chat.MAX_TEXT, persia).status_code == 201
        r = c.post(f"/api/tables/{tid}/chat", json={"text": "hi", "token": persia, "seat": 1})
        assert r.status_code == 422 and "seat" in r.json()["detail"]
        assert read(c, tid, persia, limit=0).status_code == 422
        assert read(c, tid, persia, after=-1).status_code == 422
        assert c.get("/api/tables/nosuch/chat").status_code == 404


def test_a_seat_posts_at_most_five_messages_in_ten_seconds(client: TestClient) -> None:
    tid, (persia, greece) = create(client)
    for i in range(chat.RATE_COUNT):
        assert say(client, tid, f"spam {i}", persia).status_code == 201
    r = say(client, tid, "one more", persia)
    assert r.status_code == 429
    assert "at most 5 messages in 10 s" in r.json()["detail"]
    assert 1 <= int(r.headers["Retry-After"]) <= 10
    assert say(client, tid, "my turn to speak", greece).status_code == 201  # per seat
    assert len(texts(read(client, tid, greece))) == chat.RATE_COUNT + 1
    # the window slides: messages older than ten seconds no longer count
    t0 = time.time()
    mid = chat.post(store(client), tid, 0, None, "later", t0 + chat.RATE_WINDOW + 1)
    assert mid > 0


def sign_up(u: User, name: str) -> dict[str, str]:
    r = u.post("/api/accounts", json={"name": name, "password": "a long secret"})
    assert r.status_code == 201, r.text
    return {"X-CSRF-Token": r.json()["csrf"]}


def test_muted_accounts_are_left_out_for_whoever_muted_them(client: TestClient) -> None:
    a, b, guest = User(client), User(client), User(client)
    ha, hb = sign_up(a, "Xerxes"), sign_up(b, "Themistocles")
    seats = [{"kind": "account", "name": "Xerxes"}, {"kind": "account", "name": "Themistocles"}]
    tid, _tokens = create(a, seats, ha)
    assert say(a, tid, "surrender", None).status_code == 403  # a login needs its CSRF header
    assert say(a, tid, "surrender", None, ha).status_code == 201
    assert say(b, tid, "come and take them", None, hb).status_code == 201
    msgs = read(a, tid).json()["messages"]
    assert [m["player"] for m in msgs] == ["Xerxes", "Themistocles"]
    r = a.put("/api/me/mutes/themistocles", headers=ha)
    assert r.status_code == 200 and r.json() == {"mutes": ["Themistocles"]}
    assert texts(read(a, tid)) == ["surrender"]
    assert texts(read(b, tid)) == ["surrender", "come and take them"]  # only for Xerxes
    assert a.get("/api/me/mutes").json() == {"mutes": ["Themistocles"]}
    assert a.put("/api/me/mutes/Themistocles", headers=ha).json() == {"mutes": ["Themistocles"]}
    assert a.delete("/api/me/mutes/Themistocles", headers=ha).json() == {"mutes": []}
    assert texts(read(a, tid)) == ["surrender", "come and take them"]
    # refusals: no login, no CSRF header, an unknown name, oneself
    assert guest.get("/api/me/mutes").status_code == 401
    assert guest.put("/api/me/mutes/Xerxes").status_code == 401
    assert a.put("/api/me/mutes/Themistocles").status_code == 403
    r = a.put("/api/me/mutes/Nobody", headers=ha)
    assert r.status_code == 404 and "Nobody" in r.json()["detail"]
    r = a.put("/api/me/mutes/Xerxes", headers=ha)
    assert r.status_code == 422 and "yourself" in r.json()["detail"]


def test_a_watching_screen_is_told_the_chat_grew(tmp_path: Path) -> None:
    with TestClient(create_app(db=f"sqlite:///{tmp_path / 'c.db'}", ai=QUICK)) as c:
        tid, (persia, greece) = create(c)
        with c.websocket_connect(f"/ws/tables/{tid}?token={greece}") as ws:
            assert ws_receive(ws)["chat_last"] == 0
            mid = say(c, tid, "hi", persia).json()["id"]
            assert ws_receive(ws)["chat_last"] == mid
        c.app.state.tables.live.pop(tid, None)  # type: ignore[attr-defined]
        assert c.get(f"/api/tables/{tid}").json()["chat_last"] == mid  # loaded with the table


def test_another_process_learns_of_a_message_through_redis(postgres: Any, redis_url: str) -> None:
    url = postgres.new_url()
    apps = [create_app(db=url, redis=redis_url, ai=QUICK) for _ in range(2)]
    with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
        tid, (persia, greece) = create(one)
        assert two.get(f"/api/tables/{tid}").json()["chat_last"] == 0  # two holds it
        with two.websocket_connect(f"/ws/tables/{tid}?token={greece}") as ws:
            ws_receive(ws)
            mid = say(one, tid, "hello over there", persia).json()["id"]
            assert ws_receive(ws)["chat_last"] == mid
        assert texts(read(two, tid, greece)) == ["hello over there"]
        for _ in range(chat.RATE_COUNT - 1):  # the rate is counted in the database
            assert say(two, tid, "again", persia).status_code == 201
        assert say(one, tid, "and again", persia).status_code == 429
