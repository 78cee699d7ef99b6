"""The rules of 300: The Board Game as a state machine (seed 000, the English rulebook).

A round is the rulebook's four phases: Draw, March (Persians first, then Spartans), Battle
(row A, then row B: Battle Start, Attack, Casualty, Conquer) and Ephialtes. Card windows
open at the start of the March Phase, at each Battle Start, after the dice are rolled
(Attack), before casualties and at the Ephialtes Phase (cards.py). Steps that wait for a
decision or a chance event leave a continuation on `state.stack`; `_resume` pops it when
the step ends, so the round reads top to bottom in `_k_round`.

`legal` lists what the rules allow; `apply` accepts exactly those actions (a property
test checks it), so an illegal action raises and leaves the state unchanged.
"""

from __future__ import annotations

import random
from bisect import insort
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, NoReturn

from thermopylae.engine.errors import IllegalAction, RecordError, ThermopylaeError
from thermopylae.engine.game import GameBase
from thermopylae.engine.protocol import CHANCE, JSON, Event, Outcome
from thermopylae.games.hot_gates import battle, cards, text, view
from thermopylae.games.hot_gates.actions import CODES, DONE, Act, Notation, piece_name
from thermopylae.games.hot_gates.board import (
    CAMP_SPARTANS,
    PERSIAN,
    PERSIAN_OF,
    SEATS,
    SETUP,
    SPARTAN_OF,
    SPARTAN_SIDE,
    START_BOX,
    Tables,
    persian_seats,
    rows_of,
    side_of_seat,
    spartan_seats,
)
from thermopylae.games.hot_gates.components import (
    ASTINOS,
    CAPTAIN,
    GENERAL,
    LEONIDAS,
    SPARTAN,
    STELIOS,
    UBER,
    XERXES,
    Components,
)
from thermopylae.games.hot_gates.serial import state_from_json, state_to_json
from thermopylae.games.hot_gates.state import (
    AGAIN,
    CASUALTY,
    CASUALTY_W,
    CONQUER,
    DEAL,
    EPHIALTES_W,
    MARCH,
    MARCH_W,
    MOVED,
    OVER,
    PHASES,
    PIECE,
    PULLBACK,
    RETURN,
    ROLL_W,
    SPACES,
    WINDOW,
    WINDOWS,
    State,
    space_name,
)
from thermopylae.games.wording import reword

Ev = list[Event] | None

# Where the Spartans stand at the start (seed 000, "Set Up"); 7 more wait in the camp.
SPARTAN_SETUP: dict[int, tuple[int, ...]] = {
    3: (LEONIDAS, SPARTAN, SPARTAN),
    4: (STELIOS, SPARTAN, SPARTAN),
    5: (SPARTAN,) * 3,
    9: (CAPTAIN, ASTINOS, SPARTAN),
    10: (battle.DILIOS_TYPE, SPARTAN, SPARTAN),
    11: (SPARTAN,) * 3,
}


