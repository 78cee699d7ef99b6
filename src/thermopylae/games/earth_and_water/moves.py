"""Land and naval movement (RB 6.3-6.5), one small decision at a time:
origin (`land CITY` / `sea CITY`), how many (`armies N` / `fleets N`), how many armies the
fleets carry (`carry N`), destination (`to CITY`). A group moves together from one origin.
"""

from __future__ import annotations

from itertools import compress

from thermopylae.engine.protocol import Event
from thermopylae.games.earth_and_water import battle, board, campaign, reactions
from thermopylae.games.earth_and_water.actions import (
    A,
    Action,
    Armies,
    Carry,
    DestroyBridge,
    Fleets,
    Land,
    Sea,
    Skip,
    SpareBridge,
    To,
)
from thermopylae.games.earth_and_water.components import Components
from thermopylae.games.earth_and_water.reactions import PERSIAN_NAVAL
from thermopylae.games.earth_and_water.state import (
    ANY,
    BRIDGE,
    FLEETS_ONLY,
    GREECE,
    LAND,
    LAND_ONLY,
    LEONIDAS,
    MAX_CARRY,
    MOLON_LABE,
    MV_CARRY,
    MV_COUNT,
    MV_DEST,
    MV_ORIGIN,
    PERSIA,
    SEA,
    SIDES,
    THEMISTOCLES_MOVE,
    TRIREMES_2,
    Ev,
    Move,
    State,
)


def _locked(s: State, c: Components, side: int) -> int:
    """Under the Carneia Festival, Greek armies in Sparta may not move by land."""
    return c.sparta if (s.carneia and side == GREECE) else -1


def can_move_with(s: State, c: Components, side: int) -> bool:
    return any(s.flt[side]) or can_move_land(s, c, side)  # (fleets can always sail)


def can_move_land(s: State, c: Components, side: int) -> bool:
    """Whether `board.land_origins` lists any city (stopping at the first)."""
    locked, exits = _locked(s, c, side), c.exits[s.bridge]
    for city in compress(c.cities, s.arm[side]):  # noqa: SIM110 (faster than `any`)
        if city != locked and exits[city]:
            return True
    return False


def begin_move(
    s: State, c: Components, side: int, ev: Ev, kind: int = ANY, flag: int = 0, exclude: int = -1
) -> None:
    s.mv = Move(side, kind, -1, -1, 0, 0, flag, exclude, -1)
    s.side = side
    s.phase = MV_ORIGIN
    if not _origins(s, c):  # nothing can move (an event's move with no group left): no move
        s.mv = None
        return campaign.resume(s, c, ev)


# -- the small decisions, one function a phase for what may be chosen and one for the choice


def _origins(s: State, c: Components) -> list[Action]:
    mv = s.mv
    assert mv is not None
    side, kind = mv.side, mv.kind
    if kind != FLEETS_ONLY:  # (a city with a road always has a destination)
        land = A.land
        out: list[Action] = [land[x] for x in board.land_origins(c, s, side, _locked(s, c, side))]
        if kind == LAND_ONLY:
            return out
    else:
        out = []
    sea, exclude = A.sea, mv.exclude  # (`board.sea_origins`)
    out += [sea[x] for x in compress(c.cities, s.flt[side]) if x != exclude]
    return out


def origin_options(s: State, c: Components) -> list[Action]:
    out = _origins(s, c)
    assert s.mv is not None
    if s.mv.flag in (MOLON_LABE, TRIREMES_2):
        out.append(A.skip)  # decision: these extra moves are optional
    return out


def choose_origin(s: State, c: Components, a: Land | Sea | Skip, ev: Ev) -> None:
    mv = s.mv
    assert mv is not None
    if isinstance(a, Skip):
        s.mv = None
        return campaign.resume(s, c, ev)
    mv.mode = LAND if isinstance(a, Land) else SEA
    mv.origin = a.city
    if mv.mode == LAND and mv.flag == LEONIDAS:
        mv.count = 1  # Leonidas moves exactly one army
        s.phase = MV_DEST
    else:
        s.phase = MV_COUNT
    return None


def count_options(s: State, c: Components) -> list[Action]:
    mv = s.mv
    assert mv is not None
    if mv.mode == LAND:
        return [A.armies[n] for n in range(1, s.arm[mv.side][mv.origin] + 1)]
    return [A.fleets[n] for n in range(1, s.flt[mv.side][mv.origin] + 1)]


def choose_count(s: State, c: Components, a: Armies | Fleets, ev: Ev) -> None:
    mv = s.mv
    assert mv is not None
    mv.count = a.count
    if mv.mode == SEA and _max_carry(s, c) > 0:
        s.phase = MV_CARRY
    else:
        s.phase = MV_DEST


