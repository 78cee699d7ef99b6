"""No agent spends a card whose effect cannot apply (300: The Board Game, decision 35).

The position is the one the hard Persian was seen to play "Forced march" in: the first
move of `thermopylae play hot-gates --seed 5`, the March Phase's card window of round 1,
where the set-up leaves no unit of either side a move."""

from __future__ import annotations

import random
from typing import Any

import pytest

from thermopylae.ai.base import make_agent
from thermopylae.ai.playout import choices
from thermopylae.engine import registry
from thermopylae.engine.protocol import CHANCE
from thermopylae.games.hot_gates import cards
from thermopylae.games.hot_gates.actions import Play

G: Any = registry.get("hot-gates")
OPTIONS = G.options({"players": 2})


def seed_5() -> Any:
    """The first decision of a 2-player game whose chance is drawn from Random(5)."""
    s = G.new(OPTIONS)
    rng = random.Random(5)
    while G.to_act(s) == CHANCE:
        G.apply(s, G.sample_chance(s, rng))
    return s


def pointless(s: Any, action: Any) -> bool:
    return isinstance(action, Play) and not cards.can_apply(s, G.t, G.to_act(s), action.card)


def test_p24_the_seed_5_position_holds_a_pointless_card() -> None:
    s = seed_5()
    assert G.view(s, 0)["phase"] == "march cards" and G.to_act(s) == 0
    legal = [G.format(a) for a in G.legal(s)]
    forced_march = next(
        G.format(a)
        for a in G.legal(s)
        if isinstance(a, Play) and G.cards[a.card].title == "Forced march"
    )
    assert forced_march in legal  # the rules let it be played ...
    assert not G.could_march(s, range(2))  # ... but nobody can march at the set-up
    assert [G.format(a) for a in G.sensible(s)] == [a for a in legal if a != forced_march]


SPECS = [
    G.levels(2, "persia")["hard"],
    "ismcts:iterations=30",
    "ismcts:iterations=40,playout=heuristic,prior=1",
    "rollout:samples=4,depth=10",
    "heuristic",
]


@pytest.mark.parametrize("spec", SPECS)
def test_p24_no_agent_chooses_a_card_whose_effect_cannot_apply(spec: str | None) -> None:
    """The hard agent (the server's level for 300's Persia), ISMCTS with random and with
    heuristic playouts, the rollout and the heuristic, with several random sources, play
    the whole card window of that position (the Spartan seat by the heuristic), and the
    Persian never plays a pointless card."""
    assert spec is not None
    agent = make_agent(spec, G)
    spartan = make_agent("heuristic", G)
    for seed in range(6):
        s = seed_5()
        rng = random.Random(seed)
        while G.view(s, None)["phase"] == "march cards":
            who = G.to_act(s)
            a = (agent if who == 0 else spartan).act(G, s, rng)
            assert not pointless(s, a), (spec, seed, G.format(a))
            G.apply(s, a, quiet=True)


def test_p24_the_hard_level_is_the_informed_search() -> None:
    informed = "ismcts:iterations=60,playout=heuristic,depth=40,prior=1"
    assert G.levels(2, "persia")["hard"] == informed


def test_p24_searches_fall_back_on_legal_for_a_game_without_sensible() -> None:
    """Earth & Water knows no pointless plays: its `sensible` is the engine's default,
    its own `legal` (GameBase makes it so), and that is what its searches choose among."""
    e = registry.get("earth-and-water")
    assert choices(e) == e.legal
    s = e.new(e.options())
    rng = random.Random(1)
    while e.to_act(s) is not None:
        if e.to_act(s) == CHANCE:
            e.apply(s, e.sample_chance(s, rng))
        else:
            assert list(choices(e)(s)) == list(e.legal(s))
            break
    assert choices(G) == G.sensible
