"""Test helpers: build Thermopyles positions for scenario tests, play random games, and
load bench scripts."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

from thermopylae.engine import registry
from thermopylae.engine.protocol import CHANCE
from thermopylae.games.thermopyles import game as thermopyles_game
from thermopylae.games.thermopyles.rules import Thermopyles
from thermopylae.games.thermopyles.state import TURN, State

BENCH = Path(__file__).parents[1] / "bench"


def load_bench(name: str) -> ModuleType:
    """The script `bench/<name>.py` as a module (bench/ is not a package), to test its
    functions directly."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(f"bench_{name}", module)
    spec.loader.exec_module(module)
    return module


def kind(game: Thermopyles, text: str) -> int:
    """The Persian kind index of a card written like `13/19` or `16/21^`."""
    for i, k in enumerate(game.components.persian_kinds):
        if k.text == text:
            return i
    raise KeyError(f"no Persian card {text} in the set")


def position(
    game: Thermopyles | None = None,
    *,
    hands: list[list[int]] | None = None,
    slots: tuple[str | None, str | None] = ("13/19", "16/21"),
    marker: int = 1,
    support: int = 4,
    active: int = 0,
    spartan_deck: list[int] | None = None,
    persian_deck: list[str] | None = None,
    graveyard: list[str] | None = None,
    pdiscard: list[str] | None = None,
    open_hands: bool = False,
) -> State:
    """A consistent position at the start of `active`'s turn.

    Cards not placed explicitly go to the Spartan discard pile (Spartan) or the Persian
    deck (Persian), unless `spartan_deck` / `persian_deck` is given, in which case the
    rest go to the discard piles. Every card of the set is accounted for.
    """
    game = game or thermopyles_game()
    c = game.components
    hands = hands if hands is not None else [[10, 14, 16, 17]]
    s = State(len(hands), open_hands, [], [], support)
    s.phase = TURN
    s.marker = marker
    s.active = active
    s.hands = [sorted(h) for h in hands]
    spartan_left = Counter(c.spartan) - Counter(v for h in hands for v in h)
    assert sum(Counter(v for h in hands for v in h).values()) == sum(len(h) for h in hands)
    if spartan_deck is not None:
        spartan_left -= Counter(spartan_deck)
        s.sdeck = list(spartan_deck)
        s.sdiscard = sorted(spartan_left.elements())
    else:
        s.sdeck = sorted(spartan_left.elements())
    s.slots = [kind(game, t) if t else -1 for t in slots]
    persian_left = Counter(c.persian) - Counter(k for k in s.slots if k >= 0)
    s.graveyard = [kind(game, t) for t in graveyard or []]
    s.pdiscard = [kind(game, t) for t in pdiscard or []]
    persian_left -= Counter(s.graveyard) + Counter(s.pdiscard)
    if persian_deck is not None:
        s.pdeck = [kind(game, t) for t in persian_deck]
        persian_left -= Counter(s.pdeck)
        s.pdiscard += sorted(persian_left.elements())
    else:
        s.pdeck = sorted(persian_left.elements())
    # the position must be one the rules could load
    game.state_from_json(game.state_to_json(s))
    return s


def act(game: Thermopyles, s: State, *texts: str) -> list[Any]:
    """Apply actions (decisions or chance outcomes) given in notation; return all events."""
    events: list[Any] = []
    for t in texts:
        events += game.apply(s, game.parse(t))
    return events


def random_game(
    game: Any, options: dict[str, Any], seed: int, check: Any = None
) -> tuple[Any, list[tuple[int, Any]]]:
    """Play one game with uniformly random decisions; `check(state)` after every step."""
    rng = random.Random(seed)
    s = game.new(game.options(options))
    steps: list[tuple[int, Any]] = []
    while (seat := game.to_act(s)) is not None:
        a = game.sample_chance(s, rng) if seat == CHANCE else rng.choice(list(game.legal(s)))
        game.apply(s, a)
        steps.append((seat, a))
        if check is not None:
            check(s)
        assert len(steps) < 2000, "game too long"
    return s, steps


def decision_positions(
    game_id: str, options: dict[str, Any], seed: int, every: int = 5
) -> list[Any]:
    """Copies of every `every`-th decision position of one random game (any game)."""
    g = registry.get(game_id)
    rng = random.Random(seed)
    s = g.new(g.options(options))
    out = []
    steps = 0
    while (who := g.to_act(s)) is not None:
        if who == CHANCE:
            g.apply(s, g.sample_chance(s, rng), quiet=True)
            continue
        steps += 1
        if steps % every == 0:
            out.append(g.copy(s))
        legal = g.legal(s)
        g.apply(s, legal[int(rng.random() * len(legal))], quiet=True)
    return out


def hidden_twin(g: Any, s: Any, seat: int) -> Any | None:
    """The same position with one hidden card swapped between another seat's hand and the
    deck it is drawn from (None when nothing is hidden)."""
    t = g.copy(s)
    other: int | None
    if g.id == "earth-and-water":
        other = 1 - seat
        hand, deck = t.hands[other], t.deck
    elif g.id == "hot-gates":
        other = next(
            (
                p
                for p in range(t.players)
                if p != seat and t.hands[p] and set(t.decks[p]) - set(t.hands[p])
            ),
            None,
        )
        if other is None:
            return None
        hand, deck = t.hands[other], t.decks[other]
    else:
        other = next((p for p in range(t.players) if p != seat and t.hands[p]), None)
        if other is None:
            return None
        hand, deck = t.hands[other], t.sdeck
    swap = [(i, j) for i, a in enumerate(hand) for j, b in enumerate(deck) if a != b]
    if not swap:
        return None
    i, j = swap[0]
    hand[i], deck[j] = deck[j], hand[i]
    hand.sort()
    if hasattr(t, "_legal"):
        t._legal = None
    if g.view(t, seat) != g.view(s, seat):
        return None  # e.g. Hippias shows the hand: not hidden after all
    return t
