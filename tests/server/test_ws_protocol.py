"""The WebSocket protocol `serve` gives uvicorn (`server/ws_protocol.py`, issue 21): the
deflate settings a client that offers per-message deflate gets (none with
`--no-ws-compression`), small messages sent uncompressed among compressed ones, the flow
control of a socket whose app does not read: reading
stops at the second message waiting, and starts again once the app has taken them all;
and the socket's own `push` of a short message: the bytes uvicorn's ASGI send writes,
refused (False, nothing written) whenever the ASGI send has more to do."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from typer.testing import CliRunner
from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import (
    ClientPerMessageDeflateFactory,
    PerMessageDeflate,
)
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.sync.client import connect
from websockets.uri import parse_uri

from tests.server.helpers import Server, all_running
from thermopylae.cli import app
from thermopylae.server.ws_protocol import (
    CLIENT_WINDOW_BITS,
    PLAIN_BELOW,
    PUSH,
    SERVER_WINDOW_BITS,
    SmallPlainDeflate,
    TableSocketProtocol,
    deflate_factory,
)


def test_serve_runs_the_servers_websocket_protocol(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda web, **options: seen.update(options))
    r = CliRunner().invoke(app, ["serve", "--data-dir", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert seen["ws"] is TableSocketProtocol


def test_a_real_server_negotiates_its_deflate_and_no_deflate_when_told(tmp_path: Path) -> None:
    on = Server(["--data-dir", str(tmp_path / "on")], tmp_path / "on.log")
    off = Server(["--data-dir", str(tmp_path / "off"), "--no-ws-compression"], tmp_path / "off.log")
    with all_running(on, off):
        for server, deflate in ((on, True), (off, False)):
            created = httpx.post(f"{server.url}/api/tables", json={"game": "thermopyles"}).json()
            token = created["seats"][0]["token"]
            # websockets' client offers permessage-deflate; client_max_window_bits
            url = f"{server.ws_url}/ws/tables/{created['id']}?token={token}&patches=1"
            with connect(url) as ws:
                assert ws.response is not None
                offered = ws.response.headers.get("Sec-WebSocket-Extensions")
                first = json.loads(ws.recv(timeout=10))  # compressed (long)
                assert first["type"] == "update"
                action = first["legal"][0]["action"]
                ws.send(json.dumps({"type": "action", "move": first["move"], "action": action}))
                after = json.loads(ws.recv(timeout=10))  # a patch: short, sent as it is
                assert after["type"] == "patch" and after["move"] > first["move"]
            if deflate:
                assert offered == (
                    f"permessage-deflate; server_max_window_bits={SERVER_WINDOW_BITS}; "
                    f"client_max_window_bits={CLIENT_WINDOW_BITS}"
                )
            else:
                assert offered is None


def _agreed(server_params: list[tuple[str, str | None]]) -> PerMessageDeflate:
    """The client's side of the deflate the server agreed to."""
    return ClientPerMessageDeflateFactory(client_max_window_bits=True).process_response_params(
        server_params, []
    )


def test_a_short_message_goes_uncompressed_among_compressed_ones_and_all_decode() -> None:
    offer = ClientPerMessageDeflateFactory(client_max_window_bits=True).get_request_params()
    response, server = deflate_factory().process_request_params(offer, [])
    assert isinstance(server, SmallPlainDeflate)
    client = _agreed(response)
    update = json.dumps({"view": {"board": list(range(300))}, "legal": ["a"] * 40}).encode()
    short = b'{"type":"patch","move":3}'
    assert len(short) < PLAIN_BELOW <= len(update)
    sent = [update, short, update.replace(b"a", b"b"), short, update]
    frames = [server.encode(Frame(Opcode.TEXT, m)) for m in sent]
    assert [f.rsv1 for f in frames] == [True, False, True, False, True]
    assert frames[1].data == short  # as it is
    assert len(frames[4].data) < len(frames[0].data)  # the window still reaches the first
    assert [client.decode(f).data for f in frames] == sent
    ping = Frame(Opcode.PING, b"x")
    assert server.encode(ping) is ping  # control frames: never compressed
    first = server.encode(Frame(Opcode.TEXT, b"ab", fin=False))  # a fragmented message
    assert first.rsv1  # compressed whole, however short its frames


class _Transport(asyncio.Transport):
    """What the protocol writes, and how often it paused and resumed reading."""

    def __init__(self) -> None:
        super().__init__()
        self.written = bytearray()
        self.paused = 0
        self.resumed = 0
        self.closing = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"sockname": ("127.0.0.1", 8300), "peername": ("127.0.0.1", 40000)}.get(
            name, default
        )

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written += data

    def pause_reading(self) -> None:
        self.paused += 1

    def resume_reading(self) -> None:
        self.resumed += 1

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True