def carry_options(s: State, c: Components) -> list[Action]:
    return [A.carry[n] for n in range(_max_carry(s, c) + 1)]


def choose_carry(s: State, c: Components, a: Carry, ev: Ev) -> None:
    assert s.mv is not None
    s.mv.carry = a.count
    s.phase = MV_DEST


def dest_options(s: State, c: Components) -> list[Action]:
    mv = s.mv
    assert mv is not None
    if mv.mode == LAND:
        return [A.to[x] for x in board.land_destinations(c, s, mv.side, mv.origin)]
    return [A.to[x] for x in c.ports if x != mv.origin]


def choose_dest(s: State, c: Components, a: To, ev: Ev) -> None:
    mv = s.mv
    assert mv is not None
    mv.dest = a.city
    if mv.mode == LAND:
        return _land_move(s, c, ev)
    return _sea_move(s, c, ev)


def _max_carry(s: State, c: Components) -> int:
    mv = s.mv
    assert mv is not None
    side = mv.side
    if mv.kind == FLEETS_ONLY or mv.flag in (THEMISTOCLES_MOVE,):
        return 0
    if s.carneia and side == GREECE and mv.origin == c.sparta:
        return 0  # Carneia: Greek fleets leaving Sparta carry no armies
    return min(mv.count, MAX_CARRY, s.arm[side][mv.origin])


def _land_move(s: State, c: Components, ev: Ev) -> None:
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
                    "from": c.names[origin],
                    "to": c.names[dest],
                    "armies": n,
                },
            )
        )
    if s.arm[1 - side][dest]:
        return battle.start_land_battle(s, c, dest, side, ev)
    end_move(s, c, ev)


def _sea_move(s: State, c: Components, ev: Ev) -> None:
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
                    "from": c.names[origin],
                    "to": c.names[dest],
                    "fleets": n,
                    "armies": k,
                },
            )
        )
    s.stack.append(("sea_arrive", mv.copy()))
    if side == PERSIA and reactions.open_window(s, PERSIAN_NAVAL, ev):  # Themistocles may answer
        return
    campaign.resume(s, c, ev)


def sea_arrive(s: State, c: Components, ev: Ev, waiting: Move) -> None:
    """Seed 002: "Si port de destination occupé par 1+ flotte : Bataille navale". Greek
    fleets that Themistocles sends to the Persian destination wait there for the Persian
    fleets instead: the one naval battle is the Persian move's, fought against them
    (decision 34)."""
    mv = s.mv = waiting.copy()  # (a copied state's stack may share `waiting`)
    side, n, k, dest = mv.side, mv.count, mv.carry, mv.dest
    if mv.flag == THEMISTOCLES_MOVE and dest == mv.exclude:
        s.flt[side][dest] += n  # the Persian move, still to arrive, brings the battle
        s.mv = None  # (no bridge choice while the fleets wait for that battle)
        return campaign.resume(s, c, ev)
    if s.flt[1 - side][dest]:
        s.flt[side][dest] += n
        return battle.start_naval_battle(s, c, dest, side, ev)
    s.flt[side][dest] += n
    disembark(s, c, k, ev)


def disembark(s: State, c: Components, k: int, ev: Ev) -> None:
    """Carried armies land where their fleets arrived; a land battle if the enemy is there."""
    assert s.mv is not None
    side, dest = s.mv.side, s.mv.dest
    if k <= 0:
        return end_move(s, c, ev)
    s.arm[side][dest] += k
    if s.arm[1 - side][dest]:
        return battle.start_land_battle(s, c, dest, side, ev)
    end_move(s, c, ev)


def end_move(s: State, c: Components, ev: Ev) -> None:
    """After a Greek move ends in Abydos with Greece in control, Greece may destroy the
    pontoon bridge (RB 7.1; decision: any Greek move, as the designer's notes allow)."""
    mv = s.mv
    if (
        mv is not None
        and mv.side == GREECE
        and s.bridge
        and mv.dest == c.abydos
        and board.controls(c, s, GREECE, c.abydos)
    ):
        s.side = GREECE
        s.phase = BRIDGE
        return
    s.mv = None
    campaign.resume(s, c, ev)


def bridge_options(s: State, c: Components) -> list[Action]:
    return [A.destroy_bridge, A.spare_bridge]


def bridge_step(s: State, c: Components, a: DestroyBridge | SpareBridge, ev: Ev) -> None:
    if isinstance(a, DestroyBridge):
        s.bridge = False
        if ev is not None:
            ev.append(Event("bridge-destroyed", {}))
    s.mv = None
    campaign.resume(s, c, ev)
