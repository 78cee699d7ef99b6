"""Memory and fairness under load (issue 8): tables leave a process's memory when nobody
uses them and come back from the database with every step; a restart loads only the tables
whose AI must play; an HTTP rate limit per client address answers 429 and changes nothing."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.helpers import Api, play_random, serve_in_process, tokens_of
from thermopylae.engine import registry
from thermopylae.engine.protocol import CHANCE
from thermopylae.server import app as app_module
from thermopylae.server import limits as limits_module
from thermopylae.server.limits import RateLimit
from thermopylae.server.tables import FINISHED_AFTER, IDLE_AFTER, Tables

LATER = 1e9  # a monotonic time long after every table was last used


def tables_of(api: Api) -> Tables:
    t: Tables = api.test_client.app.state.tables  # type: ignore[attr-defined]
    return t


def views(api: Api, created: dict[str, Any]) -> list[dict[str, Any]]:
    """What the spectator and every seat are told of the table now."""
    table = created["id"]
    return [api.view(table), *(api.view(table, tok) for tok in tokens_of(created).values())]


def test_an_evicted_table_comes_back_with_every_step(api: Api) -> None:
    created = api.create("thermopyles", {"players": 2})
    table = created["id"]
    play_random(api, created, random.Random(1), max_actions=6)
    before, steps = views(api, created), api.steps(table)
    tables = tables_of(api)
    assert table in tables.evict(now=time.monotonic() + LATER)
    assert table not in tables.live
    assert views(api, created) == before  # rebuilt from the database, as it was
    assert table in tables.live
    assert api.steps(table) == steps
    last, _played = play_random(api, created, random.Random(2))  # and the game goes on
    assert last["outcome"] is not None
    assert api.record(table)["steps"] == api.steps(table)[: len(api.record(table)["steps"])]
    assert api.steps(table)[: len(steps)] == steps


def test_idle_and_finished_tables_leave_memory_watched_ones_stay(api: Api) -> None:
    tables = tables_of(api)
    idle = api.create("thermopyles", {"players": 2})
    watched = api.create("thermopyles", {"players": 2})
    done = api.create("thermopyles", {"players": 2})
    play_random(api, done, random.Random(3))
    now = time.monotonic()
    # A finished game leaves after FINISHED_AFTER; a game under way only after IDLE_AFTER.
    dropped = tables.evict(now=now + FINISHED_AFTER + 1)
    assert done["id"] in dropped and idle["id"] not in dropped
    token = tokens_of(watched)["p1"]
    with api.test_client.websocket_connect(f"/ws/tables/{watched['id']}?token={token}") as ws:
        assert ws.receive_json()["type"] == "update"
        dropped = tables.evict(now=now + IDLE_AFTER + 1)
        assert idle["id"] in dropped and watched["id"] not in dropped  # a socket holds it
        assert watched["id"] in tables.live
    deadline = time.monotonic() + 5
    while watched["id"] in tables.live:  # the socket closed: the table may go now
        assert time.monotonic() < deadline, "a table nobody watches stays in memory"
        tables.evict(now=time.monotonic() + IDLE_AFTER + 1)
        time.sleep(0.02)
    for created in (idle, watched, done):
        assert api.view(created["id"])["move"] == len(api.steps(created["id"]))


def test_past_the_cap_the_least_recently_used_tables_leave(api: Api) -> None:
    tables = tables_of(api)
    tables.evict(now=time.monotonic() + LATER)
    cap, tables.max_live = tables.max_live, 3
    try:
        made = [api.create("thermopyles", {"players": 2}) for _ in range(5)]
        assert len(tables.live) == 3
        assert list(tables.live) == [c["id"] for c in made[2:]]
        api.view(made[2]["id"])  # used again: now the most recent
        api.view(made[0]["id"])  # loaded again: the least recently used one leaves
        assert list(tables.live) == [made[4]["id"], made[2]["id"], made[0]["id"]]
        for c in made:
            assert api.view(c["id"])["move"] == len(api.steps(c["id"]))
    finally:
        tables.max_live = cap


def a_step_before_chance(api: Api, created: dict[str, Any]) -> tuple[int, str, str]:
    """A human action after which chance must act: (move, seat, action)."""
    g = registry.get(created["game"])
    state = g.new(g.options(created["options"]))
    for _who, text in api.store.steps(created["id"]):
        g.apply(state, g.parse(text), quiet=True)
    who = g.to_act(state)
    assert who is not None and who != CHANCE  # a seat acts after the stored steps
    seat = g.seats(g.options(created["options"]))[who]
    for a in g.legal(state):
        after = g.copy(state)
        g.apply(after, a, quiet=True)
        if g.to_act(after) == CHANCE:
            return len(api.store.steps(created["id"])), seat, g.format(a)
    raise AssertionError("no action hands the turn to chance")


def test_a_restart_loads_only_the_tables_whose_ai_plays(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tables.db'}"
    served: Iterator[Api] = serve_in_process(url)
    first = next(served)
    humans = first.create("thermopyles", {"players": 2})
    with_ai = first.create(
        "thermopyles", {"players": 2}, [{"kind": "human"}, {"kind": "ai", "level": "easy"}]
    )
    move, seat, action = a_step_before_chance(first, humans)
    with pytest.raises(StopIteration):
        next(served)  # the server stops
    first.store.append(humans["id"], move, [(seat, action)], False)  # it died before chance
    first.close()

    served = serve_in_process(url)
    second = next(served)
    tables = tables_of(second)
    deadline = time.monotonic() + 10
    while with_ai["id"] not in tables.live:
        assert time.monotonic() < deadline, "the table with an AI seat was not resumed"
        time.sleep(0.02)
    assert humans["id"] not in tables.live  # left in the database until asked for
    m = second.view(humans["id"])  # asked for: loaded, and the chance step owed is drawn
    steps = second.steps(humans["id"])
    assert steps[move] == [seat, action] and len(steps) > move + 1
    assert steps[move + 1][0] == "chance" and m["move"] == len(steps)
    assert m["to_act"] in tokens_of(humans)
    with pytest.raises(StopIteration):
        next(served)


class _Clock:
    """The rate limiter's clock, moved by the test (a busy machine refills no bucket)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def test_the_http_rate_limit_answers_429_and_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = _Clock()
    monkeypatch.setattr(app_module, "time", clock)
    monkeypatch.setattr(limits_module, "time", clock)  # the buckets' clock
    served = serve_in_process(f"sqlite:///{tmp_path / 'tables.db'}", http_rate=2.0, http_burst=2.0)
    api = next(served)
    created = api.create("thermopyles", {"players": 2})  # 1 of the burst of 2
    table = created["id"]
    seat = api.view(table)["to_act"]
    mine = api.view(table, tokens_of(created)[seat])
    r = api.act(table, tokens_of(created)[seat], mine["move"], mine["legal"][0]["action"])
    assert r.status_code == 200, r.text  # 2 of 2
    after = r.json()
    steps = api.steps(table)
    seat = after["to_act"]
    mine = api.view(table, tokens_of(created)[seat])  # reads are never limited
    r = api.act(table, tokens_of(created)[seat], mine["move"], mine["legal"][0]["action"])
    assert r.status_code == 429, r.text
    assert "too many requests" in r.json()["detail"] and r.headers["retry-after"] == "1"
    assert api.steps(table) == steps and api.view(table)["move"] == after["move"]
    r2 = api.client.post("/api/tables", json={"game": "thermopyles"})
    assert r2.status_code == 429 and "too many requests" in r2.json()["detail"]
    clock.now += 0.6  # one request a half second comes back
    r = api.act(table, tokens_of(created)[seat], mine["move"], mine["legal"][0]["action"])
    assert r.status_code == 200, r.text
    with pytest.raises(StopIteration):
        next(served)


def test_the_token_bucket() -> None:
    bucket = RateLimit(rate=1.0, burst=3.0)
    assert [bucket.allow("a", now=0.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.allow("b", now=0.0)  # each address has its own bucket
    assert not bucket.allow("a", now=0.5)
    assert bucket.allow("a", now=1.6)
    assert not bucket.allow("a", now=1.6)
    assert RateLimit(rate=5.0).burst == 15.0
