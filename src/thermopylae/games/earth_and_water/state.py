"""The 300: Earth & Water state: flat lists and ints, cheap to copy.

Sides are indices: Persia 0, Greece 1. Pieces are counted per city (`arm[side][city]`,
`flt[side][city]`). The draw pile is an unordered multiset of card numbers: a draw is a
chance node, so there is no order to leak. Multi-step procedures (a move, a battle, an
event) keep their context in the records `mv` (a `Move`) and `bt` (a `Battle`); `stack`
holds what to do when they end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from thermopylae.engine.protocol import Event

PERSIA, GREECE = 0, 1
SIDES = ("persia", "greece")
Ev = list[Event] | None  # the events a step collects (None: a quiet step collects none)

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

CHANCE_PHASES = frozenset({DRAW, ROLL, LOT})  # the phases in which chance acts

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

# Once-per-game events, as bits of `used`, and two markers of the turn.
USED_MILTIADES, USED_THEMISTOCLES, USED_LEONIDAS, USED_ARTEMISIA = 1, 2, 4, 8
SUDDEN_DEATH = 16  # card 11 drawn by Persia, to resolve after the draw
NO_RETREAT = 32  # Themistocles was played this turn

# Moves: which are allowed (`Move.kind`), by land or by sea (`Move.mode`, `Battle.kind`).
ANY, LAND_ONLY, FLEETS_ONLY = 0, 1, 2
LAND, SEA = 0, 1
MAX_CARRY = 3  # "at most 3 armies" carried by one naval move (RB 6.5)
# `Move.flag`: the event that made the move, for its battle (card numbers), and the moves
# of the Triremes (13, and 113 for its second move).
CAVALRY, GREAT_KING, LEONIDAS, EVANGELION, THEMISTOCLES_MOVE, MOLON_LABE = 1, 7, 8, 10, 5, 12
TRIREMES, TRIREMES_2 = 13, 113
MOVE_FIELDS = 9  # the fields of a `Move` (its list in a position's JSON)
BATTLE_FIELDS = 16  # the fields of a `Battle`


@dataclass(slots=True)
class Move:
    """The move in progress (moves.py), one small decision at a time."""

    side: int
    kind: int  # ANY, LAND_ONLY, FLEETS_ONLY
    mode: int  # LAND, SEA; -1 before the origin is chosen
    origin: int  # -1 before it is chosen
    count: int  # armies or fleets moving
    carry: int  # armies the fleets carry
    flag: int  # the event that made the move (0: a movement card)
    exclude: int  # a port the move may not start from (Themistocles), or -1
    dest: int  # -1 before it is chosen

    def copy(self) -> Move:
        return Move(
            self.side,
            self.kind,
            self.mode,
            self.origin,
            self.count,
            self.carry,
            self.flag,
            self.exclude,
            self.dest,
        )

    def to_list(self) -> list[int]:
        """The fields in order: the move as a position's JSON holds it."""
        return [
            self.side,
            self.kind,
            self.mode,
            self.origin,
            self.count,
            self.carry,
            self.flag,
            self.exclude,
            self.dest,
        ]


@dataclass(slots=True)
class Battle:
    """The battle in progress (battle.py); with `stage` 2 or 3, the die-off of the
    Separate Peace (cards.py), which reads only `stage` and `aroll`. The flags are 0 or 1
    (ints, as a position's JSON holds them)."""

    kind: int  # LAND, SEA
    city: int
    att: int  # the attacking side
    gdice: int  # Greek dice every round: 0 one per army; 2 Leonidas; 3 Miltiades, 300 Spartans
    cav: int  # the Cavalry of Mardonius: Persian dice count up to 6
    score: int  # the event that scores when the battle ends: 7 The Great King, 10 Evangelion
    imm: int  # The Immortals played
    pstart: int  # Persian armies at the start (The Immortals restore up to 3)
    carry: int  # armies carried by the attacking fleets (a naval battle)
    stage: int  # 0 the attacker rolls, 1 the defender; 2, 3 the Separate Peace's rolls
    aroll: int  # the attacker's highest die of the round
    gcard: int  # the Greek card that set the dice (4 Miltiades, 15 300 Spartans, 8 Leonidas)
    by_sea: int  # the attackers came by sea
    origin: int  # where the attackers came from
    no_retreat: int  # no retreat (after Themistocles)
    ships: int  # in a land battle after a landing, the fleets that brought the attackers

    def copy(self) -> Battle:
        return Battle(*self.to_list())

    def to_list(self) -> list[int]:
        """The fields in order: the battle as a position's JSON holds it."""
        return [
            self.kind,
            self.city,
            self.att,
            self.gdice,
            self.cav,
            self.score,
            self.imm,
            self.pstart,
            self.carry,
            self.stage,
            self.aroll,
            self.gcard,
            self.by_sea,
            self.origin,
            self.no_retreat,
            self.ships,
        ]


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
        self.mv: Move | None = None  # the move in progress (see moves.py)
        self.bt: Battle | None = None  # the battle in progress (see battle.py)
        self.stack: list[tuple[Any, ...]] = []  # continuations
        self.result = -1  # -1 not over; 0 Persia won, 1 Greece won, 2 draw
        self.reason = ""
        self.turns = 0
        self._legal: tuple[Any, ...] | None = None

    def copy(self) -> State:
        """Every field, the lists one level deep (a search copies a state per iteration:
        the fields are written out rather than looped over by name)."""
        s = State.__new__(State)
        s.options = self.options
        s.campaign = self.campaign
        s.score = self.score
        arm, flt = self.arm, self.flt
        s.arm = [arm[0][:], arm[1][:]]
        s.flt = [flt[0][:], flt[1][:]]
        s.res_arm = self.res_arm[:]
        s.res_flt = self.res_flt[:]
        s.portraits = self.portraits[:]
        s.kings = self.kings
        s.used = self.used
        s.bridge = self.bridge
        hands = self.hands
        s.hands = [hands[0][:], hands[1][:]]
        s.deck = self.deck[:]
        s.discard = self.discard[:]
        s.carneia = self.carneia
        s.acropolis = self.acropolis
        s.acropolis_penalty = self.acropolis_penalty
        s.phase = self.phase
        s.side = self.side
        s.active = self.active
        s.passes = self.passes
        s.talents = self.talents
        s.fleets_built = self.fleets_built
        s.draws = self.draws
        s.draw_to = self.draw_to
        s.window = self.window
        s.choice = self.choice
        s.arg = self.arg
        mv, bt = self.mv, self.bt
        s.mv = None if mv is None else mv.copy()
        s.bt = None if bt is None else bt.copy()
        s.stack = self.stack[:]
        s.result = self.result
        s.reason = self.reason
        s.turns = self.turns
        s._legal = None
        return s
