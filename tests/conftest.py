"""Shared fixtures."""

from __future__ import annotations

import pytest

from thermopylae.games.thermopyles import game as thermopyles_game
from thermopylae.games.thermopyles.rules import Thermopyles


@pytest.fixture
def game() -> Thermopyles:
    return thermopyles_game()
