"""Updates sent as patches on a table's socket (`patches=1`, server/patches.py and the
browser's web/patch.js): over random games of every registered game, the updates rebuilt
from patches (in Python and, through node, by the browser's own function) are the whole
updates the server would have sent, for every seat and for spectators; over the real app,
a socket asking for patches gets a whole first update, then patches that rebuild to what a
socket without patches receives, and a whole update after a takeback; a socket that does
not ask gets whole updates; a bad `patches` value is refused."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from tests.server import test_takebacks as takebacks
from tests.server.helpers import (
    Closed,
    game_counts,
    options_for,
    seat_specs,
    tokens_of,
    ws_receive,
    ws_silent,
)
from thermopylae.server import patches
from thermopylae.server.app import json_text
from thermopylae.server.tables import Tables

WEB = Path(patches.__file__).parent / "web"
MOVES = 120  # actions played a game (the whole game when shorter)


def tables_of(c: TestClient) -> Tables:
    t: Tables = c.app.state.tables  # type: ignore[attr-defined]
    return t


def wire(message: dict[str, Any]) -> dict[str, Any]:
    """The message as the socket's other end reads it."""
    out: dict[str, Any] = json.loads(json_text(message))
    return out


def create(c: TestClient, game: str, players: int) -> dict[str, Any]:
    body = {"game": game, "options": options_for(game, players), "seats": seat_specs("h" * players)}
    r = c.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def play_one(c: TestClient, created: dict[str, Any], rng: random.Random) -> bool:
    """The seat to act plays a random legal action (False: the game is over)."""
    tid, tokens = created["id"], tokens_of(created)
    m = c.get(f"/api/tables/{tid}").json()
    if m["outcome"] is not None:
        return False
    token = tokens[m["to_act"]]
    mine = c.get(f"/api/tables/{tid}", params={"token": token}).json()
    action = rng.choice(mine["legal"])["action"]
    r = c.post(
        f"/api/tables/{tid}/actions", json={"token": token, "move": mine["move"], "action": action}
    )
    assert r.status_code == 200, r.text
    return True


# -- the patch alone -----------------------------------------------------------------------


def test_a_patch_holds_what_changed_and_null_is_a_value() -> None:
    before = {
        "type": "update",
        "move": 3,
        "seats": [1],
        "outcome": {"winner": "a"},
        "log": ["x"],
        "view": {"a": 1, "b": [1, 2], "c": None, "d": 4},
    }
    after = {
        "type": "update",
        "move": 4,
        "seats": [1],
        "outcome": None,
        "log": [],
        "view": {"a": 1, "b": [1, 3], "c": None, "e": None},
    }
    p = patches.patch(before, after)
    assert p == {
        "type": "patch",
        "move": 4,
        "log": [],
        "outcome": None,
        "view": {"b": [1, 3], "e": None},
        "view_gone": ["d"],
    }
    assert patches.apply(before, wire(p)) == after
    if shutil.which("node") is not None:  # the browser's function, the same
        assert rebuild_in_node([(before, wire(p))]) == [after]
    assert before["view"] == {"a": 1, "b": [1, 2], "c": None, "d": 4}  # left as it was
    same = patches.patch(after, {**after, "move": 5})
    assert same == {"type": "patch", "move": 5, "log": []}  # no view: none of it changed
    assert patches.apply(after, wire(same or {})) == {**after, "move": 5}


def test_keys_in_another_order_are_compared_by_name() -> None:
    before = {"type": "update", "move": 1, "log": [], "view": {"a": 1, "b": 2, "c": 3}}
    after = {"type": "update", "log": ["l"], "move": 2, "view": {"c": 3, "a": 5, "d": 2}}
    p = patches.patch(before, after)
    assert p == {
        "type": "patch",
        "move": 2,
        "log": ["l"],
        "view": {"a": 5, "d": 2},
        "view_gone": ["b"],
    }
    assert patches.apply(before, wire(p or {})) == after


def test_what_a_patch_cannot_say_is_sent_whole() -> None:
    base = {"type": "update", "move": 1, "log": [], "view": {"a": 1}, "clock": None}
    assert patches.patch(base, {"type": "update", "move": 2, "log": [], "view": {"a": 1}}) is None
    assert patches.patch(base, {**base, "view": [1]}) is None  # a view that is no object
    whole = {**base, "move": 2}
    assert patches.apply({"anything": 1}, whole) is whole


# -- random games of every game, every seat and spectators ---------------------------------


