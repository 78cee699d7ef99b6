"""Progress bars on a real terminal: the commands that draw one run to the end and draw it.

The other CLI tests pipe stderr, so no bar is ever drawn there; here stderr is the slave
end of a pseudo-terminal, as in a user's shell (rich's live display enters its console as
a context manager, which a lazy console must allow)."""

from __future__ import annotations

import os
import pty
import subprocess

import pytest

from tests.cli_helpers import entry_point


def _on_a_terminal(*args: str) -> tuple[int, str, str]:
    """The command's exit code, stdout, and what it drew on its terminal's stderr."""
    master, slave = pty.openpty()
    env = {**os.environ, "LC_ALL": "C.UTF-8", "NO_COLOR": "1", "COLUMNS": "100"}
    try:
        done = subprocess.run(
            [*entry_point(), *args],
            stdout=subprocess.PIPE,
            stderr=slave,
            stdin=subprocess.DEVNULL,
            env=env,
            timeout=120,
        )
    finally:
        os.close(slave)
    drawn = bytearray()
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the terminal is gone once everything is read
            break
        if not chunk:
            break
        drawn += chunk
    os.close(master)
    return done.returncode, done.stdout.decode(), drawn.decode(errors="replace")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_simulate_draws_its_progress_bar_on_a_terminal(workers: str) -> None:
    code, out, drawn = _on_a_terminal(
        "simulate", "thermopyles", "--games", "200", "--workers", workers
    )
    assert code == 0, drawn
    assert "games 200" in out
    assert "200/200" in drawn
    assert "Error" not in drawn and "Traceback" not in drawn
