"""Shared fixtures, and the suite's own command-line options."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

# The suite makes hundreds of accounts: cheap password hashes (server/passwords.py), for
# the servers it runs in-process and in subprocesses alike. test_password_cost.py checks
# the default cost.
os.environ.setdefault("THERMOPYLAE_ARGON2_TIME_COST", "1")
os.environ.setdefault("THERMOPYLAE_ARGON2_MEMORY_KIB", "1024")

from thermopylae.games.thermopyles import game as thermopyles_game
from thermopylae.games.thermopyles.rules import Thermopyles


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--soak-full",
        action="store_true",
        default=os.environ.get("THERMOPYLAE_SOAK_FULL", "") not in ("", "0"),
        help="run the engine soak (tests/reliability/test_soak.py) at its full size, "
        "1,000,000 actions per game (minutes), instead of the default run's short one; "
        "THERMOPYLAE_SOAK_FULL=1 does the same (see docs/reliability.md)",
    )


@pytest.fixture
def game() -> Thermopyles:
    return thermopyles_game()


@pytest.fixture
def component_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The default component sets' cache (`engine.components.default_cached`) under
    `tmp_path`, where bytecode would go too, and written even on a machine that writes no
    bytecode."""
    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    return tmp_path
