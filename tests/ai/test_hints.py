"""Hints from a seat's information only: the same hint for a position and for its twin
with other hidden cards; seeded; only for the seat that decides; shown at the prompt."""

from __future__ import annotations

import random

import pytest

from tests.cli_helpers import flat, run
from thermopylae.ai.base import make_agent
from thermopylae.ai.hints import suggest
from thermopylae.engine import registry
from thermopylae.engine.errors import ThermopylaeError
from thermopylae.engine.protocol import CHANCE


def a_decision(game_id: str, seed: int = 4, skip: int = 8) -> tuple[object, int]:
    """A position some way into a random game where a seat decides."""
    g = registry.get(game_id)
    options = g.options({})
    s = g.new(options)
    rng = random.Random(seed)
    agent = make_agent("random", g)
    n = 0
    while True:
        to = g.to_act(s)
        assert to is not None
        if to == CHANCE:
            g.apply(s, g.sample_chance(s, rng), quiet=True)
            continue
        if n >= skip:
            return s, to
        g.apply(s, agent.act(g, s, rng), quiet=True)
        n += 1


@pytest.mark.parametrize("game_id", ["thermopyles", "earth-and-water", "hot-gates"])
def test_a_hint_is_the_same_for_a_position_and_its_hidden_twin(game_id: str) -> None:
    g = registry.get(game_id)
    state, seat = a_decision(game_id)
    twin = g.determinize(state, seat, random.Random(99))  # other hidden cards
    assert g.view(twin, seat) == g.view(state, seat)
    one = suggest(g, state, seat, budget=4, seed=7)
    two = suggest(g, twin, seat, budget=4, seed=7)
    assert [(h.text, h.chance) for h in one] == [(h.text, h.chance) for h in two]
    assert 1 <= len(one) <= 3
    assert all(h.action in g.legal(state) for h in one)
    assert [h.chance.win for h in one] == sorted((h.chance.win for h in one), reverse=True)


def test_a_hint_is_only_for_the_seat_that_decides() -> None:
    g = registry.get("earth-and-water")
    state, seat = a_decision("earth-and-water")
    with pytest.raises(ThermopylaeError, match="seat that must decide"):
        suggest(g, state, 1 - seat, budget=2)
    with pytest.raises(ThermopylaeError):
        suggest(g, state, seat, budget=0)


def test_hint_at_the_prompt_lists_the_best_moves_with_their_chances() -> None:
    done = run("play", "thermopyles", "--seed", "3", answers=["hint 5", "hint lots", "quit"])
    text = flat(done.stdout)
    assert done.returncode == 0, done.stderr
    assert "Thinking (5 playouts a move)" in text
    assert "1. " in text and "to win (±" in text
    assert "No hint:" in text  # "lots" is not a number of playouts
