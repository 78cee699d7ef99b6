"""The board and the seats: spaces, capacities, who controls which row, unit numbers.

Everything here is a pure function of the position or of the component set; the rules
and the agents ask these questions, so they are answered in one place. `Tables` holds
what the rule modules read besides the state: the component set, its notation, and the
numbers derived from them once, so that no rule needs the game object.
"""

from __future__ import annotations

import threading
from typing import Any, TypeVar

from thermopylae.games.hot_gates.actions import CODES, Action, Enter, Move, Notation
from thermopylae.games.hot_gates.components import (
    ASTINOS,
    BEAST,
    CAPTAIN,
    CAVALRY,
    DILIOS,
    IMMORTAL,
    INFANTRY,
    LEADERS,
    LEONIDAS,
    SPARTAN,
    STELIOS,
    Components,
)
from thermopylae.games.hot_gates.state import (
    AGAIN,
    MOVED,
    PIECE,
    SPACES,
    WINDOWS,
    WOUNDED,
    State,
)

T = TypeVar("T")
GAME_ID = "hot-gates"  # the registry's name of the game, in views and records
PERSIAN, SPARTAN_SIDE = 0, 1
SIDE_NAMES = ("persian", "spartan")
COASTAL = 3  # spaces 1-3 of a row are the Coastal Plain, 4-6 the Hot Gates

# Seats by player count, and which seat controls each row's Persians and Spartans.
SEATS = {
    2: ("persia", "sparta"),
    3: ("persia", "sparta-a", "sparta-b"),
    4: ("persia-a", "persia-b", "sparta-a", "sparta-b"),
}
PERSIAN_OF = {2: (0, 0), 3: (0, 0), 4: (0, 1)}
SPARTAN_OF = {2: (1, 1), 3: (1, 2), 4: (2, 3)}

# The set-up diagram (seed 000): space -> units, type ids by index.
SETUP: dict[int, tuple[int, ...]] = {
    0: (IMMORTAL,) * 6,
    1: (CAVALRY,) * 6,
    2: (INFANTRY,) * 6,
    6: (IMMORTAL,) * 6,
    7: (CAVALRY,) * 6,
    8: (INFANTRY,) * 6,
}
# Where the Spartans stand at the start (seed 000, "Set Up"); 7 more wait in the camp.
SPARTAN_SETUP: dict[int, tuple[int, ...]] = {
    3: (LEONIDAS, SPARTAN, SPARTAN),
    4: (STELIOS, SPARTAN, SPARTAN),
    5: (SPARTAN,) * 3,
    9: (CAPTAIN, ASTINOS, SPARTAN),
    10: (DILIOS, SPARTAN, SPARTAN),
    11: (SPARTAN,) * 3,
}
CAMP_SPARTANS = 7
# By side and row, the row's spaces from the enemy's end (`Tables.front`).
FRONT_FIRST = (
    tuple(tuple(range(row * SPACES + SPACES - 1, row * SPACES - 1, -1)) for row in (0, 1)),
    tuple(tuple(range(row * SPACES, row * SPACES + SPACES)) for row in (0, 1)),
)
START_BOX = (BEAST, BEAST)


distinct = dict.fromkeys
"""Items once each, first seen first (iterate the dict). Bound once: `dict.fromkeys`
looked up on the type makes the classmethod's bound method again at each call, a
quarter of the cost of the small dicts of a space's pieces the rules make."""

SEEN = threading.local()
"""`mark`: by piece code (below `MARKS`), the list being made when that kind was last met
(`march.march_on`, the fused playout). A list kept alive there is never the one being
made, so a space's kinds are met once each, first seen first, without the small dict
`distinct` makes (~1,300 instructions a call). One per thread: threads' searches may
share the tables."""
MARKS = 512  # piece codes with every flag (state.PIECE + MOVED + AGAIN) are below


