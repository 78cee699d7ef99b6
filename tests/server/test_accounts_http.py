"""Accounts over HTTP: sign up, log in and out, sessions and CSRF, no user enumeration,
seats held by accounts (invitations, claims), "My games", password change and deletion."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.server.conftest import BACKENDS, database_url
from tests.server.helpers import User
from thermopylae.server.ai_pool import AiLimits
from thermopylae.server.app import create_app

QUICK = AiLimits(processes=False, seconds=0.05, reply_wait=2.0)


@pytest.fixture(params=BACKENDS)
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    return create_app(db=database_url(request.param, request, tmp_path), ai=QUICK)


@pytest.fixture
def clients(app: Any) -> Iterator[tuple[Any, Any, Any]]:
    with TestClient(app) as c:
        yield User(c), User(c), User(c)


def sign_up(c: Any, name: str, password: str = "a long secret") -> str:
    r = c.post("/api/accounts", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    return str(r.json()["csrf"])


def csrf(c: Any) -> dict[str, str]:
    return {"X-CSRF-Token": c.get("/api/me").json()["csrf"]}


def test_sign_up_sets_an_httponly_lax_session_cookie_and_logs_in(clients: Any) -> None:
    a, _b, _g = clients
    r = a.post("/api/accounts", json={"name": "Leonidas", "password": "a long secret"})
    assert r.status_code == 201
    cookies = r.headers.get_list("set-cookie")
    session = next(c for c in cookies if c.startswith("thermopylae_session="))
    assert "HttpOnly" in session and "samesite=lax" in session.lower()
    assert "Secure" not in session  # served over http here
    token_cookie = next(c for c in cookies if c.startswith("thermopylae_csrf="))
    assert "HttpOnly" not in token_cookie  # the page reads it to send the header
    me = a.get("/api/me").json()
    assert me["name"] == "Leonidas" and me["tables"] == {"active": [], "finished": []}
    assert "password_hash" not in str(me)


def test_a_name_too_like_a_taken_one_is_refused(clients: Any) -> None:
    a, b, _g = clients
    sign_up(a, "Alice")
    for other in ("alice", "ALICE", "A1ice", "Alíce"):
        r = b.post("/api/accounts", json={"name": other, "password": "a long secret"})
        assert r.status_code == 409 and "taken" in r.json()["detail"], other


@pytest.mark.parametrize(
    ("name", "password", "text"),
    [
        ("ab", "a long secret", "3 to 20 characters"),
        ("аlice", "a long secret", "CYRILLIC"),
        ("admin", "a long secret", "reserved"),
        ("Xerxes", "short", "8 to 200 characters"),
        ("Xerxes", "xerxes", "8 to 200"),
        ("Xerxeses", "xerxeses", "must not be the account's name"),
    ],
)
def test_bad_names_and_passwords_are_refused_naming_the_rule(
    clients: Any, name: str, password: str, text: str
) -> None:
    a, _b, _g = clients
    r = a.post("/api/accounts", json={"name": name, "password": password})
    assert r.status_code == 422 and text in r.json()["detail"], r.text


def test_login_says_the_same_for_an_unknown_name_and_a_wrong_password(clients: Any) -> None:
    a, b, _g = clients
    sign_up(a, "Gorgo")
    wrong = b.post("/api/login", json={"name": "Gorgo", "password": "not the secret"})
    unknown = b.post("/api/login", json={"name": "Nobody", "password": "not the secret"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert b.get("/api/me").status_code == 401
    ok = b.post("/api/login", json={"name": "GORGO", "password": "a long secret"})
    assert ok.status_code == 200 and b.get("/api/me").json()["name"] == "Gorgo"


def test_login_attempts_are_limited_per_account(clients: Any) -> None:
    a, b, _g = clients
    sign_up(a, "Ephialtes")
    statuses = [
        b.post("/api/login", json={"name": "Ephialtes", "password": f"guess {i}"}).status_code
        for i in range(12)
    ]
    assert statuses[0] == 401 and statuses[-1] == 429
    r = b.post("/api/login", json={"name": "Ephialtes", "password": "a long secret"})
    assert r.status_code == 429 and "try again in" in r.json()["detail"]
    assert int(r.headers["retry-after"]) > 0


def test_a_state_change_with_the_cookie_needs_the_csrf_header(clients: Any) -> None:
    a, _b, _g = clients
    token = sign_up(a, "Dienekes")
    body = {"old": "a long secret", "new": "another long secret"}
    r = a.put("/api/me/password", json=body)
    assert r.status_code == 403 and "X-CSRF-Token" in r.json()["detail"]
    r = a.put("/api/me/password", json=body, headers={"X-CSRF-Token": "forged"})
    assert r.status_code == 403
    assert a.put("/api/me/password", json=body, headers={"X-CSRF-Token": token}).status_code == 200
    a.post("/api/logout", headers={"X-CSRF-Token": token})
    assert a.get("/api/me").status_code == 401
    bad = a.post("/api/login", json={"name": "Dienekes", "password": "a long secret"})
    assert bad.status_code == 401
    good = a.post("/api/login", json={"name": "Dienekes", "password": "another long secret"})
    assert good.status_code == 200


def test_an_invited_account_plays_its_seat_through_its_login(clients: Any) -> None:
    a, b, guest = clients
    sign_up(a, "Xerxes")
    sign_up(b, "Themistocles")
    r = a.post(
        "/api/tables",
        json={
            "game": "earth-and-water",
            "seats": [
                {"kind": "account", "name": "xerxes"},
                {"kind": "account", "name": "Themistocles"},
            ],
        },
        headers=csrf(a),
    )
    assert r.status_code == 201, r.text
    created = r.json()
    assert [s["token"] for s in created["seats"]] == [None, None]  # no link to leak
    assert [s["player"] for s in created["seats"]] == ["Xerxes", "Themistocles"]
    tid = created["id"]
    view_a, view_b = a.get(f"/api/tables/{tid}").json(), b.get(f"/api/tables/{tid}").json()
    assert (view_a["seat"], view_b["seat"]) == ("persia", "greece")
    assert guest.get(f"/api/tables/{tid}").json()["seat"] is None  # a spectator
    mover, other = (a, b) if view_a["your_turn"] else (b, a)
    m = mover.get(f"/api/tables/{tid}").json()
    body = {"move": m["move"], "action": m["legal"][0]["action"]}
    assert (
        other.post(f"/api/tables/{tid}/actions", json=body, headers=csrf(other)).status_code == 409
    )
    assert mover.post(f"/api/tables/{tid}/actions", json=body).status_code == 403  # no CSRF
    assert (
        mover.post(f"/api/tables/{tid}/actions", json=body, headers=csrf(mover)).status_code == 200
    )
    mine = a.get("/api/me").json()["tables"]["active"]
    assert [t["id"] for t in mine] == [tid] and mine[0]["seat"] == "persia"
    theirs = b.get("/api/me").json()["tables"]["active"]
    assert theirs[0]["your_turn"] != mine[0]["your_turn"]


def test_an_unknown_account_cannot_be_invited(clients: Any) -> None:
    a, _b, _g = clients
    sign_up(a, "Pausanias")
    seats = [{"kind": "account", "name": "Ghost"}, {"kind": "human"}]
    r = a.post("/api/tables", json={"game": "earth-and-water", "seats": seats}, headers=csrf(a))
    assert r.status_code == 404 and "no account named 'Ghost'" in r.json()["detail"]


def test_an_account_claims_the_guest_seat_it_holds_the_token_of(clients: Any) -> None:
    a, b, guest = clients
    created = guest.post("/api/tables", json={"game": "earth-and-water"}).json()
    tid, token = created["id"], created["seats"][1]["token"]
    sign_up(a, "Aristides")
    r = a.post(f"/api/tables/{tid}/claim", json={"token": "wrong"}, headers=csrf(a))
    assert r.status_code == 403
    r = a.post(f"/api/tables/{tid}/claim", json={"token": token}, headers=csrf(a))
    assert r.status_code == 200 and r.json()["seat"] == "greece"
    assert a.get(f"/api/tables/{tid}").json()["seat"] == "greece"
    assert guest.get(f"/api/tables/{tid}", params={"token": token}).json()["seat"] == "greece"
    sign_up(b, "Cimon")
    r = b.post(f"/api/tables/{tid}/claim", json={"token": token}, headers=csrf(b))
    assert r.status_code == 409
    assert [t["id"] for t in a.get("/api/me").json()["tables"]["active"]] == [tid]


def test_a_deleted_account_is_anonymised_and_its_name_freed(clients: Any) -> None:
    a, b, _g = clients
    sign_up(a, "Demaratus")
    sign_up(b, "Hydarnes")
    seats = [{"kind": "account", "name": "Hydarnes"}, {"kind": "account", "name": "Demaratus"}]
    tid = b.post(
        "/api/tables", json={"game": "earth-and-water", "seats": seats}, headers=csrf(b)
    ).json()["id"]
    wrong = a.request("DELETE", "/api/me", json={"password": "nope nope"}, headers=csrf(a))
    assert wrong.status_code == 403
    r = a.request("DELETE", "/api/me", json={"password": "a long secret"}, headers=csrf(a))
    assert r.status_code == 200
    assert a.get("/api/me").status_code == 401
    view = b.get(f"/api/tables/{tid}").json()
    assert view["outcome"]["reason"] == "left" and view["outcome"]["results"] == ["win", "loss"]
    assert view["seats"][1]["player"] in (None, "deleted player")
    again = a.post("/api/accounts", json={"name": "Demaratus", "password": "a long secret"})
    assert again.status_code == 201
    finished = b.get("/api/me").json()["tables"]["finished"]
    assert [t["id"] for t in finished] == [tid]


def test_my_games_list_your_turn_first_then_the_finished(clients: Any) -> None:
    a, b, _g = clients
    sign_up(a, "Callicrates")
    sign_up(b, "Mardonius")
    seats = [{"kind": "account", "name": "Mardonius"}, {"kind": "account", "name": "Callicrates"}]
    theirs = a.post(
        "/api/tables", json={"game": "earth-and-water", "seats": seats}, headers=csrf(a)
    ).json()["id"]  # persia (Mardonius) moves first: not a's turn
    mine = a.post(
        "/api/tables",
        json={"game": "earth-and-water", "seats": list(reversed(seats))},
        headers=csrf(a),
    ).json()["id"]  # a holds persia here: a's turn
    listed = a.get("/api/me").json()["tables"]["active"]
    assert [t["id"] for t in listed] == [mine, theirs]
    assert [t["your_turn"] for t in listed] == [True, False]
    assert a.get("/api/me").json()["tables"]["finished"] == []
