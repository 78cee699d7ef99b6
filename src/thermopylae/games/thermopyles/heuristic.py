"""A sensible Thermopyles player, reading only its own seat's view.

It values each possible charge (card x support cards) by the chance of beating slot 1,
of beating both slots, of annihilating, and of the bonus draws it earns, minus what the
charge spends: strong cards are kept for strong Persians and support is spent only where
it turns a likely loss into a likely win. It retreats when its best charge is poor and a
retreat is still safe.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from thermopylae.engine.protocol import JSON, GenericGame

# Weights, tuned with `thermopylae simulate thermopyles --agent heuristic`.
CARD_COST = 0.045  # per point of card value above 10: keep strong cards for strong Persians
SUPPORT_COST = 0.30  # per support card spent
ANNIHILATE = 0.60  # an annihilation on top of a defeat (12 of them win the game)
BONUS = 0.55  # a bonus draw
RETREAT_BASE = 0.55  # the value of a retreat from a safe location (it also draws a card)
SAFE_MARKER = 4  # retreat freely only up to here; beyond, only when the hand is empty


@cache
def at_least(dice: int, need: int) -> float:
    """P(the sum of `dice` six-sided dice >= need)."""
    if need <= dice:
        return 1.0
    if dice == 0:
        return 0.0
    return sum(at_least(dice - 1, need - face) for face in range(1, 7)) / 6


class Heuristic:
    """A rule-based agent (`--agent heuristic`)."""

    name = "heuristic"

    def __init__(self, **params: Any) -> None:
        if params:
            raise ValueError(f"the heuristic agent takes no parameters, not {sorted(params)}")

    def act(self, game: GenericGame, state: Any, rng: random.Random) -> Any:
        seat = game.to_act(state)
        v = game.view(state, seat)
        legal = game.legal(state)
        phase = v["phase"]
        me = v["hands"][seat]
        if phase == "turn":
            return game.parse(self._turn(v, me["cards"]))
        if phase == "recipient":  # the player with the fewest cards, not full, takes it
            target = min(v["hands"], key=lambda h: (h["count"] >= 5, h["count"]))
            return game.parse(f"give {target['seat']}")
        if phase == "full-hand":  # taking, then discarding the weakest, never weakens a hand
            return game.parse("take")
        if phase == "discard":
            return game.parse(f"discard {min(me['cards'])}")
        return legal[0]

    def _turn(self, v: JSON, hand: list[int]) -> str:
        if not hand:
            return "retreat"
        s1, s2 = v["slots"]
        die = 1 if v["locations"][v["marker"] - 1]["die"] else 0
        best, best_value = "retreat", self._retreat_value(v, hand)
        for card in sorted(set(hand)):
            for k in range(v["support"] + 1):
                value = self._charge_value(card, k + die, s1, s2) - CARD_COST * (card - 10)
                value -= SUPPORT_COST * k
                if value > best_value + 1e-9:
                    best_value = value
                    best = f"fight {card}" + (f" support {k}" if k else "")
        return best

    def _charge_value(self, card: int, dice: int, s1: JSON, s2: JSON) -> float:
        def defeat(slot: JSON) -> float:
            return 1.0 + BONUS * bool(slot["bonus"])

        p1 = at_least(dice, s1["combat"] - card)
        both = at_least(dice, max(s1["combat"], s2["combat"]) - card)
        ann1 = at_least(dice, s1["annihilation"] - card)
        ann2 = at_least(dice, max(s1["combat"], s2["annihilation"]) - card)
        value: float = p1 * defeat(s1) + both * defeat(s2) + ANNIHILATE * (ann1 + ann2)
        return value - (1 - p1)

    def _retreat_value(self, v: JSON, hand: list[int]) -> float:
        if v["marker"] >= 6:
            return -10.0  # a retreat from 6 loses the game
        value: float = RETREAT_BASE if v["spartan_deck"] and len(hand) < 5 else 0.0
        if v["marker"] > SAFE_MARKER:
            value -= 0.6
        return value - 0.15 * (int(v["marker"]) - 1)
