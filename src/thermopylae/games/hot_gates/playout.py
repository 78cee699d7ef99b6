"""300: The Board Game's uniformly random playout in one loop (issue 21): the game's
`random_playout`, the hot path of the searches.

It plays exactly the game the protocol loop plays (`engine.play.uniform`: every seat
chooses `sensible(state)[int(agent_rng.random() * n)]`, chance `sample_chance(state,
chance_rng)`), drawing from the two random sources in the same order and the same way,
so that the same sources reach the same final state in the same number of steps (the
conformance suite and tests/hot_gates check it on thousands of playouts). What it leaves
out: the protocol's calls between the steps (`to_act`, `sample_chance`, `apply`), the
chance actions (a card or a face is drawn and handed to its step as a number), the
events, and `apply`'s check of each move against the list the loop has just chosen it
from: each phase's list goes straight to that phase's step.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Callable
from math import trunc

from thermopylae.games.hot_gates import battle, cards, flow, march, pullback
from thermopylae.games.hot_gates.actions import Enter
from thermopylae.games.hot_gates.board import Tables, marks
from thermopylae.games.hot_gates.state import (
    CASUALTY,
    CONQUER,
    DEAL,
    MARCH,
    OVER,
    PULLBACK,
    WINDOW,
    State,
)


def random_playout(
    s: State,
    t: Tables,
    faces: list[int],
    chance_rng: random.Random,
    agent_rng: random.Random,
    sensible: bool = True,
) -> int:
    """Play `s` to the end in place, as `engine.play.uniform` with `sensible` would;
    returns the steps. `faces`: the Battle Die's faces, as `sample_chance` draws them.
    `sensible`: False to choose among `legal` instead (a card window's whole list,
    `cards.legal`: the only phase where the two differ). An index is `trunc(u * n)`: the
    protocol's `int(u * n)` for u in [0, 1), without calling a type (its argument tuple
    and checks: ~500 instructions a draw)."""
    crand, arand = chance_rng.random, agent_rng.random
    march_list, march_on = march.march_list, march.march_on
    resume = flow.resume
    card_legal, card_decide = cards.legal, cards.decide
    mark = marks()
    first = s.steps  # the steps played are counted in the state alone
    while True:
        ph = s.phase
        # (the phases by how often a game meets them: card windows, casualties, chance,
        # marches, conquests; each test passed over costs three instructions)
        if ph == WINDOW:
            choice = card_legal(s, t, sensible)
            card_decide(s, t, choice[trunc(arand() * len(choice))], None)
        elif ph == CASUALTY:  # the casualties due, each chosen in `battle.casualty`'s
            # loop as from `battle.casualty_legal` (the last one is counted below)
            battle.casualty(s, t, -1, None, arand, mark)
        elif ph == DEAL:  # every chance step due, then the step that waited for them
            s.steps += chance_steps(s, faces, crand) - 1  # (the last one counted below)
            resume(s, t, None)
        elif ph == MARCH:  # the list kept by the step before, as `legal` reads it
            cached = s.cache
            acts, geometry = (
                (cached[1], cached[2])
                if cached is not None and cached[0] == s.steps
                else march_list(s, t, None)
            )
            # The seat's marches in `march_on`'s loop, each list handed to the next step
            # with the geometry it keeps up to date (the last step is counted below).
            march_on(s, t, acts[trunc(arand() * len(acts))], None, geometry, arand)
        elif ph == CONQUER:  # the list kept by the step before, as `legal` reads it
            cached = s.cache
            acts = (
                cached[1]
                if cached is not None and cached[0] == s.steps
                else battle.conquer_legal(s, t)
            )
            battle.conquer(s, t, acts[trunc(arand() * len(acts))], None)
        elif ph == OVER:
            return s.steps - first
        elif ph == PULLBACK:
            acts = pullback.pullback_legal(s, t)
            enter = acts[trunc(arand() * len(acts))]
            assert isinstance(enter, Enter)
            pullback.place(s, t, enter, None)
        else:
            acts = pullback.return_legal(s, t)
            pullback.returned(s, t, acts[trunc(arand() * len(acts))], None)
        s.steps += 1


def advance_chance(s: State, t: Tables, faces: list[int], rng: random.Random) -> int | None:
    """The chance steps due in `s`, in place, as the protocol's loop plays them with
    `rng` (`sample_chance`, then `apply`): the game's `advance_chance`. Returns the seat
    to decide next, or None once the game is over."""
    crand = rng.random
    while s.phase == DEAL:
        # the last step is counted once the steps that waited for it have run, as `apply`
        # counts it (a March list kept by `resume` is for the step after)
        s.steps += chance_steps(s, faces, crand) - 1
        flow.resume(s, t, None)
        s.steps += 1
    return None if s.phase == OVER else s.actor


DIE_AT = [(battle.DICE + (slot >> 3), slot & 7) for slot in range(16)]
"""By die to roll (`battle.SLOTS`: side * 8 + i), where its face goes in `State.bt`."""


def chance_steps(s: State, faces: list[int], crand: Callable[[], float]) -> int:
    """Draw the cards and roll the dice due (`s.phase` is DEAL), in the protocol's order
    and with its draws (`sample_chance`, `cards.drawn`, `battle.rolled`, `flow.deal`), up
    to the step that waits for them, which is left to run; returns the steps played."""
    draws, rolls, decks = s.draws, s.rolls, s.decks
    nfaces = len(faces)
    steps = 0
    while True:
        if draws:  # the first seat to draw has cards left (`flow.deal` saw to it)
            seat = draws.pop(0)
            deck = decks[seat]
            i = trunc(crand() * len(deck))
            card = deck.pop(i)  # (a copy met first would leave the same list: no search)
            insort(s.hands[seat], card)
            steps += 1
            while draws and not decks[draws[0]]:  # an empty deck gives no more (decision 8)
                draws.pop(0)
        elif rolls:  # every die due, in order (nothing adds one meanwhile), then none
            bt = s.bt
            for slot in rolls:
                die, i = DIE_AT[slot]
                bt[die][i] = faces[trunc(crand() * nfaces)]
            steps += len(rolls)
            rolls.clear()  # (not `pop(0)` a die: a method call each)
            return steps
        else:
            return steps
