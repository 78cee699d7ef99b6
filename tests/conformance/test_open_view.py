"""The open view (a replay's "all hands"), for every registered game and player count.

It is the spectator's view with the hidden parts shown: it keeps everything a spectator
sees, shows each seat whatever that seat sees of its own beyond a spectator (its hand),
and, for a game that re-deals hidden parts, it changes when they are re-dealt (else it
would show no hidden part at all).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conformance.sampled import Case, plain_determinize, positions, redealt
from thermopylae.engine import registry

pytestmark = pytest.mark.usefixtures("toy_registered")

NAMES = {"seat", "side"}  # who the view is for: a spectator's is None, the open view's too


def keeps(spectator: Any, shown: Any) -> bool:
    """Whether `shown` holds every value `spectator` holds (None there: anything)."""
    if spectator is None:
        return True
    if isinstance(spectator, dict):
        return (
            isinstance(shown, dict)
            and spectator.keys() == shown.keys()
            and all(keeps(v, shown[k]) for k, v in spectator.items())
        )
    if isinstance(spectator, list):
        return (
            isinstance(shown, list)
            and len(spectator) == len(shown)
            and all(keeps(a, b) for a, b in zip(spectator, shown, strict=True))
        )
    return bool(spectator == shown)


def shows_beyond(spectator: Any, seat: Any, shown: Any, top: bool = True) -> list[str]:
    """The places where `seat` sees something a spectator does not and `shown` differs."""
    if isinstance(spectator, dict) and isinstance(seat, dict) and isinstance(shown, dict):
        return [
            f"{k}.{p}"
            for k in spectator.keys() & seat.keys() & shown.keys()
            if not (top and k in NAMES)
            for p in shows_beyond(spectator[k], seat[k], shown[k], False)
        ] + [
            k for k in spectator.keys() & seat.keys() if not (top and k in NAMES) and k not in shown
        ]
    if isinstance(spectator, list) and isinstance(seat, list) and isinstance(shown, list):
        if len(spectator) == len(seat) == len(shown):
            return [
                f"{i}.{p}"
                for i, (a, b, c) in enumerate(zip(spectator, seat, shown, strict=True))
                for p in shows_beyond(a, b, c, False)
            ]
        return []
    if spectator is None and seat is not None and seat != shown:
        return ["(value)"]
    return []


def test_the_open_view_keeps_what_a_spectator_sees_and_each_seat_its_own(case: Case) -> None:
    for played, _, s in positions(case):
        game = played.game
        shown = game.open_view(s)
        spectator = game.view(s, None)
        assert keeps(spectator, shown), "the open view hides what a spectator sees"
        for seat in range(case.players):
            missing = shows_beyond(spectator, game.view(s, seat), shown)
            assert not missing, f"seat {seat} sees {missing} that the open view does not show"


def test_the_open_view_shows_what_is_re_dealt(each_game: str) -> None:
    """A game with hidden parts (its own `determinize`) shows them: at some sampled
    position, a re-dealt state's open view differs from the original's."""
    game = registry.get(each_game)
    for s, t in redealt(each_game):
        if game.open_view(t) != game.open_view(s):
            return
    if plain_determinize(game):
        return  # nothing hidden to show
    raise AssertionError(f"{each_game}: the open view never shows a re-dealt hidden part")
