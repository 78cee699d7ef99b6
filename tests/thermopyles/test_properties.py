"""Property tests: invariants that must hold after every step of thousands of random games.

Each test plays whole games (1-4 players, open hands on and off) from a seed drawn by
Hypothesis, and checks the game through the public protocol after every step: card
accounting, the legal-action contract, chance distributions, serialisation, notation,
and that views and events never leak hidden information.
"""

from __future__ import annotations

import json
import random
from bisect import insort
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from thermopylae.ai.base import make_agent
from thermopylae.engine.errors import IllegalAction
from thermopylae.engine.protocol import CHANCE, Event, visible_events
from thermopylae.games.thermopyles import game as thermopyles_game
from thermopylae.games.thermopyles.actions import Draw, Fight, Retreat, Reveal, Roll
from thermopylae.games.thermopyles.state import DISCARD, SETUP, TURN

GAME = thermopyles_game()
SPARTAN_CARDS, PERSIAN_CARDS, SUPPORT_CARDS = 20, 28, 4
HAND_LIMIT = 5
GRAVEYARD_WIN = 12
# Spartan cards never come back (no reshuffle), so there are at most 20 fights, and the
# 6th retreat lands on location 7 and loses: no game can last more than 26 turns.
MAX_TURNS = SPARTAN_CARDS + 6
MAX_STEPS = 600

seeds = st.integers(min_value=0, max_value=2**32 - 1)
players = st.integers(min_value=1, max_value=4)
open_hands = st.booleans()
SETTINGS: dict[str, Any] = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow],
}

Step = Callable[[Any, int, Any, list[Event], Any], None]


def play(
    n_players: int, open_hands: bool, seed: int, agent: str = "random", on_step: Step | None = None
) -> Any:
    """One whole game; `on_step(before, seat, action, events, after)` after every step."""
    game = GAME
    rng = random.Random(seed)
    options = game.options({"players": n_players, "open_hands": open_hands})
    player = make_agent(agent, game)
    s = game.new(options)
    steps = 0
    while (seat := game.to_act(s)) is not None:
        before = game.copy(s)
        if seat == CHANCE:
            action = game.sample_chance(s, rng)
        else:
            action = player.act(game, s, rng)
            assert action in game.legal(s), f"{agent} chose an illegal {action!r}"
        events = game.apply(s, action)
        steps += 1
        if on_step is not None:
            on_step(before, seat, action, events, s)
        assert steps <= MAX_STEPS, f"game still running after {steps} steps"
    outcome = game.outcome(s)
    assert outcome is not None
    assert outcome.turns <= MAX_TURNS
    return s


def persian_texts(cards: list[int]) -> list[str]:
    return [GAME.components.persian_kinds[k].text for k in cards]


def check_accounting(j: dict[str, Any]) -> None:
    """Every card of the set is in exactly one place (read from the position JSON)."""
    c = GAME.components
    spartan = Counter(j["spartan_deck"]) + Counter(j["spartan_discard"])
    spartan += Counter(v for hand in j["hands"] for v in hand)
    if j["fight"] is not None:
        spartan[j["fight"]["card"]] += 1
    assert sum(spartan.values()) == SPARTAN_CARDS
    assert spartan == Counter(c.spartan)
    persian = Counter(j["persian_deck"]) + Counter(j["persian_discard"])
    persian += Counter(j["graveyard"]) + Counter(t for t in j["slots"] if t is not None)
    assert sum(persian.values()) == PERSIAN_CARDS
    assert persian == Counter(persian_texts(list(c.persian)))


# -- the invariants, after every step ----------------------------------------------------


def hand_limit_ok(s: Any) -> bool:
    """No hand above 5, except the recipient's 6 while it must discard."""
    discarding = s.recipient if s.phase == DISCARD else -1
    return all(
        len(h) == HAND_LIMIT + 1 if p == discarding else len(h) <= HAND_LIMIT
        for p, h in enumerate(s.hands)
    )