class HotGates(GameBase[State, Act]):
    """300: The Board Game for 2, 3 or 4 players, bound to one component set."""

    id: ClassVar[str] = "hot-gates"
    title: ClassVar[str] = "300: The Board Game"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    cooperative: ClassVar[bool] = False
    notation: Notation

    def __init__(self, components: Components) -> None:
        self.components = components
        self.components_digest = components.digest
        self.provisional = components.provisional
        self.notation = Notation(components)
        self.t = Tables(components)
        self.cards = components.cards
        faces = Counter(components.faces)
        self._faces = list(components.faces)
        self._roll_dist = [
            (self.notation.roll[f], c / len(components.faces)) for f, c in sorted(faces.items())
        ]
        # Per card number: the window it is played in (-1: none of them), and whether it
        # is a cancel (cards.playable).
        self.card_window = [
            WINDOWS.index(c.window) if c.window in WINDOWS else -1 for c in self.cards
        ]
        self.card_cancel = [c.effect == "cancel" for c in self.cards]
        # Per player count and seat: where its units march and enter (`_march_legal`).
        self._march_plan = {
            n: [_march_plan(self.notation, n, seat) for seat in range(n)] for n in (2, 3, 4)
        }
        t = self.t
        self._march_tables = (
            t.size,
            t.capacity,
            t.big.isdisjoint,
            t.places.__getitem__,
            t.piece_side,
        )

    # -- table ---------------------------------------------------------------------------

    def options(self, options: Mapping[str, Any] | None = None) -> JSON:
        """`players`: 2 (one Spartan, one Persian, the default), 3 or 4."""
        given = dict(options or {})
        unknown = set(given) - {"players"}
        if unknown:
            raise ThermopylaeError(
                f"unknown option(s) {sorted(unknown)}; 300: The Board Game takes players"
            )
        players = given.get("players", 2)
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
            raise ThermopylaeError(f"players must be 2, 3 or 4, not {players!r}")
        return {"players": players}

    def seats(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        return SEATS[self.options(options)["players"]]

    def new(self, options: Mapping[str, Any]) -> State:
        """The set-up of seed 000; the opening hands are dealt by chance nodes."""
        n = self.options(options)["players"]
        s = State(n)
        for sp, types in {**SETUP, **SPARTAN_SETUP}.items():
            s.board[sp] = [t * 2 for t in types]
        s.camp = [SPARTAN * 2] * CAMP_SPARTANS
        s.boxes = [[t * 2 for t in START_BOX]]
        s.leaders = [XERXES, UBER, GENERAL, GENERAL]
        for seat, deck in enumerate(cards.decks(self.cards, n)):
            s.decks[seat] = deck
        hand = self.components.rules.start_hand
        for seat in range(n):
            extra = 1 if n == 3 and seat in PERSIAN_OF[n] else 0  # "start with 4 cards"
            s.draws += [seat] * (hand + extra)
        s.stack = [("round",)]
        self._deal(s, None)
        return s

    # -- whose move ----------------------------------------------------------------------

    def to_act(self, s: State) -> int | None:
        if s.phase == OVER:
            return None
        if s.phase == DEAL:
            return CHANCE
        return s.actor

    def legal(self, s: State) -> Sequence[Act]:
        ph = s.phase
        if ph == WINDOW:
            return cards.legal(self, s)
        if ph == MARCH:
            cached = s.cache
            if cached is not None and cached[0] == s.steps:
                return cached[1]
            acts, geometry = self._march_list(s, None)
            s.cache = (s.steps, acts, geometry)
            return acts
        if ph == CASUALTY:
            return battle.casualty_legal(self, s)
        if ph == CONQUER:
            return battle.conquer_legal(self, s)
        if ph == PULLBACK:
            return self._pullback_legal(s)
        if ph == RETURN:
            return self._return_legal(s)
        return ()

    def sensible(self, s: State) -> Sequence[Act]:
        """`legal` without the plays the game knows to be pointless: a card whose effect
        cannot apply (decision 35). The rules allow them, so `legal` keeps them; the
        searches choose among these instead, so as not to spend a card for nothing."""
        acts = self.legal(s)
        return cards.sensible(self, s, acts) if s.phase == WINDOW else acts

    def chance(self, s: State) -> list[tuple[Act, float]]:
        if s.phase != DEAL:
            return []
        if s.draws:
            deck = s.decks[s.draws[0]]
            counts = Counter(deck)
            return [(self.notation.draw[c], k / len(deck)) for c, k in sorted(counts.items())]
        return list(self._roll_dist)

    def sample_chance(self, s: State, rng: random.Random) -> Act:
        if s.phase != DEAL:
            raise IllegalAction(f"no chance event is due now ({text.waiting_for(self, s)})")
        if s.draws:
            deck = s.decks[s.draws[0]]
            return self.notation.draw[deck[int(rng.random() * len(deck))]]
        return self.notation.roll[self._faces[int(rng.random() * len(self._faces))]]

    # -- applying actions ----------------------------------------------------------------

    def apply(self, s: State, action: Act, *, quiet: bool = False) -> list[Event]:
        ev: list[Event] | None = None if quiet else []
        ph = s.phase
        if ph == OVER:
            raise IllegalAction("the game is over")
        if not isinstance(action, Act):
            raise IllegalAction(f"{action!r} is not a 300: The Board Game action")
        if ph == DEAL:
            self._chance(s, action, ev)
        elif ph == MARCH:  # the most frequent step, its list usually kept from the last one
            cached = s.cache
            acts = cached[1] if cached is not None and cached[0] == s.steps else self.legal(s)
            if action not in acts:
                self._refuse(s, action)
            self._march(s, action, ev)
        else:
            if action not in self.legal(s):
                self._refuse(s, action)
            self._decide(s, action, ev)
        s.steps += 1
        return ev if ev is not None else []

    def _refuse(self, s: State, action: Act) -> NoReturn:
        raise IllegalAction(f"{self._name(action)!r} is not legal now: {text.waiting_for(self, s)}")

    def _name(self, a: Act) -> str:
        try:
            return self.format(a)
        except (TypeError, IndexError, KeyError):
            return repr(a)

    def _chance(self, s: State, a: Act, ev: Ev) -> None:
        if s.draws:
            if a.verb != "draw" or a.a not in s.decks[s.draws[0]]:
                raise IllegalAction(
                    f"{self._name(a)!r} is not possible now: a card is drawn "
                    f"from the deck of {SEATS[s.players][s.draws[0]]}"
                )
            seat = s.draws.pop(0)
            s.decks[seat].remove(a.a)
            insort(s.hands[seat], a.a)
            if ev is not None:
                ev.append(Event("draw", {"seat": SEATS[s.players][seat]}))
                ev.append(
                    Event(
                        "drew",
                        {"seat": SEATS[s.players][seat], "card": self.cards[a.a].code},
                        to=seat,
                    )
                )
        else:
            if a.verb != "roll" or a.a not in self.notation.roll:
                raise IllegalAction(
                    f"{self._name(a)!r} is not possible now: a Battle Die is rolled"
                )
            battle.rolled(self, s, a.a, ev)
        self._deal(s, ev)

    def _decide(self, s: State, a: Act, ev: Ev) -> None:
        ph = s.phase
        if ph == WINDOW:
            return cards.decide(self, s, a, ev)
        if ph == MARCH:
            return self._march(s, a, ev)
        if ph == CASUALTY:
            return battle.casualty(self, s, a.a, ev)
        if ph == CONQUER:
            return battle.conquer(self, s, a, ev)
        if ph == PULLBACK:
            return self._place(s, a, ev)
        return self._returned(s, a, ev)

    # -- the flow of a round --------------------------------------------------------------

    def _deal(self, s: State, ev: Ev) -> None:
        """Draw the cards and roll the dice still owed, then carry on. An empty deck
        gives no more cards (decision 8 in docs/rules/hot-gates.md)."""
        while s.draws and not s.decks[s.draws[0]]:
            s.draws.pop(0)
        if s.draws or s.rolls:
            s.phase = DEAL
            return
        self._resume(s, ev)

    def _resume(self, s: State, ev: Ev) -> None:
        """A step ended: carry on with whatever waited for it."""
        if not s.stack:
            raise RecordError(
                "this position's pending steps are inconsistent: nothing "
                "waits for the step that just ended"
            )
        item = s.stack.pop()
        step = _STEPS.get(item[0]) if isinstance(item[0], str) else None
        if step is None:  # not a step of these rules: fails as it always did
            return getattr(self, "_k_" + item[0])(s, ev, *item[1:])  # type: ignore[no-any-return]
        step(self, s, ev, *item[1:])

    def _k_round(self, s: State, ev: Ev) -> None:
        """Draw Phase: one card each (two for the lone Persian of a 3-player game)."""
        n = s.players
        if ev is not None:
            ev.append(Event("round", {"round": s.round}))
        s.stack += [
            ("round_end",),
            ("ephialtes",),
            ("window", EPHIALTES_W),
            ("battle_end",),
            ("battle", 1),
            ("battle", 0),
            ("march", 0),
            ("window", MARCH_W),
        ]
        for seat in range(n):
            s.draws += [seat] * (2 if n == 3 and seat in PERSIAN_OF[n] else 1)
        self._deal(s, ev)

    def _k_window(self, s: State, ev: Ev, w: int) -> None:
        cards.open_window(self, s, w, ev)

    def _k_battle(self, s: State, ev: Ev, row: int) -> None:
        battle.start(self, s, row, ev)

    def _k_bt_attack(self, s: State, ev: Ev) -> None:
        battle.attack(self, s, ev)

    def _k_bt_rolled(self, s: State, ev: Ev) -> None:
        s.stack += [("bt_casualties",), ("window", CASUALTY_W)]
        cards.open_window(self, s, ROLL_W, ev)

    def _k_bt_casualties(self, s: State, ev: Ev) -> None:
        battle.casualties(self, s, ev)

    def _k_battle_end(self, s: State, ev: Ev) -> None:
        """3-4 players: a Spartan at 50 Glory ends the game once the Battle Phase is over
        ("the Spartan Player with the most Glory immediately wins"; ties share it)."""
        if s.players > 2:
            spartans = spartan_seats(s.players)
            best = max(s.glory[p] for p in spartans)
            if best >= self.components.rules.win_glory_team:
                winners = [p for p in spartans if s.glory[p] == best]
                return self._finish(
                    s,
                    winners,
                    f"a Spartan reached {self.components.rules.win_glory_team} Glory",
                    ev,
                )
        self._resume(s, ev)

    def _k_ephialtes(self, s: State, ev: Ev) -> None:
        """ "Ephialtes moves one space forward on the Goat Path"; the last space wins for
        the Persians."""
        s.eph = min(self.components.goat_path, s.eph + s.eph_move)
        if ev is not None:
            ev.append(
                Event(
                    "ephialtes",
                    {"space": s.eph, "moved": s.eph_move, "length": self.components.goat_path},
                )
            )
        s.eph_move = 1
        if s.eph >= self.components.goat_path:
            return self.persians_win(s, "Ephialtes reached the end of the Goat Path", ev)
        self._resume(s, ev)

    def _k_round_end(self, s: State, ev: Ev) -> None:
        """ "If the Persians ever conquer the last space in a Spartan Row, then if the
        Spartans do not earn 100 Glory by the end of that round", the Persians win."""
        if s.breach:
            return self.persians_win(s, "the Persians broke into the Spartan Camp", ev)
        s.round += 1
        s.stack.append(("round",))
        self._resume(s, ev)

    # -- March Phase ----------------------------------------------------------------------

    def march_order(self, players: int) -> tuple[int, ...]:
        """Persians first (row A's before row B's), then the Spartans the same way."""
        return (*persian_seats(players), *spartan_seats(players))

    def _k_march(self, s: State, ev: Ev, i: int) -> None:
        order = self.march_order(s.players)
        if i == 0:
            _clear_moved(s)
        if i >= len(order):
            _clear_moved(s)
            s.extra = [0] * s.players
            return self._resume(s, ev)
        s.stack.append(("march", i + 1))
        self._k_march_resume(s, ev, order[i])

    def _k_march_resume(self, s: State, ev: Ev, seat: int) -> None:
        s.actor = seat
        s.phase = MARCH
        acts, geometry = self._march_list(s, None)
        if acts == [DONE]:  # nothing to move: no question to ask
            return self._resume(s, ev)
        s.cache = (s.steps + 1, acts, geometry)  # `apply` counts this step when it returns

    def _march_legal(self, s: State) -> list[Act]:
        """ "Each Unit can march forward one space", or switch rows instead; the Persians
        "must march forward if they can" and must bring reinforcements while there is
        room, so their `done` is legal only when neither is possible."""
        return self._march_list(s, None)[0]

    def could_march(self, s: State, seats: Sequence[int]) -> bool:
        """Whether one of `seats` could move or bring on a unit if its march began now:
        what a `march` card needs (decision 35). Read at the March Phase's card window,
        before anyone has marched."""
        return any(a.verb != "done" for seat in seats for a in self._march_list(s, None, seat)[0])

    def _march_list(
        self, s: State, geometry: Geometry | None, seat: int = -1
    ) -> tuple[list[Act], Geometry]:
        """`_march_legal`, and the geometry it used: each space's owner (-1: empty) and
        room, and the enemy's leading space in each row (by number), for switching rows.
        The hot path of a playout: the seat's spaces, their neighbours and actions are
        precomputed in `_march_plan`; after a march the geometry of the step before is
        updated rather than counted again (`_march`), as the enemy has not moved. `seat`:
        whose march (default the seat to act)."""
        if seat < 0:
            seat = s.actor
        side, spaces, plan, entries = self._march_plan[s.players][seat]
        enemy = 1 - side
        extra = s.extra[seat] > 0
        size, cap, big, places, pside = self._march_tables
        board = s.board
        persian = side == PERSIAN
        if geometry is None:
            owner = [pside[b[0]] if b else -1 for b in board]
            room = [
                c - (len(b) if big(b) else sum(map(places, b)))
                for c, b in zip(cap, board, strict=False)
            ]
            if persian:
                a, b = owner[:SPACES], owner[SPACES:]
                fronts = (
                    a.index(enemy) if enemy in a else SPACES,
                    b.index(enemy) if enemy in b else SPACES,
                )
            else:
                a, b = owner[SPACES - 1 :: -1], owner[: SPACES - 1 : -1]
                fronts = (
                    SPACES - 1 - a.index(enemy) if enemy in a else -1,
                    SPACES - 1 - b.index(enemy) if enemy in b else -1,
                )
            geometry = owner, room, fronts
        else:
            owner, room, fronts = geometry
        out: list[Act] = []
        forced = False
        for sp in spaces:
            if owner[sp] != side:
                continue
            pieces = board[sp]
            if not extra and min(pieces) >= MOVED:
                continue  # all have marched
            n, fwd, sw, other, fwd_moves, sw_moves = plan[sp]
            fwd_room = room[fwd] if fwd >= 0 and owner[fwd] != enemy else -1
            sw_room = (
                room[sw]
                if (fronts[other] > n if persian else fronts[other] < n) and owner[sw] != enemy
                else -1
            )
            if fwd_room <= 0 and sw_room <= 0:
                continue
            for p in dict.fromkeys(pieces):
                moved = p & MOVED
                if moved and (not extra or p & AGAIN):
                    continue
                code = p & PIECE
                need = size[code]
                if fwd_room >= need:
                    out.append(fwd_moves[code])
                    if persian and not moved:
                        forced = True
                if sw_room >= need:
                    out.append(sw_moves[code])
        if extra:  # a unit that marched and one that did not may make the same move
            out = list(dict.fromkeys(out))
        for sp, enters in entries:
            if owner[sp] == enemy:
                continue
            free = room[sp]
            if free <= 0:
                continue  # full: no unit fits
            if persian:
                if s.boxes:
                    for code in dict.fromkeys(s.boxes[0]):
                        if free >= size[code]:
                            out.append(enters[code])
                            forced = True
                for lt in dict.fromkeys(s.leaders):
                    if free >= size[lt * 2]:
                        out.append(enters[lt * 2])
            else:
                for code in dict.fromkeys(s.camp):
                    if free >= size[code]:
                        out.append(enters[code])
        if not forced:
            out.append(DONE)
        return out, geometry

    def _march(self, s: State, a: Act, ev: Ev) -> None:
        seat = s.actor
        if a.verb == "done":
            if ev is not None:
                ev.append(Event("march-done", {"seat": SEATS[s.players][seat]}))
            return self._resume(s, ev)
        cached = s.cache  # the geometry of this step's list, if kept
        geometry = cached[2] if cached is not None and cached[0] == s.steps else None
        flag = MOVED
        if a.verb == "move":
            src, dst, code = a.a, a.b, a.c
            pieces = s.board[src]
            if code in pieces:
                pieces.remove(code)
            else:  # a second march, granted by a card: once per unit (decision 19)
                pieces.remove(code | MOVED)
                s.extra[seat] -= 1
                flag = MOVED | AGAIN
        else:
            dst, code = a.a, a.b
            src = -1
            self._take_reserve(s, code)
        s.board[dst].append(code | flag)
        if ev is not None:
            ev.append(
                Event(
                    "move" if src >= 0 else "enter",
                    {
                        "seat": SEATS[s.players][seat],
                        "unit": piece_name(code),
                        "from": space_name(src) if src >= 0 else _reserve_name(self, code),
                        "to": space_name(dst),
                    },
                )
            )
        self.entered(s, code, dst, ev, advance=src < 0 or src // SPACES == dst // SPACES)
        if s.phase == OVER:
            return
        if self.t.side[code] == SPARTAN_SIDE and dst % SPACES == 0:
            s.stack.append(("march_resume", seat))
            return self.pull_back(s, dst // SPACES, ev)
        if geometry is not None:  # one unit of this side left `src` and came to `dst`
            owner, room, _ = geometry
            need = self.t.size[code]
            if src >= 0:
                room[src] += need
                if not s.board[src]:
                    owner[src] = -1
            room[dst] -= need
            owner[dst] = self.t.side[code]
        nxt, geometry = self._march_list(s, geometry)
        if nxt == [DONE]:
            return self._resume(s, ev)
        s.cache = (s.steps + 1, nxt, geometry)  # `apply` counts this step when it returns

    def _take_reserve(self, s: State, code: int) -> None:
        """A unit leaves the Persian boxes or camp, or the Spartan Camp."""
        if self.t.side[code] == SPARTAN_SIDE:
            s.camp.remove(code)
        elif self.t.leader[code]:
            s.leaders.remove(code >> 1)
        else:
            s.boxes[0].remove(code)
            if not s.boxes[0]:
                s.boxes.pop(0)  # "the Units in all remaining boxes are pushed forward"

    def entered(self, s: State, code: int, dst: int, ev: Ev, advance: bool = True) -> None:
        """Glory Bonuses and losses, "only the first time" for each space; the Persians in
        a row's last space will win at the end of the round. A Spartan switching rows does
        not "advance into" a space: no bonus (decision 2)."""
        t = self.t
        row, n = divmod(dst, SPACES)
        bit = 1 << dst
        r = self.components.rules
        if t.side[code] == SPARTAN_SIDE:
            if advance and n < 3 and not s.bonus_taken & bit:
                s.bonus_taken |= bit
                self.add_glory(
                    s,
                    SPARTAN_OF[s.players][row],
                    r.glory_bonus[n],
                    ev,
                    f"first into {space_name(dst)}",
                )
                self.check_glory(s, ev)
        else:
            if n >= 3 and not s.gates_entered & bit:
                s.gates_entered |= bit
                self.add_glory(
                    s,
                    SPARTAN_OF[s.players][row],
                    -r.gates_penalty,
                    ev,
                    f"the Persians entered {space_name(dst)}",
                )
            if n == SPACES - 1 and not s.breach:
                s.breach = True
                if ev is not None:
                    ev.append(Event("breach", {"space": space_name(dst)}))

    def add_glory(self, s: State, seat: int, amount: int, ev: Ev, why: str) -> None:
        """Glory never falls below the Start space of the track (decision 6)."""
        before = s.glory[seat]
        s.glory[seat] = max(0, before + amount)
        if ev is not None and s.glory[seat] != before:
            ev.append(
                Event(
                    "glory",
                    {
                        "seat": SEATS[s.players][seat],
                        "change": amount,
                        "glory": s.glory[seat],
                        "why": why,
                    },
                )
            )

    def check_glory(self, s: State, ev: Ev) -> bool:
        """2 players: 100 Glory wins at once (3-4 players: see `_k_battle_end`)."""
        if s.players == 2 and s.phase != OVER and s.glory[1] >= self.components.rules.win_glory_2p:
            self._finish(
                s, [1], f"the Spartans reached {self.components.rules.win_glory_2p} Glory", ev
            )
        return s.phase == OVER

    # -- the last space of the Coastal Plain ----------------------------------------------

    def pull_back(self, s: State, row: int, ev: Ev) -> None:
        """ "They immediately pull that row of Units back into the Hot Gates and can
        rearrange their Units in that row however they see fit"; the bonuses of the row
        can be earned again."""
        t = self.t
        pool = []
        for n in range(SPACES):
            sp = row * SPACES + n
            if s.board[sp] and t.side[s.board[sp][0] & PIECE] == SPARTAN_SIDE:
                pool += [p & PIECE for p in s.board[sp]]
                s.board[sp] = []
        s.pool = sorted(pool)
        s.bonus_taken &= ~(0b111 << (row * SPACES))
        s.bt = [row]
        if ev is not None:
            ev.append(Event("pull-back", {"row": "AB"[row], "units": len(pool)}))
        s.phase = PULLBACK
        s.actor = SPARTAN_OF[s.players][row]
        self._pullback_next(s, ev)

    def _pullback_legal(self, s: State) -> list[Act]:
        row = s.bt[0]
        acts = []
        for n in range(3, SPACES):
            sp = row * SPACES + n
            room = self.t.room(s, sp)
            acts += [
                self.notation.enter[sp, code]
                for code in dict.fromkeys(s.pool)
                if room >= self.t.size[code]
            ]
        return acts

    def _place(self, s: State, a: Act, ev: Ev) -> None:
        dst, code = a.a, a.b
        s.pool.remove(code)
        s.board[dst].append(code | _march_flag(s))
        if ev is not None:
            ev.append(Event("place", {"unit": piece_name(code), "to": space_name(dst)}))
        self._pullback_next(s, ev)

    def _pullback_next(self, s: State, ev: Ev) -> None:
        if s.pool and self._pullback_legal(s):
            return
        if s.pool:  # no room left in the row's Hot Gates (decision 11)
            if ev is not None:
                ev.append(Event("to-camp", {"units": len(s.pool)}))
            s.camp += s.pool
            s.pool = []
        row = s.bt[0]
        s.phase = RETURN
        s.actor = PERSIAN_OF[s.players][row]
        if ev is not None:
            ev.append(Event("return", {"row": "AB"[row]}))
        if self._return_legal(s) == [DONE]:
            self._end_return(s, ev)

    def _return_legal(self, s: State) -> list[Act]:
        """ "The Persians must then immediately march Units from their Reinforcements
        Boxes back up to the Hot Gates": while a unit of the first box fits in the row's
        Coastal Plain, `done` is not legal. Leaders may come too."""
        t = self.t
        row = s.bt[0]
        enter = self.notation.enter
        acts: dict[Act, None] = {}
        forced = False
        box = s.boxes[0] if s.boxes else []
        for n in range(3):
            sp = row * SPACES + n
            if t.owner(s, sp) == SPARTAN_SIDE:
                continue
            room = t.room(s, sp)
            for code in dict.fromkeys(box):
                if room >= t.size[code]:
                    acts[enter[sp, code]] = None
                    forced = True
            for lt in dict.fromkeys(s.leaders):
                if room >= t.size[lt * 2]:
                    acts[enter[sp, lt * 2]] = None
        out = list(acts)
        if not forced:
            out.append(DONE)
        return out

    def _returned(self, s: State, a: Act, ev: Ev) -> None:
        if a.verb == "done":
            return self._end_return(s, ev)
        dst, code = a.a, a.b
        self._take_reserve(s, code)
        s.board[dst].append(code | _march_flag(s))
        if ev is not None:
            ev.append(
                Event(
                    "enter",
                    {
                        "seat": SEATS[s.players][s.actor],
                        "unit": piece_name(code),
                        "from": _reserve_name(self, code),
                        "to": space_name(dst),
                    },
                )
            )
        if self._return_legal(s) == [DONE]:
            self._end_return(s, ev)

    def _end_return(self, s: State, ev: Ev) -> None:
        s.bt = []
        self._resume(s, ev)

    # -- the end ----------------------------------------------------------------------------

    def spartans_left(self, s: State) -> bool:
        t = self.t
        return bool(s.camp or s.pool) or any(
            sp and t.side[sp[0] & PIECE] == SPARTAN_SIDE for sp in s.board
        )

    def persians_win(self, s: State, reason: str, ev: Ev) -> None:
        """With two Persian players, "the Persian who has killed the most Spartans wins";
        equal kills share the victory."""
        persians = persian_seats(s.players)
        best = max(s.kills[p] for p in persians)
        self._finish(s, [p for p in persians if s.kills[p] == best], reason, ev)

    def _finish(self, s: State, winners: list[int], reason: str, ev: Ev) -> None:
        s.phase = OVER
        s.winners = sorted(winners)
        s.reason = reason
        s.actor = -1
        s.stack = []
        s.draws = []
        s.rolls = []
        s.window = -1
        s.played = []
        s.bt = []
        if ev is not None:
            ev.append(
                Event(
                    "end", {"winners": [SEATS[s.players][w] for w in s.winners], "reason": reason}
                )
            )

    # -- results, views, notation ----------------------------------------------------------

    def outcome(self, s: State) -> Outcome | None:
        if s.phase != OVER:
            return None
        results = tuple("win" if p in s.winners else "loss" for p in range(s.players))
        scores = tuple(1.0 if p in s.winners else 0.0 for p in range(s.players))
        return Outcome(results, scores, s.reason, s.round)

    def view(self, s: State, seat: int | None) -> JSON:
        return view.view(self, s, seat)

    def determinize(self, s: State, seat: int, rng: random.Random) -> State:
        return view.determinize(s, seat, rng)

    def evaluate(self, s: State) -> tuple[float, ...] | None:
        """Each seat's estimated chance of winning an unfinished game, for a search that
        stops early (`evaluation.py`; None where there is no model)."""
        from thermopylae.games.hot_gates.evaluation import evaluate

        return evaluate(self, s)

    def describe(self, event: Event) -> str:
        return text.describe(self, event)

    def render(self, v: JSON) -> str:
        return text.render(v)

    def rules_text(self) -> str:
        return text.rules_text(self.components)

    def hand_text(self, v: JSON) -> str | None:
        from thermopylae.games.hot_gates.hand import hand_text

        return hand_text(v)

    def state_to_json(self, s: State) -> JSON:
        return state_to_json(self, s)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return state_from_json(self, data)

    def agents(self) -> Mapping[str, Any]:
        from thermopylae.games.hot_gates.heuristic import Heuristic

        return {"heuristic": Heuristic}

    def levels(self, players: int, seat: str) -> Mapping[str, str]:
        from thermopylae.games.hot_gates.levels import levels

        return levels(players, seat)

    def reason_text(self, reason: str) -> str:
        """An outcome's reason (English data in states and records) in the current
        language."""
        return reword(reason, text.REASONS)

    def label(self, action: Act) -> str:
        return text.label(self, action)

    def phase_name(self, s: State) -> str:
        return PHASES[s.phase] if s.phase != WINDOW else f"{WINDOWS[s.window]} cards"


Geometry = tuple[list[int], list[int], tuple[int, int]]
MarchPlan = tuple[
    int,
    tuple[int, ...],
    dict[int, tuple[int, int, int, int, list[Act], list[Act]]],
    list[tuple[int, list[Act]]],
]


def _march_plan(notation: Notation, players: int, seat: int) -> MarchPlan:
    """The seat's side; the spaces of its rows; for each of them: its number, the space
    forward (-1: none), the space across, the other row, and the moves forward and across
    by piece code; for each row: the space where units enter and the entries by code."""
    side = side_of_seat(players, seat)
    rows = rows_of(players, seat)
    move, enter = notation.move, notation.enter
    plan = {}
    for row in rows:
        other = 1 - row
        for n in range(SPACES):
            sp = row * SPACES + n
            step = 1 if side == PERSIAN else -1  # forward
            fwd = sp + step if 0 <= n + step < SPACES else -1
            sw = other * SPACES + n
            plan[sp] = (
                n,
                fwd,
                sw,
                other,
                [move[sp, fwd, code] for code in range(CODES)] if fwd >= 0 else [],
                [move[sp, sw, code] for code in range(CODES)],
            )
    entries = []
    for row in rows:
        sp = row * SPACES if side == PERSIAN else row * SPACES + SPACES - 1
        entries.append((sp, [enter[sp, code] for code in range(CODES)]))
    return side, tuple(plan), plan, entries


def _march_flag(s: State) -> int:
    """Units placed by a pull-back during the March Phase have had their march."""
    return MOVED if any(k[0] == "march_resume" for k in s.stack) else 0


_MARCHED = [bool(p & MOVED) for p in range(PIECE + MOVED + AGAIN + 1)]  # by piece


def _clear_moved(s: State) -> None:
    marched = _MARCHED.__getitem__
    for sp in s.board:
        if any(map(marched, sp)):
            sp[:] = [p & PIECE for p in sp]


def _reserve_name(game: HotGates, code: int) -> str:
    t = game.t
    if t.side[code] == SPARTAN_SIDE:
        return "the Spartan Camp"
    return "the Persian Camp" if t.leader[code] else "the Reinforcement Boxes"


# The continuations a step can leave on `state.stack`, by name: `HotGates._k_<name>`.
_STEPS = {name[3:]: f for name, f in vars(HotGates).items() if name.startswith("_k_")}
