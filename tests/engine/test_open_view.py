"""Each game's open view shows every seat's hand, as that seat sees it."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.toy import registered
from thermopylae.engine import registry
from thermopylae.engine.protocol import GenericGame


def midgame(game: GenericGame, options: dict[str, Any], seed: int) -> Any:
    """A position some steps into a random game (hands dealt, not over)."""
    rng = random.Random(seed)
    s = game.new(game.options(options))
    for _ in range(12):
        who = game.to_act(s)
        if who is None:
            break
        game.apply(s, game.sample_chance(s, rng) if who < 0 else rng.choice(list(game.legal(s))))
    return s


def seat_hands(game_id: str, view: Any) -> list[Any]:
    """The cards of each hand in a view, by seat (None where hidden)."""
    hands = view["hands"]
    if game_id == "earth-and-water":
        return [hands["persia"]["cards"], hands["greece"]["cards"]]
    return [h["cards"] for h in hands]


@pytest.mark.parametrize(
    ("game_id", "options"),
    [
        ("thermopyles", {"players": 3}),
        ("earth-and-water", {}),
        ("hot-gates", {"players": 2}),
        ("hot-gates", {"players": 4}),
        ("toy", {"players": 3}),
    ],
)
def test_every_seat_s_hand_is_in_the_open_view(game_id: str, options: dict[str, Any]) -> None:
    with registered():
        game = registry.get(game_id)
        s = midgame(game, options, 5)
        shown = seat_hands(game_id, game.open_view(s))
        assert seat_hands(game_id, game.view(s, None)) == [None] * len(shown)
        for seat in range(len(shown)):
            own = seat_hands(game_id, game.view(s, seat))[seat]
            assert own is not None and shown[seat] == own
        assert any(shown), "no cards dealt: the test shows nothing"