def _opened(app: Any, deflate: bool) -> tuple[TableSocketProtocol, _Transport, ClientProtocol]:
    """serve's protocol for `app` on a recording transport, with a websockets client (which
    offers deflate) whose opening handshake has been handed to it."""
    config = Config(app=app, ws_per_message_deflate=deflate, ws_max_size=64 * 1024)
    config.load()
    protocol = TableSocketProtocol(config, ServerState(), {}, asyncio.get_running_loop())
    transport = _Transport()
    protocol.connection_made(transport)
    client = ClientProtocol(
        parse_uri("ws://127.0.0.1:8300/ws/tables/t"),
        extensions=[ClientPerMessageDeflateFactory(client_max_window_bits=True)],
    )
    client.send_request(client.connect())
    protocol.data_received(b"".join(client.data_to_send()))
    return protocol, transport, client


async def _until(condition: Any) -> None:
    for _ in range(200):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the protocol did not get there")


@pytest.mark.parametrize("deflate", [True, False])
def test_reading_stops_at_the_second_waiting_message_and_resumes_once_taken(
    deflate: bool,
) -> None:
    async def scenario() -> None:
        gate = asyncio.Event()
        taken: list[dict[str, Any]] = []

        async def asgi(scope: Any, receive: Any, send: Any) -> None:
            assert (await receive())["type"] == "websocket.connect"
            await send({"type": "websocket.accept"})
            await gate.wait()  # the app is busy: messages wait in the protocol's queue
            while len(taken) < 3:
                taken.append(await receive())

        protocol, transport, client = _opened(asgi, deflate)
        await _until(lambda: transport.written)
        client.receive_data(bytes(transport.written))
        [response] = client.events_received()
        assert isinstance(response, Response) and response.status_code == 101
        if deflate:
            [ext] = client.extensions
            assert isinstance(ext, PerMessageDeflate)
            assert ext.remote_max_window_bits == SERVER_WINDOW_BITS
            assert ext.local_max_window_bits == CLIENT_WINDOW_BITS
        else:
            assert client.extensions == []

        def message(text: str) -> None:
            client.send_text(text.encode())
            protocol.data_received(b"".join(client.data_to_send()))

        message("one")  # one message waiting: reading goes on
        assert (transport.paused, transport.resumed) == (0, 0)
        message("two")  # a second before the app took the first: reading stops
        assert (transport.paused, transport.resumed) == (1, 0)
        message("three")  # already read (a client that does not wait): queued, as uvicorn does
        assert transport.paused == 1
        gate.set()
        await _until(lambda: len(taken) == 3)
        assert [m["text"] for m in taken] == ["one", "two", "three"]
        assert (transport.paused, transport.resumed) == (1, 1)  # resumed once all were taken

        message("four")  # a message the app takes at once: no pause, no resume
        assert (transport.paused, transport.resumed) == (1, 1)
        protocol.connection_lost(None)

    asyncio.run(scenario())


@pytest.mark.parametrize("deflate", [True, False])
def test_push_writes_what_the_asgi_send_writes_or_refuses(deflate: bool) -> None:
    short = json.dumps({"type": "patch", "move": 3, "log": ["é" * 60]}).encode()  # 126+ bytes
    tiny = b'{"type":"pong"}'
    long = json.dumps({"view": list(range(400))}).encode()
    assert len(tiny) < 126 <= len(short) < PLAIN_BELOW <= len(long)

    async def scenario() -> None:
        pushes: list[bool] = []
        done = asyncio.Event()

        async def asgi(scope: Any, receive: Any, send: Any) -> None:
            assert (await receive())["type"] == "websocket.connect"
            push = scope["extensions"][PUSH]
            assert push(tiny) is False  # before the handshake: the ASGI send's to refuse
            await send({"type": "websocket.accept"})
            for data in (tiny, short, long):
                await send({"type": "websocket.send", "text": data.decode()})
                pushes.append(push(data))
            protocol.pause_writing()  # flow control: the ASGI send would wait
            pushes.append(push(tiny))
            protocol.resume_writing()
            await send({"type": "websocket.close", "code": 1000})
            pushes.append(push(tiny))  # after the close
            done.set()

        protocol, transport, client = _opened(asgi, deflate)
        await asyncio.wait_for(done.wait(), 5)
        # a compressed long message by push: refused, so it was sent once, by ASGI
        assert pushes == [True, True, not deflate, False, False]
        client.receive_data(bytes(transport.written))
        response, *frames = client.events_received()
        assert isinstance(response, Response) and response.status_code == 101
        texts = [f.data for f in frames if isinstance(f, Frame)]
        sent = [tiny, tiny, short, short, long] + ([long] if not deflate else [])
        assert texts[: len(sent)] == sent
        # byte for byte what websockets writes for such a frame on the server's side
        for data in (tiny, short):
            framed = Frame(Opcode.TEXT, data).serialize(mask=False)
            assert bytes(transport.written).count(framed) == 2
        protocol.connection_lost(None)

    asyncio.run(scenario())
