"""The server's AI levels come from the game (`Game.levels`), not from a table of the
shipped games: the toy has no heuristic, so its `normal` and `hard` are what its
`levels()` says (GameBase's default: the random agent), and a table with such seats
plays to the end like any other.

On the branch that wrote it this fails: server/tables.py maps `normal` and `hard` to
`heuristic` (and to a table of per-game searches) whatever the game, so the toy's AI
seats are refused with 422 "unknown AI 'normal'". It passes once the server asks
`game.levels(players, seat)`."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.helpers import Api, play_random, serve_in_process
from tests.toy import GAME_ID, Toy

pytestmark = pytest.mark.usefixtures("toy_registered")


@pytest.fixture
def api(tmp_path: Path, toy_registered: Toy) -> Iterator[Api]:
    yield from serve_in_process(f"sqlite:///{tmp_path / 'tables.db'}")


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_toys_ai_levels_are_its_own(api: Api, level: str, toy_registered: Toy) -> None:
    assert toy_registered.levels(2, "p1")[level] == "random"
    created = api.create(
        GAME_ID, {"players": 2}, [{"kind": "ai", "level": level}, {"kind": "human"}]
    )
    last, _ = play_random(api, created, random.Random(1))
    assert last["outcome"] is not None
