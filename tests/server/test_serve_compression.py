"""`serve --ws-compression / --no-ws-compression`: what uvicorn is told to do with
per-message deflate on the WebSockets (issue 21: a bandwidth trade the operator chooses,
compression on by default)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner

from thermopylae.cli import app


@pytest.mark.parametrize(("flags", "deflate"), [([], True), (["--no-ws-compression"], False)])
def test_serve_hands_its_websocket_compression_to_uvicorn(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, flags: list[str], deflate: bool
) -> None:
    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda web, **options: seen.update(options))
    r = CliRunner().invoke(app, ["serve", "--data-dir", str(tmp_path), *flags])
    assert r.exit_code == 0, r.output
    assert seen["ws_per_message_deflate"] is deflate
    assert seen["ws_max_size"] == 64 * 1024  # the other socket options stay as they were