def writer_messages(
    c: TestClient, game: str, players: int, seed: int
) -> Iterator[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """(the message sent before, as the writer keeps it and as the other end read it when
    it was sent, the update sent now) for every seat and a spectator at every move of a
    random game, built as the socket's writer builds them. The text is taken when sent: a
    view that shared a list with the one before and changed it in place would make the
    kept message equal to the new one where the client's copy is not."""
    created = create(c, game, players)
    t = tables_of(c)
    live = t.live[created["id"]]
    seats: list[int | None] = [*range(len(live.row.seats)), None]
    sent = {s: t.message(live, s) for s in seats}
    read = {s: wire(m) for s, m in sent.items()}
    last = live.move
    rng = random.Random(seed)
    for _ in range(MOVES):
        if not play_one(c, created, rng):
            break
        live = t.live[created["id"]]
        for s in seats:
            now = t.message(live, s, since=last)
            yield sent[s], read[s], now
            sent[s], read[s] = now, wire(now)
        last = live.move


@pytest.mark.parametrize(("game", "players"), game_counts())
def test_patches_rebuild_the_whole_updates_of_random_games(
    client: TestClient, game: str, players: int
) -> None:
    pairs = []
    smaller = 0
    for seed in (1, 2):
        for before, read, now in writer_messages(client, game, players, seed):
            p = patches.patch(before, now)
            assert p is not None  # an update's keys and its view's type never change
            assert p["move"] == now["move"] and p["log"] == now["log"]
            assert patches.apply(read, wire(p)) == wire(now)
            smaller += len(json_text(p)) < len(json_text(now))
            pairs.append((read, wire(p), wire(now)))
    assert len(pairs) > 40
    assert smaller == len(pairs)  # an update is never smaller than its patch here
    if shutil.which("node") is not None:
        rebuilt = rebuild_in_node([(b, p) for b, p, _ in pairs])
        assert rebuilt == [now for _, _, now in pairs]


def rebuild_in_node(pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> list[Any]:
    """The browser's `applyPatch` (web/patch.js) on each (base, patch), run by node."""
    script = (
        f"import {{ applyPatch }} from {json.dumps((WEB / 'patch.js').as_uri())};\n"
        "let text = '';\n"
        "process.stdin.on('data', (d) => { text += d; });\n"
        "process.stdin.on('end', () => {\n"
        "  const out = JSON.parse(text).map(([b, p]) => applyPatch(b, p));\n"
        "  process.stdout.write(JSON.stringify(out));\n"
        "});\n"
    )
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        input=json.dumps(pairs),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    out: list[Any] = json.loads(done.stdout)
    return out


# -- over the real app's socket ------------------------------------------------------------


def rebuilt(ws: WebSocketTestSession, base: dict[str, Any]) -> dict[str, Any]:
    """The next update of a socket that asked for patches, rebuilt on `base`."""
    m = ws_receive(ws)
    assert m["type"] == "patch", m
    return patches.apply(base, m)


def test_a_socket_with_patches_rebuilds_what_a_socket_without_receives(
    client: TestClient,
) -> None:
    created = create(client, "thermopyles", 2)
    tid = created["id"]
    rng = random.Random(4)
    for seat, token in [*tokens_of(created).items(), (None, None)]:
        query = "" if token is None else f"token={token}&"
        with (
            client.websocket_connect(f"/ws/tables/{tid}?{query}patches=1") as ws_p,
            client.websocket_connect(f"/ws/tables/{tid}?{query}") as ws_w,
        ):
            base, whole = ws_receive(ws_p), ws_receive(ws_w)
            assert base["type"] == "update" and base == whole
            assert base["seat"] == seat
            for _ in range(6):
                assert play_one(client, created, rng)
                whole = ws_receive(ws_w)
                assert whole["type"] == "update"
                base = rebuilt(ws_p, base)
                assert base == whole
            assert ws_silent(ws_p) and ws_silent(ws_w)


def test_after_a_takeback_the_socket_sends_a_whole_update(client: TestClient) -> None:
    tid, tokens = takebacks.create(client, takebacks.HUMANS)
    with client.websocket_connect(f"/ws/tables/{tid}?token={tokens[1]}&patches=1") as ws:
        base = ws_receive(ws)
        assert base["type"] == "update"
        to = takebacks.until_takeback(client, tid, tokens, 0)
        now = takebacks.view(client, tid, tokens[1])
        while base["move"] < now["move"]:  # the moves played meanwhile, as patches
            base = rebuilt(ws, base)
        assert {**base, "log": None} == {**now, "log": None}  # the GET's log is the whole log
        r = takebacks.takeback(client, tid, {"action": "request", "token": tokens[0], "to": to})
        assert r.status_code == 200, r.text
        base = rebuilt(ws, base)  # the request: a row's change, no move
        assert base["takeback"] is not None and base["move"] == now["move"]
        r = takebacks.takeback(client, tid, {"action": "accept", "token": tokens[1]})
        assert r.status_code == 200, r.text
        back = ws_receive(ws)
        assert back["type"] == "update" and back["move"] == to < now["move"]
        # whole, the log too (not the lines after the move taken back to)
        assert back == takebacks.view(client, tid, tokens[1])
        takebacks.play_one(client, tid, tokens, random.Random(8))
        assert rebuilt(ws, back)["move"] > to


@pytest.mark.parametrize("value", ["2", "yes", "", "1 "])
def test_a_bad_patches_value_is_refused(client: TestClient, value: str) -> None:
    created = create(client, "thermopyles", 2)
    with client.websocket_connect(f"/ws/tables/{created['id']}?patches={value}") as ws:
        m = ws_receive(ws)
        assert m == {
            "type": "error",
            "status": 422,
            "detail": f"patches must be 0 or 1, not {value!r}",
        }
        with pytest.raises(Closed) as closed:
            ws_receive(ws)
        assert closed.value.code == 4422


def test_patches_0_is_whole_updates(client: TestClient) -> None:
    created = create(client, "thermopyles", 2)
    token = next(iter(tokens_of(created).values()))
    with client.websocket_connect(f"/ws/tables/{created['id']}?token={token}&patches=0") as ws:
        assert ws_receive(ws)["type"] == "update"
        assert play_one(client, created, random.Random(1))
        assert ws_receive(ws)["type"] == "update"
