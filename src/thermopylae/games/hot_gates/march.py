"""The March Phase (seed 000, "March Phase"): Persians first, then Spartans, row A's
seat before row B's.

"Each Unit can march forward one space", or switch rows instead; the Persians "must
march forward if they can" and must bring reinforcements while there is room. A "march"
card grants a second march, once per unit (decision 19). The list of marches is the hot
path of a random playout: `march_list` reads precomputed tables (`board.march_plan`)
and, after a march, updates the geometry of the step before instead of counting it again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import chain
from math import trunc

from thermopylae.engine.protocol import Event
from thermopylae.games.hot_gates import flow, pullback, victory
from thermopylae.games.hot_gates.actions import DONE, NSPACES, Action, Enter, Move, piece_name
from thermopylae.games.hot_gates.board import (
    CLOSED_ROOM,
    COASTAL,
    PERSIAN,
    SEATS,
    SEEN,
    SPARTAN_SIDE,
    Geometry,
    MarchWays,
    Tables,
    Way,
    by_players,
    distinct,
    marks,
    persian_seats,
    spartan_seats,
)
from thermopylae.games.hot_gates.flow import Events
from thermopylae.games.hot_gates.state import AGAIN, MARCH, MOVED, OVER, PIECE, SPACES, State
from thermopylae.games.hot_gates.state import space_name as name


def order(players: int) -> tuple[int, ...]:
    """Persians first (row A's before row B's), then the Spartans the same way."""
    return ORDER[players]


ORDER = by_players({n: (*persian_seats(n), *spartan_seats(n)) for n in (2, 3, 4)})
"""`order` by player count."""


def turn(s: State, t: Tables, ev: Events, i: int) -> None:
    """The `i`-th march of the phase (`order`); the last one ends the phase."""
    seats = ORDER[s.players]
    if i == 0 and not _FLAGGED.isdisjoint(chain.from_iterable(s.board)):  # (the board
        # looked at in one call: flags are left at the phase's start only in a hand-made
        # position)
        clear_moved(s)
    if i >= len(seats):
        clear_moved(s)
        s.extra = [0] * s.players
        return flow.resume(s, t, ev)
    s.stack.append(("march", i + 1))
    before = None
    if i > 0 and s.phase == MARCH:  # the seat before has just ended its march
        cached = s.cache
        if cached is not None and cached[0] == s.steps:
            before = cached[2]
    resume_seat(s, t, ev, seats[i], before)


def resume_seat(s: State, t: Tables, ev: Events, seat: int, before: Geometry | None = None) -> None:
    """The seat marches (again, after a pull-back); with nothing to move, no question.
    `before`: the geometry of the seat that marched just before, if kept up to date: its
    owners and rooms serve again (nothing moved since)."""
    s.actor = seat
    s.phase = MARCH
    geometry = (  # (`march_list`, written out: a seat's every march starts here)
        _geometry(s, t, seat) if before is None else _geometry(s, t, seat, before[0], before[1])
    )
    acts = _moves(s, t, geometry, seat)
    if acts[0] is DONE:  # (`done` comes last: alone) nothing to move: the next seat's
        # `turn` counts from this geometry, as after a march (`_ended`)
        s.cache = (s.steps, acts, geometry)
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
    pside = t.piece_side
    owner = [pside[b[0]] if b else -1 for b in s.board]  # (counted once for all the seats)
    return any(_any_move(s, t, seat, owner) for seat in seats)


def _any_move(s: State, t: Tables, seat: int, owner: list[int]) -> bool:
    """Whether `march_list` for `seat` would hold more than `done`, without building it:
    the first unit that could move or come on answers. `owner`: each space's side."""
    side, spaces, plan, entries = t.march_plan[s.players][seat]
    enemy = 1 - side
    extra = s.extra[seat] > 0
    size = t.size
    board = s.board
    room = t.room
    fronts = _fronts(owner, side == PERSIAN, enemy)
    for sp in spaces:
        if owner[sp] != side:
            continue
        pieces = board[sp]
        if not extra and _UNFLAGGED.isdisjoint(pieces):  # (all have marched)
            continue
        n, fwd, sw, other = plan[sp]
        fwd_room = room(s, fwd) if fwd >= 0 and owner[fwd] != enemy else -1
        may_switch = fronts[other] > n if side == PERSIAN else fronts[other] < n
        sw_room = room(s, sw) if may_switch and owner[sw] != enemy else -1
        free = fwd_room if fwd_room > sw_room else sw_room
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
    actions are precomputed (`board.march_plan`, `Tables.way_moves`); after a march the
    geometry of the step before is updated rather than counted again (`march`), as the
    enemy has not moved, and so are the moves from each space and the entries: only those
    the march changed are listed again. `seat`: whose march (default the seat to act)."""
    if seat < 0:
        seat = s.actor
    if geometry is None:
        geometry = _geometry(s, t, seat)
    return _moves(s, t, geometry, seat), geometry


def _moves(s: State, t: Tables, geometry: Geometry, seat: int) -> list[Action]:
    """`march_list`'s list from a geometry kept up to date (`march_on` with no march:
    the list alone)."""
    acts = march_on(s, t, None, None, geometry, None, seat)
    assert acts is not None  # (a list alone is always made)
    return acts


NO_KINDS: list[int] = []  # (read, never changed)
NO_MOVES: list[Action] = []  # a space's moves when it has none (read, never changed: no list
# made for each space listed again with nothing to move)
KINDS_KEPT = 10_000  # reserves' kinds kept (`Tables.kinds`; the table starts afresh beyond)


def _kinds(table: dict[tuple[int, ...], list[int]], key: tuple[int, ...], times: int) -> list[int]:
    """The kinds in a reserve's contents `key`, each once, first seen first (times 2 for
    the Leaders' types: their pieces), kept in `table` for the next reserve like it."""
    if len(table) >= KINDS_KEPT:
        table.clear()
    kinds = table[key] = [k * times for k in distinct(key)]
    return kinds