@settings(max_examples=1600, **SETTINGS)
@given(
    seed=seeds,
    n=players,
    open_hands=open_hands,
    agent=st.sampled_from(["random", "random", "random", "heuristic"]),
)
def test_invariants_after_every_step(seed: int, n: int, open_hands: bool, agent: str) -> None:
    """Cheap checks on the state itself, so that thousands of games fit in seconds."""
    game = GAME
    c = game.components
    spartan, persian = sorted(c.spartan), sorted(c.persian)
    assert len(spartan) == SPARTAN_CARDS and len(persian) == PERSIAN_CARDS
    used_support = 0
    first = game.new(game.options({"players": n, "open_hands": open_hands}))
    assert game.to_act(first) == CHANCE and first.support == SUPPORT_CARDS

    def on_step(before: Any, seat: int, action: Any, events: list[Event], s: Any) -> None:
        nonlocal used_support
        # every card in exactly one place
        held = [v for hand in s.hands for v in hand]
        assert sorted(s.sdeck + s.sdiscard + held + ([s.card] if s.card else [])) == spartan
        slots = [k for k in s.slots if k >= 0]
        assert sorted(s.pdeck + s.pdiscard + s.graveyard + slots) == persian
        # support cards: those left plus those spent in fights
        if isinstance(action, Fight):
            used_support += action.support
        assert s.support >= 0 and s.support + used_support == SUPPORT_CARDS
        # the marker moves back one location on a retreat, and only then
        assert 1 <= s.marker <= 7
        assert s.marker == before.marker + isinstance(action, Retreat)
        # the hand limit; the opening hands (4 cards solo, else 3 each)
        assert hand_limit_ok(s), (s, action)
        if before.phase == SETUP and s.phase != SETUP:
            assert [len(h) for h in s.hands] == [4 if n == 1 else 3] * n
            assert all(k >= 0 for k in s.slots) and s.marker == 1
        # the graveyard only grows; its 12th card wins at once
        assert before.graveyard == s.graveyard[: len(before.graveyard)]
        assert len(s.graveyard) <= GRAVEYARD_WIN
        # a turn is a retreat or a fight
        assert s.turn == before.turn + isinstance(action, Retreat | Fight)
        if seat == CHANCE:
            assert isinstance(action, Roll | Draw | Reveal)
        else:
            assert not isinstance(action, Roll | Draw | Reveal)
        # an outcome exactly when nobody is to act
        to_act = game.to_act(s)
        outcome = game.outcome(s)
        assert (outcome is None) == (to_act is not None)
        if len(s.graveyard) == GRAVEYARD_WIN:
            assert outcome is not None and outcome.results[0] == "win"
        if outcome is not None:
            assert len(outcome.results) == n and len(set(outcome.results)) == 1
            assert outcome.results[0] in ("win", "loss")
            assert outcome.turns == s.turn and outcome.reason
            assert not list(game.legal(s))
            no_cards = not s.sdeck and not any(s.hands)
            empty_slots = sum(k < 0 for k in s.slots)
            if outcome.results[0] == "loss":  # onto location 7, or out of cards
                assert s.marker == 7 or no_cards
            else:  # 12 annihilated, or the Persian army cannot refill the slots
                assert len(s.graveyard) == GRAVEYARD_WIN or len(s.pdeck) < empty_slots
            with pytest.raises(IllegalAction):
                game.apply(game.copy(s), game.parse("retreat"))
        elif to_act == CHANCE:
            # a distribution over distinct outcomes; samples lie in its support
            dist = game.chance(s)
            outcomes = {a for a, _ in dist}
            assert dist and len(outcomes) == len(dist)
            assert all(p > 0 for _, p in dist)
            assert abs(sum(p for _, p in dist) - 1.0) < 1e-9
            assert game.sample_chance(s, random.Random(seed)) in outcomes
        else:
            legal = list(game.legal(s))
            assert legal and len(set(legal)) == len(legal)
            assert not game.chance(s)
            if s.phase == TURN and not s.hands[to_act]:
                assert legal == [Retreat()]  # a player with no card must retreat
            if s.phase == TURN:  # with no card in any hand nor in the deck, the team lost
                assert s.sdeck or any(s.hands)
        # events: private ones go to one seat, and never to anyone else
        check_events(events, n, action)

    play(n, open_hands, seed, agent, on_step)


@settings(max_examples=150, **SETTINGS)
@given(seed=seeds, n=players, open_hands=open_hands)
def test_positions_and_notation_round_trip(seed: int, n: int, open_hands: bool) -> None:
    """After every step: the position JSON accounts for every card and round-trips, every
    action in play round-trips through text and integer, every legal action applies."""
    game = GAME

    def on_step(before: Any, seat: int, action: Any, events: list[Event], s: Any) -> None:
        j = game.state_to_json(s)
        check_accounting(j)
        assert json.loads(json.dumps(j)) == j
        assert game.state_to_json(game.state_from_json(j)) == j
        assert game.parse(game.format(action)) == action
        assert game.decode(game.encode(action)) == action
        for a, _ in game.chance(s):
            assert game.parse(game.format(a)) == a
            assert game.decode(game.encode(a)) == a
        for a in game.legal(s):
            assert game.parse(game.format(a)) == a
            assert game.decode(game.encode(a)) == a
            game.apply(game.copy(s), a)

    play(n, open_hands, seed, "random", on_step)