def marks() -> list[Any]:
    """This thread's `SEEN.mark`, made at its first use."""
    try:
        return SEEN.mark  # type: ignore[no-any-return]
    except AttributeError:
        mark = SEEN.mark = [None] * MARKS
        return mark


def side_of_seat(players: int, seat: int) -> int:
    return PERSIAN if seat in PERSIAN_OF[players] else SPARTAN_SIDE


def rows_of(players: int, seat: int) -> tuple[int, ...]:
    """The rows whose units `seat` commands."""
    owners = PERSIAN_OF[players] if side_of_seat(players, seat) == PERSIAN else SPARTAN_OF[players]
    return tuple(r for r in (0, 1) if owners[r] == seat)


def seat_of(players: int, side: int, row: int) -> int:
    return (PERSIAN_OF if side == PERSIAN else SPARTAN_OF)[players][row]


SPARTAN_SEATS = {n: tuple(dict.fromkeys(rows)) for n, rows in SPARTAN_OF.items()}
PERSIAN_SEATS = {n: tuple(dict.fromkeys(rows)) for n, rows in PERSIAN_OF.items()}
"""Each side's seats by player count, each once (one seat may hold both rows): tables, so
that the rules' hot paths read them without a call."""


def by_players(table: dict[int, T]) -> tuple[T, ...]:
    """A table by player count as a tuple indexed by the count (below 2: the 2-player
    entry, never read), for the rules' hot paths: an int-keyed dict's look-up costs
    several times a tuple's."""
    return tuple(table[n if n in table else min(table)] for n in range(max(table) + 1))


def spartan_seats(players: int) -> tuple[int, ...]:
    return SPARTAN_SEATS[players]


def persian_seats(players: int) -> tuple[int, ...]:
    return PERSIAN_SEATS[players]


def is_coastal(space: int) -> bool:
    return space % SPACES < COASTAL


# The moves of one side's pieces out of one space by a way forward and a way across, for
# each flag limit (0: MOVED, 1: AGAIN, while a card's extra march is left) and each pair of
# rooms there as `Tables.fits` classes them (`fwd * Tables.fit_classes + across`): by piece
# with its flags, the moves it has (none at or above the limit), forward first
# (march.march_list).
WayMoves = list[list[dict[int, tuple[Move, ...]]]]
Way = tuple[int, int, list[dict[int, tuple[Move, ...]]], list[dict[int, tuple[Move, ...]]]]
CLOSED_ROOM = 128
"""The room read for a closed way: no piece fits (`Tables.fits` is 0 there), and no
negative index (3.11 does not specialise a list's item read for one)."""
# A march's geometry (march.march_list): each space's owner (-1: empty) and room (and a
# last room, CLOSED_ROOM, read for a closed way); the enemy's leading space in each row (by
# number), for switching rows. Then what stays fixed while one seat marches (the enemy
# does not move): the seat's spaces from which a way is open; by space, the space forward
# and the space across (NSPACES: closed) and the moves there by piece for each flag limit
# (`WayMoves`'s two), or None; the
# entries the enemy does not hold. Then the lists as last made: by space, the moves from
# it (NSPACES: none) and whether one of them is a Persian's forced march; by space, the
# seat's spaces with a way there (NSPACES: the entries); the spaces whose moves are to be
# listed again (a list, in any order, where a space may come twice: appending is cheaper
# than set.add, extending than set.update; NSPACES: the entries too); the flag limit of
# the pieces the lists were made for, the entries (None: to list again), whether one of
# them is forced, the marching side, and the units waiting to come on (the first box's,
# then the others, each kind once; None: to look at again).
Geometry = tuple[
    list[int],
    list[int],
    tuple[int, int],
    list[int],
    list[Way | None],
    list[tuple[int, list[Enter]]],
    list[list[Action]],
    list[bool],
    list[list[int]],
    list[int],
    list[Any],
]
# What stays fixed while one seat marches, as in `Geometry` (march._ways).
MarchWays = tuple[
    tuple[int, int],
    list[int],
    list[Way | None],
    list[tuple[int, list[Enter]]],
    list[list[int]],
]
# A seat's march: its side; the spaces of its rows; for each of them its number, the
# space forward (-1: none), the space across and the other row (the moves by way are
# `Tables.way_moves`); for each row, the space where units enter and the entries by code.
MarchPlan = tuple[
    int,
    tuple[int, ...],
    dict[int, tuple[int, int, int, int]],
    list[tuple[int, list[Enter]]],
]


