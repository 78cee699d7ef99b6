"""The acceptance test of ratings: two accounts play two rated Earth & Water games to the
end (the second a rematch with sides swapped) on two server processes that share
PostgreSQL and Redis, each move sent to either process; each player's Persia and Greece
ratings move in the direction of the result, once per game."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, func, select

from tests.server.helpers import Server, all_running
from thermopylae.server.db import rating_events

EW = "earth-and-water"
MU0 = 25.0  # openskill's starting rating


class Player:
    """One person with a login on each of the two servers."""

    def __init__(self, name: str, servers: tuple[Server, ...]) -> None:
        self.name = name
        self.http = [httpx.Client(base_url=s.url, timeout=30) for s in servers]
        self.csrf: list[dict[str, str]] = []
        for i, c in enumerate(self.http):
            path, body = ("/api/accounts", "sign up") if i == 0 else ("/api/login", "log in")
            r = c.post(path, json={"name": name, "password": "a long secret"})
            assert r.status_code in (200, 201), f"{body}: {r.text}"
            self.csrf.append({"X-CSRF-Token": r.json()["csrf"]})

    def get(self, i: int, path: str) -> dict[str, Any]:
        r = self.http[i].get(path)
        assert r.status_code == 200, r.text
        return dict(r.json())

    def post(self, i: int, path: str, body: Any) -> httpx.Response:
        return self.http[i].post(path, json=body, headers=self.csrf[i])


@pytest.fixture
def servers(postgres: Any, redis_url: str, tmp_path: Path) -> Iterator[tuple[Server, ...]]:
    url = postgres.new_url()
    args = ["--db", url, "--redis", redis_url]
    pair = (Server(args, tmp_path / "one.log"), Server(args, tmp_path / "two.log"))
    with all_running(*pair, redis=True, db=url) as running:
        running[0].db = url  # type: ignore[attr-defined]
        yield running


def play_to_the_end(table: str, players: list[Player], rng: random.Random) -> dict[str, Any]:
    """Random legal moves, each sent by whoever must act to a process chosen at random."""
    for _ in range(3000):
        i = rng.randrange(2)
        views = [p.get(i, f"/api/tables/{table}") for p in players]
        if views[0]["outcome"] is not None:
            return views[0]
        mover = next((k for k, v in enumerate(views) if v["your_turn"]), None)
        if mover is None:  # chance, drawn by the server: look again
            continue
        v = views[mover]
        action = rng.choice(v["legal"])["action"]
        r = players[mover].post(
            i, f"/api/tables/{table}/actions", {"move": v["move"], "action": action}
        )
        assert r.status_code in (200, 409), r.text  # 409: the other process moved first
    raise AssertionError("the game did not end")


def ratings_of(p: Player, i: int) -> dict[str, Any]:
    return dict(p.get(i, f"/api/players/{p.name}")["ratings"].get(EW, {}))


def moved_right(before: dict[str, Any] | None, after: dict[str, Any], result: str) -> bool:
    mu0 = MU0 if before is None else before["mu"]
    if result == "draw":  # equal ratings and a draw: no side gains
        return bool(abs(after["mu"] - mu0) < 1.0)
    return bool(after["mu"] > mu0 if result == "win" else after["mu"] < mu0)


def test_two_rated_games_move_each_side_s_rating_once_in_the_right_direction(
    servers: tuple[Server, ...],
) -> None:
    rng = random.Random(19)
    alice, bob = Player("alice", servers), Player("bob", servers)
    r = alice.post(
        0,
        "/api/tables",
        {
            "game": EW,
            "rated": True,
            "seats": [{"kind": "account", "name": "alice"}, {"kind": "account", "name": "bob"}],
        },
    )
    assert r.status_code == 201, r.text
    first = r.json()["id"]
    end = play_to_the_end(first, [alice, bob], rng)
    results = dict(zip(("alice", "bob"), end["outcome"]["results"], strict=True))

    after_one = {p.name: ratings_of(p, 1) for p in (alice, bob)}
    assert set(after_one["alice"]) == {"persia"} and set(after_one["bob"]) == {"greece"}
    assert moved_right(None, after_one["alice"]["persia"], results["alice"])
    assert moved_right(None, after_one["bob"]["greece"], results["bob"])
    assert after_one["alice"]["persia"]["games"] == 1

    # The rematch, sides swapped, offered on one process and accepted on the other.
    assert (
        alice.post(0, f"/api/tables/{first}/rematch", {"action": "offer", "swap": True}).status_code
        == 200
    )
    r = bob.post(1, f"/api/tables/{first}/rematch", {"action": "accept"})
    assert r.status_code == 200, r.text
    second = r.json()["rematch"]["table"]
    end = play_to_the_end(second, [bob, alice], rng)
    results = dict(zip(("bob", "alice"), end["outcome"]["results"], strict=True))

    for i in (0, 1):  # both processes tell the same ratings
        now = {p.name: ratings_of(p, i) for p in (alice, bob)}
        assert set(now["alice"]) == {"persia", "greece"} == set(now["bob"])
        assert now["alice"]["persia"] == after_one["alice"]["persia"]  # not moved again
        assert now["bob"]["greece"] == after_one["bob"]["greece"]
        assert moved_right(None, now["alice"]["greece"], results["alice"])
        assert moved_right(None, now["bob"]["persia"], results["bob"])
        for p in ("alice", "bob"):
            assert {side: r["games"] for side, r in now[p].items()} == {"persia": 1, "greece": 1}

    engine = create_engine(servers[0].db)  # type: ignore[attr-defined]
    with engine.connect() as conn:
        per_game = conn.execute(
            select(rating_events.c.table_id, func.count()).group_by(rating_events.c.table_id)
        ).all()
    engine.dispose()
    assert sorted(per_game) == sorted([(first, 2), (second, 2)])  # one event a player a game
