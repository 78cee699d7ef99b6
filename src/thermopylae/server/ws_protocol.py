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
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

SERVER_WINDOW_BITS = 12  # deflate's window for the updates the server sends (4 KB)
CLIENT_WINDOW_BITS = 12  # the window the client is asked to use for its actions
LEVEL = 6  # zlib's default; 4 is 2% fewer instructions in zlib for 6% more bytes
MEM_LEVEL = 5  # zlib's hash table (8, zlib's default, costs more and saves no byte here)


def deflate_factory() -> ServerPerMessageDeflateFactory:
    """Per-message deflate as the server negotiates it (a browser that offers it gets it)."""
    return ServerPerMessageDeflateFactory(
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
