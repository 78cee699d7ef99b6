"""The Thermopyles state: flat, small, cheap to copy (search copies it millions of times).

Hands and decks hold Spartan card values; the Persian deck, slots and piles hold Persian
kind indices (see components.py). Decks are unordered multisets: which card comes next is
a chance node, so no order is stored to leak. They are kept sorted, as the hands are: a
draw takes the card at the index drawn, and the fused steps pop that index, which leaves
the list that removing the card's first copy (the rules' steps) leaves.
"""

from __future__ import annotations

# Phases of the rules' state machine, in the order a turn visits them.
SETUP = 0  # chance: reveal the two Persian cards, then deal the opening hands
TURN = 1  # the active player retreats or fights
ROLL = 2  # chance: the support dice, then the location die
REFILL = 3  # chance: a Persian card into the first empty slot
RECIPIENT = 4  # the active player chooses who receives the team's draw
FULL_HAND = 5  # the recipient, holding 5 cards, takes or refuses the draw
DRAW = 6  # chance: a Spartan card into the recipient's hand
DISCARD = 7  # the recipient, holding 6 cards, discards one
OVER = 8

PHASES = ("setup", "turn", "roll", "refill", "recipient", "full-hand", "draw", "discard", "over")


class State:
    """One position of a Thermopyles game (1 to 4 players)."""

    __slots__ = (
        "active",
        "card",
        "committed",
        "dice",
        "draws",
        "graveyard",
        "hands",
        "marker",
        "open_hands",
        "pdeck",
        "pdiscard",
        "phase",
        "players",
        "reason",
        "recipient",
        "result",
        "sdeck",
        "sdiscard",
        "slots",
        "support",
        "turn",
    )

    def __init__(
        self, players: int, open_hands: bool, spartan: list[int], persian: list[int], support: int
    ) -> None:
        self.players = players
        self.open_hands = open_hands
        self.phase = SETUP
        self.active = 0  # whose turn it is ("the strongest player starts": seat p1)
        self.marker = 1  # "the battle marker starts on location 1"
        self.hands: list[list[int]] = [[] for _ in range(players)]  # each kept sorted
        self.sdeck = spartan
        self.sdiscard: list[int] = []
        self.pdeck = persian
        self.slots = [-1, -1]  # Persian kinds in slot 1 and slot 2; -1 = empty
        self.pdiscard: list[int] = []
        self.graveyard: list[int] = []
        self.support = support  # support cards still face up
        self.card = 0  # the Spartan card in the current fight (0: none)
        self.committed = 0  # support cards discarded for the current fight
        self.dice: list[int] = []  # dice rolled in the current fight
        self.draws = 0  # team draws still owed this turn
        self.recipient = -1  # who receives the draw being resolved
        self.result = 0  # 1 won, -1 lost, 0 not over
        self.reason = ""
        self.turn = 0  # turns taken (a retreat or a fight is one turn)

    def copy(self) -> State:
        return self.dealt([h[:] for h in self.hands], self.sdeck[:])

    def dealt(self, hands: list[list[int]], sdeck: list[int]) -> State:
        """A copy holding `hands` and `sdeck` (new lists, taken as they are) instead of
        copies of its own: a deal of the hidden cards (`view.determinize`) copies none of
        what it replaces; `copy` is this with copies of its own. The one list of the
        fields to keep in step with `__slots__` (a test checks every field)."""
        s = State.__new__(State)
        s.players = self.players
        s.open_hands = self.open_hands
        s.phase = self.phase
        s.active = self.active
        s.marker = self.marker
        s.hands = hands
        s.sdeck = sdeck
        s.sdiscard = self.sdiscard[:]
        s.pdeck = self.pdeck[:]
        s.slots = self.slots[:]
        s.pdiscard = self.pdiscard[:]
        s.graveyard = self.graveyard[:]
        s.support = self.support
        s.card = self.card
        s.committed = self.committed
        s.dice = self.dice[:]
        s.draws = self.draws
        s.recipient = self.recipient
        s.result = self.result
        s.reason = self.reason
        s.turn = self.turn
        return s

    def __repr__(self) -> str:
        return (
            f"<State {PHASES[self.phase]} turn={self.turn} marker={self.marker} "
            f"active=p{self.active + 1} slots={self.slots} hands={self.hands}>"
        )
