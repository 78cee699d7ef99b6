"""Land and naval movement (RB 6.3-6.5), one small decision at a time:
origin (`land CITY` / `sea CITY`), how many (`armies N` / `fleets N`), how many armies the
fleets carry (`carry N`), destination (`to CITY`). A group moves together from one origin.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from thermopylae.engine.protocol import Event
from thermopylae.games.earth_and_water import board
from thermopylae.games.earth_and_water.actions import A, Act
from thermopylae.games.earth_and_water.state import (
    ANY,
    BRIDGE,
    FLEETS_ONLY,
    GREECE,
    LAND,
    LAND_ONLY,
    LEONIDAS,
    MAX_CARRY,
    MV_CARRY,
    MV_COUNT,
    MV_DEST,
    MV_ORIGIN,
    PERSIA,
    SEA,
    SIDES,
    THEMISTOCLES_MOVE,
    Move,
    State,
)

if TYPE_CHECKING:
    from thermopylae.games.earth_and_water.components import Components

Ev = list[Event] | None


class Moves:
    c: Components
    ports: list[int]
    abydos: int
    sparta: int

    if TYPE_CHECKING:

        def _resume(self, s: State, ev: Ev) -> None: ...
        def start_land_battle(self, s: State, city: int, side: int, ev: Ev) -> None: ...
        def start_naval_battle(self, s: State, city: int, side: int, ev: Ev) -> None: ...
        def open_window(self, s: State, window: int, ev: Ev) -> bool: ...

    def _locked(self, s: State, side: int) -> int:
        """Under the Carneia Festival, Greek armies in Sparta may not move by land."""
        return self.sparta if (s.carneia and side == GREECE) else -1

    def can_move_with(self, s: State, side: int) -> bool:
        return bool(
            board.land_origins(self.c, s, side, self._locked(s, side))
            or board.sea_origins(self.c, s, side)
        )

    def can_move_land(self, s: State, side: int) -> bool:
        return bool(board.land_origins(self.c, s, side, self._locked(s, side)))

    def begin_move(
        self, s: State, side: int, ev: Ev, kind: int = ANY, flag: int = 0, exclude: int = -1
    ) -> None:
        s.mv = Move(side, kind, -1, -1, 0, 0, flag, exclude, -1)
        s.side = side
        s.phase = MV_ORIGIN
        options = self.move_options(s)
        if not options:  # nothing can move (an event's move with no group left): no move
            s.mv = None
            return self._resume(s, ev)

    def move_options(self, s: State) -> list[Act]:
        mv = s.mv
        assert mv is not None
        side, phase = mv.side, s.phase
        if phase == MV_ORIGIN:
            out = []
            if mv.kind != FLEETS_ONLY:  # (a city with a road always has a destination)
                out += [
                    A["land"][x] for x in board.land_origins(self.c, s, side, self._locked(s, side))
                ]
            if mv.kind != LAND_ONLY:
                out += [A["sea"][x] for x in board.sea_origins(self.c, s, side) if x != mv.exclude]
            return out
        if phase == MV_COUNT:
            if mv.mode == LAND:
                return [A["armies"][n] for n in range(1, s.arm[side][mv.origin] + 1)]
            return [A["fleets"][n] for n in range(1, s.flt[side][mv.origin] + 1)]
        if phase == MV_CARRY:
            return [A["carry"][n] for n in range(self._max_carry(s) + 1)]
        if phase == MV_DEST:
            if mv.mode == LAND:
                return [A["to"][x] for x in board.land_destinations(self.c, s, side, mv.origin)]
            return [A["to"][x] for x in self.ports if x != mv.origin]
        return []

    def _max_carry(self, s: State) -> int:
        mv = s.mv
        assert mv is not None
        side = mv.side
        if mv.kind == FLEETS_ONLY or mv.flag in (THEMISTOCLES_MOVE,):
            return 0
        if s.carneia and side == GREECE and mv.origin == self.sparta:
            return 0  # Carneia: Greek fleets leaving Sparta carry no armies
        return min(mv.count, MAX_CARRY, s.arm[side][mv.origin])

    def move_step(self, s: State, a: Act, ev: Ev) -> None:
        mv = s.mv
        assert mv is not None
        if a.verb in ("land", "sea"):
            mv.mode = LAND if a.verb == "land" else SEA
            mv.origin = a.a
            if mv.mode == LAND and mv.flag == LEONIDAS:
                mv.count = 1  # Leonidas moves exactly one army
                s.phase = MV_DEST
            else:
                s.phase = MV_COUNT
        elif a.verb in ("armies", "fleets"):
            mv.count = a.a
            if mv.mode == SEA and self._max_carry(s) > 0:
                s.phase = MV_CARRY
            else:
                s.phase = MV_DEST
        elif a.verb == "carry":
            mv.carry = a.a
            s.phase = MV_DEST
        elif a.verb == "to":
            mv.dest = a.a
            if mv.mode == LAND:
                return self._land_move(s, ev)
            return self._sea_move(s, ev)

    def _land_move(self, s: State, ev: Ev) -> None:
        mv = s.mv
        assert mv is not None
        side, origin, n, dest = mv.side, mv.origin, mv.count, mv.dest
        s.arm[side][origin] -= n
        s.arm[side][dest] += n
        if ev is not None:
            ev.append(
                Event(
                    "land-move",
                    {
                        "side": SIDES[side],
                        "from": self.c.names[origin],
                        "to": self.c.names[dest],
                        "armies": n,
                    },
                )
            )
        if s.arm[1 - side][dest]:
            return self.start_land_battle(s, dest, side, ev)
        self.end_move(s, ev)

    def _sea_move(self, s: State, ev: Ev) -> None:
        mv = s.mv
        assert mv is not None
        side, origin, n, k, dest = mv.side, mv.origin, mv.count, mv.carry, mv.dest
        s.flt[side][origin] -= n  # the group is at sea
        s.arm[side][origin] -= k
        if ev is not None:
            ev.append(
                Event(
                    "sea-move",
                    {
                        "side": SIDES[side],
                        "from": self.c.names[origin],
                        "to": self.c.names[dest],
                        "fleets": n,
                        "armies": k,
                    },
                )
            )
        s.stack.append(("sea_arrive", mv.copy()))
        if side == PERSIA and self.open_window(s, 3, ev):  # Themistocles may answer
            return
        self._resume(s, ev)

    def _k_sea_arrive(self, s: State, ev: Ev, waiting: Move) -> None:
        """Seed 002: "Si port de destination occupé par 1+ flotte : Bataille navale". Greek
        fleets that Themistocles sends to the Persian destination wait there for the Persian
        fleets instead: the one naval battle is the Persian move's, fought against them
        (decision 34)."""
        mv = s.mv = waiting.copy()  # (a copied state's stack may share `waiting`)
        side, n, k, dest = mv.side, mv.count, mv.carry, mv.dest
        if mv.flag == THEMISTOCLES_MOVE and dest == mv.exclude:
            s.flt[side][dest] += n  # the Persian move, still to arrive, brings the battle
            s.mv = None  # (no bridge choice while the fleets wait for that battle)
            return self._resume(s, ev)
        if s.flt[1 - side][dest]:
            s.flt[side][dest] += n
            return self.start_naval_battle(s, dest, side, ev)
        s.flt[side][dest] += n
        self.disembark(s, k, ev)

    def disembark(self, s: State, k: int, ev: Ev) -> None:
        """Carried armies land where their fleets arrived; a land battle if the enemy is there."""
        assert s.mv is not None
        side, dest = s.mv.side, s.mv.dest
        if k <= 0:
            return self.end_move(s, ev)
        s.arm[side][dest] += k
        if s.arm[1 - side][dest]:
            return self.start_land_battle(s, dest, side, ev)
        self.end_move(s, ev)

    def end_move(self, s: State, ev: Ev) -> None:
        """After a Greek move ends in Abydos with Greece in control, Greece may destroy the
        pontoon bridge (RB 7.1; decision: any Greek move, as the designer's notes allow)."""
        mv = s.mv
        if (
            mv is not None
            and mv.side == GREECE
            and s.bridge
            and mv.dest == self.abydos
            and board.controls(self.c, s, GREECE, self.abydos)
        ):
            s.side = GREECE
            s.phase = BRIDGE
            return
        s.mv = None
        self._resume(s, ev)

    def bridge_step(self, s: State, a: Act, ev: Ev) -> None:
        if a.verb == "destroy bridge":
            s.bridge = False
            if ev is not None:
                ev.append(Event("bridge-destroyed", {}))
        s.mv = None
        self._resume(s, ev)
