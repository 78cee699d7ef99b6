"""Thermopyles' uniformly random playout fused into one loop (issue 21): the game's
`random_playout`, the hot path of the searches and of random simulation.

It plays exactly the game the protocol loop plays (`engine.play.uniform`: every seat
chooses `legal(state)[int(agent_rng.random() * n)]`, chance `sample_chance(state,
chance_rng)`), drawing from the two random sources in the same order and the same way,
so that the same sources reach the same final state in the same number of steps (the
conformance suite checks it on thousands of playouts, tests/thermopyles too). But it
builds no action and no event, checks none of the moves it made itself, and keeps the
state's numbers in local variables from one turn to the next, writing them back once at
the end. The rules it inlines are those of turn.py, draws.py and flow.py, which cite the
rulebook; a change there must be made here too (the equivalence tests fail otherwise).
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Callable

from thermopylae.games.thermopyles.flow import (
    HAND_LIMIT,
    LOST,
    SOLO_START_HAND,
    START_HAND,
    WON,
)
from thermopylae.games.thermopyles.state import (
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
from thermopylae.games.thermopyles.tables import LOST_LOCATION, Tables
from thermopylae.games.thermopyles.turn import GRAVEYARD_WIN

DISTINCT_MAX = 50_000
_DISTINCT: dict[tuple[int, ...], tuple[int, ...]] = {}
"""A hand's distinct values in the order of the hand (`dict.fromkeys`, as `legal` lists
them), by the hand: hands of a few small values, so the table stays small."""

NEXT = -1  # no draw under way (a `pending` of the loop)

RETREATED = "retreated onto location 7"
GRAVEYARD = "the 12th Persian card entered the graveyard"
NO_REFILL = "the Persian deck cannot refill the slots"
NO_CARDS = "no cards left in any hand or in the Spartan deck"


def setup(s: State, crand: Callable[[], float]) -> int:
    """The set-up deal from wherever it stands (`draws.reveal`/`draws.draw` with
    `flow.setup_next`); returns the steps taken."""
    steps = 0
    slots, pdeck, sdeck, hands = s.slots, s.pdeck, s.sdeck, s.hands
    size = SOLO_START_HAND if s.players == 1 else START_HAND
    while s.phase == SETUP:
        steps += 1
        if slots[0] < 0 or slots[1] < 0:
            kind = pdeck[int(crand() * len(pdeck))]
            pdeck.remove(kind)
            slots[0 if slots[0] < 0 else 1] = kind
            if slots[0] < 0 or slots[1] < 0:
                continue
        else:
            card = sdeck[int(crand() * len(sdeck))]
            sdeck.remove(card)
            insort(hands[s.recipient], card)
        # flow.setup_next
        for p in range(s.players):
            if len(hands[p]) < size:
                s.recipient = p
                break
        else:
            s.recipient = -1
            s.phase = TURN
    return steps


def _deal(s: State, crand: Callable[[], float]) -> int:
    """The whole set-up deal of a new game (`setup` from its first step, unrolled):
    two Persian cards into the slots, then each seat's opening hand in turn."""
    pdeck, sdeck = s.pdeck, s.sdeck
    kind = pdeck[int(crand() * len(pdeck))]
    pdeck.remove(kind)
    other = pdeck[int(crand() * len(pdeck))]
    pdeck.remove(other)
    s.slots[0], s.slots[1] = kind, other
    size = SOLO_START_HAND if s.players == 1 else START_HAND
    for hand in s.hands:
        for _ in range(size):
            card = sdeck[int(crand() * len(sdeck))]
            sdeck.remove(card)
            insort(hand, card)
    s.recipient = -1
    s.phase = TURN
    return 2 + size * s.players


