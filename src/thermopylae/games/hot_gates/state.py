"""The 300: The Board Game state: flat lists and ints, cheap to copy.

The board is 12 spaces, `row * 6 + (number - 1)`: A1..A6 are 0..5, B1..B6 are 6..11.
Persians advance towards higher numbers, Spartans towards lower ones. A space holds a
list of *pieces*: `type * 2 + wounded` (type indices in components.py), plus `MOVED`
while a unit has already marched this phase (and `AGAIN` once it marched twice). Decks
are unordered multisets of card numbers: a draw is a chance node, so no order is stored
to leak.
"""

from __future__ import annotations

from typing import Any

ROWS = 2
SPACES = 6
WOUNDED = 1
MOVED = 128  # added to a piece that has marched this phase
AGAIN = 256  # added to a piece that has marched a second time (a "march" card)
PIECE = 127  # mask: the piece without its flags

# Phases: who decides, and what about.
DEAL = 0  # chance: cards drawn (`draws`), then dice rolled (`rolls`)
WINDOW = 1  # `actor` may play a Battle Card of the open window, or pass
MARCH = 2  # `actor` marches units, brings reinforcements, or is done
CASUALTY = 3  # `actor` chooses the next casualty in its battle space
CONQUER = 4  # `actor` may advance into the conquered space (then the free follow-up)
PULLBACK = 5  # the Spartans rearrange the pulled-back row in the Hot Gates
RETURN = 6  # the Persians march reinforcements back up to the Hot Gates
OVER = 7

PHASES = ("deal", "window", "march", "casualty", "conquer", "pull-back", "return", "over")
WINDOWS = ("march", "battle", "roll", "casualty", "ephialtes")
MARCH_W, BATTLE_W, ROLL_W, CASUALTY_W, EPHIALTES_W = range(5)
ROW_NAMES = "AB"


def space_name(space: int) -> str:
    return f"{ROW_NAMES[space // SPACES]}{space % SPACES + 1}"


def phase_name(s: State) -> str:
    """The phase by its name in the view: an open window is "<window> cards"."""
    return PHASES[s.phase] if s.phase != WINDOW else f"{WINDOWS[s.window]} cards"


class State:
    """One position of a game of 2, 3 or 4 players."""

    __slots__ = (
        "actor",
        "board",
        "bonus_taken",
        "boxes",
        "breach",
        "bt",
        "cache",
        "camp",
        "dead",
        "decks",
        "discards",
        "draws",
        "eph",
        "eph_move",
        "extra",
        "gates_entered",
        "glory",
        "hands",
        "kills",
        "leaders",
        "passes",
        "phase",
        "played",
        "players",
        "pool",
        "reason",
        "rolls",
        "round",
        "stack",
        "steps",
        "window",
        "winners",
    )

    def __init__(self, players: int) -> None:
        self.players = players
        self.phase = DEAL
        self.round = 1
        self.board: list[list[int]] = [[] for _ in range(ROWS * SPACES)]
        self.camp: list[int] = []  # Spartan pieces in the Spartan Camp
        self.boxes: list[list[int]] = []  # Persian Reinforcement Boxes, box 1 first
        self.leaders: list[int] = []  # Persian Leaders (types) waiting in the Persian Camp
        self.dead: list[int] = []  # eliminated Spartan pieces and Persian Leaders
        self.pool: list[int] = []  # a row's Spartans being pulled back
        self.glory = [0] * players  # per Spartan seat (Persian seats stay 0)
        self.kills = [0] * players  # Spartan units eliminated, per Persian seat
        self.eph = 0  # Ephialtes: 0 is the start space C
        self.eph_move = 1  # how far Ephialtes moves this round (cards change it)
        self.bonus_taken = 0  # bit per space: the Spartans' glory bonus is spent
        self.gates_entered = 0  # bit per space: the Persians' entry already cost glory
        self.breach = False  # the Persians conquered the last space of a Spartan row
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.decks: list[list[int]] = [[] for _ in range(players)]
        self.discards: list[list[int]] = [[] for _ in range(players)]
        self.draws: list[int] = []  # seats still to draw a card, in order
        self.rolls: list[int] = []  # dice still to roll: side*8 + slot (see battle)
        self.window = -1  # the open card window (index into WINDOWS), -1 none
        self.played: list[list[int]] = []  # [seat, card, cancelled] in the open window
        self.passes = 0  # seats that passed in a row in the open window
        self.actor = -1  # the seat to decide
        self.extra = [0] * players  # extra marches granted by cards this phase
        # The battle being fought: row, attack, dice, bonuses, damage left (battle.py).
        self.bt: list[Any] = []
        self.stack: list[tuple[Any, ...]] = []  # what to do when the current step ends
        self.steps = 0  # decisions and chance events applied
        self.winners: list[int] = []
        self.reason = ""
        # (steps, legal actions, the March Phase's geometry or None), so that `legal` and
        # `apply`'s check build the list once per step, and the next march updates the
        # geometry (march.march_list); never copied, never saved.
        self.cache: tuple[int, list[Any], Any] | None = None

    def copy(self) -> State:
        s = State.__new__(State)
        s.players = self.players
        s.phase = self.phase
        s.round = self.round
        s.board = [sp[:] for sp in self.board]
        s.camp = self.camp[:]
        s.boxes = [b[:] for b in self.boxes]
        s.leaders = self.leaders[:]
        s.dead = self.dead[:]
        s.pool = self.pool[:]
        s.glory = self.glory[:]
        s.kills = self.kills[:]
        s.eph = self.eph
        s.eph_move = self.eph_move
        s.bonus_taken = self.bonus_taken
        s.gates_entered = self.gates_entered
        s.breach = self.breach
        s.hands = [h[:] for h in self.hands]
        s.decks = [d[:] for d in self.decks]
        s.discards = [d[:] for d in self.discards]
        s.draws = self.draws[:]
        s.rolls = self.rolls[:]
        s.window = self.window
        s.played = [p[:] for p in self.played]
        s.passes = self.passes
        s.actor = self.actor
        s.extra = self.extra[:]
        s.bt = [x[:] if isinstance(x, list) else x for x in self.bt]
        s.stack = self.stack[:]
        s.steps = self.steps
        s.winners = self.winners[:]
        s.reason = self.reason
        s.cache = None
        return s

    def __repr__(self) -> str:
        return (
            f"<State round={self.round} {PHASES[self.phase]} actor={self.actor} "
            f"glory={self.glory} eph={self.eph}>"
        )