def _geometry(
    s: State, t: Tables, seat: int, owner: list[int] | None = None, room: list[int] | None = None
) -> Geometry:
    """The March Phase's geometry for `seat`, counted afresh (`board.Geometry`) unless
    the spaces' `owner` and `room` are given; what stays fixed while the seat marches is
    looked up by the owners of the spaces (`_ways`)."""
    if owner is None or room is None:
        _, cap, big, places, pside = t.march_tables
        board = s.board
        owner = [pside[b[0]] if b else -1 for b in board]
        room = [
            c - (len(b) if big(b) else sum(map(places, b)))
            for c, b in zip(cap, board)  # noqa: B905 (a keyword: zip parses a dict of them)
        ]
        room.append(CLOSED_ROOM)
    key = (s.players, seat, *owner)
    fixed = t.march_ways.get(key)
    if fixed is None:
        if len(t.march_ways) >= WAYS_KEPT:
            t.march_ways.clear()
        fixed = t.march_ways[key] = _ways(t, s.players, seat, owner)
    fronts, froms, ways, entries, leads_here = fixed
    return (
        owner,
        room,
        fronts,
        froms,
        ways,
        entries,
        [[]] * (NSPACES + 1),  # (replaced, never filled)
        [False] * (NSPACES + 1),
        leads_here,
        [],
        [None, None, False, t.march_plan[s.players][seat][0], None],
    )


WAYS_KEPT = 100_000  # `_ways` answers kept (the table starts afresh beyond)


