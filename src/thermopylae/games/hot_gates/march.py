"""The March Phase (seed 000, "March Phase"): Persians first, then Spartans, row A's
seat before row B's.

"Each Unit can march forward one space", or switch rows instead; the Persians "must
march forward if they can" and must bring reinforcements while there is room. A "march"
card grants a second march, once per unit (decision 19). The list of marches is the hot
path of a random playout: `march_list` reads precomputed tables (`board.march_plan`)
and, after a march, updates the geometry of the step before instead of counting it again.
"""

from __future__ import annotations

from collections.abc import Sequence

from thermopylae.engine.protocol import Event
from thermopylae.games.hot_gates import flow, pullback, victory
from thermopylae.games.hot_gates.actions import DONE, Action, Enter, Move, piece_name
from thermopylae.games.hot_gates.board import (
    COASTAL,
    PERSIAN,
    SEATS,
    SPARTAN_SIDE,
    Geometry,
    Tables,
    persian_seats,
    spartan_seats,
)
from thermopylae.games.hot_gates.flow import Events
from thermopylae.games.hot_gates.state import AGAIN, MARCH, MOVED, OVER, PIECE, SPACES, State
from thermopylae.games.hot_gates.state import space_name as name


def order(players: int) -> tuple[int, ...]:
    """Persians first (row A's before row B's), then the Spartans the same way."""
    return (*persian_seats(players), *spartan_seats(players))


def turn(s: State, t: Tables, ev: Events, i: int) -> None:
    """The `i`-th march of the phase (`order`); the last one ends the phase."""
    seats = order(s.players)
    if i == 0:
        clear_moved(s)
    if i >= len(seats):
        clear_moved(s)
        s.extra = [0] * s.players
        return flow.resume(s, t, ev)
    s.stack.append(("march", i + 1))
    resume_seat(s, t, ev, seats[i])


def resume_seat(s: State, t: Tables, ev: Events, seat: int) -> None:
    """The seat marches (again, after a pull-back); with nothing to move, no question."""
    s.actor = seat
    s.phase = MARCH
    acts, geometry = march_list(s, t, None)
    if acts == [DONE]:
        return flow.resume(s, t, ev)
    s.cache = (s.steps + 1, acts, geometry)  # `apply` counts this step when it returns


def march_legal(s: State, t: Tables) -> list[Action]:
    """ "Each Unit can march forward one space", or switch rows instead; the Persians
    "must march forward if they can" and must bring reinforcements while there is room,
    so their `done` is legal only when neither is possible."""
    return march_list(s, t, None)[0]


def could_march(s: State, t: Tables, seats: Sequence[int]) -> bool:
    """Whether one of `seats` could move or bring on a unit if its march began now: what
    a `march` card needs (decision 35). Read at the March Phase's card window, before
    anyone has marched."""
    return any(_any_move(s, t, seat) for seat in seats)


def _any_move(s: State, t: Tables, seat: int) -> bool:
    """Whether `march_list` for `seat` would hold more than `done`, without building it:
    the first unit that could move or come on answers."""
    side, spaces, plan, entries = t.march_plan[s.players][seat]
    enemy = 1 - side
    extra = s.extra[seat] > 0
    size, _, _, _, pside = t.march_tables
    board = s.board
    room = t.room
    owner = [pside[b[0]] if b else -1 for b in board]
    fronts = _fronts(owner, side == PERSIAN, enemy)
    for sp in spaces:
        if owner[sp] != side:
            continue
        pieces = board[sp]
        if not extra and min(pieces) >= MOVED:
            continue
        n, fwd, sw, other, _, _ = plan[sp]
        fwd_room = room(s, fwd) if fwd >= 0 and owner[fwd] != enemy else -1
        may_switch = fronts[other] > n if side == PERSIAN else fronts[other] < n
        sw_room = room(s, sw) if may_switch and owner[sw] != enemy else -1
        free = max(fwd_room, sw_room)
        if free <= 0:
            continue
        for p in pieces:
            if p & MOVED and (not extra or p & AGAIN):
                continue
            if free >= size[p & PIECE]:
                return True
    for sp, _ in entries:
        if owner[sp] == enemy:
            continue
        free = room(s, sp)
        if free <= 0:
            continue
        if side == PERSIAN:
            waiting = (s.boxes[0] if s.boxes else []) + [lt * 2 for lt in s.leaders]
        else:
            waiting = s.camp
        if any(free >= size[code] for code in waiting):
            return True
    return False


