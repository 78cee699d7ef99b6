"""The heuristic's model of the map: the public tables (roads, ports, amphorae, points) as
bit masks, a position (`Pos`: armies and fleets per side and city, the bridge, the
reserves), and what a position's value reads of it: land reach and supply, and the
projected Scoring.

Control of one city and the land moves of the planner are the rules' own (`board.controls`,
`board.land_reach`, which read a `Pos` as they read a `State`). Supply and the projected
Scoring are a second model on purpose:

* speed: the value of a decision reads thousands of positions; here supply is traced over
  sets of cities as bit masks with precomputed tables (the neighbours, points and
  amphorae of a set), and cached by the masks of where the units stand;
* it is a projection, not the Supply Phase: it traces Persia's then Greece's lines of
  communication as the phase will, but stands in for attrition by the armies outside
  Asia that the amphorae will feed, and in a city where both sides' armies stand (the
  positions valued during a battle) it counts the enemy's armies as holding it, where
  `board.controllers` gives no one.

Its decisions were tuned (and are pinned) with this model.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import compress
from typing import Any

from thermopylae.games.earth_and_water.components import Components
from thermopylae.games.earth_and_water.state import GREECE, PERSIA

CACHE_MAX = 50_000  # entries kept in each of the Map's position caches (then cleared)


class Map:
    """The public, fixed part of the game: cities, roads, ports, amphorae."""

    def __init__(self, c: Components) -> None:
        self.c = c  # (for the rules' own map questions, `board`)
        self.n: int = len(c.names)
        self.cities = range(self.n)
        self.names: tuple[str, ...] = tuple(c.names)
        self.major: tuple[int, ...] = tuple(c.major)
        self.port: tuple[bool, ...] = tuple(c.port)
        self.amph: tuple[int, ...] = tuple(c.amphorae)
        self.pts: tuple[int, ...] = tuple(c.points)
        b0, b1 = c.bridge
        self.roads_open: tuple[tuple[int, ...], ...] = tuple(tuple(r) for r in c.roads)
        self.roads_shut: tuple[tuple[int, ...], ...] = tuple(
            tuple(y for y in r if {x, y} != {b0, b1}) for x, r in enumerate(c.roads)
        )
        self.ports = [x for x in range(self.n) if c.port[x]]
        self.majors = (
            [x for x in range(self.n) if c.major[x] == PERSIA],
            [x for x in range(self.n) if c.major[x] == GREECE],
        )
        self.city = dict(c.city)
        self.abydos = c.city["Abydos"]
        self.sparta = c.city["Sparta"]
        self.athenai = c.city["Athenai"]
        self.thebai = c.city["Thebai"]
        self.asia = frozenset(self.majors[PERSIA])
        # Tables over sets of cities (bit masks): neighbours by road (bridge shut, open),
        # points and amphorae.
        full = 1 << self.n
        self.all = full - 1
        self.major_mask = (
            sum(1 << x for x in self.majors[PERSIA]),
            sum(1 << x for x in self.majors[GREECE]),
        )
        self.asia_mask = self.major_mask[PERSIA]
        near: list[list[int]] = []
        for rd in (self.roads_shut, self.roads_open):
            adj = [sum(1 << y for y in rd[x]) for x in range(self.n)]
            table = [0] * full
            for mask in range(1, full):
                low = mask & -mask
                table[mask] = table[mask ^ low] | adj[low.bit_length() - 1]
            near.append(table)
        self.near = near
        self.minor_mask = self.all & ~self.major_mask[PERSIA] & ~self.major_mask[GREECE]
        # per city: the other major city of the same side (-1 for a minor city)
        self.other_major = tuple(
            next((y for y in self.majors[self.major[x]] if y != x), -1)
            if self.major[x] >= 0
            else -1
            for x in range(self.n)
        )
        self.points_of = [0] * full
        self.minor_top = [0] * full  # the most points among the cities of a set
        self.amph_of = [0] * full
        self.members = [tuple(mask >> x & 1 for x in range(self.n)) for mask in range(full)]
        for mask in range(1, full):
            low = mask & -mask
            x = low.bit_length() - 1
            self.points_of[mask] = self.points_of[mask ^ low] + self.pts[x]
            self.minor_top[mask] = max(self.minor_top[mask ^ low], self.pts[x])
            self.amph_of[mask] = self.amph_of[mask ^ low] + self.amph[x]
        # Caches over positions, shared by every decision (bounded: see CACHE_MAX).
        self.statics: dict[bytes, tuple[Any, ...]] = {}
        self.bests: dict[tuple[Any, ...], tuple[float, Any]] = {}
        self.reaches: dict[tuple[Any, ...], tuple[tuple[int, ...], int]] = {}
        self.supply: dict[tuple[Any, ...], tuple[int, int, int, int, tuple[int, int]]] = {}
        self.shortlists: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        # Tables of values per seat's knowledge (`table`), and how many entries they hold.
        self.tables: dict[tuple[Any, ...], dict[Any, Any]] = {}
        self.stored = 0
        # Land destinations by (bridge, the cities one may pass through, origin): as a
        # tuple of cities, and as a bit mask.
        self.dests: dict[tuple[bool, int, int], tuple[int, ...]] = {}
        self.dest_masks: dict[tuple[bool, int, int], int] = {}

    def table(self, key: tuple[Any, ...]) -> dict[Any, Any]:
        """The cache of values that depend on the position and on `key` (what the seat
        knows)."""
        got = self.tables.get(key)
        if got is None:
            got = self.tables[key] = {}
        return got

    def clear_tables(self) -> None:
        self.tables.clear()
        self.stored = 0


class Pos:
    """Armies and fleets per side and city, the bridge, reserves."""

    __slots__ = ("acro", "arm", "bridge", "flt", "res", "resf")

    def __init__(
        self,
        arm: list[list[int]],
        flt: list[list[int]],
        bridge: bool,
        res: list[int],
        resf: list[int],
        acro: bool,
    ) -> None:
        self.arm = arm
        self.flt = flt
        self.bridge = bridge
        self.res = res
        self.resf = resf
        self.acro = acro

    def copy(self) -> Pos:
        p = Pos.__new__(Pos)  # (without `__init__`'s call: the planner copies thousands)
        p.arm = [self.arm[0][:], self.arm[1][:]]
        p.flt = [self.flt[0][:], self.flt[1][:]]
        p.bridge = self.bridge
        p.res = self.res[:]
        p.resf = self.resf[:]
        p.acro = self.acro
        return p

    def key(self) -> tuple[Any, ...]:
        return (*self.arm[0], *self.arm[1], *self.flt[0], *self.flt[1], self.bridge, self.acro)


def dests_cached(m: Map, bridge: bool, passable: int, origin: int) -> tuple[int, ...]:
    """`board.land_reach` by the set of cities the mover may pass through (a bit mask), for
    the threats of `Ctx.best_gain`: cached by that set, it serves every position in which
    the mover controls the same cities."""
    key = (bridge, passable, origin)
    got = m.dests.get(key)
    if got is not None:
        return got
    if len(m.dests) > CACHE_MAX:
        m.dests.clear()
    rd = m.roads_open if bridge else m.roads_shut
    seen = {origin}
    frontier = [origin]
    out = []
    while frontier:
        x = frontier.pop()
        for y in rd[x]:
            if y not in seen:
                seen.add(y)
                out.append(y)
                if passable >> y & 1:
                    frontier.append(y)
    got = m.dests[key] = tuple(out)
    return got


_BITS = [1 << x for x in range(64)]


def land_reach(
    m: Map, mine: list[int], mine_m: int, theirs_m: int, side: int, bridge: bool, locked: int
) -> tuple[tuple[int, ...], int]:
    """For `best_gain`: per city, the strongest stack of `side` that can reach it by land,
    and the set of those cities (a bit mask)."""
    reach = [0] * m.n
    passable = (mine_m | m.major_mask[side]) & ~theirs_m
    stacks = list(compress(m.cities, mine))
    stacks.sort(key=mine.__getitem__, reverse=True)
    covered = 0
    for o in stacks:
        if o == locked:
            continue
        a = mine[o]
        key = (bridge, passable, o)
        dm = m.dest_masks.get(key)
        if dm is None:
            dm = 0
            for d in dests_cached(m, bridge, passable, o):
                dm |= 1 << d
            if len(m.dest_masks) > CACHE_MAX:
                m.dest_masks.clear()
            m.dest_masks[key] = dm
        new = dm & ~covered
        covered |= dm
        while new:
            low = new & -new
            new ^= low
            reach[low.bit_length() - 1] = a
    return tuple(reach), covered


def _mask(units: list[int]) -> int:
    """The cities where `units` are (a bit mask)."""
    return sum(compress(_BITS, units))


def supplied_mask(
    m: Map, near: list[int], arm_me: int, arm_opp: int, flt_me: int, flt_opp: int, side: int
) -> tuple[int, int]:
    """Cities in supply for `side` (rules 8.2: lines of communication), as bit masks: those
    reached by road, and those supplied by sea (own fleets in port)."""
    opp_ctrl = arm_opp | (m.major_mask[1 - side] & ~arm_me)
    majors = m.major_mask[side] & ~arm_opp  # the own major cities it controls
    reach = majors
    open_ = m.all & ~opp_ctrl
    while True:
        more = (reach | near[reach]) & (open_ | majors)
        if more == reach:
            break
        reach = more
    return reach, (flt_me if majors & ~flt_opp else 0)


Projection = tuple[int, int, int, int, tuple[int, int]]


def project(m: Map, pos: Pos, masks: tuple[int, int, int, int] | None = None) -> Projection:
    """The coming scoring after supply: (Persian points, Greek points, automatic winner or
    -1, Persian armies outside Asia that supply will feed, per side the cities whose
    armies only their fleets keep in supply). `masks`: the cities holding Persian armies,
    Greek armies, Persian fleets, Greek fleets, if already known."""
    if masks is None:
        masks = (
            _mask(pos.arm[PERSIA]),
            _mask(pos.arm[GREECE]),
            _mask(pos.flt[PERSIA]),
            _mask(pos.flt[GREECE]),
        )
    skey = (*masks, pos.bridge)
    got = m.supply.get(skey)
    if got is None:
        if len(m.supply) > CACHE_MAX:
            m.supply.clear()
        got = m.supply[skey] = _supply(m, masks, pos.bridge)
    ap, cp, cg, auto, fragile = got
    if auto >= 0:
        return 0, 0, auto, 0, fragile
    burnt = (1 << m.athenai) if pos.acro else 0
    outside = ap & ~m.asia_mask
    fed = 0
    if outside:
        arm = pos.arm[PERSIA]
        fed, food = sum(compress(arm, m.members[outside])), m.amph_of[outside]
        if fed > food:  # (min, without the call)
            fed = food
    return m.points_of[cp & ~burnt], m.points_of[cg & ~burnt], -1, fed, fragile


def _supply(
    m: Map, masks: tuple[int, int, int, int], bridge: bool
) -> tuple[int, int, int, int, tuple[int, int]]:
    """For `project`, from where the units are (and the bridge) alone: the cities of the
    Persian armies in supply, the cities each side controls after supply, the automatic
    winner or -1, the fragile cities."""
    near = m.near[1 if bridge else 0]
    ap, ag, fp, fg = masks
    pmaj, gmaj = m.major_mask
    land, sea = supplied_mask(m, near, ap, ag, fp, fg, PERSIA)
    ap &= land | sea
    fragile_p = ap & ~land
    land, sea = supplied_mask(m, near, ag, ap, fg, fp, GREECE)
    ag &= land | sea
    fragile = (fragile_p, ag & ~land)
    cp = ap | (pmaj & ~ag)
    cg = ag | (gmaj & ~ap)
    auto = PERSIA if cp & gmaj == gmaj else GREECE if cg & pmaj == pmaj else -1
    return ap, cp, cg, auto, fragile


@lru_cache(maxsize=CACHE_MAX)
def units_of(row: bytes) -> tuple[int, int]:
    """Units per city (one byte a city) -> (the mask of their cities, their sum)."""
    return sum(compress(_BITS, row)), sum(row)
