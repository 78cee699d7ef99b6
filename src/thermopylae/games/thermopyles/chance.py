"""Thermopyles' chance steps fused into one call (issue 21): the game's `advance_chance`,
which the searches' tree walks call after each decision.

It plays exactly what the protocol's loop plays (`sample_chance(state, rng)` applied
quietly while `to_act` says `CHANCE`), drawing from the random source in the same order
and the same way, so the same source reaches the same state: the support and location
dice of a fight (`turn.roll`, then `turn.resolve`), the Persian cards revealed into empty
slots (`draws.reveal`), the Spartan cards drawn by the team (`draws.draw`), and the set-up
deal. But it builds no action and no event and does not check the outcomes it drew
itself, and it draws as playout.py does (a card popped at the index drawn, `math.trunc`
for `int`). The rules it inlines are those of turn.py and draws.py, which cite the
rulebook; a change there must be made here too (tests/thermopyles/test_chance.py fails
otherwise).

`fight` is a fight and the chance steps after it in one call (the game's `apply_advance`
for a fight, each such step of the searches' tree walks): it rolls its dice straight into
the total, with no dice kept and no roll phase between, and ends the turn in the same
frame; `give` is a gift of the team's draw and the draw itself.
"""

from __future__ import annotations

import random
from bisect import insort
from math import trunc

from thermopylae.games.thermopyles.actions import Fight, Give
from thermopylae.games.thermopyles.flow import HAND_LIMIT, LOST, WON, finish, next_draw
from thermopylae.games.thermopyles.playout import GRAVEYARD, NO_CARDS, NO_REFILL, TIMES, setup
from thermopylae.games.thermopyles.state import (
    DISCARD,
    DRAW,
    FULL_HAND,
    OVER,
    RECIPIENT,
    REFILL,
    ROLL,
    SETUP,
    TURN,
    State,
)
from thermopylae.games.thermopyles.tables import Tables
from thermopylae.games.thermopyles.turn import GRAVEYARD_WIN, resolve


def fight(s: State, t: Tables, a: Fight, rng: random.Random) -> int | None:
    """Play the fight `a`, one of `legal(s)` (not checked again), in place as a quiet
    `apply` of it and `advance_chance` would: `turn.fight`, `turn.roll`, `turn.resolve`
    and `draws.reveal` in this one frame, as the playout plays them. The dice are added
    to the total as they are drawn, in the order the roll steps draw them, and the fight
    is left cleared as `resolve` leaves it (no card, no support, no dice): the total
    against slot 1 then slot 2, the refill; the team's draws are `advance_chance`'s.
    Returns the deciding seat or None."""
    card, support = a.card, a.support
    s.hands[s.active].remove(card)
    s.turn += 1
    s.support -= support
    crand = rng.random
    total = card
    for _ in TIMES[support + t.die[s.marker]]:
        total += trunc(crand() * 6.0) + 1
    s.sdiscard.append(card)  # at a turn no fight is left to clear: no card, support, dice
    # turn.resolve: both slots hold a card at a turn
    slots, combat, annihilation, bonus = s.slots, t.combat, t.annihilation, t.bonus
    kind = slots[0]
    if total < combat[kind]:  # lost against slot 1: "o turno termina imediatamente"
        s.draws = 0
    else:
        slots[0] = -1
        if total >= annihilation[kind]:  # the graveyard grows only here
            s.graveyard.append(kind)
            if bonus[kind]:
                s.draws += 1
            if len(s.graveyard) >= GRAVEYARD_WIN:
                finish(s, WON, GRAVEYARD, None)
                return None
        else:
            s.pdiscard.append(kind)
            if bonus[kind]:
                s.draws += 1
        pdeck = s.pdeck
        kind = slots[1]
        if total < combat[kind]:  # slot 2 stays and slides into slot 1
            slots[0] = kind
            if not pdeck:
                slots[1] = -1
                finish(s, WON, NO_REFILL, None)
                return None
        else:
            slots[1] = -1
            if total >= annihilation[kind]:
                s.graveyard.append(kind)
                if bonus[kind]:
                    s.draws += 1
                if len(s.graveyard) >= GRAVEYARD_WIN:
                    finish(s, WON, GRAVEYARD, None)
                    return None
            else:
                s.pdiscard.append(kind)
                if bonus[kind]:
                    s.draws += 1
            if len(pdeck) < 2:
                finish(s, WON, NO_REFILL, None)
                return None
            # draws.reveal: the first card into slot 1
            slots[0] = pdeck.pop(trunc(crand() * len(pdeck)))
        slots[1] = pdeck.pop(trunc(crand() * len(pdeck)))  # and one into slot 2
        # flow.next_draw
        if s.draws > 0 and s.sdeck:
            if s.players > 1:
                s.phase = RECIPIENT
                return s.active
            return _solo_draws(s, rng)
        s.draws = 0
    # flow.end_turn (the phase is still TURN: the fused fight never leaves it)
    s.recipient = -1
    if not s.sdeck and not any(s.hands):
        finish(s, LOST, NO_CARDS, None)
        return None
    s.active = active = (s.active + 1) % s.players
    return active


