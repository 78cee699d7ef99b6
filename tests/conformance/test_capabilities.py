"""The contract's capabilities (`engine.protocol.Game`, after `agents`), for every
registered game: each answers with what the faces expect of it, whether the game
overrides it or keeps `engine.game.GameBase`'s default."""

from __future__ import annotations

import math
from typing import Any

import pytest

from tests.conformance.sampled import Case, games, options_for, positions
from thermopylae.ai.base import make_agent
from thermopylae.engine import registry
from thermopylae.engine.game import GameBase
from thermopylae.engine.protocol import CHANCE

pytestmark = pytest.mark.usefixtures("toy_registered")


def test_every_registered_game_extends_the_base(case: Case) -> None:
    """Every capability has a default on `GameBase`, so a game on it answers them all."""
    assert isinstance(registry.get(case.game_id), GameBase)


def test_levels_are_agent_specs_for_every_seat(case: Case) -> None:
    game = registry.get(case.game_id)
    options = options_for(game, case.players)
    for seat in game.seats(options):
        levels = game.levels(case.players, seat)
        assert set(levels) == {"easy", "normal", "hard"}, (seat, levels)
        for level, spec in levels.items():
            assert isinstance(spec, str), (level, spec)
            agent = make_agent(spec, game)  # raises on a name or budget it does not know
            assert callable(agent.act)


def test_the_observer_gives_its_size_for_every_view(case: Case) -> None:
    game = registry.get(case.game_id)
    options = options_for(game, case.players)
    observer = game.observer(options)
    if observer is None:
        return
    layout = list(observer.layout())
    assert layout and all(
        isinstance(name, str) and isinstance(size, int) and size > 0 and isinstance(text, str)
        for name, size, text in layout
    )
    assert len({name for name, _, _ in layout}) == len(layout), "two fields of one name"
    assert sum(size for _, size, _ in layout) == observer.size
    for played, _, s in positions(case):
        if played.options != options:
            continue  # the observer was made for these options
        for seat in range(case.players):
            values = [float(v) for v in observer.features(game.view(s, seat))]  # NumPy too
            assert len(values) == observer.size
            assert all(math.isfinite(v) for v in values)


def test_sensible_actions_are_legal_ones(case: Case) -> None:
    for played, _, s in positions(case):
        game = played.game
        if game.to_act(s) in (None, CHANCE):
            continue
        legal = list(game.legal(s))
        sensible = list(game.sensible(s))
        assert sensible, "no sensible action where there are legal ones"
        assert set(sensible) <= set(legal)


def test_evaluate_is_none_or_a_chance_per_seat(case: Case) -> None:
    for played, _, s in positions(case):
        game = played.game
        if game.outcome(s) is not None:
            continue
        estimate: Any = game.evaluate(s)
        if estimate is None:
            continue
        assert len(estimate) == case.players
        assert all(isinstance(x, float) and 0.0 <= x <= 1.0 for x in estimate), estimate


def test_texts_for_screens(case: Case) -> None:
    """`render`, `hand_text` for each view, `reason_text` of each outcome, `label` of each
    legal action: strings (or None where the contract allows it)."""
    for played, _, s in positions(case):
        game = played.game
        for seat in (None, *range(case.players)):
            view = game.view(s, seat)
            assert isinstance(game.render(view), str)
            hand = game.hand_text(view)
            assert hand is None or isinstance(hand, str)
            if seat is None:
                assert hand is None, "a spectator has no hand"
        for a in game.legal(s):
            assert isinstance(game.label(a), str) and game.label(a)
    for played in games(case):
        outcome = played.game.outcome(played.final)
        assert outcome is not None
        assert isinstance(played.game.reason_text(outcome.reason), str)
    assert isinstance(games(case)[0].game.rules_text(), str)
