"""The 300: Earth & Water state: flat lists and ints, cheap to copy.

Sides are indices: Persia 0, Greece 1. Pieces are counted per city (`arm[side][city]`,
`flt[side][city]`). The draw pile is an unordered multiset of card numbers: a draw is a
chance node, so there is no order to leak. Multi-step procedures (a move, a battle, an
event) keep their context in `mv` and `bt`; `stack` holds what to do when they end.
"""

from __future__ import annotations

from typing import Any

PERSIA, GREECE = 0, 1
SIDES = ("persia", "greece")

# Phases: who decides, and what about.
PREP_BUY = 0  # side: how many cards to buy
DRAW = 1  # chance: cards drawn into `draw_to`'s hand
PREP_BUILD = 2  # side: raise an army or a fleet, build the bridge, or done
OPS = 3  # active side: play a card for its event, for movement, or pass
MV_ORIGIN = 4  # mover: where the move starts (land or sea)
MV_COUNT = 5  # mover: how many armies / fleets move
MV_CARRY = 6  # mover: how many armies the fleets carry
MV_DEST = 7  # mover: where the group goes
REACT = 8  # reactor: play a lightning card, or decline
ROLL = 9  # chance: dice
BT_CHOICE = 10  # attacker, then defender: continue the battle or retreat
BRIDGE = 11  # Greece: destroy the pontoon bridge or spare it
CHOOSE = 12  # a choice inside an event (which city, how many, which card)
SUP_KEEP = 13  # side: which cards to keep for the next campaign
SUP_REMOVE = 14  # side: which army to lose to attrition
LOT = 15  # chance: a card taken at random from a hand
OVER = 16

PHASES = (
    "prep-buy",
    "draw",
    "prep-build",
    "operations",
    "move-origin",
    "move-count",
    "move-carry",
    "move-destination",
    "reaction",
    "roll",
    "battle",
    "bridge",
    "choose",
    "supply-keep",
    "supply-remove",
    "lot",
    "over",
)

# Once-per-game events, as bits of `used`.
MILTIADES, THEMISTOCLES, LEONIDAS, ARTEMISIA = 1, 2, 4, 8


class State:
    __slots__ = (
        "_legal",
        "acropolis",
        "acropolis_penalty",
        "active",
        "arg",
        "arm",
        "bridge",
        "bt",
        "campaign",
        "carneia",
        "choice",
        "deck",
        "discard",
        "draw_to",
        "draws",
        "fleets_built",
        "flt",
        "hands",
        "kings",
        "mv",
        "options",
        "passes",
        "phase",
        "portraits",
        "reason",
        "res_arm",
        "res_flt",
        "result",
        "score",
        "side",
        "stack",
        "talents",
        "turns",
        "used",
        "window",
    )

    def __init__(self, cities: int, options: dict[str, Any]) -> None:
        self.options = options
        self.campaign = 1
        self.score = 0  # > 0: Persia ahead; clamped to -6..6
        self.arm = [[0] * cities, [0] * cities]
        self.flt = [[0] * cities, [0] * cities]
        self.res_arm = [0, 0]
        self.res_flt = [0, 0]
        self.portraits = [0, 0, 0]  # Persian armies (kings), Greek armies (leaders), fleets
        self.kings = 0  # kings dead (Sudden Death of the Great King, at most 2)
        self.used = 0  # once-per-game events played (bits)
        self.bridge = False
        self.hands: list[list[int]] = [[], []]
        self.deck: list[int] = list(range(1, 17))
        self.discard: list[int] = []  # face up; the last card is on top
        self.carneia = False  # Carneia Festival played this campaign
        self.acropolis = False  # Acropolis on Fire played this campaign
        self.acropolis_penalty = False  # Greece gets one talent less in the next Preparation
        self.phase = PREP_BUY
        self.side = PERSIA  # who decides now (for one-seat phases)
        self.active = PERSIA  # whose Operations turn it is
        self.passes = 0  # consecutive passes in Operations
        self.talents = 0
        self.fleets_built = 0
        self.draws = 0
        self.draw_to = PERSIA
        self.window = 0  # the open reaction window
        self.choice = 0  # the kind of CHOOSE in progress
        self.arg = -1  # the city or count a CHOOSE or reaction refers to
        self.mv: list[int] = []  # the move in progress (see moves.py)
        self.bt: list[int] = []  # the battle in progress (see battle.py)
        self.stack: list[tuple[Any, ...]] = []  # continuations
        self.result = -1  # -1 not over; 0 Persia won, 1 Greece won, 2 draw
        self.reason = ""
        self.turns = 0
        self._legal: tuple[Any, ...] | None = None

    def copy(self) -> State:
        s = State.__new__(State)
        for name in State.__slots__:
            setattr(s, name, getattr(self, name))
        s.arm = [self.arm[0][:], self.arm[1][:]]
        s.flt = [self.flt[0][:], self.flt[1][:]]
        s.res_arm = self.res_arm[:]
        s.res_flt = self.res_flt[:]
        s.portraits = self.portraits[:]
        s.hands = [self.hands[0][:], self.hands[1][:]]
        s.deck = self.deck[:]
        s.discard = self.discard[:]
        s.mv = self.mv[:]
        s.bt = self.bt[:]
        s.stack = self.stack[:]
        s._legal = None
        return s
