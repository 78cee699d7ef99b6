"""A forfeit in 300: The Board Game: the side of the seat that gives up loses (with 3
players the two Spartan seats, with 4 the two of either side, stand or fall together)."""

from __future__ import annotations

import pytest

from thermopylae.engine import registry


@pytest.mark.parametrize(
    ("players", "seat", "results"),
    [
        (2, 0, ("loss", "win")),
        (2, 1, ("win", "loss")),
        (3, 0, ("loss", "win", "win")),
        (3, 1, ("win", "loss", "loss")),
        (3, 2, ("win", "loss", "loss")),
        (4, 0, ("loss", "loss", "win", "win")),
        (4, 1, ("loss", "loss", "win", "win")),
        (4, 2, ("win", "win", "loss", "loss")),
        (4, 3, ("win", "win", "loss", "loss")),
    ],
)
def test_the_forfeiting_seats_side_loses(players: int, seat: int, results: tuple[str, ...]) -> None:
    game = registry.get("hot-gates")
    options = game.options({"players": players})
    state = game.new(options)
    outcome = game.forfeit(state, seat, "time")
    assert outcome.results == results
    assert outcome.scores == tuple(1.0 if r == "win" else 0.0 for r in results)
    assert outcome.reason == "time"
    assert outcome.turns == 1  # the first round is under way
    names = game.seats(options)
    assert len({names[p][:6] for p, r in enumerate(results) if r == "loss"}) == 1  # one side