def march_plan(notation: Notation, players: int, seat: int) -> MarchPlan:
    """The seat's `MarchPlan`, its actions taken from the notation's interned ones."""
    side = side_of_seat(players, seat)
    rows = rows_of(players, seat)
    enter = notation.enter
    spaces = {}
    for row in rows:
        other = 1 - row
        for n in range(SPACES):
            sp = row * SPACES + n
            step = 1 if side == PERSIAN else -1  # forward
            fwd = sp + step if 0 <= n + step < SPACES else -1
            sw = other * SPACES + n
            spaces[sp] = (n, fwd, sw, other)
    entries = []
    for row in rows:
        sp = row * SPACES if side == PERSIAN else row * SPACES + SPACES - 1
        entries.append((sp, [enter[sp, code] for code in range(CODES)]))
    return side, tuple(spaces), spaces, entries


class Tables:
    """What the rules read besides the state, for one component set: the components
    (`c`), their notation (its interned actions build the legal lists), per-card and
    per-piece numbers (indexed by piece code `type * 2 + wounded`) and the march plans.
    Slots: the rules read these on every step, and with more than 30 attributes an
    instance's dict no longer shares its keys, so each read was a dict look-up by hint."""

    __slots__ = (
        "_way_moves",
        "attack",
        "big",
        "c",
        "cancel_cards",
        "capacity",
        "card_cancel",
        "card_effect",
        "card_window",
        "cards",
        "dead_back",
        "defense",
        "dice_chart",
        "dilios",
        "extra_places",
        "fit_classes",
        "fit_codes",
        "fits",
        "glory",
        "kinds",
        "leader",
        "leader_kinds",
        "march_plan",
        "march_tables",
        "march_ways",
        "notation",
        "piece_attack",
        "piece_side",
        "places",
        "side",
        "size",
        "spartan_piece",
        "unwounded",
        "window_cards",
        "window_plays",
        "woundable",
    )

    def __init__(self, c: Components, notation: Notation) -> None:
        self.c = c
        self.notation = notation
        self.cards = c.cards
        # Per card number: the window it is played in (-1: none of them), and whether it
        # is a cancel (cards.playable).
        self.card_window = [WINDOWS.index(k.window) if k.window in WINDOWS else -1 for k in c.cards]
        self.card_cancel = [k.effect == "cancel" for k in c.cards]
        # The same by sets, so that a hand is asked in one C-level look (cards.next_seat):
        # per window, the cards played in it; the cancels.
        self.window_cards = tuple(
            frozenset(i for i, w in enumerate(self.card_window) if w == k)
            for k in range(len(WINDOWS))
        )
        self.cancel_cards = frozenset(i for i, x in enumerate(self.card_cancel) if x)
        # Per window, by card number: its play when it may be played there, a cancel's
        # too (asked apart), None otherwise: `cards.legal` passes over most of a hand by
        # one look.
        self.window_plays = tuple(
            tuple(
                notation.play[i] if w == k or self.card_cancel[i] else None
                for i, w in enumerate(self.card_window)
            )
            for k in range(len(WINDOWS))
        )
        self.card_effect = [k.effect for k in c.cards]
        n = len(c.units) * 2
        self.side = [0] * n
        self.size = [1] * n
        self.attack = [0] * n
        self.defense = [1] * n
        self.glory = [0] * n
        self.dead_back = [False] * n
        self.leader = [False] * n
        for t, u in enumerate(c.units):
            for w in (0, 1):
                code = t * 2 + w
                self.side[code] = PERSIAN if u.side == "persian" else SPARTAN_SIDE
                self.size[code] = u.size
                self.attack[code] = (
                    u.wounded_attack if w and u.wounded_attack is not None else u.attack
                )
                self.defense[code] = (
                    u.wounded_defense if w and u.wounded_defense is not None else u.defense
                )
                self.glory[code] = u.glory
                self.dead_back[code] = u.dead_back
                self.leader[code] = t in LEADERS
        # By piece: whether a hit it outlasts leaves it Wounded (not yet Wounded, no "Dead"
        # on its back), and the piece unwounded: tables, as 3.11 does not specialise `&`.
        self.woundable = [not code & WOUNDED and not self.dead_back[code] for code in range(n)]
        self.unwounded = [code & ~WOUNDED for code in range(n)]
        # Pieces bigger than one place, with their flags, and the places beyond the first:
        # a space's load is its number of pieces plus these (counted at C speed).
        # By room (a negative one read from the end), how many of the pieces' sizes fit:
        # a march changes the lists of moves into a space when this changes there.
        sizes = set(self.size)
        self.fits = [sum(r >= k for k in sizes) for r in range(128)] + [0] * 128
        self.fit_classes = len(sizes) + 1
        # By fit class of a room, the unmarched pieces that fit there (a Persian's forced
        # march); the moves by way (`way_moves`), made when first asked.
        self.fit_codes = [
            frozenset(code for code in range(n) if self.fits[self.size[code]] <= f)
            for f in range(self.fit_classes)
        ]
        self._way_moves: dict[tuple[int, int, int, int], WayMoves] = {}
        self.extra_places = {
            code | flag: self.size[code] - 1
            for code in range(n)
            if self.size[code] > 1
            for flag in (0, MOVED, MOVED | AGAIN)
        }
        self.big = frozenset(self.extra_places)
        # Places used by each piece with any flags (index: code | MOVED | AGAIN), so that a
        # space holding big pieces sums its load at C speed; and the piece's side.
        self.places = [
            self.size[p & PIECE] if p & PIECE < n else 0 for p in range(PIECE + MOVED + AGAIN + 1)
        ]
        self.piece_side = [
            self.side[p & PIECE] if p & PIECE < n else -1 for p in range(PIECE + MOVED + AGAIN + 1)
        ]
        # Attack by piece with any flags (battle.attack_total), and the Battle Chart's dice
        # by total Attack up to a bound (beyond it, asked of the components).
        self.piece_attack = [
            self.attack[p & PIECE] if p & PIECE < n else 0 for p in range(PIECE + MOVED + AGAIN + 1)
        ]
        self.dice_chart = [c.dice_for(a) for a in range(128)]
        self.capacity = [
            c.rules.coastal_capacity if is_coastal(sp) else c.rules.gates_capacity
            for sp in range(2 * SPACES)
        ]
        self.dilios = (DILIOS * 2, DILIOS * 2 + WOUNDED)
        self.spartan_piece = SPARTAN * 2
        # Per player count and seat: where its units march and enter (march.march_list),
        # and the per-piece lists that function reads, bound once.
        self.march_plan = {
            k: [march_plan(notation, k, seat) for seat in range(k)] for k in (2, 3, 4)
        }
        # March._ways's answers by player count, seat and the spaces' owners.
        self.march_ways: dict[tuple[int, ...], MarchWays] = {}
        # A reserve's kinds (a box's or the camp's pieces, the Leaders' types as pieces),
        # each once, first seen first, by its contents (march.march_on): a tuple's look-up
        # costs about a third of the small dict `distinct` makes. Read, never changed.
        self.kinds: dict[tuple[int, ...], list[int]] = {}
        self.leader_kinds: dict[tuple[int, ...], list[int]] = {}
        self.march_tables = (
            self.size,
            self.capacity,
            self.big.isdisjoint,
            self.places.__getitem__,
            self.piece_side,
        )

    def way_moves(self, side: int, sp: int, fwd: int, sw: int) -> WayMoves:
        """The `WayMoves` of `side`'s pieces out of `sp` forward to `fwd` and across to
        `sw` (-1: closed), made once and shared."""
        key = (side, sp, fwd, sw)
        made = self._way_moves.get(key)
        if made is not None:
            return made
        move = self.notation.move
        fits, k = self.fits, self.fit_classes
        codes = [code for code in range(len(self.size)) if self.side[code] == side]
        rank = {code: fits[self.size[code]] for code in codes}
        fwd_part = [
            {c: (move[sp, fwd, c],) if fwd >= 0 and rank[c] <= f else () for c in codes}
            for f in range(k)
        ]
        sw_part = [
            {c: (move[sp, sw, c],) if sw >= 0 and rank[c] <= f else () for c in codes}
            for f in range(k)
        ]
        marched = dict.fromkeys([c | MOVED for c in codes], ())
        twice = dict.fromkeys([c | MOVED | AGAIN for c in codes], ())
        once: list[dict[int, tuple[Move, ...]]] = []
        again: list[dict[int, tuple[Move, ...]]] = []
        for f in range(k * k):
            ahead, across = fwd_part[f // k], sw_part[f % k]
            both = {c: ahead[c] + across[c] for c in codes}
            once.append({**both, **marched, **twice})
            again.append({**both, **{c | MOVED: both[c] for c in codes}, **twice})
        made = self._way_moves[key] = [once, again]
        return made

    def load(self, pieces: list[int]) -> int:
        """Places used: one per piece, plus the extra places of the big ones."""
        if self.big.isdisjoint(pieces):
            return len(pieces)
        extra = self.extra_places
        return len(pieces) + sum(extra.get(p, 0) for p in pieces)

    def room(self, s: State, space: int) -> int:
        pieces = s.board[space]  # (`load`, written out: a Conquer's list asks)
        if self.big.isdisjoint(pieces):
            return self.capacity[space] - len(pieces)
        return self.capacity[space] - self.load(pieces)

    def owner(self, s: State, space: int) -> int:
        """The side whose units hold `space`, or -1 when it is empty."""
        pieces = s.board[space]
        return self.side[pieces[0] & PIECE] if pieces else -1

    def front(self, s: State, row: int, side: int) -> int:
        """The space of `side`'s leading units in `row` (nearest the enemy), or -1."""
        board, pside = s.board, self.piece_side
        for sp in FRONT_FIRST[side][row]:
            pieces = board[sp]
            if pieces and pside[pieces[0]] == side:
                return sp
        return -1

    def battle_spaces(self, s: State, row: int) -> tuple[int, int] | None:
        """(Persian space, Spartan space) when the two armies are adjacent in `row`: each
        side's `front`, written out (a battle's start asks ~12 times a game)."""
        board, pside = s.board, self.piece_side
        for p in FRONT_FIRST[PERSIAN][row]:
            pieces = board[p]
            if pieces and pside[pieces[0]] == PERSIAN:
                break
        else:
            return None  # no Persian in the row
        for q in FRONT_FIRST[SPARTAN_SIDE][row]:
            pieces = board[q]
            if pieces and pside[pieces[0]] == SPARTAN_SIDE:
                return (p, q) if q == p + 1 else None
        return None

    def count_units(self, s: State) -> tuple[int, int]:
        """Spartan and Persian units anywhere (board, camps, boxes, pool, eliminated);
        eliminated Persians are in a Reinforcement Box at once, Leaders in `dead`."""
        spartans = persians = 0
        side = self.side
        everywhere = [p for sp in s.board for p in sp] + s.camp + s.pool + s.dead
        everywhere += [p for box in s.boxes for p in box] + [t * 2 for t in s.leaders]
        for p in everywhere:
            if side[p & PIECE] == PERSIAN:
                persians += 1
            else:
                spartans += 1
        return spartans, persians
