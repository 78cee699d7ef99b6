"""The move and the battle under way are shown with named fields, to both sides alike."""

from __future__ import annotations

from tests.earth_and_water.helpers import act, position
from thermopylae.games.earth_and_water import game as ew_game


def test_move_in_progress_is_shown_with_named_fields() -> None:
    g = ew_game()
    s = position(g, persia={"Thebai": (2, 0)}, greece={"Athenai": (2, 1)}, hands=([7], [3]))
    act(g, s, "event 7", "land Thebai", "armies 2")
    for seat in (0, 1, None):
        mv = g.view(s, seat)["move"]
        assert mv == {
            "side": "persia",
            "allowed": "land",
            "by": "land",
            "origin": "Thebai",
            "count": 2,
            "carry": 0,
            "event": 7,
            "not_from": None,
            "destination": None,
        }


def test_battle_in_progress_is_shown_with_named_fields() -> None:
    g = ew_game()
    s = position(g, persia={"Thebai": (2, 0)}, greece={"Athenai": (2, 1)}, hands=([7], [3]))
    act(g, s, "event 7", "land Thebai", "armies 2", "to Athenai")
    bt = g.view(s, 1)["battle"]
    assert bt is not None
    assert (bt["kind"], bt["city"], bt["attacker"], bt["from"], bt["by_sea"]) == (
        "land",
        "Athenai",
        "persia",
        "Thebai",
        False,
    )
    assert bt["scoring_event"] == 7 and bt["persian_start"] == 2 and not bt["cavalry"]
    assert g.view(s, 0)["battle"] == bt == g.view(s, None)["battle"]


def test_no_move_or_battle_between_turns() -> None:
    g = ew_game()
    s = position(g, hands=([7], [3]))
    v = g.view(s, 0)
    assert v["move"] is None and v["battle"] is None