def random_playout(s: State, t: Tables, chance_rng: random.Random, agent_rng: random.Random) -> int:
    """Play `s` to the end in place, as `engine.play.uniform` would; returns the steps.
    From any phase: the loop enters the turn where the state stands."""
    crand, arand = chance_rng.random, agent_rng.random
    steps = 0
    if s.phase == SETUP:
        if s.slots[0] < 0 and s.slots[1] < 0 and not any(s.hands):
            steps += _deal(s, crand)
        else:
            steps += setup(s, crand)
    ph = s.phase
    if ph == OVER:
        return steps

    combat, annihilation, bonus, die = t.combat, t.annihilation, t.bonus, t.die
    players = s.players
    hands, sdeck, pdeck, slots = s.hands, s.sdeck, s.pdeck, s.slots
    sdiscard, pdiscard, graveyard = s.sdiscard, s.pdiscard, s.graveyard
    gappend, sdappend = graveyard.append, sdiscard.append
    active, marker, support, draws, turn = s.active, s.marker, s.support, s.draws, s.turn
    distinct = _DISTINCT
    if len(distinct) > DISTINCT_MAX:  # a component set of many values: start afresh
        distinct.clear()
    fought = False
    # Where the turn stands: 0 the decision, 1 the combat of `total` (after the dice),
    # 2 the refill of `empty` slots, 3 the team's draws (`pending`: the phase of the draw
    # under way, NEXT when none is).
    total = card = empty = 0
    pending = NEXT
    got = hands[0]
    if ph == TURN:
        stage = 0
    elif ph == ROLL:  # the dice still owed, then the combat
        stage, fought, card = 1, True, s.card
        total = card + sum(s.dice)
        for _ in range(s.committed + die[marker] - len(s.dice)):
            total += int(crand() * 6) + 1
            steps += 1
    elif ph == REFILL:
        stage, empty = 2, (slots[0] < 0) + (slots[1] < 0)
    else:  # RECIPIENT, FULL_HAND, DRAW, DISCARD
        stage = 3
        if ph != RECIPIENT:
            pending, got = ph, hands[s.recipient]
    while True:
        if stage == 0:  # TURN: retreat, or fight with a value and 0..support support cards
            hand = hands[active]
            key = tuple(hand)
            values = distinct.get(key)
            if values is None:
                values = distinct[key] = tuple(dict.fromkeys(hand))
            width = support + 1
            choice = int(arand() * (1 + len(values) * width))
            steps += 1
            turn += 1
            if choice == 0:  # turn.retreat
                marker += 1
                if marker >= LOST_LOCATION:
                    result, reason = LOST, RETREATED
                    break
                draws = 1
                stage = 3
            else:  # turn.fight and turn.roll
                fought = True
                card = values[(choice - 1) // width]
                committed = (choice - 1) % width
                hand.remove(card)
                support -= committed
                total = card
                for _ in range(committed + die[marker]):
                    total += int(crand() * 6) + 1
                    steps += 1
                stage = 1
        if stage == 1:  # turn.resolve: the total against slot 1, then slot 2
            sdappend(card)
            stage = 3
            kind = slots[0]
            if total < combat[kind]:  # lost against slot 1: the turn ends at once
                draws = 0
            else:
                slots[0] = -1
                if total >= annihilation[kind]:
                    gappend(kind)
                else:
                    pdiscard.append(kind)
                if bonus[kind]:
                    draws += 1
                if len(graveyard) >= GRAVEYARD_WIN:
                    result, reason = WON, GRAVEYARD
                    break
                kind = slots[1]
                if total < combat[kind]:  # slot 2 stays and slides into slot 1
                    slots[0], slots[1] = kind, -1
                    empty = 1
                else:
                    slots[1] = -1
                    if total >= annihilation[kind]:
                        gappend(kind)
                    else:
                        pdiscard.append(kind)
                    if bonus[kind]:
                        draws += 1
                    if len(graveyard) >= GRAVEYARD_WIN:
                        result, reason = WON, GRAVEYARD
                        break
                    empty = 2
                if len(pdeck) < empty:
                    result, reason = WON, NO_REFILL
                    break
                stage = 2
        if stage == 2:  # draws.reveal, one card a step
            for _ in range(empty):
                kind = pdeck[int(crand() * len(pdeck))]
                pdeck.remove(kind)
                slots[0 if slots[0] < 0 else 1] = kind
                steps += 1
        # flow.next_draw: the team's draws, each to a seat the active player chooses
        while True:
            if pending == NEXT:
                if draws <= 0 or not sdeck:
                    break
                if players == 1:
                    got = hands[0]
                else:  # RECIPIENT
                    got = hands[int(arand() * players)]
                    steps += 1
                pending = FULL_HAND if len(got) >= HAND_LIMIT else DRAW
            if pending == FULL_HAND:  # take or refuse
                steps += 1
                if int(arand() * 2) == 1:
                    draws -= 1
                    pending = NEXT
                    continue
                pending = DRAW
            if pending == DRAW:
                c = sdeck[int(crand() * len(sdeck))]
                sdeck.remove(c)
                insort(got, c)
                steps += 1
                if len(got) <= HAND_LIMIT:
                    draws -= 1
                    pending = NEXT
                    continue
            # DISCARD one of the distinct values
            key = tuple(got)
            kept = distinct.get(key)
            if kept is None:
                kept = distinct[key] = tuple(dict.fromkeys(got))
            v = kept[int(arand() * len(kept))]
            got.remove(v)
            sdappend(v)
            steps += 1
            draws -= 1
            pending = NEXT
        draws = 0
        # flow.end_turn
        if not sdeck and not any(hands):
            result, reason = LOST, NO_CARDS
            break
        active = (active + 1) % players
        stage = 0

    s.active, s.marker, s.support, s.draws, s.turn = active, marker, support, draws, turn
    if fought:
        s.card, s.committed, s.dice = 0, 0, []
    s.phase, s.result, s.reason, s.recipient = OVER, result, reason, -1
    return steps
