"""Takebacks on the server: against bots at once, between humans asked and answered, never
past a die roll or for another seat's decision, refused on a table agreed without them, a
rated game made unrated, a move that answers a request "no", and two processes sharing
PostgreSQL and Redis that both see the table go back.

Positions are reached by playing random legal moves through the API until the engine's
policy (`engine.takeback`) allows the seat a takeback: the tests never assume a game's
turn order or where its die rolls fall."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.server.conftest import BACKENDS, database_url
from tests.server.helpers import ws_receive
from thermopylae.engine import registry
from thermopylae.engine.protocol import CHANCE
from thermopylae.engine.takeback import takebacks
from thermopylae.server.ai_pool import AiLimits
from thermopylae.server.app import create_app
from thermopylae.server.routes_table import TAKEBACK_BURST
from thermopylae.server.store import Conflict, Store

QUICK = AiLimits(processes=False, seconds=0.05, reply_wait=5.0)
GAME = "earth-and-water"
HUMANS = [{"kind": "human"}, {"kind": "human"}]
VS_BOT = [{"kind": "human"}, {"kind": "ai", "level": "easy"}]


ON_BOTH = pytest.mark.parametrize("client", BACKENDS, indirect=True)
"""The tests that also run on PostgreSQL (the others: SQLite only, to keep the suite short)."""


@pytest.fixture(params=["sqlite"])  # PostgreSQL too where a test asks (ON_BOTH)
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db=database_url(request.param, request, tmp_path), ai=QUICK)) as c:
        yield c


@pytest.fixture
def sqlite_client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db=f"sqlite:///{tmp_path / 't.db'}", ai=QUICK)) as c:
        yield c


def store(c: TestClient) -> Store:
    s: Store = c.app.state.tables.store  # type: ignore[attr-defined]
    return s


def create(c: TestClient, seats: list[dict[str, Any]]) -> tuple[str, list[str | None]]:
    r = c.post("/api/tables", json={"game": GAME, "seats": seats})
    assert r.status_code == 201, r.text
    return r.json()["id"], [s["token"] for s in r.json()["seats"]]


def view(c: TestClient, tid: str, token: str | None = None) -> dict[str, Any]:
    r = c.get(f"/api/tables/{tid}", params={"token": token} if token else {})
    assert r.status_code == 200, r.text
    return dict(r.json())


def policy(c: TestClient, tid: str) -> Any:
    g = registry.get(GAME)
    return takebacks(g, g.options({}), store(c).steps(tid))


def play_one(c: TestClient, tid: str, tokens: list[str | None], rng: random.Random) -> None:
    """The human seat to act plays a random legal move (once the bots have answered: a
    table with a short `reply_wait` answers before a busy machine's bot has moved)."""
    end = time.monotonic() + 20
    while time.monotonic() < end:
        for tok in tokens:
            if tok is None:
                continue
            m = view(c, tid, tok)
            if m["your_turn"]:
                action = rng.choice(m["legal"])["action"]
                r = c.post(
                    f"/api/tables/{tid}/actions",
                    json={"token": tok, "move": m["move"], "action": action},
                )
                assert r.status_code == 200, r.text
                return
        time.sleep(0.05)
    raise AssertionError("no human seat must act")


def until_takeback(
    c: TestClient, tid: str, tokens: list[str | None], seat: int, others: bool | None = None
) -> int:
    """Play on until `seat` may take back a decision (with `others`: one whose takeback
    does / does not undo another seat's decision); the move it goes back to."""
    rng = random.Random(19)
    for _ in range(400):
        tb = policy(c, tid)
        to = tb.last_own(seat)
        if to is not None and (others is None or bool(tb.others(seat, to)) == others):
            return int(to)
        play_one(c, tid, tokens, rng)
    raise AssertionError("no takeback became possible in 400 moves")


def takeback(c: TestClient, tid: str, body: dict[str, Any]) -> Any:
    return c.post(f"/api/tables/{tid}/takeback", json=body)


def set_terms(c: TestClient, tid: str, **values: Any) -> None:
    """Terms the lobby sets at creation (rated, takebacks), written in the database and
    the table read again."""
    assert store(c).change(tid, values)
    c.app.state.tables.live.pop(tid, None)  # type: ignore[attr-defined]


def test_against_a_bot_a_takeback_happens_at_once(client: TestClient) -> None:
    tid, tokens = create(client, VS_BOT)
    to = until_takeback(client, tid, tokens, 0, others=True)
    before = len(store(client).steps(tid))
    r = takeback(client, tid, {"action": "request", "token": tokens[0]})
    assert r.status_code == 200, r.text
    m = r.json()
    assert m["move"] == to < before and m["your_turn"] and m["takeback"] is None
    assert len(store(client).steps(tid)) == to
    row = store(client).table(tid)
    assert row is not None and row.epoch == 1 and row.turn == 0
    # the game goes on from there: the move number is the one taken back to
    play_one(client, tid, tokens, random.Random(3))
    assert view(client, tid, tokens[0])["move"] > to


@ON_BOTH
def test_between_humans_the_other_must_accept(client: TestClient) -> None:
    tid, tokens = create(client, HUMANS)
    to = until_takeback(client, tid, tokens, 0)
    moves = len(store(client).steps(tid))
    r = takeback(client, tid, {"action": "request", "token": tokens[0], "to": to})
    assert r.status_code == 200, r.text
    asked = {"seat": "persia", "to": to, "waiting_for": ["greece"]}
    assert r.json()["takeback"] == asked and r.json()["move"] == moves
    assert view(client, tid, tokens[1])["takeback"] == asked  # the other seat is told
    assert view(client, tid)["takeback"] == asked  # and spectators
    assert len(store(client).steps(tid)) == moves  # nothing taken back yet
    again = takeback(client, tid, {"action": "request", "token": tokens[1]})
    assert again.status_code == 409 and "already asked" in again.json()["detail"]
    mine = takeback(client, tid, {"action": "accept", "token": tokens[0]})
    assert mine.status_code == 409 and "cancel it instead" in mine.json()["detail"]
    r = takeback(client, tid, {"action": "accept", "token": tokens[1]})
    assert r.status_code == 200, r.text
    assert r.json()["move"] == to and r.json()["takeback"] is None
    assert len(store(client).steps(tid)) == to
    assert view(client, tid, tokens[0])["your_turn"]


def test_a_declined_or_cancelled_request_changes_nothing(client: TestClient) -> None:
    tid, tokens = create(client, HUMANS)
    to = until_takeback(client, tid, tokens, 0)
    steps = store(client).steps(tid)
    assert takeback(client, tid, {"action": "request", "token": tokens[0]}).status_code == 200
    r = takeback(client, tid, {"action": "decline", "token": tokens[1]})
    assert r.status_code == 200 and r.json()["takeback"] is None
    assert store(client).steps(tid) == steps and store(client).table(tid).epoch == 0  # type: ignore[union-attr]
    assert (
        takeback(client, tid, {"action": "request", "token": tokens[0], "to": to}).status_code
        == 200
    )
    theirs = takeback(client, tid, {"action": "cancel", "token": tokens[1]})
    assert theirs.status_code == 409 and "only the seat that asked" in theirs.json()["detail"]
    r = takeback(client, tid, {"action": "cancel", "token": tokens[0]})
    assert r.status_code == 200 and r.json()["takeback"] is None
    late = takeback(client, tid, {"action": "accept", "token": tokens[1]})
    assert late.status_code == 409 and "no takeback is asked" in late.json()["detail"]
    assert store(client).steps(tid) == steps


def test_a_move_played_answers_a_pending_request_no(sqlite_client: TestClient) -> None:
    c = sqlite_client
    tid, tokens = create(c, HUMANS)
    until_takeback(c, tid, tokens, 0)
    assert takeback(c, tid, {"action": "request", "token": tokens[0]}).status_code == 200
    play_one(c, tid, tokens, random.Random(5))
    assert view(c, tid)["takeback"] is None
    assert store(c).table(tid).takeback is None  # type: ignore[union-attr]
    late = takeback(c, tid, {"action": "accept", "token": tokens[1]})
    assert late.status_code == 409


def test_a_takeback_never_goes_past_a_die_roll(sqlite_client: TestClient) -> None:
    c = sqlite_client
    tid, tokens = create(c, VS_BOT)
    until_takeback(c, tid, tokens, 0)
    tb = policy(c, tid)
    assert tb.floor > 0  # the game has revealed something already (its dice, its cards)
    own_before = max(n for n in range(tb.floor) if tb.deciders[n] == 0)
    steps = store(c).steps(tid)
    r = takeback(c, tid, {"action": "request", "token": tokens[0], "to": own_before})
    assert r.status_code == 409
    assert "revealed" in r.json()["detail"] and "never goes past" in r.json()["detail"]
    assert store(c).steps(tid) == steps


def test_the_first_move_cannot_be_taken_back_once_the_dice_rolled(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    tid, tokens = create(c, VS_BOT)
    play_one(c, tid, tokens, random.Random(1))
    tb = policy(c, tid)
    assert tb.deciders[:2] == (0, CHANCE) and tb.floor == 2  # Persia's first move, then cards
    r = takeback(c, tid, {"action": "request", "token": tokens[0]})
    assert r.status_code == 409 and "no decision to take back" in r.json()["detail"]


def test_a_seat_takes_back_only_its_own_decisions(sqlite_client: TestClient) -> None:
    c = sqlite_client
    tid, tokens = create(c, HUMANS)
    rng = random.Random(11)
    for _ in range(400):
        tb = policy(c, tid)
        theirs = [n for n in range(tb.floor, len(tb.deciders)) if tb.deciders[n] == 1]
        if theirs:
            break
        play_one(c, tid, tokens, rng)
    r = takeback(c, tid, {"action": "request", "token": tokens[0], "to": theirs[0]})
    assert r.status_code == 409 and "not your decision" in r.json()["detail"]
    far = takeback(c, tid, {"action": "request", "token": tokens[0], "to": 10_000})
    assert far.status_code == 409 and "not a decision of this game" in far.json()["detail"]


def test_bad_requests_are_refused_naming_what_is_wrong(sqlite_client: TestClient) -> None:
    c = sqlite_client
    tid, tokens = create(c, VS_BOT)
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"action": "undo", "token": tokens[0]}, 422, "action"),
        ({"action": "request", "token": tokens[0], "to": -1}, 422, "to"),
        ({"action": "request", "token": tokens[0], "to": "3"}, 422, "to"),
        ({"action": "accept", "token": tokens[0], "to": 3}, 422, '"to" goes with "request"'),
        ({"action": "request", "token": tokens[0], "extra": 1}, 422, "extra"),
        ({"action": "request"}, 403, "token"),
        ({"action": "request", "token": "not-a-seat"}, 403, "no seat"),
    ]
    for body, status, words in cases:
        r = takeback(c, tid, body)
        assert r.status_code == status, (body, r.text)
        assert words in r.json()["detail"], (body, r.json())
    assert (
        c.post(
            "/api/tables/nosuchtable/takeback", json={"action": "request", "token": "x"}
        ).status_code
        == 404
    )