def _ways(t: Tables, players: int, seat: int, owner: list[int]) -> MarchWays:
    """What stays fixed while `seat` marches, from the owners of the spaces
    (`board.MarchWays`): never changed once made, so kept and shared."""
    side, plan_spaces, plan, plan_entries = t.march_plan[players][seat]
    enemy = 1 - side
    persian = side == PERSIAN
    fronts = _fronts(owner, persian, enemy)
    froms = []
    ways: list[Way | None] = [None] * (NSPACES + 1)
    leads_here: list[list[int]] = [[] for _ in range(NSPACES)]
    for sp in plan_spaces:
        n, fwd, sw, other = plan[sp]
        if fwd >= 0 and owner[fwd] == enemy:
            fwd = -1
        if not (fronts[other] > n if persian else fronts[other] < n) or owner[sw] == enemy:
            sw = -1
        if fwd >= 0 or sw >= 0:
            froms.append(sp)
            once, again = t.way_moves(side, sp, fwd, sw)
            ways[sp] = (NSPACES if fwd < 0 else fwd, NSPACES if sw < 0 else sw, once, again)
            for to in (fwd, sw):
                if to >= 0:
                    leads_here[to].append(sp)
    entries = [(sp, enters) for sp, enters in plan_entries if owner[sp] != enemy]
    for sp, _ in entries:
        leads_here[sp].append(ENTRIES)
    return fronts, froms, ways, entries, leads_here


