"""The pinned games play as they did: same agents, same seeds, same record digests
(`pinned_games.py` says where the digests come from and how to write them anew)."""

from __future__ import annotations

import json

import pytest

from tests.conformance.pinned_games import PINNED, digests, keys


@pytest.mark.parametrize(
    ("game_id", "players", "spec"), keys(), ids=lambda v: str(v).replace(":", "-")
)
def test_pinned_games_keep_their_record_digests(game_id: str, players: int, spec: str) -> None:
    expected = json.loads(PINNED.read_text(encoding="utf-8"))[f"{game_id}/{players}/{spec}"]
    assert digests(game_id, players, spec) == expected