def march_list(
    s: State, t: Tables, geometry: Geometry | None, seat: int = -1
) -> tuple[list[Action], Geometry]:
    """`march_legal`, and the geometry it used. The seat's spaces, their neighbours and
    actions are precomputed (`board.march_plan`); after a march the geometry of the step before is
    updated rather than counted again (`march`), as the enemy has not moved. `seat`:
    whose march (default the seat to act)."""
    if seat < 0:
        seat = s.actor
    side, spaces, plan, entries = t.march_plan[s.players][seat]
    enemy = 1 - side
    extra = s.extra[seat] > 0
    size, cap, big, places, pside = t.march_tables
    board = s.board
    persian = side == PERSIAN
    if geometry is None:
        owner = [pside[b[0]] if b else -1 for b in board]
        room = [
            c - (len(b) if big(b) else sum(map(places, b)))
            for c, b in zip(cap, board, strict=False)
        ]
        fronts = _fronts(owner, persian, enemy)
        geometry = owner, room, fronts
    else:
        owner, room, fronts = geometry
    out: list[Action] = []
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


def march(s: State, t: Tables, a: Action, ev: Events) -> None:
    """One unit marches or comes on, or the seat is done."""
    seat = s.actor
    flag = MOVED
    match a:  # (`match` tests the type without a call: this is a playout's hot path)
        case Move(src, dst, code):
            pieces = s.board[src]
            if code in pieces:
                pieces.remove(code)
            else:  # a second march, granted by a card: once per unit (decision 19)
                pieces.remove(code | MOVED)
                s.extra[seat] -= 1
                flag = MOVED | AGAIN
        case Enter(dst, code):
            src = -1
            pullback.take_reserve(s, t, code)
        case _:  # done
            if ev is not None:
                ev.append(Event("march-done", {"seat": SEATS[s.players][seat]}))
            return flow.resume(s, t, ev)
    cached = s.cache  # the geometry of this step's list, if kept
    geometry = cached[2] if cached is not None and cached[0] == s.steps else None
    s.board[dst].append(code | flag)
    if ev is not None:
        ev.append(
            Event(
                "move" if src >= 0 else "enter",
                {
                    "seat": SEATS[s.players][seat],
                    "unit": piece_name(code),
                    "from": name(src) if src >= 0 else pullback.reserve_name(t, code),
                    "to": name(dst),
                },
            )
        )
    side = t.side[code]
    if side == SPARTAN_SIDE or dst % SPACES >= COASTAL:  # (a Persian on the Coastal Plain
        # changes no Glory and breaks into no camp: most marches)
        victory.entered(s, t, code, dst, ev, advance=src < 0 or src // SPACES == dst // SPACES)
        if s.phase == OVER:
            return
        if side == SPARTAN_SIDE and dst % SPACES == 0:
            s.stack.append(("march_resume", seat))
            return pullback.pull_back(s, t, dst // SPACES, ev)
    if geometry is not None:  # one unit of this side left `src` and came to `dst`
        owner, room, _ = geometry
        need = t.size[code]
        if src >= 0:
            room[src] += need
            if not s.board[src]:
                owner[src] = -1
        room[dst] -= need
        owner[dst] = side
    nxt, geometry = march_list(s, t, geometry)
    if nxt == [DONE]:
        return flow.resume(s, t, ev)
    s.cache = (s.steps + 1, nxt, geometry)  # `apply` counts this step when it returns


_MARCHED = [bool(p & MOVED) for p in range(PIECE + MOVED + AGAIN + 1)]  # by piece


def clear_moved(s: State) -> None:
    marched = _MARCHED.__getitem__
    for sp in s.board:
        if sp and any(map(marched, sp)):
            sp[:] = [p & PIECE for p in sp]


def _fronts(owner: list[int], persian: bool, enemy: int) -> tuple[int, int]:
    """On each of the two roads (spaces `:SPACES` and `SPACES:`), the first space the
    `enemy` side holds, met from the marching side's own end (Persia's from the low
    numbers); none: past that road's far end."""
    if persian:
        a, b = owner[:SPACES], owner[SPACES:]
        return (
            a.index(enemy) if enemy in a else SPACES,
            b.index(enemy) if enemy in b else SPACES,
        )
    a, b = owner[SPACES - 1 :: -1], owner[: SPACES - 1 : -1]
    return (
        SPACES - 1 - a.index(enemy) if enemy in a else -1,
        SPACES - 1 - b.index(enemy) if enemy in b else -1,
    )