def give(s: State, t: Tables, a: Give, rng: random.Random) -> int | None:
    """Give the team's draw to `a.seat`, one of `legal(s)` (not checked again), in place
    as a quiet `apply` of it and `advance_chance` would: `draws.give` and `flow.offer`,
    then, with room in the hand, the card drawn into it (`draws.draw`) and
    `flow.next_draw`. Returns the deciding seat or None."""
    seat = a.seat
    hand = s.hands[seat]
    s.recipient = seat
    if len(hand) >= HAND_LIMIT:  # a full hand takes or refuses
        s.phase = FULL_HAND
        return seat
    sdeck = s.sdeck
    insort(hand, sdeck.pop(trunc(rng.random() * len(sdeck))))
    s.draws -= 1
    if s.draws > 0 and sdeck:
        if s.players > 1:  # the next draw's recipient (the phase is still RECIPIENT)
            return s.active
        next_draw(s, None)  # (a solo table gives to its one seat)
        return advance_chance(s, t, rng)
    s.draws = 0
    return _end_turn(s)


def _solo_draws(s: State, rng: random.Random) -> int | None:
    """A solo fight's draws owed (`flow.next_draw`, `flow.offer`, `draws.draw`): each
    card drawn straight into the hand while it has room, the full hand's choice left;
    then the end of the turn. Returns the seat that decides next."""
    hand, sdeck, crand = s.hands[0], s.sdeck, rng.random
    while True:
        if len(hand) >= HAND_LIMIT:
            s.recipient = 0
            s.phase = FULL_HAND
            return 0
        insort(hand, sdeck.pop(trunc(crand() * len(sdeck))))
        s.draws -= 1
        if s.draws <= 0 or not sdeck:
            break
    s.draws = 0
    return _end_turn(s)


def _end_turn(s: State) -> int | None:
    """`flow.end_turn`, returning the seat whose turn it is (None: the game is over)."""
    s.recipient = -1
    if not s.sdeck and not any(s.hands):
        finish(s, LOST, NO_CARDS, None)
        return None
    s.active = active = (s.active + 1) % s.players
    s.phase = TURN
    return active


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
                dice.append(trunc(crand() * 6.0) + 1)
            resolve(s, t, None)
        elif ph == REFILL:  # a Persian card into the first empty slot
            pdeck, slots = s.pdeck, s.slots
            kind = pdeck.pop(trunc(crand() * len(pdeck)))
            slots[0 if slots[0] < 0 else 1] = kind
            if slots[1] >= 0:
                next_draw(s, None)
        elif ph == DRAW:  # a Spartan card into the recipient's hand
            sdeck = s.sdeck
            card = sdeck.pop(trunc(crand() * len(sdeck)))
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