def test_a_player_sends_a_bounded_number_of_takeback_actions(sqlite_client: TestClient) -> None:
    c = sqlite_client
    tid, tokens = create(c, HUMANS)
    for _ in range(TAKEBACK_BURST):  # refused ones count too: each costs the server a look
        assert takeback(c, tid, {"action": "cancel", "token": tokens[0]}).status_code == 409
    r = takeback(c, tid, {"action": "cancel", "token": tokens[0]})
    assert r.status_code == 429 and "too many takeback" in r.json()["detail"]
    assert int(r.headers["Retry-After"]) >= 1
    other = takeback(c, tid, {"action": "cancel", "token": tokens[1]})
    assert other.status_code == 409  # the other player is not held back


def test_a_table_agreed_without_takebacks_refuses_them(client: TestClient) -> None:
    tid, tokens = create(client, VS_BOT)
    until_takeback(client, tid, tokens, 0)
    set_terms(client, tid, rated=True, takebacks=False)
    steps = store(client).steps(tid)
    r = takeback(client, tid, {"action": "request", "token": tokens[0]})
    assert r.status_code == 403 and "without takebacks" in r.json()["detail"]
    assert store(client).steps(tid) == steps and view(client, tid)["terms"]["rated"] is True


@ON_BOTH
def test_a_rated_game_with_a_takeback_is_no_longer_rated(client: TestClient) -> None:
    tid, tokens = create(client, VS_BOT)
    until_takeback(client, tid, tokens, 0)
    set_terms(client, tid, rated=True, takebacks=True)
    assert view(client, tid)["terms"]["rated"] is True
    r = takeback(client, tid, {"action": "request", "token": tokens[0]})
    assert r.status_code == 200, r.text
    assert r.json()["terms"]["rated"] is False
    assert store(client).table(tid).rated is False  # type: ignore[union-attr]


