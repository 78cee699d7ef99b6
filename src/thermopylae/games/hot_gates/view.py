"""What each seat may see. The one place where hidden information is filtered.

Hidden: the cards in the other players' hands (their number is public) and the order and
content of every deck (their sizes are public). Everything else is on the table: the
units and their wounds, the boxes and camps, the Goat Path, Glory, played cards, dice.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from thermopylae.engine.protocol import CHANCE, JSON
from thermopylae.games.hot_gates import battle as b
from thermopylae.games.hot_gates import flow
from thermopylae.games.hot_gates.actions import piece_name
from thermopylae.games.hot_gates.board import (
    GAME_ID,
    PERSIAN,
    SEATS,
    SIDE_NAMES,
    Tables,
    persian_seats,
    rows_of,
    side_of_seat,
    spartan_seats,
)
from thermopylae.games.hot_gates.components import TYPE_IDS, Components
from thermopylae.games.hot_gates.state import (
    CASUALTY,
    CONQUER,
    PIECE,
    SPACES,
    WINDOWS,
    WOUNDED,
    State,
    phase_name,
    space_name,
)


def bonuses(s: State, c: Components) -> tuple[int, ...]:
    """The Glory bonus still waiting in each space (0 in the Hot Gates and once taken)."""
    glory_bonus = c.rules.glory_bonus
    return tuple(
        glory_bonus[sp % SPACES] if sp % SPACES < 3 and not s.bonus_taken & (1 << sp) else 0
        for sp in range(2 * SPACES)
    )


def unit(c: Components, code: int) -> JSON:
    u = c.units[code >> 1]
    return {
        "unit": TYPE_IDS[code >> 1],
        "name": u.name,
        "wounded": bool(code & WOUNDED),
        "code": piece_name(code),
    }


def card(c: Components, number: int) -> JSON:
    k = c.cards[number]
    return {
        "code": k.code,
        "title": k.title,
        "window": k.window,
        "effect": k.effect,
        "amount": k.amount,
        "letter": k.letter,
        "text": k.text,
    }


def view(s: State, t: Tables, seat: int | None, *, reveal: bool = False) -> JSON:
    """What `seat` sees (None: a spectator, who sees no hand); `reveal` shows every hand
    (a replay's open view, otherwise a spectator's)."""
    c = t.c
    n = s.players
    seats = SEATS[n]
    to_act = flow.to_act(s)
    bonus = bonuses(s, c)
    spaces = []
    for sp in range(2 * SPACES):
        pieces = [p & PIECE for p in s.board[sp]]
        spaces.append(
            {
                "space": space_name(sp),
                "zone": "coastal plain" if sp % SPACES < 3 else "hot gates",
                "capacity": t.capacity[sp],
                "load": t.load(pieces),
                "side": SIDE_NAMES[t.side[pieces[0]]] if pieces else None,
                "units": [unit(c, p) for p in sorted(pieces)],
                "moved": sum(1 for p in s.board[sp] if p & ~PIECE),
                "bonus": bonus[sp],
                "persians_entered": bool(s.gates_entered & (1 << sp)),
            }
        )
    return {
        "game": GAME_ID,
        "provisional": c.provisional,
        "players": n,
        "seats": list(seats),
        "seat": None if seat is None else seats[seat],
        "side": None if seat is None else SIDE_NAMES[side_of_seat(n, seat)],
        "rows": [] if seat is None else ["AB"[r] for r in rows_of(n, seat)],
        "phase": phase_name(s),
        "to_act": ("chance" if to_act == CHANCE else None if to_act is None else seats[to_act]),
        "round": s.round,
        "goat_path": {
            "space": s.eph,
            "length": c.goat_path,
            "moves_this_round": s.eph_move,
        },
        "glory": {seats[p]: s.glory[p] for p in spartan_seats(n)},
        "kills": {seats[p]: s.kills[p] for p in persian_seats(n)},
        "win_glory": (c.rules.win_glory_2p if n == 2 else c.rules.win_glory_team),
        "board": spaces,
        "spartan_camp": [unit(c, p) for p in sorted(s.camp)],
        "boxes": [[unit(c, p) for p in sorted(box)] for box in s.boxes],
        "persian_camp": [unit(c, t_ * 2) for t_ in sorted(s.leaders)],
        "eliminated": [unit(c, p) for p in sorted(s.dead)],
        "pulled_back": [unit(c, p) for p in sorted(s.pool)],
        "breach": s.breach,
        "hands": [
            {
                "seat": seats[p],
                "count": len(h),
                "cards": [card(c, k) for k in h] if (reveal or p == seat) else None,
            }
            for p, h in enumerate(s.hands)
        ],
        "decks": {seats[p]: len(d) for p, d in enumerate(s.decks)},
        "discards": {seats[p]: [card(c, k) for k in d] for p, d in enumerate(s.discards)},
        "window": None
        if s.window < 0
        else {
            "name": WINDOWS[s.window],
            "played": [
                {"seat": seats[e[0]], "card": card(c, e[1]), "cancelled": bool(e[2])}
                for e in s.played
            ],
        },
        "extra_marches": {seats[p]: s.extra[p] for p in range(n) if s.extra[p]},
        "battle": _battle(s, t),
        "result": None
        if not s.reason
        else {"winners": [seats[w] for w in s.winners], "reason": s.reason},
    }


@dataclass(frozen=True, slots=True)
class Glance:
    """The part of a seat's `view` that the heuristic reads, in the engine's codes.

    The heuristic runs thousands of times a decision inside a search's playouts, and
    building the whole JSON view each time was most of the search's time. `glance`
    builds only this, straight from the state; `glance_of_view` builds the same from the
    JSON view, and a test checks that the two agree for every seat of many positions, so
    a glance holds nothing the view hides.
    """

    seat: str
    persian: bool
    phase: str
    players: int
    round: int
    path: int  # the Goat Path's length
    board: tuple[tuple[int, ...], ...]  # each space's pieces (type * 2 + wounded), sorted
    sides: tuple[str | None, ...]  # whose units hold each space
    bonus: tuple[int, ...]  # the Glory bonus still waiting in each space
    hand: tuple[str, ...]  # the codes of the seat's own cards
    played: tuple[tuple[str, str, bool], ...]  # this window's plays: seat, effect, cancelled
    battle: JSON | None  # as in the view


def glance(s: State, t: Tables, seat: int) -> Glance:
    """`seat`'s glance at the position (see `Glance`)."""
    side = t.side
    board = tuple(tuple(sorted(map(PIECE.__and__, pieces))) for pieces in s.board)
    sides = tuple(SIDE_NAMES[side[pieces[0]]] if pieces else None for pieces in board)
    bonus = bonuses(s, t.c)
    seats = SEATS[s.players]
    cards = t.cards
    return Glance(
        seat=seats[seat],
        persian=side_of_seat(s.players, seat) == PERSIAN,
        phase=phase_name(s),
        players=s.players,
        round=s.round,
        path=t.c.goat_path,
        board=board,
        sides=sides,
        bonus=bonus,
        hand=tuple(cards[c].code for c in s.hands[seat]),
        played=(
            ()
            if s.window < 0
            else tuple((seats[e[0]], cards[e[1]].effect, bool(e[2])) for e in s.played)
        ),
        battle=_battle(s, t),
    )


