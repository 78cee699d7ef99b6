"""The WebSocket's limits and refusals (issue 5): message size, messages per second, the
origin check, malformed messages, wrong tokens, and refused actions, each answered with an
error naming the status and changing nothing; and the frame size limit of a real server."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect
from websockets.typing import Origin

from tests.server.helpers import (
    Api,
    Closed,
    Server,
    not_legal,
    play_random,
    running,
    serve_in_process,
    tokens_of,
    ws_receive,
    ws_silent,
)
from thermopylae.server.app import BURST, MAX_WS_MESSAGE


@pytest.fixture(scope="module")
def api(sqlite_api: Api) -> Api:
    return sqlite_api


class Table:
    """A 2-seat Thermopyles table with a socket open for each seat and a spectator."""

    def __init__(self, api: Api, stack: ExitStack) -> None:
        self.api = api
        self.created = api.create("thermopyles", {"players": 2})
        self.id = self.created["id"]
        self.tokens = tokens_of(self.created)
        m = api.view(self.id)
        self.move = m["move"]
        self.to_act = m["to_act"]
        self.idle = next(s for s in self.tokens if s != self.to_act)
        self.legal = [x["action"] for x in api.view(self.id, self.tokens[self.to_act])["legal"]]
        self.ws: dict[str | None, WebSocketTestSession] = {}
        for seat in [*self.tokens, None]:
            self.ws[seat] = stack.enter_context(self.connect(seat))
            assert ws_receive(self.ws[seat])["move"] == self.move

    def connect(
        self, seat: str | None, token: str | None = None, headers: dict[str, str] | None = None
    ) -> Any:
        if token is None and seat is not None:
            token = self.tokens[seat]
        query = "" if token is None else f"?token={token}"
        return self.api.test_client.websocket_connect(
            f"/ws/tables/{self.id}{query}", headers=headers or {}
        )

    def snapshot(self) -> Any:
        return self.api.view(self.id), self.api.steps(self.id)

    def action(self, **change: Any) -> dict[str, Any]:
        msg: dict[str, Any] = {"type": "action", "move": self.move, "action": self.legal[0]}
        msg.update(change)
        return msg

    def quiet(self) -> None:
        """No socket was told of any change."""
        time.sleep(0.05)
        for ws in self.ws.values():
            assert ws_silent(ws, 0.001)


@pytest.fixture
def table(api: Api) -> Iterator[Table]:
    with ExitStack() as stack:
        yield Table(api, stack)


def error(ws: WebSocketTestSession) -> tuple[int, str]:
    m = ws_receive(ws)
    assert m["type"] == "error", m
    return m["status"], m["detail"]


def alive(ws: WebSocketTestSession) -> bool:
    ws.send_json({"type": "ping"})
    return ws_receive(ws) == {"type": "pong"}


# -- message size ----------------------------------------------------------------------------


def test_message_over_the_size_limit_is_refused(table: Table) -> None:
    ws = table.ws[table.to_act]
    before = table.snapshot()
    ws.send_text("x" * (MAX_WS_MESSAGE + 1))
    assert error(ws) == (413, f"message over {MAX_WS_MESSAGE} characters")
    # A legal action padded over the limit is refused too, and not played.
    text = json.dumps(table.action())
    ws.send_text(text[:-1] + " " * (MAX_WS_MESSAGE + 1 - len(text)) + "}")
    assert error(ws)[0] == 413
    assert table.snapshot() == before
    table.quiet()
    # At the limit exactly, a message is read; the socket stays open.
    ping = '{"type": "ping"}'
    ws.send_text(ping[:-1] + " " * (MAX_WS_MESSAGE - len(ping)) + "}")
    assert ws_receive(ws) == {"type": "pong"}
    assert alive(ws)


# -- rate --------------------------------------------------------------------------------------


def test_a_burst_of_messages_is_slowed_down(table: Table) -> None:
    ws = table.ws[table.idle]
    for _ in range(100):
        ws.send_json({"type": "ping"})
    answers = [ws_receive(ws) for _ in range(100)]
    pongs = sum(a == {"type": "pong"} for a in answers)
    limited = [a for a in answers if a.get("status") == 429]
    assert pongs + len(limited) == 100
    assert limited and limited[0]["detail"] == "too many messages; slow down"
    assert pongs >= BURST  # the burst passes; then what refills, 10 a second
    time.sleep(0.5)  # the allowance refills
    assert alive(ws)


def test_rate_limit_counts_actions_and_changes_nothing(table: Table) -> None:
    ws = table.ws[table.to_act]
    before = table.snapshot()
    for _ in range(60):
        ws.send_json(table.action(move=table.move + 1))  # stale: refused anyway
    statuses = [error(ws)[0] for _ in range(60)]
    assert set(statuses) == {409, 429}
    assert table.snapshot() == before


def test_each_connection_has_its_own_allowance(table: Table) -> None:
    a, b = table.ws[table.idle], table.ws[None]
    for _ in range(60):
        a.send_json({"type": "ping"})
    assert any(ws_receive(a).get("status") == 429 for _ in range(60))
    assert alive(b)


# -- origin ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "origin",
    ["http://evil.example", "http://testserver:8080", "null", "http://testserver.evil.example"],
)
def test_a_foreign_origin_is_refused(table: Table, origin: str) -> None:
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        table.connect(table.to_act, headers={"origin": origin}),
    ):
        pass
    assert refused.value.code == 1008


@pytest.mark.parametrize("origin", ["http://testserver", None])
def test_the_same_origin_or_none_is_accepted(table: Table, origin: str | None) -> None:
    headers = None if origin is None else {"origin": origin}
    with table.connect(table.to_act, headers=headers) as ws:
        m = ws_receive(ws)
        assert m["type"] == "update" and m["seat"] == table.to_act


def test_an_allowed_origin_is_accepted(tmp_path: Path) -> None:
    for api in serve_in_process(
        f"sqlite:///{tmp_path / 'tables.db'}", origins=("https://lobby.example",)
    ):
        created = api.create("thermopyles")
        url = f"/ws/tables/{created['id']}"
        lobby = {"origin": "https://lobby.example"}
        with api.test_client.websocket_connect(url, headers=lobby) as ws:
            assert ws_receive(ws)["type"] == "update"
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            api.test_client.websocket_connect(url, headers={"origin": "https://other.example"}),
        ):
            pass
        assert refused.value.code == 1008


# -- malformed messages --------------------------------------------------------------------------


def _action(**change: Any) -> Any:
    """A message: the right action with `change` (a value None drops the field)."""

    def build(t: Table) -> str:
        msg = {k: v for k, v in t.action(**change).items() if v is not None}
        return json.dumps(msg)

    return build


MALFORMED = [
    pytest.param(lambda t: "{not json", 400, "not valid JSON", id="bad-json"),
    pytest.param(lambda t: "[1, 2]", 400, "messages are", id="not-an-object"),
    pytest.param(lambda t: '"action"', 400, "messages are", id="a-string"),
    pytest.param(lambda t: '{"move": 1}', 400, "messages are", id="no-type"),
    pytest.param(lambda t: '{"type": "shout"}', 400, "messages are", id="unknown-type"),
    pytest.param(_action(seat="p1"), 422, "unknown field(s) ['seat']", id="unknown-field"),
    pytest.param(lambda t: _action(move=str(t.move))(t), 422, "move must be", id="move-a-string"),
    pytest.param(_action(move=True), 422, "move must be", id="move-a-boolean"),
    pytest.param(_action(move=1.5), 422, "move must be", id="move-a-fraction"),
    pytest.param(_action(move=None), 422, "move must be", id="no-move"),
    pytest.param(_action(action=7), 422, "action must be", id="action-a-number"),
    pytest.param(_action(action=""), 422, "action must be", id="action-empty"),
    pytest.param(_action(action=None), 422, "action must be", id="no-action"),
]


@pytest.mark.parametrize(("text", "status", "detail"), MALFORMED)
def test_malformed_message_is_refused(
    table: Table, text: Callable[[Table], str], status: int, detail: str
) -> None:
    ws = table.ws[table.to_act]
    before = table.snapshot()
    ws.send_text(text(table))
    got = error(ws)
    assert got[0] == status and detail in got[1], got
    assert table.snapshot() == before
    table.quiet()
    assert alive(ws)


# -- tokens ------------------------------------------------------------------------------------


@pytest.mark.parametrize("token", ["not-a-token", "OTHER"])
def test_a_wrong_token_is_refused_then_closed(api: Api, table: Table, token: str) -> None:
    if token == "OTHER":
        token = next(iter(tokens_of(api.create("thermopyles", {"players": 2})).values()))
    with table.connect(None, token=token) as ws:
        assert error(ws) == (403, "this token holds no seat at this table")
        with pytest.raises(Closed) as closed:
            ws_receive(ws)
        assert closed.value.code == 4403


def test_an_unknown_table_is_refused_then_closed(api: Api) -> None:
    with api.test_client.websocket_connect("/ws/tables/nope") as ws:
        assert error(ws) == (404, "no table 'nope'")
        with pytest.raises(Closed) as closed:
            ws_receive(ws)
        assert closed.value.code == 4404


# -- refused actions on the socket -----------------------------------------------------------------


REFUSED = [
    pytest.param("idle", {}, 409, "it is not your turn", id="not-your-turn"),
    pytest.param("to_act", {"move": "STALE"}, 409, "stale move number", id="stale-move"),
    pytest.param("to_act", {"action": "ILLEGAL"}, 400, "illegal action", id="illegal"),
    pytest.param("to_act", {"action": "fly"}, 400, "not an action", id="unparseable"),
    pytest.param(None, {}, 403, "a seat token is required", id="spectator"),
]


@pytest.mark.parametrize(("who", "change", "status", "detail"), REFUSED)
def test_refused_action_on_the_socket_changes_nothing(
    table: Table, who: str | None, change: dict[str, Any], status: int, detail: str
) -> None:
    if change.get("move") == "STALE":
        change["move"] = table.move - 1
    if change.get("action") == "ILLEGAL":
        change["action"] = not_legal("thermopyles", table.legal)
    seat = None if who is None else getattr(table, who)
    ws = table.ws[seat]
    before = table.snapshot()
    ws.send_json(table.action(**change))
    got = error(ws)
    assert got[0] == status and detail in got[1], got
    assert table.snapshot() == before
    table.quiet()
    # The right action on the socket is played, and every socket is told.
    table.ws[table.to_act].send_json(table.action())
    for ws in table.ws.values():
        m = ws_receive(ws)
        assert m["type"] == "update" and m["move"] > table.move


def test_action_after_the_end_on_the_socket(api: Api) -> None:
    created = api.create("thermopyles", {"players": 1})
    last, _ = play_random(api, created, random.Random(2))
    token = tokens_of(created)["p1"]
    with api.test_client.websocket_connect(f"/ws/tables/{created['id']}?token={token}") as ws:
        assert ws_receive(ws)["outcome"] == last["outcome"]
        ws.send_json({"type": "action", "move": last["move"], "action": "retreat"})
        assert error(ws) == (409, "the game is over")
    assert api.view(created["id"])["move"] == last["move"]


# -- a real server: the frame size limit, and the origin check over HTTP ---------------------------


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("live")
    with running(Server(["--data-dir", str(folder)], folder / "server.log")) as server:
        yield server


def test_a_real_server_closes_sockets_sending_huge_frames(live: Server) -> None:
    import httpx

    created = httpx.post(f"{live.url}/api/tables", json={"game": "thermopyles"}).json()
    token = created["seats"][0]["token"]
    with connect(f"{live.ws_url}/ws/tables/{created['id']}?token={token}") as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "update"
        ws.send("x" * 5000)
        assert json.loads(ws.recv(timeout=10))["status"] == 413
        ws.send("x" * (100 * 1024))  # over uvicorn's ws_max_size (64 KiB): closed
        with pytest.raises(websockets.ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_a_real_server_refuses_a_foreign_origin(live: Server) -> None:
    import httpx

    created = httpx.post(f"{live.url}/api/tables", json={"game": "thermopyles"}).json()
    url = f"{live.ws_url}/ws/tables/{created['id']}"
    with pytest.raises(websockets.InvalidStatus) as refused:
        connect(url, origin=Origin("http://evil.example"), open_timeout=10)
    assert refused.value.response.status_code == 403
    with connect(url, origin=Origin(live.url), open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "update"


def test_a_binary_message_is_refused(live: Server) -> None:
    import httpx

    created = httpx.post(f"{live.url}/api/tables", json={"game": "thermopyles"}).json()
    token = created["seats"][0]["token"]
    with connect(f"{live.ws_url}/ws/tables/{created['id']}?token={token}") as ws:
        first = json.loads(ws.recv(timeout=10))
        ws.send(
            json.dumps(
                {"type": "action", "move": first["move"], "action": first["legal"][0]["action"]}
            ).encode()
        )
        answer = json.loads(ws.recv(timeout=10))
        assert answer["type"] == "error" and answer["status"] in (400, 415)
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=10)) == {"type": "pong"}


def test_serve_http_rate_option_limits_each_address(tmp_path: Path) -> None:
    """`thermopylae serve --http-rate 0.01`: one POST (a burst is at least one), then 429
    naming the limit, and the refused table is not created."""
    server = Server(["--data-dir", str(tmp_path), "--http-rate", "0.01"], tmp_path / "log")
    with running(server):
        answers = [
            httpx.post(f"{server.url}/api/tables", json={"game": "thermopyles"}, timeout=30)
            for _ in range(3)
        ]
        assert [r.status_code for r in answers] == [201, 429, 429]
        assert "too many requests" in answers[1].json()["detail"]
        assert "Retry-After" in answers[1].headers
        # Reads are not limited; the table of the first POST exists.
        table = answers[0].json()["id"]
        assert httpx.get(f"{server.url}/api/tables/{table}", timeout=30).status_code == 200
