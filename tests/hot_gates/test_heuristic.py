"""The 300 heuristic reads a `Glance`, built from the state for speed: it must hold exactly
what the seat's JSON view shows, no more (no hidden card) and no less."""

from __future__ import annotations

import pytest

from tests.helpers import decision_positions
from thermopylae.engine import registry
from thermopylae.games.hot_gates.view import glance, glance_of_view


@pytest.mark.parametrize("players,seed", [(2, 1), (2, 2), (3, 3), (4, 4)])
def test_glance_equals_what_the_view_shows(players: int, seed: int) -> None:
    g = registry.get("hot-gates")
    positions = decision_positions("hot-gates", {"players": players}, seed, every=3)
    assert len(positions) > 30
    phases = set()
    for s in positions:
        for seat in range(players):
            assert glance(g, s, seat) == glance_of_view(g.view(s, seat))
        phases.add(g.phase_name(s))
    # The positions cover every kind of decision the heuristic reads.
    assert {"march", "casualty", "conquer"} <= phases
    assert any(p.endswith(" cards") for p in phases)
