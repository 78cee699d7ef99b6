"""The two-player 300 position estimate (`evaluation.py`) that the informed search uses
at its cut-off: its features line up with its weights, and it moves the right way for
the two things the game is a race between, Glory and Ephialtes."""

from __future__ import annotations

from typing import Any

from tests.helpers import decision_positions
from thermopylae.engine import registry
from thermopylae.games.hot_gates.evaluation import FEATURES, WEIGHTS, evaluate, features
from thermopylae.games.hot_gates.rules import HotGates


def _positions() -> list[Any]:
    g = registry.get("hot-gates")
    assert isinstance(g, HotGates)
    out = []
    for seed in (1, 2, 3):
        out += [
            s
            for s in decision_positions("hot-gates", {"players": 2}, seed, every=4)
            if g.to_act(s) is not None
        ]
    return out


def test_every_feature_has_a_weight() -> None:
    g = registry.get("hot-gates")
    assert isinstance(g, HotGates)
    s = g.new(g.options({"players": 2}))
    assert len(FEATURES) == len(WEIGHTS) == len(features(s, g.t))


def test_estimates_are_chances_that_add_up_to_one() -> None:
    g = registry.get("hot-gates")
    assert isinstance(g, HotGates)
    for s in _positions():
        est = evaluate(s, g.t)
        assert est is not None
        assert 0.0 < est[1] < 1.0 and abs(sum(est) - 1.0) < 1e-9


def test_more_glory_is_better_for_the_spartans_after_the_first_round() -> None:
    g = registry.get("hot-gates")
    assert isinstance(g, HotGates)
    checked = 0
    for s in _positions():
        if s.round < 2 or s.glory[1] > 70:
            continue
        before = evaluate(s, g.t)
        s.glory[1] += 20
        after = evaluate(s, g.t)
        assert before is not None and after is not None
        assert after[1] > before[1]
        checked += 1
    assert checked > 20


def test_ephialtes_closer_to_the_end_is_better_for_the_persians() -> None:
    g = registry.get("hot-gates")
    assert isinstance(g, HotGates)
    checked = 0
    for s in _positions():
        if s.glory[1] > 60 or s.eph + 1 >= g.components.goat_path:
            continue
        before = evaluate(s, g.t)
        s.eph += 1
        after = evaluate(s, g.t)
        assert before is not None and after is not None
        assert after[0] > before[0]
        checked += 1
    assert checked > 20
