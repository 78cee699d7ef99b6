"""The WebSocket protocol `serve` gives uvicorn (`server/ws_protocol.py`, issue 21): the
deflate settings a client that offers per-message deflate gets (none with
`--no-ws-compression`), small messages sent uncompressed among compressed ones, the flow
control of a socket whose app does not read: reading
stops at the second message waiting, and starts again once the app has taken them all;
the socket's own `push` of a short message: the bytes uvicorn's ASGI send writes,
refused (False, nothing written) whenever the ASGI send has more to do; and the protocol's
own reading of a short client frame: the same messages to the app and the same bytes back
(closes included) as websockets' reading, for good, odd and broken input."""

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
from websockets.http11 import Request, Response
from websockets.server import ServerProtocol
from websockets.sync.client import connect
from websockets.uri import parse_uri

from tests.server.helpers import Server, all_running
from thermopylae.cli import app
from thermopylae.server import ws_protocol
from thermopylae.server.ws_protocol import (
    CLIENT_WINDOW_BITS,
    FAST_BELOW,
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

        config = Config(app=asgi, ws_per_message_deflate=deflate, ws_max_size=64 * 1024)
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

        config = Config(app=asgi, ws_per_message_deflate=deflate, ws_max_size=64 * 1024)
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


def _client_chunks(deflate: bool) -> list[bytes]:
    """What a client sends after its handshake request (the first chunk), read by the
    server in these pieces: short texts (compressed with deflate), a long one, a ping, a
    fragmented message, a frame split over two reads, two frames in one read, then broken
    frames, each after the last good one (the socket closes at the first)."""
    client = ClientProtocol(
        parse_uri("ws://127.0.0.1:8300/ws/tables/t"),
        extensions=[ClientPerMessageDeflateFactory(client_max_window_bits=True)] if deflate else [],
    )
    client.send_request(client.connect())
    chunks = [b"".join(client.data_to_send())]
    # the server's answer (as the server under test will make it), read by the client
    server = ServerProtocol(extensions=[ws_protocol.deflate_factory()] if deflate else [])
    server.receive_data(chunks[0])
    [request] = server.events_received()
    assert isinstance(request, Request)
    server.send_response(server.accept(request))
    client.receive_data(b"".join(server.data_to_send()))

    def text(t: str, fin: bool = True) -> bytes:
        client.send_text(t.encode(), fin=fin)
        return b"".join(client.data_to_send())

    action = json.dumps({"type": "action", "move": 3, "action": "play 2"})
    chunks += [text(action), text('{"type":"ping"}'), text("é" * 40)]
    # long: short once compressed (read here with deflate), and long either way
    chunks.append(text(json.dumps({"type": "action", "action": "x" * (2 * FAST_BELOW)})))
    noise = "".join(f"{(i * 7919) % 10007:x}" for i in range(FAST_BELOW))
    chunks.append(text(noise))
    client.send_ping(b"p")
    chunks.append(b"".join(client.data_to_send()))
    chunks.append(text("part one, ", fin=False))
    client.send_continuation(b"part two", fin=True)
    chunks.append(b"".join(client.data_to_send()))
    whole = text(action)
    chunks += [whole[:3], whole[3:]]  # a frame over two reads
    chunks.append(text("first") + text("second"))  # two frames in one read
    chunks.append(text(action))
    return chunks


_BROKEN = {
    "bad utf-8": bytes([0x81, 0x82, 0, 0, 0, 0, 0xC3, 0x28]),
    "unmasked": bytes([0x81, 0x02]) + b"hi" + b"\0" * 4,
    "rsv2": bytes([0xA1, 0x82, 0, 0, 0, 0]) + b"hi",
    "compressed garbage": bytes([0xC1, 0x84, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]),
    "binary": bytes([0x82, 0x82, 0, 0, 0, 0]) + b"hi",  # not broken: bytes to the app
}


def _served(chunks: list[bytes], deflate: bool, fast: bool) -> tuple[list[Any], bytes]:
    """What the app received and what the server wrote after its handshake answer."""

    async def scenario() -> tuple[list[Any], bytes]:
        taken: list[Any] = []

        async def asgi(scope: Any, receive: Any, send: Any) -> None:
            assert (await receive())["type"] == "websocket.connect"
            await send({"type": "websocket.accept"})
            while True:
                m = await receive()
                taken.append(m)
                if m["type"] == "websocket.disconnect":
                    return

        config = Config(app=asgi, ws_per_message_deflate=deflate, ws_max_size=64 * 1024)
        config.load()
        protocol = TableSocketProtocol(config, ServerState(), {}, asyncio.get_running_loop())
        if not fast:
            protocol._read_text = lambda data: False  # type: ignore[method-assign]
        transport = _Transport()
        protocol.connection_made(transport)
        protocol.data_received(chunks[0])
        await _until(lambda: b"\r\n\r\n" in transport.written)
        answered = transport.written.index(b"\r\n\r\n") + 4
        for chunk in chunks[1:]:
            protocol.data_received(chunk)
            for _ in range(5):
                await asyncio.sleep(0)
        protocol.connection_lost(None)
        for _ in range(5):
            await asyncio.sleep(0)
        return taken, bytes(transport.written[answered:])

    return asyncio.run(scenario())


@pytest.mark.parametrize("deflate", [True, False])
@pytest.mark.parametrize("broken", [None, *_BROKEN])
def test_reading_a_short_frame_here_is_reading_it_through_websockets(
    deflate: bool, broken: str | None
) -> None:
    chunks = _client_chunks(deflate)
    good = len(chunks)
    if broken is not None:
        chunks.append(_BROKEN[broken])
        chunks.append(chunks[1])  # after the close: discarded either way
    read_here = []
    original = ws_protocol.TableSocketProtocol._read_text

    def counting(self: TableSocketProtocol, data: bytes) -> bool:
        done = original(self, data)
        read_here.append(done)
        return done

    ws_protocol.TableSocketProtocol._read_text = counting  # type: ignore[method-assign]
    try:
        fast = _served(chunks, deflate, fast=True)
    finally:
        ws_protocol.TableSocketProtocol._read_text = original  # type: ignore[method-assign]
    slow = _served(chunks, deflate, fast=False)
    assert fast == slow  # the same messages to the app, the same bytes back
    texts = [m.get("text") for m in fast[0] if m["type"] == "websocket.receive"]
    action = '{"type": "action", "move": 3, "action": "play 2"}'
    assert texts[:3] == [action, '{"type":"ping"}', "é" * 40]
    assert texts[5:10] == ["part one, part two", action, "first", "second", action]
    # the three short frames, the x's when compressed, and the last, each alone in a read
    assert read_here[:good].count(True) == (5 if deflate else 4)
    if broken not in (None, "binary"):  # closed, with the same close frame
        close = fast[1][fast[1].rindex(b"\x88") :]
        assert close[0] == 0x88 and fast[0][-1]["type"] == "websocket.disconnect"