def glance_of_view(v: JSON) -> Glance:
    """The glance a seat's JSON view allows (what `glance` must equal)."""
    window: Any = v["window"]
    return Glance(
        seat=v["seat"],
        persian=v["side"] == "persian",
        phase=v["phase"],
        players=v["players"],
        round=v["round"],
        path=v["goat_path"]["length"],
        board=tuple(
            tuple(TYPE_IDS.index(u["unit"]) * 2 + int(u["wounded"]) for u in sp["units"])
            for sp in v["board"]
        ),
        sides=tuple(sp["side"] for sp in v["board"]),
        bonus=tuple(sp["bonus"] for sp in v["board"]),
        hand=tuple(
            c["code"] for c in next(h["cards"] for h in v["hands"] if h["cards"] is not None)
        ),
        played=(
            ()
            if window is None
            else tuple((p["seat"], p["card"]["effect"], p["cancelled"]) for p in window["played"])
        ),
        battle=v["battle"],
    )


def _battle(s: State, t: Tables) -> JSON | None:
    bt = s.bt
    if len(bt) <= b.WINNER:  # no battle (or a pull-back, which keeps only the row)
        return {"row": "AB"[bt[0]], "pull_back": True} if bt else None
    out: JSON = {
        "row": "AB"[bt[b.ROW]],
        "persian_space": space_name(bt[b.PSP]),
        "spartan_space": space_name(bt[b.SSP]),
        "narrow_entrance": bt[b.PSP] % SPACES == 2,
        "attack": {
            "persian": b.attack_total(s, t, PERSIAN),
            "spartan": b.attack_total(s, t, 1),
        },
        "bonus": {
            "attack": list(bt[b.ATK]),
            "dice": list(bt[b.XDICE]),
            "damage": list(bt[b.DMG]),
            "shield": list(bt[b.SHIELD]),
        },
        "dice": {"persian": list(bt[b.DICE]), "spartan": list(bt[b.DICE + 1])},
        "damage_left": (
            {"persian": bt[b.LEFT][0], "spartan": bt[b.LEFT][1]} if s.phase == CASUALTY else None
        ),
        "conquer": (
            {"side": SIDE_NAMES[bt[b.WINNER]], "stage": ("advance", "follow-up")[bt[b.STAGE]]}
            if s.phase == CONQUER
            else None
        ),
    }
    return out


def determinize(s: State, seat: int, rng: random.Random) -> State:
    """A copy of `s` in which what `seat` cannot see is dealt again at random: each other
    seat's hand, from the pool of that hand and that seat's own deck (decks are per seat;
    the cards in a pool are known by elimination, not their places). The result depends
    only on what `seat` sees and on `rng`."""
    d = s.copy()
    for p in range(s.players):
        if p == seat:
            continue
        pool = sorted(s.hands[p] + s.decks[p])
        rng.shuffle(pool)
        n = len(s.hands[p])
        d.hands[p] = sorted(pool[:n])
        d.decks[p] = sorted(pool[n:])
    return d
