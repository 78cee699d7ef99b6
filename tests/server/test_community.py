"""The community over HTTP: public tables with open seats listed in the lobby and joined
in one request, the game and its clock waiting for the last seat, resigning, rematches
with sides swapped or kept, and the quick-match queue (on SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert
from starlette.testclient import TestClient

from tests.server.conftest import BACKENDS, database_url
from tests.server.helpers import User
from thermopylae.server.account_store import Accounts
from thermopylae.server.ai_pool import AiLimits
from thermopylae.server.app import create_app
from thermopylae.server.db import ratings
from thermopylae.server.names import name_key

QUICK = AiLimits(processes=False, seconds=0.05, reply_wait=2.0)
EW = "earth-and-water"


ON_BOTH = pytest.mark.parametrize("app", BACKENDS, indirect=True)
"""The tests that also run on PostgreSQL (the others: SQLite only, to keep the suite short)."""


@pytest.fixture(params=["sqlite"])  # PostgreSQL too where a test asks (ON_BOTH)
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    return create_app(db=database_url(request.param, request, tmp_path), ai=QUICK)


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


def player(c: TestClient, name: str) -> User:
    u = User(c)
    r = u.post("/api/accounts", json={"name": name, "password": "a long secret"})
    assert r.status_code == 201, r.text
    u.csrf = {"X-CSRF-Token": r.json()["csrf"]}  # type: ignore[attr-defined]
    return u


def post(u: User, path: str, body: Any) -> Any:
    return u.post(path, json=body, headers=u.csrf)


def open_table(u: User, name: str, public: bool = True, **more: Any) -> str:
    body = {
        "game": EW,
        "seats": [{"kind": "account", "name": name}, {"kind": "open"}],
        "public": public,
        **more,
    }
    r = post(u, "/api/tables", body)
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def listed(c: TestClient | User) -> list[dict[str, Any]]:
    r = c.get("/api/tables", params={"open": 1})
    assert r.status_code == 200, r.text
    return list(r.json()["tables"])


def play(u: User, tid: str) -> Any:
    m = u.get(f"/api/tables/{tid}").json()
    return post(
        u, f"/api/tables/{tid}/actions", {"move": m["move"], "action": m["legal"][0]["action"]}
    )


def test_a_public_table_lists_its_open_seat_with_who_waits(client: TestClient) -> None:
    alice = player(client, "alice")
    tid = open_table(alice, "alice", clock={"initial_s": 600, "increment_s": 10})
    (entry,) = listed(User(client))  # a guest sees the lobby too
    assert entry["id"] == tid and entry["game"] == EW and entry["open_seats"] == ["greece"]
    assert entry["players"] == [{"seat": "persia", "player": "alice"}]
    assert entry["clock"]["initial_s"] == 600 and entry["rated"] is False


def test_a_private_table_is_not_listed_but_joins_by_its_link(client: TestClient) -> None:
    alice, bob = player(client, "alice"), player(client, "bob")
    tid = open_table(alice, "alice", public=False)
    assert listed(client) == []
    r = post(bob, f"/api/tables/{tid}/join", {"seat": "greece"})
    assert r.status_code == 200, r.text


@ON_BOTH
def test_the_game_and_its_clock_wait_for_the_last_open_seat(client: TestClient) -> None:
    alice, bob = player(client, "alice"), player(client, "bob")
    tid = open_table(alice, "alice", clock={"initial_s": 600, "increment_s": 10})
    seen = alice.get(f"/api/tables/{tid}").json()
    assert seen["open_seats"] == ["greece"] and not seen["your_turn"] and seen["legal"] == []
    assert seen["clock"] is None  # no bank runs before the game starts
    r = post(alice, f"/api/tables/{tid}/actions", {"move": 0, "action": "anything"})
    assert r.status_code == 409 and "waiting for players: greece" in r.json()["detail"]

    r = post(bob, f"/api/tables/{tid}/join", {"seat": "greece"})
    assert r.status_code == 200 and r.json()["seat"] == "greece"
    assert listed(client) == []  # full: no longer open
    seen = alice.get(f"/api/tables/{tid}").json()
    assert seen["open_seats"] == [] and seen["your_turn"]
    assert seen["clock"]["running"] == "persia"
    assert seen["seats"][1]["player"] == "bob"
    assert play(alice, tid).status_code == 200


def test_joining_is_refused_in_words_for_guests_taken_seats_and_twice(
    client: TestClient,
) -> None:
    alice, bob, carol = player(client, "alice"), player(client, "bob"), player(client, "carol")
    tid = open_table(alice, "alice")
    r = User(client).post(f"/api/tables/{tid}/join", json={"seat": "greece"})
    assert r.status_code == 401 and "log in" in r.json()["detail"]
    r = post(alice, f"/api/tables/{tid}/join", {"seat": "greece"})
    assert r.status_code == 409 and "you already play persia" in r.json()["detail"]
    r = post(bob, f"/api/tables/{tid}/join", {"seat": "sparta"})
    assert r.status_code == 422 and "seats: persia, greece" in r.json()["detail"]
    assert post(bob, f"/api/tables/{tid}/join", {"seat": "greece"}).status_code == 200
    r = post(carol, f"/api/tables/{tid}/join", {"seat": "greece"})
    assert r.status_code == 409 and "taken" in r.json()["detail"]
    r = bob.post(f"/api/tables/{tid}/join", json={"seat": "greece"})  # no CSRF header
    assert r.status_code == 403


def test_the_lobby_lists_only_open_tables(client: TestClient) -> None:
    r = client.get("/api/tables")
    assert r.status_code == 422 and "query.open" in r.json()["detail"]


def test_a_rated_table_must_be_between_accounts_and_not_co_operative(
    client: TestClient,
) -> None:
    alice = player(client, "alice")
    r = post(alice, "/api/tables", {"game": EW, "rated": True})
    assert r.status_code == 422 and "between accounts" in r.json()["detail"]
    r = post(alice, "/api/tables", {"game": "thermopyles", "rated": True})
    assert r.status_code == 422 and "co-operative" in r.json()["detail"]
    r = post(
        alice,
        "/api/tables",
        {
            "game": EW,
            "rated": True,
            "seats": [{"kind": "account", "name": "alice"}, {"kind": "open"}],
        },
    )
    assert r.status_code == 201
    assert r.json()["terms"] == {
        "public": False,
        "rated": True,
        "takebacks": False,  # off by default in a rated game
        "spectator_chat": False,
        "hints": False,  # never in a rated game
    }


def full_table(alice: User, bob: User, **more: Any) -> str:
    tid = open_table(alice, "alice", **more)
    assert post(bob, f"/api/tables/{tid}/join", {"seat": "greece"}).status_code == 200
    return tid


def test_resigning_ends_the_game_and_the_side_loses(client: TestClient) -> None:
    alice, bob = player(client, "alice"), player(client, "bob")
    tid = full_table(alice, bob)
    r = post(bob, f"/api/tables/{tid}/resign", {})
    assert r.status_code == 200 and r.json()["resigned"] == "greece"
    seen = alice.get(f"/api/tables/{tid}").json()
    assert seen["outcome"]["results"] == ["win", "loss"]
    assert seen["outcome"]["reason"] == "resigned"
    r = post(alice, f"/api/tables/{tid}/resign", {})
    assert r.status_code == 409 and "over" in r.json()["detail"]
    r = User(client).post(f"/api/tables/{tid}/resign", json={})
    assert r.status_code == 403
    finished = alice.get("/api/me").json()["tables"]["finished"]
    assert [t["id"] for t in finished] == [tid]


def test_resigning_answers_a_pending_takeback_request(client: TestClient) -> None:
    alice, bob = player(client, "alice"), player(client, "bob")
    tid = full_table(alice, bob)
    assert play(alice, tid).status_code == 200
    r = post(alice, f"/api/tables/{tid}/takeback", {"action": "request"})
    assert r.status_code == 200, r.text
    assert bob.get(f"/api/tables/{tid}").json()["takeback"]["seat"] == "persia"
    post(bob, f"/api/tables/{tid}/resign", {})
    assert alice.get(f"/api/tables/{tid}").json()["takeback"] is None


@ON_BOTH
def test_a_rematch_with_sides_swapped_is_offered_and_accepted(client: TestClient) -> None:
    alice, bob = player(client, "alice"), player(client, "bob")
    tid = full_table(alice, bob, clock={"initial_s": 600, "increment_s": 10})
    r = post(alice, f"/api/tables/{tid}/rematch", {"action": "offer"})
    assert r.status_code == 409 and "once the game is over" in r.json()["detail"]
    post(bob, f"/api/tables/{tid}/resign", {})

    r = post(alice, f"/api/tables/{tid}/rematch", {"action": "offer", "swap": True})
    assert r.status_code == 200, r.text
    offer = bob.get(f"/api/tables/{tid}").json()["rematch"]
    assert offer == {"by": "persia", "swap": True, "table": None, "declined": False}
    r = post(alice, f"/api/tables/{tid}/rematch", {"action": "accept"})
    assert r.status_code == 409 and "another player" in r.json()["detail"]

    r = post(bob, f"/api/tables/{tid}/rematch", {"action": "accept"})
    assert r.status_code == 200, r.text
    new = r.json()["rematch"]["table"]
    assert alice.get(f"/api/tables/{tid}").json()["rematch"]["table"] == new
    seen = bob.get(f"/api/tables/{new}").json()
    assert [s["player"] for s in seen["seats"]] == ["bob", "alice"]  # sides swapped
    assert seen["your_turn"] and seen["seat"] == "persia"
    assert seen["clock"]["control"]["initial_s"] == 600  # the same time control
    r = post(bob, f"/api/tables/{tid}/rematch", {"action": "accept"})
    assert r.status_code == 409  # made once


def test_a_rematch_may_be_declined_or_keep_the_sides(client: TestClient) -> None:
    alice, bob = player(client, "alice"), player(client, "bob")
    tid = full_table(alice, bob)
    post(alice, f"/api/tables/{tid}/resign", {})
    post(bob, f"/api/tables/{tid}/rematch", {"action": "offer", "swap": False})
    r = post(alice, f"/api/tables/{tid}/rematch", {"action": "decline"})
    assert r.status_code == 200 and r.json()["rematch"]["declined"] is True
    r = post(alice, f"/api/tables/{tid}/rematch", {"action": "offer", "swap": False})
    new = post(bob, f"/api/tables/{tid}/rematch", {"action": "accept"}).json()["rematch"]["table"]
    seats = alice.get(f"/api/tables/{new}").json()["seats"]
    assert [s["player"] for s in seats] == ["alice", "bob"]
    r = post(bob, f"/api/tables/{tid}/rematch", {"action": "shake hands"})
    assert r.status_code == 422


def test_a_guest_table_has_no_rematch_but_says_why(client: TestClient) -> None:
    created = client.post("/api/tables", json={"game": EW}).json()
    tok = created["seats"][0]["token"]
    client.post(f"/api/tables/{created['id']}/resign", json={"token": tok})
    r = client.post(f"/api/tables/{created['id']}/rematch", json={"action": "offer", "token": tok})
    assert r.status_code == 422 and "between accounts" in r.json()["detail"]


def test_a_rematch_against_a_bot_is_made_at_once(client: TestClient) -> None:
    alice = player(client, "alice")
    r = post(
        alice,
        "/api/tables",
        {
            "game": EW,
            "seats": [{"kind": "account", "name": "alice"}, {"kind": "ai", "level": "easy"}],
        },
    )
    tid = r.json()["id"]
    post(alice, f"/api/tables/{tid}/resign", {})
    r = post(alice, f"/api/tables/{tid}/rematch", {"action": "offer", "swap": True})
    new = r.json()["rematch"]["table"]
    seats = alice.get(f"/api/tables/{new}").json()["seats"]
    assert seats[0]["kind"] == "ai" and seats[1]["player"] == "alice"


@ON_BOTH
def test_quick_match_pairs_compatible_requests(client: TestClient) -> None:
    alice, bob, carol = player(client, "alice"), player(client, "bob"), player(client, "carol")
    ask = {"game": EW, "clock": "correspondence", "side": "persia"}
    r = post(alice, "/api/match", ask)
    assert r.status_code == 200 and r.json()["status"] == "waiting"
    r = post(carol, "/api/match", ask)  # persia too: no fit
    assert r.json()["status"] == "waiting"
    r = post(bob, "/api/match", {**ask, "side": "any"})
    assert r.json()["status"] == "matched"
    tid = r.json()["table"]
    seen = bob.get(f"/api/tables/{tid}").json()
    assert [s["player"] for s in seen["seats"]] == ["alice", "bob"]  # alice asked first
    assert seen["terms"]["rated"] is True
    assert seen["clock"]["control"]["initial_s"] == 259200
    assert alice.get("/api/match").json() == {"status": "matched", "table": tid}
    assert carol.get("/api/match").json()["status"] == "waiting"
    assert carol.delete("/api/match", headers=carol.csrf).json() == {"status": "none"}


def test_quick_match_prefers_the_closest_rating(client: TestClient, app: Any) -> None:
    names = ["weak", "strong", "near"]
    users = {n: player(client, n) for n in names}
    store = app.state.tables.store
    ids = {n: Accounts(store).by_key(name_key(n)).id for n in names}  # type: ignore[union-attr]
    engine = store.engine
    with engine.begin() as conn:
        for n, mu in (("weak", 10.0), ("strong", 40.0), ("near", 26.0)):
            conn.execute(
                insert(ratings).values(
                    subject=f"account:{ids[n]}",
                    game=EW,
                    side="persia",
                    mu=mu,
                    sigma=3.0,
                    games=10,
                    wins=5,
                    updated=0.0,
                )
            )
    for n in names:
        assert (
            post(users[n], "/api/match", {"game": EW, "side": "persia"}).json()["status"]
            == "waiting"
        )
    me = player(client, "newcomer")  # 25: nearest is "near"
    tid = post(me, "/api/match", {"game": EW, "side": "greece"}).json()["table"]
    seats = me.get(f"/api/tables/{tid}").json()["seats"]
    assert [s["player"] for s in seats] == ["near", "newcomer"]


def test_quick_match_refuses_bad_requests_in_words(client: TestClient) -> None:
    alice = player(client, "alice")
    r = post(alice, "/api/match", {"game": "chess"})
    assert r.status_code == 422 and "unknown game" in r.json()["detail"]
    r = post(alice, "/api/match", {"game": EW, "clock": "blitz"})
    assert r.status_code == 422 and "live, correspondence" in r.json()["detail"]
    r = post(alice, "/api/match", {"game": EW, "side": "sparta"})
    assert r.status_code == 422 and "persia, greece" in r.json()["detail"]
    r = post(alice, "/api/match", {"game": "thermopyles", "rated": True})
    assert r.status_code == 422 and "co-operative" in r.json()["detail"]
    assert User(client).get("/api/match").status_code == 401
