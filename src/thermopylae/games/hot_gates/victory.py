"""Glory and the ends of the game (seed 000, "Glory" and "Winning the Game").

The Spartans earn Glory for the Persians they kill and for the Coastal Plain spaces they
are first into, and lose it for the Hot Gates spaces the Persians enter and for Dilios.
They win at 100 Glory with 2 players, or with the most Glory once one of them has 50 at
the end of a Battle Phase (3-4 players). The Persians win when Ephialtes reaches the end
of the Goat Path, when the Spartans are wiped out, or at the end of a round in which
they took the last space of a Spartan row.
"""

from __future__ import annotations

from thermopylae.engine.protocol import Event
from thermopylae.games.hot_gates import flow
from thermopylae.games.hot_gates.board import (
    SEATS,
    SPARTAN_OF,
    SPARTAN_SEATS,
    SPARTAN_SIDE,
    Tables,
    persian_seats,
)
from thermopylae.games.hot_gates.flow import Events
from thermopylae.games.hot_gates.state import OVER, PIECE, SPACES, State, space_name


def entered(s: State, t: Tables, code: int, dst: int, ev: Events, advance: bool = True) -> None:
    """Glory Bonuses and losses, "only the first time" for each space; the Persians in a
    row's last space will win at the end of the round. A Spartan switching rows does not
    "advance into" a space: no bonus (decision 2)."""
    row, n = divmod(dst, SPACES)
    bit = 1 << dst
    r = t.c.rules
    if t.side[code] == SPARTAN_SIDE:
        if advance and n < 3 and not s.bonus_taken & bit:
            s.bonus_taken |= bit
            add_glory(
                s,
                SPARTAN_OF[s.players][row],
                r.glory_bonus[n],
                ev,
                "" if ev is None else f"first into {space_name(dst)}",
            )
            check_glory(s, t, ev)
    else:
        if n >= 3 and not s.gates_entered & bit:
            s.gates_entered |= bit
            add_glory(
                s,
                SPARTAN_OF[s.players][row],
                -r.gates_penalty,
                ev,
                "" if ev is None else f"the Persians entered {space_name(dst)}",
            )
        if n == SPACES - 1 and not s.breach:
            s.breach = True
            if ev is not None:
                ev.append(Event("breach", {"space": space_name(dst)}))


def add_glory(s: State, seat: int, amount: int, ev: Events, why: str) -> None:
    """Glory never falls below the Start space of the track (decision 6). `why` is read
    only with `ev` (empty without)."""
    before = s.glory[seat]
    glory = before + amount
    s.glory[seat] = glory if glory > 0 else 0
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


def check_glory(s: State, t: Tables, ev: Events) -> bool:
    """2 players: 100 Glory wins at once (3-4 players: see `battle_end`)."""
    win = t.c.rules.win_glory_2p
    if s.players == 2 and s.phase != OVER and s.glory[1] >= win:
        finish(s, [1], f"the Spartans reached {win} Glory", ev)
    return s.phase == OVER


def spartans_left(s: State, t: Tables) -> bool:
    return bool(s.camp or s.pool) or any(
        sp and t.side[sp[0] & PIECE] == SPARTAN_SIDE for sp in s.board
    )


def persians_win(s: State, reason: str, ev: Events) -> None:
    """With two Persian players, "the Persian who has killed the most Spartans wins";
    equal kills share the victory."""
    persians = persian_seats(s.players)
    best = max(s.kills[p] for p in persians)
    finish(s, [p for p in persians if s.kills[p] == best], reason, ev)


def finish(s: State, winners: list[int], reason: str, ev: Events) -> None:
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
            Event("end", {"winners": [SEATS[s.players][w] for w in s.winners], "reason": reason})
        )


def battle_end(s: State, t: Tables, ev: Events) -> None:
    """3-4 players: a Spartan at 50 Glory ends the game once the Battle Phase is over
    ("the Spartan Player with the most Glory immediately wins"; ties share it)."""
    if s.players > 2:
        spartans = SPARTAN_SEATS[s.players]
        glory = s.glory
        best = 0  # (no `max` over a generator: once a battle)
        for p in spartans:
            if glory[p] > best:
                best = glory[p]
        win = t.c.rules.win_glory_team
        if best >= win:
            winners = [p for p in spartans if s.glory[p] == best]
            return finish(s, winners, f"a Spartan reached {win} Glory", ev)
    flow.resume(s, t, ev)


def ephialtes(s: State, t: Tables, ev: Events) -> None:
    """ "Ephialtes moves one space forward on the Goat Path"; the last space wins for the
    Persians."""
    path = t.c.goat_path
    eph = s.eph + s.eph_move
    s.eph = eph if eph < path else path
    if ev is not None:
        ev.append(Event("ephialtes", {"space": s.eph, "moved": s.eph_move, "length": path}))
    s.eph_move = 1
    if s.eph >= path:
        return persians_win(s, "Ephialtes reached the end of the Goat Path", ev)
    flow.resume(s, t, ev)


def round_end(s: State, t: Tables, ev: Events) -> None:
    """ "If the Persians ever conquer the last space in a Spartan Row, then if the
    Spartans do not earn 100 Glory by the end of that round", the Persians win."""
    if s.breach:
        return persians_win(s, "the Persians broke into the Spartan Camp", ev)
    s.round += 1
    s.stack.append(("round",))
    flow.resume(s, t, ev)