def test_an_account_takes_back_through_its_login(sqlite_client: TestClient) -> None:
    c = sqlite_client
    r = c.post("/api/accounts", json={"name": "Leonidas", "password": "a long secret"})
    csrf = {"X-CSRF-Token": r.json()["csrf"]}
    r = c.post(
        "/api/tables",
        json={"game": GAME, "seats": [{"kind": "account", "name": "Leonidas"}, VS_BOT[1]]},
        headers=csrf,
    )
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    rng = random.Random(2)
    for _ in range(400):
        if policy(c, tid).last_own(0) is not None:
            break
        m = view(c, tid)
        body = {"move": m["move"], "action": rng.choice(m["legal"])["action"]}
        assert c.post(f"/api/tables/{tid}/actions", json=body, headers=csrf).status_code == 200
    assert takeback(c, tid, {"action": "request"}).status_code == 403  # no CSRF header
    r = c.post(f"/api/tables/{tid}/takeback", json={"action": "request"}, headers=csrf)
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == "persia" and r.json()["your_turn"]


def test_a_watching_screen_gets_the_whole_log_again(sqlite_client: TestClient) -> None:
    c = sqlite_client
    tid, tokens = create(c, VS_BOT)
    to = until_takeback(c, tid, tokens, 0, others=True)
    with c.websocket_connect(f"/ws/tables/{tid}?token={tokens[0]}") as ws:
        first = ws_receive(ws)
        assert first["move"] > to
        assert takeback(c, tid, {"action": "request", "token": tokens[0]}).status_code == 200
        pushed = ws_receive(ws)
        assert pushed["move"] == to and pushed["your_turn"]
        assert pushed["log"] == view(c, tid, tokens[0])["log"]  # not the lines after `to`


