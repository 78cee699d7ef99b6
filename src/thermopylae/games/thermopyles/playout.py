"""Thermopyles' uniformly random playout fused into one loop (issue 21): the game's
`random_playout`, the hot path of the searches and of random simulation.

It plays exactly the game the protocol loop plays (`engine.play.uniform`: every seat
chooses `legal(state)[int(agent_rng.random() * n)]`, chance `sample_chance(state,
chance_rng)`), drawing from the two random sources in the same order and the same way,
so that the same sources reach the same final state in the same number of steps (the
conformance suite checks it on thousands of playouts, tests/thermopyles too). But it
builds no action and no event, checks none of the moves it made itself, and keeps the
state's numbers in local variables from one turn to the next, writing them back once at
the end. A card drawn is popped at the index drawn (the decks are sorted, so this leaves
the list the rules' `remove` of that card leaves: state.py), and a draw's index is
`math.trunc` of the number, which is `int` of it for a float, without a type's call.
The rules it inlines are those of turn.py, draws.py and flow.py, which cite the
rulebook; a change there must be made here too (the equivalence tests fail otherwise).
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Callable
from math import trunc

from thermopylae.games.thermopyles.actions import MAX_PLAYERS
from thermopylae.games.thermopyles.components import MAX_SUPPORT, SPARTAN_MAX, SPARTAN_MIN
from thermopylae.games.thermopyles.flow import (
    HAND_LIMIT,
    LOST,
    SOLO_START_HAND,
    START_HAND,
    WON,
    next_draw,
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
from thermopylae.games.thermopyles.turn import GRAVEYARD_WIN, resolve

DISTINCT_MAX = 50_000
_DISTINCT: dict[tuple[int, ...], tuple[int, ...]] = {}
"""A hand's distinct values in the order of the hand (`dict.fromkeys`, as `legal` lists
them), by the hand: hands of a few small values, so the table stays small."""
_OPTIONS: dict[tuple[int, ...], list[tuple[tuple[int, int] | None, ...] | None]] = {}
"""By the hand, then by the support cards left: the turn's decisions (`_picks`)."""
_AFTER = [tuple((p + 1) % n for p in range(n)) for n in range(MAX_PLAYERS + 1)]
TIMES = tuple((None,) * n for n in range(MAX_SUPPORT + 2))
"""By n: a tuple of n items, to roll a fight's n dice in a loop over it (a range made for
each fight cost about 4% of a playout's instructions)."""
"""By the number of players: the seat after each seat."""

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
            kind = pdeck.pop(trunc(crand() * len(pdeck)))
            slots[0 if slots[0] < 0 else 1] = kind
            if slots[0] < 0 or slots[1] < 0:
                continue
        else:
            card = sdeck.pop(trunc(crand() * len(sdeck)))
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
    kind = pdeck.pop(trunc(crand() * len(pdeck)))
    other = pdeck.pop(trunc(crand() * len(pdeck)))
    s.slots[0], s.slots[1] = kind, other
    size = SOLO_START_HAND if s.players == 1 else START_HAND
    for hand in s.hands:
        for _ in range(size):
            card = sdeck.pop(trunc(crand() * len(sdeck)))
            insort(hand, card)
    s.recipient = -1
    s.phase = TURN
    return 2 + size * s.players


