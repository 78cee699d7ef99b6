"""The Persian faces a view shows are made once per component set (issue 21, item 7: a
server builds a view for every seat after every action): each view still gets its own
copies, and each component set its own faces."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from thermopylae.engine import registry
from thermopylae.engine.protocol import CHANCE
from thermopylae.games.thermopyles import view
from thermopylae.games.thermopyles.components import PersianKind
from thermopylae.games.thermopyles.rules import Thermopyles
from thermopylae.games.thermopyles.state import State
from thermopylae.games.thermopyles.tables import Tables


def _states(players: int, seed: int) -> list[State]:
    g = registry.get("thermopyles")
    s = g.new({"players": players})
    rng = random.Random(seed)
    out = []
    while (who := g.to_act(s)) is not None:
        out.append(g.copy(s))
        a = g.sample_chance(s, rng) if who == CHANCE else rng.choice(list(g.legal(s)))
        g.apply(s, a)
    return [*out, s]


def _view(s: State, t: Tables, seat: int | None) -> dict[str, Any]:
    v = view.view(s, t, seat, game_id="thermopyles", provisional=False, to_act=None)
    assert isinstance(v, dict)
    return v


def test_slots_show_each_card_as_card_makes_it() -> None:
    g = registry.get("thermopyles")
    assert isinstance(g, Thermopyles)
    t = g.tables
    for players in (1, 2, 4):
        for s in _states(players, players):
            for seat in (None, 0):
                v = _view(s, t, seat)
                assert v["slots"] == [view.card(t.components, k) for k in s.slots]
                assert v["locations"] == [dict(loc) for loc in t.locations]


def test_each_view_gets_its_own_copies() -> None:
    g = registry.get("thermopyles")
    assert isinstance(g, Thermopyles)
    t = g.tables
    s = next(s for s in _states(2, 5) if min(s.slots) >= 0)
    first = _view(s, t, 0)
    first["slots"][0]["combat"] = -99
    first["locations"][0]["name"] = "changed"
    second = _view(s, t, 0)
    assert second["slots"][0]["combat"] != -99
    assert second["locations"][0]["name"] != "changed"


def test_each_component_set_shows_its_own_faces() -> None:
    g = registry.get("thermopyles")
    assert isinstance(g, Thermopyles)
    t = g.tables
    c = t.components
    kinds = tuple(PersianKind(k.combat + 1, k.annihilation + 1, k.bonus) for k in c.persian_kinds)
    other = Tables.of(dataclasses.replace(c, persian_kinds=kinds))
    s = next(s for s in _states(2, 7) if min(s.slots) >= 0)
    mine, theirs = _view(s, t, None), _view(s, other, None)
    for k, a, b in zip(s.slots, mine["slots"], theirs["slots"], strict=True):
        assert a == view.card(c, k) and b == view.card(other.components, k)
        assert b["combat"] == a["combat"] + 1
    assert _view(s, t, None)["slots"] == mine["slots"]  # the first set's faces are kept
