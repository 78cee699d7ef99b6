"""The WebSocket protocol `serve` gives uvicorn: uvicorn's own (websockets' sans-I/O), with
per-message deflate set by the server and the socket not paused for one message.

uvicorn stops reading a socket each time it queues a message for the app and starts again
when the app has taken it: two changes of the event loop's poll set an action (42.8 -> 41.0
system calls an action, 100 tables). Here the first message queued is not a reason to stop
reading; a second one, before the app took the first, is, as before. A client that sends
faster than the app reads is still paused, one message later.

Deflate is set here so that its trade is the server's, whatever uvicorn's version chooses.
An update after a move is ~1.7 KB of JSON, most of it the seat's previous update again; a
4 KB window (12 bits) at zlib's level 6 and memLevel 5 (uvicorn 0.55's choice) makes it
~130 bytes. Measured and not taken (docs/reliability.md, "eighth pass"): a 32 KB window at
level 3 halves zlib's instructions and keeps the bytes, but takes ~112 KB more a socket and
two page faults more an action, for no less CPU; levels 1-3 at 12 bits double the bytes.

A message under `PLAIN_BELOW` bytes is sent uncompressed (RFC 7692 lets a sender leave a
message's RSV1 bit clear; the receiver's inflater then never sees it, as the deflater did
not). A patch after a move (`server/patches.py`, ~430 bytes) fits one packet either way,
and compressing it costs what reloading its socket's deflater into the cache costs: ~18 us
of ~1 ms an action (docs/reliability.md, "ninth pass"). Whole updates, first updates and
the Board Game's bigger patches are still compressed.

A socket also offers the app its own way to send such a message (`PUSH`, in the scope's
ASGI extensions): the frame's bytes written to the transport in one call, where the ASGI
`send` went through Starlette's checks, two exception wrappers, uvicorn's `send`, and
websockets' frame object, its checks, the extension and its serialisation (~29 us a
push at 100 tables, the socket write included). Only when nothing else is to be done:
the socket open and writable, nothing queued, no fragment under way, and the message
one frame that goes uncompressed; else the app sends as before.
"""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Callable, Sequence
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import OPEN
from websockets.server import ServerProtocol
from websockets.typing import ExtensionParameter

SERVER_WINDOW_BITS = 12  # deflate's window for the updates the server sends (4 KB)
CLIENT_WINDOW_BITS = 12  # the window the client is asked to use for its actions
LEVEL = 6  # zlib's default; 4 is 2% fewer instructions in zlib for 6% more bytes
MEM_LEVEL = 5  # zlib's hash table (8, zlib's default, costs more and saves no byte here)


PLAIN_BELOW = 1024  # bytes: a whole message shorter than this is sent uncompressed
_DATA = (Opcode.TEXT, Opcode.BINARY)
PUSH = "thermopylae.push"  # the scope's extension: `Push`, a socket's own send of a text
Push = Callable[[bytes], bool]  # UTF-8 text -> sent (False: send it through ASGI instead)
_TEXT_FIN = 0x81  # FIN and the text opcode; RSV bits clear (not compressed), no mask


class SmallPlainDeflate(PerMessageDeflate):
    """Per-message deflate that leaves a one-frame message under `PLAIN_BELOW` bytes as it
    is (RSV1 clear); longer messages and fragmented ones are compressed as websockets
    does."""

    @staticmethod
    def leaves_plain(size: int) -> bool:
        """Whether a one-frame data message of `size` bytes goes uncompressed (`encode`,
        and the socket's own `push`, which writes only such messages)."""
        return size < PLAIN_BELOW

    def encode(self, frame: Frame) -> Frame:
        if frame.fin and frame.opcode in _DATA and self.leaves_plain(len(frame.data)):
            return frame
        return super().encode(frame)


class _ServerDeflateFactory(ServerPerMessageDeflateFactory):
    """websockets' negotiation as it is, handing out `SmallPlainDeflate`."""

    def process_request_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        response, agreed = super().process_request_params(params, accepted_extensions)
        return response, SmallPlainDeflate(
            agreed.remote_no_context_takeover,
            agreed.local_no_context_takeover,
            agreed.remote_max_window_bits,
            agreed.local_max_window_bits,
            self.compress_settings,
        )


def deflate_factory() -> ServerPerMessageDeflateFactory:
    """Per-message deflate as the server negotiates it (a browser that offers it gets it)."""
    return _ServerDeflateFactory(
        server_max_window_bits=SERVER_WINDOW_BITS,
        client_max_window_bits=CLIENT_WINDOW_BITS,
        compress_settings={"level": LEVEL, "memLevel": MEM_LEVEL},
    )


class TableSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol with `deflate_factory` and one message's grace before
    the socket is paused; `serve` passes it to uvicorn as `ws=`."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        if config.ws_per_message_deflate:  # as uvicorn builds it, with the server's deflate
            self.conn = ServerProtocol(
                extensions=[deflate_factory()],
                max_size=config.ws_max_size,
                logger=self.conn.logger,
            )

    def handle_connect(self, event: Request) -> None:
        """uvicorn's, then `push` offered to the app in the scope's extensions."""
        super().handle_connect(event)
        scope: Any = getattr(self, "scope", None)  # none when the handshake was refused
        if scope is not None:
            scope["extensions"][PUSH] = self.push

    def push(self, data: bytes) -> bool:
        """Write a text message (`data`, UTF-8) as one frame straight to the transport,
        the bytes websockets would write, if nothing stands in the way: the handshake done,
        the socket open and writable (uvicorn's flow control), no close sent or under way,
        nothing queued by websockets, no fragmented message started, no debug log, and the
        message going uncompressed (no deflate, or shorter than `PLAIN_BELOW`). False when
        something does: the app then sends through ASGI, which deals with it as before."""
        conn = self.conn
        n = len(data)
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or self.initial_response is not None
            or not self.writable.is_set()
            or conn.state is not OPEN
            or conn.writes
            or conn.expect_continuation_frame
            or conn.debug
            or self.transport.is_closing()
        ):
            return False
        for extension in conn.extensions:
            if not (isinstance(extension, SmallPlainDeflate) and extension.leaves_plain(n)):
                return False
        if n < 126:
            head = bytes((_TEXT_FIN, n))
        elif n < 65536:
            head = struct.pack("!BBH", _TEXT_FIN, 126, n)
        else:
            head = struct.pack("!BBQ", _TEXT_FIN, 127, n)
        self.transport.write(head + data)
        return True

    def send_receive_event_to_app(self) -> None:
        """Queue a complete message for the app; pause reading only if one is already
        waiting (uvicorn pauses at every message and resumes when the queue is empty)."""
        if self.read_paused or not self.queue.empty():
            super().send_receive_event_to_app()  # pauses as uvicorn does
            return
        self.read_paused = True  # uvicorn's own flag: its method does not pause for this one
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = False