def random_playout(s: State, t: Tables, chance_rng: random.Random, agent_rng: random.Random) -> int:
    """Play `s` to the end in place, as `engine.play.uniform` would; returns the steps.
    From any phase: a turn left in its dice or its refill is finished by the rules' own
    steps first, then the loop enters the turn where the state stands."""
    crand, arand = chance_rng.random, agent_rng.random
    steps = 0
    if s.phase == SETUP:
        if s.slots[0] < 0 and s.slots[1] < 0 and not any(s.hands):
            steps += _deal(s, crand)
        else:
            steps += setup(s, crand)
    steps += _finish_chance(s, t, crand)
    ph = s.phase
    if ph == OVER:
        return steps

    combat, annihilation, bonus, die = t.combat, t.annihilation, t.bonus, t.die
    players = s.players
    after = _AFTER[players]
    hands, sdeck, pdeck, slots = s.hands, s.sdeck, s.pdeck, s.slots
    sdiscard, pdiscard, graveyard = s.sdiscard, s.pdiscard, s.graveyard
    gappend, sdappend, pdappend = graveyard.append, sdiscard.append, pdiscard.append
    active, marker, support, draws, turn = s.active, s.marker, s.support, s.draws, s.turn
    ldie = die[marker]
    options, distinct = _OPTIONS, _DISTINCT
    if len(options) > DISTINCT_MAX:  # a component set of many values: start afresh
        options.clear()
    if len(distinct) > DISTINCT_MAX:
        distinct.clear()
    # Every step draws one number; the turns, the cards out of the decks and the support
    # dice are counted from the state at the end, the rest as they come.
    turn0, sdeck0, pdeck0, support0 = turn, len(sdeck), len(pdeck), support
    located = 0  # location dice rolled
    # The draw under way (None: none): the phase a search may leave a position in.
    pending: int | None = None
    got = hands[0]
    decide = ph == TURN
    if ph not in (TURN, RECIPIENT):
        pending, got = ph, hands[s.recipient]
    while True:
        if decide:  # TURN: retreat, or fight with a value and 0..support support cards
            hand = hands[active]
            key = tuple(hand)
            per = options.get(key)
            if per is None:
                per = options[key] = [None] * (MAX_SUPPORT + 1)
            picks = per[support]
            if picks is None:
                picks = per[support] = _picks(key, support)
            pick = picks[trunc(arand() * len(picks))]
            turn += 1
            if pick is None:  # turn.retreat
                marker += 1
                if marker >= LOST_LOCATION:
                    result, reason = LOST, RETREATED
                    break
                ldie = die[marker]
                draws = 1
            else:  # turn.fight, turn.roll and turn.resolve: slot 1, then slot 2
                card, committed = pick
                hand.remove(card)
                support -= committed
                total = card
                for _ in TIMES[committed + ldie]:
                    total += trunc(crand() * 6.0) + 1
                located += ldie
                sdappend(card)
                kind = slots[0]
                if total < combat[kind]:  # lost against slot 1: the turn ends at once
                    draws = 0
                else:
                    slots[0] = -1
                    if total >= annihilation[kind]:  # the graveyard grows only here
                        gappend(kind)
                        if bonus[kind]:
                            draws += 1
                        if len(graveyard) >= GRAVEYARD_WIN:
                            result, reason = WON, GRAVEYARD
                            break
                    else:
                        pdappend(kind)
                        if bonus[kind]:
                            draws += 1
                    kind = slots[1]
                    if total < combat[kind]:  # slot 2 stays and slides into slot 1
                        slots[0] = kind
                        if not pdeck:
                            slots[1] = -1
                            result, reason = WON, NO_REFILL
                            break
                    else:
                        slots[1] = -1
                        if total >= annihilation[kind]:
                            gappend(kind)
                            if bonus[kind]:
                                draws += 1
                            if len(graveyard) >= GRAVEYARD_WIN:
                                result, reason = WON, GRAVEYARD
                                break
                        else:
                            pdappend(kind)
                            if bonus[kind]:
                                draws += 1
                        if len(pdeck) < 2:
                            result, reason = WON, NO_REFILL
                            break
                        # draws.reveal: the first card into slot 1
                        kind = pdeck.pop(trunc(crand() * len(pdeck)))
                        slots[0] = kind
                    kind = pdeck.pop(trunc(crand() * len(pdeck)))  # and one into slot 2
                    slots[1] = kind
        decide = True
        # flow.next_draw: the team's draws, each to a seat the active player chooses
        while pending is not None or (draws > 0 and sdeck):
            if pending is None:
                if players == 1:
                    got = hands[0]
                else:  # RECIPIENT
                    got = hands[trunc(arand() * players)]
                    steps += 1
                if len(got) < HAND_LIMIT:  # DRAW, kept at once
                    c = sdeck.pop(trunc(crand() * len(sdeck)))
                    insort(got, c)
                    draws -= 1
                    continue
                pending = FULL_HAND
            if pending == FULL_HAND:  # take or refuse
                steps += 1
                if trunc(arand() * 2) == 1:
                    draws -= 1
                    pending = None
                    continue
                pending = DRAW
            if pending == DRAW:
                c = sdeck.pop(trunc(crand() * len(sdeck)))
                insort(got, c)
                if len(got) <= HAND_LIMIT:
                    draws -= 1
                    pending = None
                    continue
            # DISCARD one of the distinct values
            key = tuple(got)
            kept = distinct.get(key)
            if kept is None:
                kept = distinct[key] = tuple(dict.fromkeys(got))
            v = kept[trunc(arand() * len(kept))]
            got.remove(v)
            sdappend(v)
            steps += 1
            draws -= 1
            pending = None
        draws = 0
        # flow.end_turn
        if not sdeck and not any(hands):
            result, reason = LOST, NO_CARDS
            break
        active = after[active]

    steps += turn - turn0 + sdeck0 - len(sdeck) + pdeck0 - len(pdeck) + support0 - support
    s.active, s.marker, s.support, s.draws, s.turn = active, marker, support, draws, turn
    s.card, s.committed = 0, 0
    if s.dice:
        s.dice = []
    s.phase, s.result, s.reason, s.recipient = OVER, result, reason, -1
    return steps + located


def _picks(hand: tuple[int, ...], support: int) -> tuple[tuple[int, int] | None, ...]:
    """The TURN decisions as `legal` lists them, in its order: None for the retreat, then
    (card, support cards) for each distinct value and each number of support cards."""
    picks: list[tuple[int, int] | None] = [None]
    for v in dict.fromkeys(hand):
        picks += _PAIRS[v][: support + 1]
    return tuple(picks)


_PAIRS = {
    v: tuple((v, k) for k in range(MAX_SUPPORT + 1)) for v in range(SPARTAN_MIN, SPARTAN_MAX + 1)
}
"""By card value: its (card, support cards) picks, shared by every table of picks."""


def _finish_chance(s: State, t: Tables, crand: Callable[[], float]) -> int:
    """A fight left before its dice or its refill (not a search's position: its walks
    stop where a seat decides) finished by the rules' own steps (`turn.roll`,
    `turn.resolve`, `draws.reveal`), drawing as they would; returns the steps taken."""
    steps = 0
    if s.phase == ROLL:
        dice = s.dice
        for _ in range(s.committed + t.die[s.marker] - len(dice)):
            dice.append(trunc(crand() * 6.0) + 1)
            steps += 1
        resolve(s, t, None)
    while s.phase == REFILL:
        pdeck, slots = s.pdeck, s.slots
        kind = pdeck.pop(trunc(crand() * len(pdeck)))
        slots[0 if slots[0] < 0 else 1] = kind
        steps += 1
        if slots[1] >= 0:
            next_draw(s, None)
    return steps