def test_the_other_seats_screen_is_told_of_a_request_and_its_answer(
    sqlite_client: TestClient,
) -> None:
    """A request changes no step, only the row: the other seat's socket must still be
    pushed the request (to answer it), and then its withdrawal."""
    c = sqlite_client
    tid, tokens = create(c, HUMANS)
    until_takeback(c, tid, tokens, 0)
    with c.websocket_connect(f"/ws/tables/{tid}?token={tokens[1]}") as ws:
        assert ws_receive(ws)["takeback"] is None
        assert takeback(c, tid, {"action": "request", "token": tokens[0]}).status_code == 200
        pushed = ws_receive(ws)
        assert pushed["takeback"] is not None and pushed["takeback"]["waiting_for"] == ["greece"]
        assert takeback(c, tid, {"action": "cancel", "token": tokens[0]}).status_code == 200
        assert ws_receive(ws)["takeback"] is None


def test_the_store_refuses_a_move_that_follows_moves_taken_back(sqlite_client: TestClient) -> None:
    """The store refuses a step that follows moves taken back since its writer read the
    table (two processes: one took back, the other still plays on its old copy)."""
    c = sqlite_client
    tid, tokens = create(c, VS_BOT)
    to = until_takeback(c, tid, tokens, 0)
    s = store(c)
    steps = s.steps(tid)
    row = s.table(tid)
    assert row is not None
    s.take_back(tid, (row.epoch, len(steps), row.takeback), {"takeback": None}, back_to=to)
    with pytest.raises(Conflict):
        s.append(tid, len(steps), [("greece", "pass")], False, {}, None, row.epoch)
    with pytest.raises(Conflict):  # the takeback too, from a copy that saw the old table
        s.take_back(tid, (row.epoch, len(steps), None), {"takeback": None}, back_to=to)
    assert s.steps(tid) == steps[:to] and s.table(tid).epoch == row.epoch + 1  # type: ignore[union-attr]