def check_events(events: list[Event], n: int, action: Any) -> None:
    for e in events:
        json.dumps(e.to_json())
        assert e.to is None or 0 <= e.to < n
        assert GAME.describe(e)
    for seat in [None, *range(n)]:
        visible = visible_events(events, seat)
        assert all(e.to is None or e.to == seat for e in visible)
        assert [e for e in events if e.to is None] == [e for e in visible if e.to is None]
    if isinstance(action, Draw):
        # the card drawn into a hand is told to its holder only
        private = [e for e in events if e.to is not None]
        assert [e.data.get("card") for e in private] == [action.card]
        assert all("card" not in e.data for e in events if e.to is None)


# -- hidden information -----------------------------------------------------------------


def swapped(s: Any, p: int, hand_card: int, deck_card: int) -> Any:
    """`s` with a card of p's hand exchanged for a card of the Spartan deck."""
    t = GAME.copy(s)
    t.hands[p].remove(hand_card)
    insort(t.hands[p], deck_card)
    t.sdeck.remove(deck_card)
    t.sdeck.append(hand_card)
    GAME.state_from_json(GAME.state_to_json(t))  # still a consistent position
    return t


def hand_swapped(s: Any, p: int, q: int, a: int, b: int) -> Any:
    """`s` with card `a` of p's hand exchanged for card `b` of q's hand."""
    t = GAME.copy(s)
    t.hands[p].remove(a)
    insort(t.hands[p], b)
    t.hands[q].remove(b)
    insort(t.hands[q], a)
    return t


def check_views(s: Any, n: int, open_hands: bool, rng: random.Random) -> None:
    game = GAME
    views = {seat: game.view(s, seat) for seat in [None, *range(n)]}
    for seat, v in views.items():
        json.dumps(v)
        assert isinstance(v["spartan_deck"], int) and isinstance(v["persian_deck"], int)
        for p, h in enumerate(v["hands"]):
            assert h["count"] == len(s.hands[p])
            if p == seat or open_hands:
                assert h["cards"] == list(s.hands[p])
            else:
                assert h["cards"] is None, f"seat {seat} sees the hand of p{p + 1}"
    # the order of face-down decks is never part of what anyone sees
    t = GAME.copy(s)
    t.sdeck.reverse()
    t.pdeck.reverse()
    rng.shuffle(t.sdeck)
    for seat, v in views.items():
        assert game.view(t, seat) == v
    # exchanging a hidden card of p with the Spartan deck changes only what p sees
    for p in range(n):
        pairs = [(x, y) for x in set(s.hands[p]) for y in set(s.sdeck) if x != y]
        if not pairs:
            continue
        t = swapped(s, p, *rng.choice(pairs))
        for seat, v in views.items():
            if seat == p or open_hands:
                assert game.view(t, seat) != v  # the test can tell the states apart
            else:
                assert game.view(t, seat) == v, f"seat {seat} can tell p{p + 1}'s hand"
                if game.to_act(s) == seat:
                    assert list(game.legal(t)) == list(game.legal(s))
    # exchanging cards between two other players changes nothing a third seat sees
    for p in range(n):
        for q in range(p + 1, n):
            pairs = [(a, b) for a in set(s.hands[p]) for b in set(s.hands[q]) if a != b]
            if not pairs:
                continue
            t = hand_swapped(s, p, q, *rng.choice(pairs))
            for seat, v in views.items():
                if seat in (p, q) or open_hands:
                    assert game.view(t, seat) != v
                else:
                    assert game.view(t, seat) == v


@settings(max_examples=100, **SETTINGS)
@given(seed=seeds, n=players, open_hands=open_hands)
def test_views_leak_nothing(seed: int, n: int, open_hands: bool) -> None:
    rng = random.Random(seed ^ 0x5EED)

    def on_step(before: Any, seat: int, action: Any, events: list[Event], s: Any) -> None:
        check_views(s, n, open_hands, rng)

    play(n, open_hands, seed, "random", on_step)


@settings(max_examples=150, **SETTINGS)
@given(seed=seeds, n=players)
def test_spectator_sees_no_hand(seed: int, n: int) -> None:
    def on_step(before: Any, seat: int, action: Any, events: list[Event], s: Any) -> None:
        v = GAME.view(s, None)
        assert v["seat"] is None
        assert all(h["cards"] is None for h in v["hands"])
        text = GAME.render(v)
        assert "hidden" in text

    play(n, False, seed, "random", on_step)
