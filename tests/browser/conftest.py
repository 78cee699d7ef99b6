"""Fixtures of the browser tests: the real server (uvicorn in a thread, SQLite in a temporary
folder) and Debian's Chromium driven by Playwright (pytest-playwright).

Each xdist worker starts its own server on a free port of 127.0.0.1 and its own browser.
Never run `playwright install`: the browser is Debian's `chromium` package (`.ci/run`
installs it when it is missing); without it these tests fail, saying so.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

# The limit on waiting for the server's start-up (see PATIENCE in tests/server/helpers.py).
PATIENCE = float(os.environ.get("THERMOPYLAE_TEST_PATIENCE", "300"))

# Playwright's assertions wait 5 s by default: on the 2-core machine busy with the suite's
# other workers, a board can take longer to show. They return as soon as they hold, so a
# longer limit slows no passing test; it only catches a page that never gets there.
expect.set_options(timeout=30_000)

ARTIFACTS = Path(__file__).parent / "artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str:
    for candidate in ("/usr/bin/chromium", shutil.which("chromium"), "/usr/lib/chromium/chromium"):
        if candidate and Path(candidate).exists():
            return candidate
    pytest.fail(
        "the browser tests need Debian's Chromium (`apt-get install chromium`; "
        "`.ci/run` installs it); never `playwright install`",
        pytrace=False,
    )


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_type_launch_args, "executable_path": chromium_path(), "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": {"width": 1280, "height": 900}, "locale": "en-US"}


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real server (this worker's own), answering at the returned URL."""
    import uvicorn

    from thermopylae.server.app import create_app
    from thermopylae.server.ws_protocol import TableSocketProtocol

    app = create_app(data_dir=tmp_path_factory.mktemp("server-data"))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    # the sockets as `serve` runs them: its protocol, its deflate (short messages plain)
    config = uvicorn.Config(
        app, log_level="warning", lifespan="on", ws=TableSocketProtocol, ws_max_size=64 * 1024
    )
    srv = uvicorn.Server(config)
    thread = threading.Thread(
        target=srv.run, kwargs={"sockets": [sock]}, daemon=True, name="browser-test-server"
    )
    thread.start()
    deadline = time.monotonic() + PATIENCE  # only a hang: a busy machine starts slowly
    while not srv.started:
        if not thread.is_alive():
            pytest.fail("the server under test stopped before it started", pytrace=False)
        if time.monotonic() > deadline:
            pytest.fail(f"the server under test did not start within {PATIENCE:g} s", pytrace=False)
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)
    sock.close()


@pytest.fixture(scope="session")
def base_url(server: str) -> str:
    return server


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where screenshots go (gitignored)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
