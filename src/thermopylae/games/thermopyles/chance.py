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
"""

from __future__ import annotations

import random
from bisect import insort

from thermopylae.games.thermopyles.flow import HAND_LIMIT, next_draw
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
from thermopylae.games.thermopyles.turn import resolve


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
