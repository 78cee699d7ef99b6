"""The 300 heuristic reads a `Glance`, built from the state for speed: it must hold exactly
what the seat's JSON view shows, no more (no hidden card) and no less. And the Spartan
rules measured to win more (Dilios, the conquest, the boosts) hold."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.helpers import decision_positions
from thermopylae.engine import registry
from thermopylae.games.hot_gates.actions import Move, Play
from thermopylae.games.hot_gates.components import DILIOS
from thermopylae.games.hot_gates.heuristic import (
    ADVANCE_MIN,
    LEADER_ROUND,
    ROW,
    Heuristic,
    _Me,
)
from thermopylae.games.hot_gates.rules import HotGates
from thermopylae.games.hot_gates.view import glance, glance_of_view


@pytest.mark.parametrize("players,seed", [(2, 1), (2, 2), (3, 3), (4, 4)])
def test_glance_equals_what_the_view_shows(players: int, seed: int) -> None:
    g = registry.get("hot-gates")
    assert isinstance(g, HotGates)
    positions = decision_positions("hot-gates", {"players": players}, seed, every=3)
    assert len(positions) > 30
    phases = set()
    for s in positions:
        for seat in range(players):
            assert glance(s, g.t, seat) == glance_of_view(g.view(s, seat))
        phases.add(g.phase_name(s))
    # The positions cover every kind of decision the heuristic reads.
    assert {"march", "casualty", "conquer"} <= phases
    assert any(p.endswith(" cards") for p in phases)


def _spartan_decisions(phase: str, seeds: range) -> list[Any]:
    """Positions of random two-player games where the Spartans decide in `phase`."""
    g = registry.get("hot-gates")
    assert isinstance(g, HotGates)
    return [
        s
        for seed in seeds
        for s in decision_positions("hot-gates", {"players": 2}, seed, every=1)
        if g.to_act(s) == 1 and g.phase_name(s) == phase
    ]


def test_spartan_heuristic_keeps_dilios_out_of_reach() -> None:
    """Dilios never marches onto the Coastal Plain nor to within two spaces of the
    Persian front of his row: his loss costs the Spartans 10 Glory."""
    g = registry.get("hot-gates")
    assert isinstance(g, HotGates)
    h = Heuristic()
    offered = 0
    for s in _spartan_decisions("march", range(40)):
        legal = g.legal(s)
        v = glance(s, g.t, 1)
        risky = set()
        for a in legal:
            if isinstance(a, Move) and a.piece >> 1 == DILIOS:
                row = a.dst // ROW
                foe = max(
                    (sp for sp in range(row * ROW, row * ROW + ROW) if v.sides[sp] == "persian"),
                    default=-1,
                )
                if a.dst % ROW < 3 or (foe >= 0 and a.dst <= foe + 2):
                    risky.add(a)
        offered += bool(risky)
        assert h.act(g, s, random.Random(0)) not in risky
    assert offered >= 5  # the rule was put to the test


def test_spartan_heuristic_always_advances_into_a_conquered_space() -> None:
    """After a won battle the Spartans move into the conquered space whenever they may,
    strongest unit first."""
    g = registry.get("hot-gates")
    assert isinstance(g, HotGates)
    h = Heuristic()
    seen = 0
    for s in _spartan_decisions("conquer", range(60)):
        moves = [a for a in g.legal(s) if isinstance(a, Move)]
        if not moves:
            continue
        seen += 1
        a = h.act(g, s, random.Random(0))
        assert a in moves
        assert isinstance(a, Move)
        assert g.t.attack[a.piece] == max(g.t.attack[m.piece] for m in moves)
    assert seen >= 3


def test_only_the_spartans_boost_every_battle() -> None:
    """A Spartan boost is worth playing in any round with any hand (the race against
    Ephialtes); a Persian keeps boosts for late rounds or a full hand."""
    g = registry.get("hot-gates")
    assert isinstance(g, HotGates)
    for s in decision_positions("hot-gates", {"players": 2}, 3, every=1):
        if s.round == 1 and len(s.hands[0]) < 3 and len(s.hands[1]) < 3:
            break
    else:
        raise AssertionError("no early position with small hands")
    sparta = _Me(g.t, glance(s, g.t, 1), ADVANCE_MIN, LEADER_ROUND)
    persia = _Me(g.t, glance(s, g.t, 0), ADVANCE_MIN, LEADER_ROUND)
    assert sparta.important({}) is True
    assert persia.important({}) is False


@pytest.mark.parametrize("players", [2, 3, 4])
def test_p24_the_heuristic_never_spends_a_card_whose_effect_cannot_apply(players: int) -> None:
    """Over whole games, every card the heuristic plays is one `sensible` keeps (it used to
    spend a march card at the set-up, where no unit can march, in a third of the games)."""
    g = registry.get("hot-gates")
    agent = g.agents()["heuristic"]()
    played = 0
    for seed in range(12):
        rng, chance = random.Random(seed), random.Random(1000 + seed)
        state = g.new(g.options({"players": players}))
        while (seat := g.to_act(state)) is not None:
            if seat == -1:
                g.apply(state, g.sample_chance(state, chance), quiet=True)
                continue
            action = agent.act(g, g.copy(state), rng)
            if isinstance(action, Play):
                played += 1
                assert action in g.sensible(state), (seed, g.format(action))
            g.apply(state, action, quiet=True)
    assert played > 0