def march_on(
    s: State,
    t: Tables,
    a: Action | None,
    ev: Events,
    geometry: Geometry | None,
    arand: Callable[[], float] | None = None,
    seat: int = -1,
) -> list[Action] | None:
    """One unit marches or comes on, or the seat is done. `geometry` is that of the list
    `a` was chosen from (None: not kept), brought up to date in place. Returns the seat's
    next list while its march goes on, for the caller to keep with the same geometry
    (`rules.apply` in `State.cache`, as `legal` keeps it), None once it has ended (then
    whatever waited has run, and the cache holds the geometry for the next seat's
    `turn`). `arand`: the fused playout's agent draws: then the seat's marches go on
    here, each chosen from the list before as the protocol's uniform agent chooses
    (`acts[trunc(arand() * len(acts))]`) and counted in `s.steps` but the last (the
    caller counts it), until the march ends: one call a seat, and what stays the same
    while it marches is read once. `a` None: no march, the list alone (`_moves`; the
    geometry is needed), for `seat` (default the seat to act)."""
    if seat < 0:
        seat = s.actor
    board = s.board
    side = t.march_plan[s.players][seat][0]  # (the marching units' side: the seat's)
    glory_test = GLORY_TEST[side]
    mark = None  # fetched at the first space listed: half the lists of a 4-player game
    # list none (a thread-local's read is ~500 instructions)
    if geometry is not None:
        owner, room, _, froms, ways, entries, segments, forcing, leads_here, dirty, kept = geometry
        size = t.size
        fits = t.fits
        fit_codes = t.fit_codes
        k = t.fit_classes
        persian = not side  # PERSIAN (a Spartan's moves force nothing: `forcing` stays False)
    # A piece with a flag above the limit has had all its marches: MOVED once marched,
    # AGAIN (the second march of a card) while an extra march is left (read again when
    # one is spent).
    extra = s.extra[seat] > 0
    while True:
        if a is not None:
            flag = MOVED
            kind = a.__class__  # (no call, no `match`: this is a playout's hot path)
            if kind is Move:
                src = a.src  # type: ignore[union-attr]
                dst = a.dst  # type: ignore[union-attr]
                code = a.piece  # type: ignore[union-attr]
                pieces = board[src]
                first = pieces[0]
                gone = code
                try:
                    pieces.remove(code)
                except ValueError:  # a second march, granted by a card: once per unit
                    # (decision 19)
                    gone = code | MOVED
                    pieces.remove(gone)
                    s.extra[seat] -= 1
                    extra = s.extra[seat] > 0
                    flag = MOVED | AGAIN
            elif kind is Enter:
                src = first = gone = -1  # (no space left: `first` and `gone` are not read)
                dst = a.dst  # type: ignore[union-attr]
                code = a.piece  # type: ignore[union-attr]
                pullback.take_reserve(s, t, code)
            else:  # done
                if ev is not None:
                    ev.append(Event("march-done", {"seat": SEATS[s.players][seat]}))
                _ended(s, t, ev, geometry)
                return None
            board[dst].append(code + flag)  # (`code` has no flag: `+`, which 3.11 specialises)
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
            if glory_test[dst]:  # (a Persian on the Coastal Plain or a Spartan in
                # the Hot Gates changes no Glory, breaks into no camp and pulls back no row:
                # most marches) (advance, positional: a keyword makes the call generic)
                victory.entered(s, t, code, dst, ev, src < 0 or src // SPACES == dst // SPACES)
                if s.phase == OVER:
                    return None
                if side == SPARTAN_SIDE and dst % SPACES == 0:
                    s.cache = None  # (the geometry kept is not brought up to date)
                    s.stack.append(("march_resume", seat))
                    pullback.pull_back(s, t, dst // SPACES, ev)
                    return None
            if geometry is None:  # not kept: counted afresh, and not kept after either
                acts = march_list(s, t, None, seat)[0]
                if acts[0] is DONE:  # (`done` comes last: alone)
                    _ended(s, t, ev, geometry)
                    return None
                if arand is None:
                    return acts
                s.steps += 1
                a = acts[trunc(arand() * len(acts))]
                continue
            # One unit of this side left `src` (-1: a reserve) and came to `dst`: the rooms
            # and owners there; the moves from `src` are to be listed again (unless they
            # stay), and those of the spaces leading to either (or the entries) where the
            # room there went past a unit's size; the entries after a unit came on. The
            # moves from `dst` stay as listed unless an extra march is left: the unit that
            # came has had its march.
            need = size[code]
            r = room[dst]
            room[dst] = r - need
            owner[dst] = side
            f, f2 = fits[r], fits[r - need]
            if f != f2:
                if f2:  # a unit of one place still fits: only a big piece sees the change
                    _big_ones(board, t.big.isdisjoint, leads_here[dst], dirty)
                else:
                    dirty.extend(leads_here[dst])
            if src >= 0:
                r = room[src]
                room[src] = r + need
                if not pieces:
                    owner[src] = -1
                f, f2 = fits[r], fits[r + need]
                if f != f2:
                    if f:
                        _big_ones(board, t.big.isdisjoint, leads_here[src], dirty)
                    else:
                        dirty.extend(leads_here[src])
                if ENTRIES in dirty:
                    kept[1] = None
                # The pieces left at `src` are met in the same order (first seen first) when
                # the one that went was first and another like it is first now: the same
                # moves there.
                if first != gone or not (pieces and pieces[0] == gone):
                    dirty.append(src)
            else:
                kept[1] = kept[4] = None  # a reserve changed
            if kept[0]:  # the lists were made for an extra march
                dirty.append(dst)
        elif geometry is None:
            raise ValueError("a March list alone is made from a geometry")
        # The seat's list from the geometry kept up to date.
        if kept[0] is not extra:  # the first list, or the last extra march was spent (None,
            # True, False: `is`, as `!=` between bools is not specialised)
            kept[0] = extra
            dirty.extend(froms)
        if dirty:
            for sp in dirty:  # the moves from these spaces (and the entries' none), listed
                # again
                way = ways[sp]
                if way is None or owner[sp] != side:
                    segments[sp] = NO_MOVES
                    forcing[sp] = False
                    continue
                fwd, sw, once, again = way
                ff = fits[room[fwd]]  # room[NSPACES]: no way there (CLOSED_ROOM)
                fs = fits[room[sw]]
                if not (ff or fs):
                    segments[sp] = NO_MOVES
                    forcing[sp] = False
                    continue
                moves = (again if extra else once)[ff * k + fs]
                if mark is None:
                    try:
                        mark = SEEN.mark  # (no call: `board.marks` inline)
                    except AttributeError:  # this thread's first list
                        mark = marks()
                seg: list[Action] = []
                here = board[sp]
                for p in here:  # each kind once, first seen first (`board.SEEN`)
                    if mark[p] is not seg:
                        mark[p] = seg
                        seg += moves[p]
                segments[sp] = seg
                if persian:  # a Persian must march forward if an unmarched unit can
                    forcing[sp] = not fit_codes[ff].isdisjoint(here) if ff else False
            dirty.clear()
        out: list[Action] = []
        for sp in froms:
            out += segments[sp]
        if extra:  # a unit that marched and one that did not may make the same move: the
            # same object (the notation's), so kept once by its id (a move's own hash is a
            # Python call)
            out = [*dict(zip(map(id, out), out, strict=True)).values()]
        enter = kept[1]
        if enter is None:  # the entries, listed again
            enter = []
            forced = False
            waiting = kept[4]
            if waiting is None:  # the reserves, looked at again once a unit came on (a
                # room that changed lists the entries again, not the reserves): their
                # kinds by their contents (`Tables.kinds`)
                kinds = t.kinds
                if side == PERSIAN:
                    key = tuple(s.boxes[0]) if s.boxes else ()
                    box = kinds.get(key)
                    if box is None:
                        box = _kinds(kinds, key, 1)
                    key = tuple(s.leaders)
                    leaders = t.leader_kinds.get(key)
                    if leaders is None:
                        leaders = _kinds(t.leader_kinds, key, 2)
                    waiting = kept[4] = (box, leaders)
                else:
                    key = tuple(s.camp)
                    leaders = kinds.get(key)
                    if leaders is None:
                        leaders = _kinds(kinds, key, 1)
                    waiting = kept[4] = (NO_KINDS, leaders)
            box, leaders = waiting
            for sp, enters in entries:
                free = room[sp]
                if free <= 0:
                    continue  # full: no unit fits
                for code in box:
                    if free >= size[code]:
                        enter.append(enters[code])
                        forced = True
                for code in leaders:
                    if free >= size[code]:
                        enter.append(enters[code])
            kept[1] = enter
            kept[2] = forced
        if enter:
            out += enter
        if not (kept[2] or (persian and any(forcing))):
            out.append(DONE)
        if a is None:  # the list alone
            return out
        if out[0] is DONE:  # (`done` comes last: alone)
            _ended(s, t, ev, geometry)
            return None
        if arand is None:
            return out
        s.steps += 1
        a = out[trunc(arand() * len(out))]


def _ended(s: State, t: Tables, ev: Events, geometry: Geometry | None) -> None:
    """The seat's march ended: the next one begins (`turn`) from its geometry, kept for
    it in the cache (its owners and rooms serve again: nothing moved since)."""
    if geometry is not None:
        s.cache = (s.steps, [DONE], geometry)
    flow.resume(s, t, ev)


ENTRIES = NSPACES  # in `Geometry`'s spaces leading somewhere: the entries lead there
GLORY_TEST = tuple(
    tuple((sp % SPACES < COASTAL) == (side == SPARTAN_SIDE) for sp in range(NSPACES))
    for side in (PERSIAN, SPARTAN_SIDE)
)
"""By side and space, whether a unit marching there may change Glory or break through
(`march_on`; a table: 3.11 specialises neither `%` nor comparisons whose result is kept)."""


def _big_ones(
    board: list[list[int]],
    no_big: Callable[[list[int]], bool],
    leading: list[int],
    dirty: list[int],
) -> None:
    """Of the spaces `leading` to a space whose room went from one fit class to another
    where a unit of one place still fits, mark those whose moves can change: the ones
    holding a bigger piece (`Tables.big`), and the entries (a box may hold one)."""
    for sp in leading:
        if sp == ENTRIES or not no_big(board[sp]):
            dirty.append(sp)


_UNMARCHED = [p & PIECE for p in range(PIECE + MOVED + AGAIN + 1)]  # by piece: its flags off
_FLAGGED = frozenset(range(MOVED, PIECE + MOVED + AGAIN + 1))  # every piece with a flag
_UNFLAGGED = frozenset(range(MOVED))  # every piece without


def clear_moved(s: State) -> None:
    """Every piece's march flags off. (A space is looked at by a set's `isdisjoint`, a
    method call; `max` parses its arguments as keywords, several times dearer.)"""
    unmarched = _UNMARCHED.__getitem__
    flagless = _FLAGGED.isdisjoint
    for sp in s.board:
        if sp and not flagless(sp):
            sp[:] = map(unmarched, sp)


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
