"""The speed reference of the benchmarks: Thermopyles random play in one tight loop.

This is NOT an engine and nothing plays through it. It exists so that a benchmark can say
"the protocol plays 0.3× the reference" instead of "7,000 games/s": absolute times do not
carry between machines, or between two moments of a loaded one, but a ratio to a loop of
pure Python measured in the same process and the same run does.

`play` is a special-purpose loop written for that purpose only: one function over plain
lists and ints (no protocol, no action or event objects, no validation), playing the same
game as `thermopylae.games.thermopyles` with the same components: every seat chooses
uniformly among the actions the rules allow (as the random agent does), and chance draws
each card left in a deck, or each face of a die, with equal probability. It even draws from
its two random sources in the engine's order (`chance` for decks and dice, `agent` for the
decisions), so that the same sources give the same game: tests/sim/test_reference.py checks
that, and that win rates and game lengths agree with the engine's over thousands of games.
"""

from __future__ import annotations

import random
import time
from bisect import insort
from dataclasses import dataclass
from typing import Any

HAND_LIMIT = 5
LOST_LOCATION = 7
GRAVEYARD_WIN = 12


@dataclass(frozen=True)
class Deck:
    """The numbers the loop reads, taken once from a component set (plain tuples)."""

    spartan: tuple[int, ...]  # the Spartan values, sorted
    persian: tuple[int, ...]  # the Persian cards as kind indices, sorted
    combat: tuple[int, ...]  # by kind
    annihilation: tuple[int, ...]  # by kind
    bonus: tuple[bool, ...]  # by kind
    die: tuple[int, ...]  # by location number (0..8): 1 if the location rolls the die
    support: int

    @classmethod
    def of(cls, components: Any = None) -> Deck:
        """From a Thermopyles `Components` (the default set when None)."""
        if components is None:
            from thermopylae.games.thermopyles.components import load

            components = load()
        kinds = components.persian_kinds
        return cls(
            tuple(components.spartan),
            tuple(components.persian),
            tuple(k.combat for k in kinds),
            tuple(k.annihilation for k in kinds),
            tuple(bool(k.bonus) for k in kinds),
            tuple(int(n in components.die_locations) for n in range(LOST_LOCATION + 2)),
            components.support,
        )


def play(deck: Deck, players: int, chance: random.Random, agent: random.Random) -> tuple[bool, int]:
    """One game of random play to the end: (won, turns taken)."""
    crand = chance.random
    arand = agent.random
    combat, annihilation, bonus, die = deck.combat, deck.annihilation, deck.bonus, deck.die
    sdeck = list(deck.spartan)
    pdeck = list(deck.persian)
    hands: list[list[int]] = [[] for _ in range(players)]
    support = deck.support
    graveyard = 0
    marker = 1
    turns = 0

    # set-up: two Persian cards into the slots, then 3 Spartan cards each (4 solo)
    slot0 = pdeck.pop(int(crand() * len(pdeck)))
    slot1 = pdeck.pop(int(crand() * len(pdeck)))
    size = 4 if players == 1 else 3
    for hand in hands:
        for _ in range(size):
            insort(hand, sdeck.pop(int(crand() * len(sdeck))))

    active = 0
    while True:
        hand = hands[active]
        draws = 0
        # the turn: retreat, or fight with a distinct value and 0..support support cards
        values = sorted(set(hand))
        choice = int(arand() * (1 + len(values) * (support + 1)))
        turns += 1
        if choice == 0:  # retreat
            marker += 1
            if marker >= LOST_LOCATION:
                return False, turns
            draws = 1
        else:
            card = values[(choice - 1) // (support + 1)]
            committed = (choice - 1) % (support + 1)
            hand.remove(card)
            support -= committed
            total = card
            for _ in range(committed + die[marker]):
                total += int(crand() * 6) + 1
            # combat: the same total against slot 1, then slot 2
            if total >= combat[slot0]:
                if total >= annihilation[slot0]:
                    graveyard += 1
                draws += bonus[slot0]
                slot0 = -1
                if graveyard >= GRAVEYARD_WIN:
                    return True, turns
                if total >= combat[slot1]:
                    if total >= annihilation[slot1]:
                        graveyard += 1
                    draws += bonus[slot1]
                    slot1 = -1
                    if graveyard >= GRAVEYARD_WIN:
                        return True, turns
                else:  # slot 2 stays and slides into slot 1
                    slot0, slot1 = slot1, -1
                if len(pdeck) < (slot0 < 0) + 1:  # one or both slots to refill
                    return True, turns
                if slot0 < 0:
                    slot0 = pdeck.pop(int(crand() * len(pdeck)))
                slot1 = pdeck.pop(int(crand() * len(pdeck)))
            else:  # lost against slot 1: the turn ends at once
                draws = 0
        # the team's draws, each to a seat the active player chooses
        while draws > 0 and sdeck:
            seat = 0 if players == 1 else int(arand() * players)
            got = hands[seat]
            if len(got) >= HAND_LIMIT and int(arand() * 2) == 1:  # refuse
                draws -= 1
                continue
            insort(got, sdeck.pop(int(crand() * len(sdeck))))
            if len(got) > HAND_LIMIT:  # discard one value, chosen among the distinct ones
                kept = sorted(set(got))
                got.remove(kept[int(arand() * len(kept))])
            draws -= 1
        if not sdeck and not any(hands):
            return False, turns
        active = (active + 1) % players


@dataclass(frozen=True)
class Rate:
    games: int
    seconds: float  # CPU seconds (time.process_time)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0


def run(
    seconds: float, players: int = 1, deck: Deck | None = None, rng: random.Random | None = None
) -> Rate:
    """Play reference games back to back for about `seconds` of CPU time."""
    deck = deck or Deck.of()
    chance = rng or random.Random(0)
    agent = random.Random(chance.random())
    games = 0
    clock = time.process_time
    started = clock()
    while (elapsed := clock() - started) < seconds:
        for _ in range(20):  # read the clock less often than a game lasts
            play(deck, players, chance, agent)
        games += 20
    return Rate(games, elapsed)
