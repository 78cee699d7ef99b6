"""Thermopyles' chance steps fused into one call (issue 21): the game's `advance_chance`,
which the searches' tree walks call after each decision.

It plays exactly what the protocol's loop plays (`sample_chance(state, rng)` applied
quietly while `to_act` says `CHANCE`), drawing from the random source in the same order
and the same way, so the same source reaches the same state: the support and location
dice of a fight (`turn.roll`, then `turn.resolve`), the Persian cards revealed into empty
slots (`draws.reveal`), the Spartan cards drawn by the team (`draws.draw`), and the set-up
deal. But it builds no action and no event and does not check the outcomes it drew
itself. The rules it inlines are those of turn.py and draws.py, which cite the rulebook;
a change there must be made here too (tests/thermopyles/test_chance.py fails otherwise).

`apply_advance` is a decision and the chance steps after it in one call (the game's
`apply_advance`, each step of the searches' tree walks): a fight rolls its dice straight
into the total, with no dice kept and no roll phase between.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Callable
from typing import Any

from thermopylae.games.thermopyles import draws, turn
from thermopylae.games.thermopyles.actions import (
    Action,
    Discard,
    Fight,
    Give,
    Refuse,
    Retreat,
    Take,
)
from thermopylae.games.thermopyles.flow import HAND_LIMIT, Events, next_draw
from thermopylae.games.thermopyles.playout import setup
from thermopylae.games.thermopyles.state import (
    DISCARD,
    DRAW,
    OVER,
    RECIPIENT,
    REFILL,
    ROLL,
    SETUP,
    TURN,
    State,
)
from thermopylae.games.thermopyles.tables import Tables
from thermopylae.games.thermopyles.turn import against_slots, resolve

_DECISIONS: dict[type, Callable[[State, Tables, Any, Events], None]] = {
    Retreat: turn.retreat,
    Give: draws.give,
    Take: draws.take,
    Refuse: draws.refuse,
    Discard: draws.discard,
}
"""The step of each decision other than a fight (`rules.HANDLERS`' decisions)."""


def apply_advance(s: State, t: Tables, a: Action, rng: random.Random) -> int | None:
    """Apply the decision `a`, one of `legal(s)` (not checked again), to `s` in place as a
    quiet `apply` would, then the chance steps due as `advance_chance` plays them; returns
    the deciding seat or None. A fight (`turn.fight`, `turn.roll`, `turn.resolve`) adds
    its dice to the total as they are drawn, in the order the roll steps draw them, and
    leaves the fight cleared as `resolve` does (no card, no support, no dice)."""
    if type(a) is Fight:
        card, support = a.card, a.support
        s.hands[s.active].remove(card)
        s.turn += 1
        s.support -= support
        crand = rng.random
        total = card
        for _ in range(support + t.die[s.marker]):
            total += int(crand() * 6) + 1
        s.sdiscard.append(card)  # resolve: the card discarded (at a turn no fight is left
        # to clear: no card, support or dice)
        against_slots(s, t, total, None)
    else:
        _DECISIONS[type(a)](s, t, a, None)
    return advance_chance(s, t, rng)


def advance_chance(s: State, t: Tables, rng: random.Random) -> int | None:
    """Play the chance steps due in `s`, in place, until a seat decides or the game is
    over, as the protocol's loop would with `rng`; returns the deciding seat or None."""
    crand = rng.random
    while True:
        ph = s.phase
        if ph in (TURN, RECIPIENT):
            return s.active
        if ph == ROLL:  # the dice still owed (one a step), then the combat
            dice = s.dice
            for _ in range(s.committed + t.die[s.marker] - len(dice)):
                dice.append(int(crand() * 6) + 1)
            resolve(s, t, None)
        elif ph == REFILL:  # a Persian card into the first empty slot
            pdeck, slots = s.pdeck, s.slots
            kind = pdeck[int(crand() * len(pdeck))]
            pdeck.remove(kind)
            slots[0 if slots[0] < 0 else 1] = kind
            if slots[1] >= 0:
                next_draw(s, None)
        elif ph == DRAW:  # a Spartan card into the recipient's hand
            sdeck = s.sdeck
            card = sdeck[int(crand() * len(sdeck))]
            sdeck.remove(card)
            hand = s.hands[s.recipient]
            insort(hand, card)
            if len(hand) > HAND_LIMIT:
                s.phase = DISCARD
                return s.recipient
            s.draws -= 1
            next_draw(s, None)
        elif ph == SETUP:
            setup(s, crand)
        elif ph == OVER:
            return None
        else:  # FULL_HAND, DISCARD
            return s.recipient
