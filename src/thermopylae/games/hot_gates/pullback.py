"""The last space of the Coastal Plain (seed 000, "Conquer"): the Spartans who reach it
pull their row back into the Hot Gates, and the Persians march reinforcements back up.

"They immediately pull that row of Units back into the Hot Gates and can rearrange their
Units in that row however they see fit"; units that find no room go to the Spartan Camp
(decision 11). "The Persians must then immediately march Units from their Reinforcements
Boxes back up to the Hot Gates." Both keep the row in `state.bt` (`[row]`).
"""

from __future__ import annotations

from thermopylae.engine.protocol import Event
from thermopylae.games.hot_gates import flow
from thermopylae.games.hot_gates.actions import DONE, Action, Enter, piece_name
from thermopylae.games.hot_gates.board import (
    PERSIAN_OF,
    SEATS,
    SPARTAN_OF,
    SPARTAN_SIDE,
    Tables,
    distinct,
)
from thermopylae.games.hot_gates.flow import Events
from thermopylae.games.hot_gates.state import (
    MOVED,
    PIECE,
    PULLBACK,
    RETURN,
    SPACES,
    State,
    space_name,
)


def pull_back(s: State, t: Tables, row: int, ev: Events) -> None:
    """The row's Spartans leave the board to be placed again in its Hot Gates; the
    bonuses of the row can be earned again."""
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
    _pullback_next(s, t, ev)


def pullback_legal(s: State, t: Tables) -> list[Action]:
    row = s.bt[0]
    acts: list[Action] = []
    for n in range(3, SPACES):
        sp = row * SPACES + n
        room = t.room(s, sp)
        acts += [t.notation.enter[sp, code] for code in distinct(s.pool) if room >= t.size[code]]
    return acts


def place(s: State, t: Tables, a: Enter, ev: Events) -> None:
    dst, code = a.dst, a.piece
    s.pool.remove(code)
    s.board[dst].append(code | march_flag(s))
    if ev is not None:
        ev.append(Event("place", {"unit": piece_name(code), "to": space_name(dst)}))
    _pullback_next(s, t, ev)


def _pullback_next(s: State, t: Tables, ev: Events) -> None:
    if s.pool and pullback_legal(s, t):
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
    if return_legal(s, t) == [DONE]:
        _end_return(s, t, ev)


def return_legal(s: State, t: Tables) -> list[Action]:
    """While a unit of the first box fits in the row's Coastal Plain, `done` is not
    legal. Leaders may come too."""
    row = s.bt[0]
    enter = t.notation.enter
    acts: dict[Action, None] = {}
    forced = False
    box = s.boxes[0] if s.boxes else []
    for n in range(3):
        sp = row * SPACES + n
        if t.owner(s, sp) == SPARTAN_SIDE:
            continue
        room = t.room(s, sp)
        for code in distinct(box):
            if room >= t.size[code]:
                acts[enter[sp, code]] = None
                forced = True
        for lt in distinct(s.leaders):
            if room >= t.size[lt * 2]:
                acts[enter[sp, lt * 2]] = None
    out = list(acts)
    if not forced:
        out.append(DONE)
    return out


def returned(s: State, t: Tables, a: Action, ev: Events) -> None:
    if not isinstance(a, Enter):
        return _end_return(s, t, ev)
    dst, code = a.dst, a.piece
    take_reserve(s, t, code)
    s.board[dst].append(code | march_flag(s))
    if ev is not None:
        ev.append(
            Event(
                "enter",
                {
                    "seat": SEATS[s.players][s.actor],
                    "unit": piece_name(code),
                    "from": reserve_name(t, code),
                    "to": space_name(dst),
                },
            )
        )
    if return_legal(s, t) == [DONE]:
        _end_return(s, t, ev)


def _end_return(s: State, t: Tables, ev: Events) -> None:
    s.bt = []
    flow.resume(s, t, ev)


def take_reserve(s: State, t: Tables, code: int) -> None:
    """A unit leaves the Persian boxes or camp, or the Spartan Camp."""
    if t.side[code] == SPARTAN_SIDE:
        s.camp.remove(code)
    elif t.leader[code]:
        s.leaders.remove(code >> 1)
    else:
        s.boxes[0].remove(code)
        if not s.boxes[0]:
            s.boxes.pop(0)  # "the Units in all remaining boxes are pushed forward"


def reserve_name(t: Tables, code: int) -> str:
    """Where a unit that comes on the board was waiting (an event's `from`)."""
    if t.side[code] == SPARTAN_SIDE:
        return "the Spartan Camp"
    return "the Persian Camp" if t.leader[code] else "the Reinforcement Boxes"


def march_flag(s: State) -> int:
    """Units placed by a pull-back during the March Phase have had their march."""
    return MOVED if any(k[0] == "march_resume" for k in s.stack) else 0