def test_two_processes_on_postgresql_see_the_takeback(postgres: Any, redis_url: str) -> None:
    url = postgres.new_url()
    apps = [create_app(db=url, redis=redis_url, ai=QUICK) for _ in range(2)]
    with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
        tid, tokens = create(one, HUMANS)
        to = until_takeback(one, tid, tokens, 0)
        moves = view(two, tid)["move"]  # both processes hold the table
        assert moves > to
        r = takeback(two, tid, {"action": "request", "token": tokens[0], "to": to})
        assert r.status_code == 200 and r.json()["takeback"]["waiting_for"] == ["greece"]
        assert view(one, tid)["takeback"]["to"] == to
        r = takeback(one, tid, {"action": "accept", "token": tokens[1]})
        assert r.status_code == 200, r.text
        for c in (one, two):
            m = view(c, tid, tokens[0])
            assert (m["move"], m["your_turn"], m["takeback"]) == (to, True, None)
        # the game goes on in either process from the move taken back to
        play_one(two, tid, tokens, random.Random(8))
        assert view(one, tid)["move"] > to
        assert [list(s) for s in store(one).steps(tid)][:to] == [
            list(s) for s in store(two).steps(tid)
        ][:to]


def test_a_bot_move_thought_before_a_takeback_is_dropped(tmp_path: Path) -> None:
    """The bot was choosing its reply when the player took its move back and played
    another at the same move number: the reply to the old position is not played (the
    table's epoch changed while it thought), the bot thinks again."""
    limits = AiLimits(processes=False, seconds=0.05, reply_wait=0.3)
    with TestClient(create_app(db=f"sqlite:///{tmp_path / 'b.db'}", ai=limits)) as c:
        tid, tokens = create(c, VS_BOT)
        g = registry.get(GAME)
        rng = random.Random(23)
        for _ in range(400):  # until two moves of Persia's are each answered by Greece at once
            m = view(c, tid, tokens[0])
            state = g.new(g.options({}))
            for _who, text in store(c).steps(tid):
                g.apply(state, g.parse(text), quiet=True)
            answered: dict[str, list[str]] = {}
            for a in m["legal"]:
                trial = g.copy(state)
                g.apply(trial, g.parse(a["action"]), quiet=True)
                if g.to_act(trial) == 1:
                    answered[a["action"]] = [g.format(x) for x in g.legal(trial)]
            if len(answered) > 1 and any(len(v) > 1 for v in list(answered.values())[1:]):
                break
            play_one(c, tid, tokens, rng)
        else:
            raise AssertionError("Greece never answered Persia at once")
        to = m["move"]
        first = next(iter(answered))
        other = next(k for k, v in answered.items() if k != first and len(v) > 1)
        old_reply, new_reply = answered[other][:2]  # both legal after `other`
        tables = c.app.state.tables  # type: ignore[attr-defined]
        thinking, release = threading.Event(), threading.Event()
        calls: list[str] = []

        async def scripted_think(*args: Any) -> str:
            """The first reply is thought about until released, then the next ones."""
            calls.append("")
            if len(calls) == 1:
                thinking.set()
                await asyncio.to_thread(release.wait, 10)
                return old_reply  # legal after `other` too: only the epoch tells it is stale
            return new_reply if len(calls) == 2 else str(await real(*args))

        real = tables.ai.think
        tables.ai.think = scripted_think
        body = {"token": tokens[0], "move": to, "action": first}
        assert c.post(f"/api/tables/{tid}/actions", json=body).status_code == 200
        assert thinking.wait(10)  # Greece is choosing its reply to `first`
        r = takeback(c, tid, {"action": "request", "token": tokens[0]})
        assert r.status_code == 200 and r.json()["move"] == to, r.text
        body = {"token": tokens[0], "move": to, "action": other}
        assert c.post(f"/api/tables/{tid}/actions", json=body).status_code == 200
        release.set()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and len(store(c).steps(tid)) <= to + 1:
            time.sleep(0.05)
        steps = store(c).steps(tid)
        assert steps[to : to + 2] == [("persia", other), ("greece", new_reply)]
