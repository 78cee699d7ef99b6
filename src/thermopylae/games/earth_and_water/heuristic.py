"""A rule-based 300: Earth & Water player for either side, reading only its own seat's view.

It keeps a small model of the map (armies and fleets per city, the bridge, the reserves),
built from `game.view(state, seat)` and the public component data (roads, ports,
amphorae), and values a position by:

* the projected score of the coming Scoring Phase: both sides' lines of communication are
  traced as the Supply Phase will (Persia first), then cities are counted, and the result
  is added to the score track (clamped at 6) and bent towards its sign as the last
  campaign nears; automatic victories count as a large win or loss;
* the pieces on the map (Persian armies only up to what its amphorae will feed);
* the best single attack each side could make next (land or by sea), weighted by who
  moves next and whether it still holds cards: a threat to a city one holds costs, an
  opportunity counts a little.

Battles are valued with exact round-by-round odds (one die per unit, at most 3; the
highest die counts; a Persian die counts at most 4, 5 in Abydos and Ephesos, 6 with the
Cavalry; overrides for Miltiades, 300 Spartans and Leonidas). Every move, event and
reaction is valued by the expected value of the positions it leads to; a multi-step move
is planned whole (every candidate ranked quickly without the threats, the best few
valued in full) and followed through its small decisions. Preparation follows a budget
plan: Persia buys six cards, builds the bridge only when the road it opens is worth it
now, and spends the rest on fleets (they carry the war: up to 3 armies a move) and
armies; Greece buys cards up to a hand of five and raises forces where they protect or
threaten most. Greece holds its cards (reactions above all) unless a play gains clearly;
Persia plays whatever gains. Supply keeps the Greek cards worth most and drops the armies
worth least. The weights were tuned in heuristic-against-heuristic matches.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from functools import cache
from itertools import compress
from typing import Any

from thermopylae.engine.protocol import JSON
from thermopylae.games.earth_and_water.battle import ATT, CAV, CITY, FROM, GDICE, KIND, PSTART
from thermopylae.games.earth_and_water.battle import CARRY as BT_CARRY
from thermopylae.games.earth_and_water.moves import (
    CARRY,
    CAVALRY,
    COUNT,
    DEST,
    EVANGELION,
    EXCLUDE,
    FLAG,
    FLEETS_ONLY,
    GREAT_KING,
    LAND_ONLY,
    LEONIDAS,
    MODE,
    ORIGIN,
    THEMISTOCLES_MOVE,
)
from thermopylae.games.earth_and_water.moves import KIND as MV_KIND

P, G = 0, 1
LAND, SEA = 0, 1
SIDE_INDEX = {"persia": P, "greece": G}


def _city(m: Any, name: str | None) -> int:
    return -1 if name is None else int(m.names.index(name))


def _best_removal(ctx: Any, pos: Any, units: str, cities: Any) -> float:
    """The best position value after removing one Persian army (`arm`) or fleet (`flt`)
    from one of `cities` (-inf when there is none to remove)."""
    best = -math.inf
    for x in cities:
        if getattr(pos, units)[P][x]:
            p2 = pos.copy()
            getattr(p2, units)[P][x] -= 1
            best = max(best, ctx.value(p2))
    return best


def _move_list(v: JSON, m: Any) -> list[int]:
    """The view's move as a list laid out like the rules' own (indices from moves.py)."""
    mv = v["move"]
    if not mv:
        return []
    out = [0] * 9
    out[0] = SIDE_INDEX[mv["side"]]
    out[MV_KIND] = ("any", "land", "fleets").index(mv["allowed"])
    out[MODE] = -1 if mv["by"] is None else ("land", "sea").index(mv["by"])
    out[ORIGIN] = _city(m, mv["origin"])
    out[COUNT], out[CARRY], out[FLAG] = mv["count"], mv["carry"], mv["event"]
    out[EXCLUDE] = _city(m, mv["not_from"])
    out[DEST] = _city(m, mv["destination"])
    return out


def _battle_list(v: JSON, m: Any) -> list[int]:
    """The view's battle as a list laid out like the rules' own (indices from battle.py)."""
    bt = v["battle"]
    if not bt:
        return []
    out = [0] * 16
    out[KIND] = 0 if bt["kind"] == "land" else 1
    out[CITY] = _city(m, bt["city"])
    out[ATT] = SIDE_INDEX[bt["attacker"]]
    out[GDICE], out[CAV], out[PSTART] = bt["greek_dice"], int(bt["cavalry"]), bt["persian_start"]
    out[BT_CARRY], out[FROM] = bt["carried"], _city(m, bt["from"])
    return out


# Valuing a position (score points). The numbers were tuned in heuristic-against-
# heuristic matches (hundreds of games per change, both seats).
WIN = 40.0  # an automatic victory
AUTO_THREAT = 7.0  # a threat to take the enemy's last major city
SIGN_PULL = {1: 0.0, 2: 0.0, 3: 0.1, 4: 0.3, 5: 2.0}  # per campaign: only the sign counts at last
ARMY = (0.14, 0.45)  # a Persian, a Greek army on the map
FLEET = (0.40, 0.25)  # a Persian, a Greek fleet on the map
THREAT_NEXT = (0.9, 0.75)  # weight of the best attack of the side to move next (per seat)
THREAT_LATER = (0.45, 0.3)  # ... of the other side
SHORTLIST = 7  # moves valued in full, of those ranked without the threats

# Preparation.
P_CARDS = 6  # cards Persia buys
P_CARDS_BRIDGE = 4  # ... when it builds the bridge too
BRIDGE_UNTIL = 4  # the last campaign in which Persia may build the bridge
BRIDGE_GAIN = 0.3  # the value the bridge must add now
G_HAND_TARGET = 5  # Greece buys cards up to this hand (kept cards included)
G_CARDS_MAX = 4
G_FORCES = 2  # talents Greece keeps for armies and fleets

# Operations and Supply: playing, holding and keeping cards.
P_HOLD = 0.45  # share of a card's event value Persia gives up to play it otherwise
P_PASS = 0.02  # the least gain for which Persia plays a card
G_HOLD = 1.2  # how much Greece values holding a card over playing it
G_PASS = 0.4  # the least gain for which Greece plays a card
# What a Greek card is worth in hand (kept for later, or as a reaction).
GREEK_KEEP = {
    1: 1.4,
    2: 0.35,
    3: 0.5,
    4: 1.5,
    5: 0.9,
    6: 0.25,
    7: 0.35,
    8: 0.8,
    9: 0.5,
    10: 0.7,
    11: 0.6,
    12: 0.7,
    13: 0.45,
    14: 0.55,
    15: 1.4,
    16: 0.8,
}
# What a Persian card is worth kept for the next campaign (in talents).
PERSIAN_KEEP = {
    8: 2.5,
    1: 1.5,
    7: 1.5,
    9: 1.2,
    12: 1.2,
    2: 1.0,
    3: 1.0,
    13: 1.0,
    4: 1.0,
    5: 1.0,
    6: 0.8,
    16: 0.6,
    10: 0.5,
    15: 0.5,
}
P_KEEP_MIN = 2.0  # Persia keeps a card worth this much (2 talents: the budget it costs)

GREEK_ONCE = {4: "Miltiades", 5: "Themistocles", 8: "Leonidas", 9: "Artemisia I"}
GREEK_REACTIONS = frozenset({4, 5, 6, 9, 12, 15})
SPARTA_CARDS = frozenset({6, 8, 11, 15})
TRIBUTE = frozenset({2, 3, 13})
# Reaction windows (cards.py).
W_PRE_PERSIAN_LAND, W_GREEK_LAND, W_PERSIAN_NAVAL, W_IMMORTALS, W_ARTEMISIA, W_MOLON = range(1, 7)


# -- dice ------------------------------------------------------------------------------------


@cache
def _highest(n: int, cap: int) -> tuple[float, ...]:
    """P(the highest of n dice, counted at most `cap`, is v), v = 0..6."""
    out = [0.0] * 7
    if n <= 0:
        out[0] = 1.0
        return tuple(out)
    for f in range(1, 7):
        out[min(f, cap)] += (f**n - (f - 1) ** n) / 6**n
    return tuple(out)


@cache
def _round(na: int, nd: int, cap_a: int, cap_d: int) -> tuple[float, float, float]:
    """(attacker wins the round, tie, defender wins)."""
    ha, hd = _highest(na, cap_a), _highest(nd, cap_d)
    win = tie = 0.0
    for a in range(1, 7):
        if ha[a]:
            win += ha[a] * sum(hd[1:a])
            tie += ha[a] * hd[a]
    return win, tie, 1.0 - win - tie


@cache
def battle(
    a: int, d: int, att_persian: bool, gdice: int, cap: int
) -> tuple[float, float, float, float, float]:
    """A battle fought to the end: (P attacker wins, its mean survivors if so,
    P defender wins, its mean survivors if so, P both wiped out). Greek dice are
    `gdice` every round when given (Miltiades, 300 Spartans, Leonidas)."""
    if a <= 0 or d <= 0:
        if a > 0:
            return 1.0, float(a), 0.0, 0.0, 0.0
        if d > 0:
            return 0.0, 0.0, 1.0, float(d), 0.0
        return 0.0, 0.0, 0.0, 0.0, 1.0
    if att_persian:
        na, nd, cap_a, cap_d = min(3, a), gdice or min(3, d), cap, 6
    else:
        na, nd, cap_a, cap_d = gdice or min(3, a), min(3, d), 6, cap
    w, t, lo = _round(na, nd, cap_a, cap_d)
    total = [0.0] * 5
    for p, (a2, d2) in ((w, (a, d - 1)), (t, (a - 1, d - 1)), (lo, (a - 1, d))):
        if p <= 0:
            continue
        r = battle(a2, d2, att_persian, gdice, cap)
        total[0] += p * r[0]
        total[1] += p * r[0] * r[1]
        total[2] += p * r[2]
        total[3] += p * r[2] * r[3]
        total[4] += p * r[4]
    pw, pl = total[0], total[2]
    return (pw, total[1] / pw if pw else 0.0, pl, total[3] / pl if pl else 0.0, total[4])


def _mix(x: tuple[float, ...], y: tuple[float, ...], q: float) -> tuple[float, ...]:
    """Battle summaries mixed: `y` with probability q."""
    if q <= 0:
        return x
    pw = (1 - q) * x[0] + q * y[0]
    pl = (1 - q) * x[2] + q * y[2]
    ea = ((1 - q) * x[0] * x[1] + q * y[0] * y[1]) / pw if pw else 0.0
    ed = ((1 - q) * x[2] * x[3] + q * y[2] * y[3]) / pl if pl else 0.0
    return pw, ea, pl, ed, (1 - q) * x[4] + q * y[4]


# -- the map and a position ------------------------------------------------------------------


class Map:
    """The public, fixed part of the game: cities, roads, ports, amphorae."""

    def __init__(self, c: Any) -> None:
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
            [x for x in range(self.n) if c.major[x] == P],
            [x for x in range(self.n) if c.major[x] == G],
        )
        self.city = dict(c.city)
        self.abydos = c.city["Abydos"]
        self.sparta = c.city["Sparta"]
        self.athenai = c.city["Athenai"]
        self.thebai = c.city["Thebai"]
        self.asia = frozenset(self.majors[P])
        # Tables over sets of cities (bit masks): neighbours by road (bridge shut, open),
        # points and amphorae.
        full = 1 << self.n
        self.all = full - 1
        self.major_mask = (sum(1 << x for x in self.majors[P]), sum(1 << x for x in self.majors[G]))
        self.asia_mask = self.major_mask[P]
        near: list[list[int]] = []
        for rd in (self.roads_shut, self.roads_open):
            adj = [sum(1 << y for y in rd[x]) for x in range(self.n)]
            table = [0] * full
            for mask in range(1, full):
                low = mask & -mask
                table[mask] = table[mask ^ low] | adj[low.bit_length() - 1]
            near.append(table)
        self.near = near
        self.minor_mask = self.all & ~self.major_mask[P] & ~self.major_mask[G]
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
        return Pos(
            [self.arm[0][:], self.arm[1][:]],
            [self.flt[0][:], self.flt[1][:]],
            self.bridge,
            self.res[:],
            self.resf[:],
            self.acro,
        )

    def key(self) -> tuple[Any, ...]:
        return (*self.arm[0], *self.arm[1], *self.flt[0], *self.flt[1], self.bridge, self.acro)


def ctrl(m: Map, arm: list[list[int]], side: int, x: int) -> bool:
    if arm[side][x]:
        return True
    if arm[1 - side][x]:
        return False
    return m.major[x] == side


def roads(m: Map, pos: Pos) -> tuple[tuple[int, ...], ...]:
    return m.roads_open if pos.bridge else m.roads_shut


def land_dests(m: Map, pos: Pos, side: int, origin: int) -> list[int]:
    """Where a land group from `origin` may go (through cities its side controls)."""
    rd = roads(m, pos)
    arm = pos.arm
    seen = {origin}
    frontier = [origin]
    out = []
    while frontier:
        x = frontier.pop()
        for y in rd[x]:
            if y in seen:
                continue
            seen.add(y)
            out.append(y)
            if not arm[1 - side][y] and (arm[side][y] or m.major[y] == side):
                frontier.append(y)
    return out


_DESTS: dict[tuple[int, bool, int, int], tuple[int, ...]] = {}
_DEST_MASKS: dict[tuple[bool, int, int], int] = {}


def dests_cached(m: Map, bridge: bool, passable: int, origin: int) -> tuple[int, ...]:
    """`land_dests` by the set of cities the mover may pass through (a bit mask)."""
    key = (id(m), bridge, passable, origin)
    got = _DESTS.get(key)
    if got is not None:
        return got
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
    got = _DESTS[key] = tuple(out)
    return got


_BITS = [1 << x for x in range(64)]
# The end of a position's key in `Ctx.value`, by bridge, Acropolis and score delta (mod 256).
_SUFFIX = [[[bytes((b, a, d)) for d in range(256)] for a in (0, 1)] for b in (0, 1)]
_P_SEA: dict[tuple[int, bool, int, int], float] = {}  # naval odds (`Ctx._p_sea`)


def _land_reach(
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
        dm = _DEST_MASKS.get(key)
        if dm is None:
            dm = 0
            for d in dests_cached(m, bridge, passable, o):
                dm |= 1 << d
            _DEST_MASKS[key] = dm
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
        masks = (_mask(pos.arm[P]), _mask(pos.arm[G]), _mask(pos.flt[P]), _mask(pos.flt[G]))
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
        arm = pos.arm[P]
        fed = min(sum(compress(arm, m.members[outside])), m.amph_of[outside])
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
    land, sea = supplied_mask(m, near, ap, ag, fp, fg, P)
    ap &= land | sea
    fragile_p = ap & ~land
    land, sea = supplied_mask(m, near, ag, ap, fg, fp, G)
    ag &= land | sea
    fragile = (fragile_p, ag & ~land)
    cp = ap | (pmaj & ~ag)
    cg = ag | (gmaj & ~ap)
    auto = P if cp & gmaj == gmaj else G if cg & pmaj == pmaj else -1
    return ap, cp, cg, auto, fragile


CACHE_MAX = 50_000  # entries kept in each of the Map's position caches (then cleared)


_UNITS: dict[bytes, tuple[int, int]] = {}  # units per city -> (their cities' mask, their sum)


def _units(row: bytes) -> tuple[int, int]:
    got = _UNITS.get(row)
    if got is None:
        if len(_UNITS) > CACHE_MAX:
            _UNITS.clear()
        got = _UNITS[row] = (sum(compress(_BITS, row)), sum(row))
    return got


def _position_summary(
    m: Map, pos: Pos, units: bytes | None = None
) -> tuple[int, int, int, float, tuple[int, int, int, int], tuple[int, int]]:
    """What a position's value is made of, the same for every seat and decision: (Persian
    points, Greek points, the automatic winner or -1, the pieces' worth, the masks of
    `project`, its fragile cities). `units`: the armies and fleets per city as in the key
    of `Ctx.value`, if known."""
    arm, flt = pos.arm, pos.flt
    if units is None:
        units = bytes(arm[0]) + bytes(arm[1]) + bytes(flt[0]) + bytes(flt[1])
    n = m.n
    ap, _ = _units(units[:n])
    ag, sum_ag = _units(units[n : 2 * n])
    fp, sum_fp = _units(units[2 * n : 3 * n])
    fg, sum_fg = _units(units[3 * n : 4 * n])
    masks = (ap, ag, fp, fg)
    pp, gp, auto, fed, fragile = project(m, pos, masks)
    aby, eph = m.majors[P]
    pieces = (
        ARMY[P] * (arm[P][aby] + arm[P][eph] + fed)
        + FLEET[P] * sum_fp
        - ARMY[G] * sum_ag
        - FLEET[G] * sum_fg
    )
    return pp, gp, auto, pieces, masks, fragile


# -- the agent's view of the game ------------------------------------------------------------


class Ctx:
    """What this seat knows, and how it values positions."""

    def __init__(self, m: Map, v: JSON, seat: int) -> None:
        self.m = m
        self.v = v
        self.me = seat
        self.opp = 1 - seat
        self.sign = 1.0 if seat == P else -1.0
        self.campaign: int = v["campaign"]
        self.score: int = v["score"]
        cities = v["cities"]
        arm = [[c["armies"]["persia"] for c in cities], [c["armies"]["greece"] for c in cities]]
        flt = [[c["fleets"]["persia"] for c in cities], [c["fleets"]["greece"] for c in cities]]
        r = v["reserve"]
        self.pos = Pos(
            arm,
            flt,
            bool(v["bridge"]),
            [r["persia"]["armies"], r["greece"]["armies"]],
            [r["persia"]["fleets"], r["greece"]["fleets"]],
            bool(v["acropolis"]),
        )
        hands = v["hands"]
        side_name = ("persia", "greece")
        self.hand: list[int] = list(hands[side_name[seat]]["cards"] or [])
        self.counts: list[int] = [hands["persia"]["count"], hands["greece"]["count"]]
        self.opp_cards: list[int] | None = hands[side_name[self.opp]]["cards"]
        self.discard: list[int] = list(v["discard"])
        self.once_used: set[str] = set(v["once_used"])
        self.carneia: bool = bool(v["carneia"])
        self.kings: int = v["kings_dead"]
        self.phase: str = v["phase"]
        # Cards whose place we do not know: the draw pile and the other hand.
        self.unknown = [k for k in range(1, 17) if k not in self.hand and k not in self.discard]
        self.q_defence = self._greek_defence_chance()
        self.next_side = self.opp  # who is expected to move after the decision being valued
        self.cards_after = [self.counts[0], self.counts[1]]
        if m.stored > CACHE_MAX:
            m.clear_tables()
        # Values without the threats (they do not depend on who moves next), shared by
        # every decision of this seat at this score and campaign.
        self._static: dict[bytes, float] = m.table(("static", seat, self.score, self.campaign))
        self.lite = False  # value without the threats (to rank many moves quickly)
        self.pull = SIGN_PULL.get(self.campaign, 1.0)
        self.late = 1.0 if self.campaign < 5 else 0.35  # pieces matter less in the last one
        self._weights = (self._threat_weight(P), self._threat_weight(G))
        self._utils: dict[int, float] = m.table(("util", self.campaign))
        gdice = self.greek_attack_dice()
        # What the value of a move without the threats reads of this seat's knowledge
        # (the key of the move caches across decisions, with the position).
        self.static_key = (seat, self.score, self.campaign, self.q_defence, gdice, self.carneia)
        # Battle odds (they read the Greek reactions and dice this seat expects).
        self._pwin: dict[tuple[int, bool, int, int, int], float] = m.table(
            ("pwin", self.q_defence, gdice)
        )
        # Values with the threats: shared by the decisions that weigh them alike.
        self._cache: dict[bytes, float] = m.table(("full", *self.static_key, *self._weights))
        # `best_gain` per position, shared by the decisions that read the same of this
        # seat's knowledge: for a Persian attack the Greek reactions expected, for a
        # Greek one the Greek dice and the Carneia.
        self._gains_p: dict[bytes, float] = m.table(("gain", P, self.q_defence))
        self._gains_g: dict[bytes, float] = m.table(("gain", G, gdice, self.carneia))

    # -- knowledge about cards

    def p_holds(self, card: int) -> float:
        """P(the opponent holds `card`), from what this seat has seen."""
        if self.opp_cards is not None:
            return 1.0 if card in self.opp_cards else 0.0
        if card not in self.unknown or not self.unknown:
            return 0.0
        return min(1.0, self.counts[self.opp] / len(self.unknown))

    def _greek_defence_chance(self) -> float:
        """For Persia: P(Greece answers a land attack with 3 dice). For Greece: 1 if it
        holds a card that does."""
        cards = []
        if "Miltiades" not in self.once_used:
            cards.append(4)
        if not self.carneia:
            cards.append(15)
        if self.me == G:
            return 1.0 if any(k in self.hand for k in cards) else 0.0
        q = 1.0
        for k in cards:
            q *= 1 - self.p_holds(k)
        return 1 - q

    def greek_attack_dice(self) -> int:
        """Greek dice when Greece (this seat) attacks by land: Miltiades if held."""
        if self.me == G and 4 in self.hand and "Miltiades" not in self.once_used:
            return 3
        return 0

    def locked(self, side: int) -> int:
        return self.m.sparta if (self.carneia and side == G) else -1

    # -- battles as positions

    def land_battle(
        self, att: int, city: int, a: int, d: int, gdice: int = -1, cavalry: bool = False
    ) -> tuple[float, ...]:
        """Summary of a land battle; gdice -1: Greek reactions as this seat expects them."""
        cap = 6 if cavalry else (5 if city in self.m.asia else 4)
        if gdice >= 0:
            return battle(a, d, att == P, gdice, cap)
        if att == G:
            return battle(a, d, False, self.greek_attack_dice() if self.me == G else 0, cap)
        base = battle(a, d, True, 0, cap)
        return _mix(base, battle(a, d, True, 3, cap), self.q_defence)

    def naval_battle(self, att: int, city: int, a: int, d: int) -> tuple[float, ...]:
        return battle(a, d, att == P, 0, 5 if city in self.m.asia else 4)

    # -- valuing positions

    def expect(self, next_side: int, cards_after: list[int]) -> None:
        """Who is expected to move after the decision being valued, and how many cards
        each side will then hold (they weigh the threats)."""
        self.next_side = next_side
        self.cards_after = cards_after
        self._weights = (self._threat_weight(P), self._threat_weight(G))
        self._cache = self.m.table(("full", *self.static_key, *self._weights))

    def util(self, total: float) -> float:
        t = max(-6.0, min(6.0, total))
        return t + self.pull * math.tanh(0.8 * t) if self.pull else t

    def value(self, pos: Pos, delta: int = 0) -> float:
        """This seat's value of `pos` (`delta`: score points already added by an event)."""
        arm, flt = pos.arm, pos.flt
        # (keys of bytes: the caches then hold few objects for the garbage collector)
        key = (
            bytes(arm[0])
            + bytes(arm[1])
            + bytes(flt[0])
            + bytes(flt[1])
            + _SUFFIX[pos.bridge][pos.acro][delta & 255]
        )
        lite = self.lite
        if not lite:
            full = self._cache.get(key)
            if full is not None:
                return full
        val = self._static.get(key)
        summary = None
        if val is None:
            summary = self._summary(pos, key)
            val = self._static[key] = self._static_value(summary, delta)
            self.m.stored += 1
        if lite:
            return val
        if summary is None:
            summary = self._summary(pos, key)
        if summary[2] >= 0:  # an automatic victory
            return val
        masks, fragile = summary[4], summary[5]
        threats = 0.0
        wp, wg = self._weights
        if wp > 0 or wg > 0:
            gkey = key[:-2]  # (the units and the bridge)
            if wp > 0:
                g = self._gains_p.get(gkey)
                if g is None:
                    g = self._gains_p[gkey] = self.best_gain(pos, P, masks, fragile[G])
                    self.m.stored += 1
                threats += wp * g
            if wg > 0:
                g = self._gains_g.get(gkey)
                if g is None:
                    g = self._gains_g[gkey] = self.best_gain(pos, G, masks, fragile[P])
                    self.m.stored += 1
                threats += -wg * g
        full = self._cache[key] = val + threats * self.sign
        self.m.stored += 1
        return full

    def _summary(self, pos: Pos, key: bytes) -> tuple[Any, ...]:
        """`_position_summary`, through a cache shared by every decision (`key`: the
        position's in `value`)."""
        m = self.m
        pkey = key[:-1]  # (without `delta`)
        got = m.statics.get(pkey)
        if got is None:
            if len(m.statics) > CACHE_MAX:
                m.statics.clear()
            got = m.statics[pkey] = _position_summary(m, pos, pkey)
        return got

    def _static_value(self, summary: tuple[Any, ...], delta: int) -> float:
        """The value without the threats (this seat's), from the position's summary."""
        pp, gp, auto, pieces = summary[:4]
        if auto == P:
            val = WIN
        elif auto == G:
            val = -WIN
        else:
            total = self.score + delta + pp - gp
            u = self._utils.get(total)
            if u is None:
                u = self._utils[total] = self.util(total)
            val = u
        val += self.late * pieces
        signed: float = val * self.sign
        return signed

    def _threat_weight(self, side: int) -> float:
        if self.cards_after[side] <= 0:
            return 0.0  # it cannot act before the Scoring (weighing next campaign: no better)
        if side == self.next_side:
            return THREAT_NEXT[self.me]
        return THREAT_LATER[self.me]

    def best_gain(
        self, pos: Pos, side: int, masks: tuple[int, int, int, int], fragile: int = 0
    ) -> float:
        """About how many points `side`'s best single attack would swing: for each city,
        the strongest stack that can reach it by land, or land there from the sea; or
        sinking the fleets that alone keep an enemy-held city (`fragile`) in supply."""
        m = self.m
        opp = 1 - side
        mine, theirs = pos.arm[side], pos.arm[opp]
        mine_m, theirs_m = masks[side], masks[opp]
        carneia = side == G and self.carneia
        locked = m.sparta if carneia else -1  # (`locked`)
        bridge = pos.bridge
        rkey = (bytes(mine), theirs_m, side, bridge, locked)
        got = m.reaches.get(rkey)
        if got is None:
            if len(m.reaches) > CACHE_MAX:
                m.reaches.clear()
            got = m.reaches[rkey] = _land_reach(m, mine, mine_m, theirs_m, side, bridge, locked)
        reach_t, covered = got
        reach_of: Sequence[int] = reach_t
        if masks[2 + side] & mine_m:  # landings: the two biggest groups fleets can carry
            fl = pos.flt[side]
            their_flt = pos.flt[opp]
            c1 = c2 = f1 = f2 = 0
            o1 = -1
            for o in compress(m.cities, fl):
                if not mine[o] or (carneia and o == locked):
                    continue
                c = min(fl[o], 3, mine[o])
                if c > c1:
                    c2, f2, c1, f1, o1 = c1, f1, c, fl[o], o
                elif c > c2:
                    c2, f2 = c, fl[o]
            if c1:
                reach = list(reach_t)
                reach_of = reach
                for d in m.ports:
                    c, f = (c1, f1) if d != o1 else (c2, f2)
                    if c <= reach[d] or mine[d]:
                        continue
                    ef = their_flt[d]
                    if ef and self._p_sea(side, d, f, ef) < 0.3:
                        continue
                    reach[d] = c
                    covered |= 1 << d
        best = 0.0
        if fragile and masks[2 + side]:
            most = max(pos.flt[side])  # (never in `d`: both sides' fleets in one port)
            their_flt = pos.flt[opp]
            while fragile:
                low = fragile & -fragile
                fragile ^= low
                d = low.bit_length() - 1
                g = self._p_sea(side, d, most, their_flt[d]) * m.pts[d]
                if g > best:
                    best = g
        targets = covered & ~mine_m
        if targets & m.minor_mask & ~theirs_m:  # a city nobody holds, for the taking
            best = max(best, m.minor_top[targets & m.minor_mask & ~theirs_m])
        pts = m.pts
        pwin = self._pwin
        asia = m.asia
        other = m.other_major
        major = m.major
        enemy = targets & (theirs_m | m.major_mask[opp])  # held by the enemy
        while enemy:
            low = enemy & -enemy
            enemy ^= low
            d = low.bit_length() - 1
            e = theirs[d]
            if e:
                p = pwin.get((side, d in asia, reach_of[d], e, LAND))
                if p is None:
                    p = self.p_win(side, d, reach_of[d], e, LAND)
                g = p * 2 * pts[d]
            else:  # an enemy major city left empty
                p = 1.0
                g = 2.0 * pts[d]
            if major[d] == opp and mine[other[d]]:  # both enemy majors: automatic victory
                g += p * AUTO_THREAT
            if g > best:
                best = g
        return best

    def _p_sea(self, att: int, city: int, a: int, d: int) -> float:
        """`p_win` of a naval battle (the same for every seat)."""
        key = (att, city in self.m.asia, a, d)
        got = _P_SEA.get(key)
        if got is None:
            got = _P_SEA[key] = self.p_win(att, city, a, d, SEA)
        return got

    def p_win(self, att: int, city: int, a: int, d: int, kind: int) -> float:
        key = (att, city in self.m.asia, a, d, kind)
        got = self._pwin.get(key)
        if got is None:
            if kind == LAND:
                got = self.land_battle(att, city, a, d)[0]
            else:
                got = self.naval_battle(att, city, a, d)[0]
            self._pwin[key] = got
            self.m.stored += 1
        return got


# -- moves -----------------------------------------------------------------------------------

Move = tuple[int, int, int, int, int]  # mode, origin, count (armies or fleets), carry, dest
BATTLE_FLAGS = frozenset({CAVALRY, GREAT_KING, LEONIDAS, EVANGELION})


def _counts(n: int) -> list[int]:
    """How many armies of a stack of n to move: all, all but one (to hold), or one."""
    return sorted({c for c in (1, n - 1, n) if c >= 1})


class Planner:
    """Enumerates and values whole moves for one seat."""

    def __init__(self, ctx: Ctx, plans: dict[tuple[Any, ...], tuple[float, Move]]) -> None:
        self.ctx = ctx
        self.m = ctx.m
        self.plans = plans  # the best whole move found, per position, for its later steps

    def moves(
        self, side: int, kind: int, flag: int, exclude: int = -1, battles_only: bool = False
    ) -> list[Move]:
        """Candidate whole moves (`battles_only`: land moves into enemy armies)."""
        ctx, m, pos = self.ctx, self.m, self.ctx.pos
        out: list[Move] = []
        rd = roads(m, pos)
        opp = 1 - side
        if kind != FLEETS_ONLY:
            locked = ctx.locked(side)
            for o in range(m.n):
                n = pos.arm[side][o]
                if not n or o == locked or not rd[o]:
                    continue
                dests = land_dests(m, pos, side, o)
                if battles_only:
                    dests = [d for d in dests if pos.arm[opp][d]]
                counts = [1] if flag == LEONIDAS else _counts(n)
                for c in counts:
                    for d in dests:
                        out.append((LAND, o, c, 0, d))
        if kind != LAND_ONLY:
            for o in m.ports:
                f = pos.flt[side][o]
                if not f or o == exclude:
                    continue
                groups = {(f, 0)}
                top = self.max_carry(side, o, f, kind, flag)
                if top:
                    groups.add((f, top))  # (splitting the fleets measured no better)
                for nf, c in groups:
                    for d in m.ports:
                        if d == o:
                            continue
                        if not c and not (
                            pos.flt[opp][d]
                            or m.major[d] == side
                            or (pos.arm[side][d] and not pos.flt[side][d])
                        ):
                            continue  # an empty fleet goes to fight, to supply or home
                        out.append((SEA, o, nf, c, d))
        return out

    def max_carry(self, side: int, origin: int, nf: int, kind: int, flag: int) -> int:
        if kind == FLEETS_ONLY or flag == THEMISTOCLES_MOVE:
            return 0
        if self.ctx.carneia and side == G and origin == self.m.sparta:
            return 0
        return min(nf, 3, self.ctx.pos.arm[side][origin])

    def value(self, mv: Move, side: int, flag: int) -> float:
        mode, o, n, c, d = mv
        pos = self.ctx.pos.copy()
        if mode == LAND:
            pos.arm[side][o] -= n
            return self.land_arrive(pos, side, d, n, flag)
        pos.flt[side][o] -= n
        pos.arm[side][o] -= c
        return self.sea_arrive(pos, side, o, d, n, c)

    def land_arrive(
        self,
        pos: Pos,
        side: int,
        d: int,
        n: int,
        flag: int,
        gdice: int = -1,
        cavalry: bool | None = None,
    ) -> float:
        """The value of `n` armies of `side` arriving by land (or landing) in `d`."""
        ctx = self.ctx
        opp = 1 - side
        e = pos.arm[opp][d]
        if not e:
            pos.arm[side][d] += n
            self._bridge_burnt(pos, side, d)
            return ctx.value(pos)
        if flag == LEONIDAS and gdice < 0:
            gdice = 2
        cav = flag == CAVALRY if cavalry is None else cavalry
        s = ctx.land_battle(side, d, n, e, gdice, cav)
        total = 0.0
        scoring = flag in (GREAT_KING, EVANGELION)
        sgn = 1 if side == P else -1
        # (`pos` is the caller's scratch copy: each outcome is set in it in turn)
        mine, theirs = pos.arm[side], pos.arm[opp]
        if s[0] > 0:
            held, bridge = mine[d], pos.bridge
            theirs[d] = 0
            mine[d] = max(1, round(s[1]))
            self._bridge_burnt(pos, side, d)
            total += s[0] * ctx.value(pos, sgn if scoring else 0)
            mine[d], pos.bridge = held, bridge
        if s[2] > 0:
            theirs[d] = max(1, round(s[3]))
            total += s[2] * ctx.value(pos, -sgn if scoring else 0)
        if s[4] > 0:
            theirs[d] = 0
            delta = 0
            if scoring:  # nobody left: the mover gains a point, and loses one without control
                delta = sgn * (1 - (0 if self.m.major[d] == side else 1))
            total += s[4] * ctx.value(pos, delta)
        return total

    def _bridge_burnt(self, pos: Pos, side: int, d: int) -> None:
        if side == G and pos.bridge and d == self.m.abydos and pos.arm[G][d]:
            pos.bridge = False

    def sea_arrive(self, pos: Pos, side: int, origin: int, d: int, nf: int, c: int) -> float:
        """The value of a naval group (already gone from `origin`) arriving in `d`."""
        ctx = self.ctx
        opp = 1 - side
        ef = pos.flt[opp][d]
        if not ef:
            pos.flt[side][d] += nf
            if c:
                return self.land_arrive(pos, side, d, c, 0)
            self._bridge_burnt(pos, side, d)
            return ctx.value(pos)
        s = ctx.naval_battle(side, d, nf, ef)
        total = 0.0
        # (`pos` is the caller's scratch copy: each outcome is set in it in turn)
        mine, theirs = pos.flt[side], pos.flt[opp]
        if s[0] > 0:
            held = mine[d]
            theirs[d] = 0
            fs = max(1, round(s[1]))
            mine[d] = fs
            carried = min(c, fs)
            if carried:  # (the landing changes the armies in `d` and maybe the bridge)
                arm_s, arm_o, bridge = pos.arm[side][d], pos.arm[opp][d], pos.bridge
                total += s[0] * self.land_arrive(pos, side, d, carried, 0)
                pos.arm[side][d], pos.arm[opp][d], pos.bridge = arm_s, arm_o, bridge
            else:
                total += s[0] * ctx.value(pos)
            mine[d] = held
        if s[2] > 0:
            theirs[d] = max(1, round(s[3]))
            total += s[2] * ctx.value(pos)
        if s[4] > 0:
            theirs[d] = 0
            total += s[4] * ctx.value(pos)
        return total

    def best(
        self,
        side: int,
        kind: int,
        flag: int,
        exclude: int = -1,
        keep: Callable[[Move], bool] | None = None,
    ) -> tuple[float, Move | None]:
        """The best whole move: all ranked without threats, the most promising valued.
        A land move made by an event that changes only its battle (Cavalry, Great King,
        Leonidas, Evangelion) is worth playing as the event only for a battle: without
        one, the card's plain move does the same."""
        ctx = self.ctx
        battles_only = flag in BATTLE_FLAGS and keep is None
        if keep is None:  # the same answer for the same position and knowledge
            bests = self.m.bests
            # (who moves next and the cards held count through the threats' weights)
            key = (side, kind, flag, exclude, *ctx.pos.key(), *ctx.static_key, *ctx._weights)
            got = bests.get(key)
            if got is not None:
                if got[1] is not None:
                    self.plans[self.plan_key(side, kind, flag, exclude)] = got
                return got
            if len(bests) > CACHE_MAX:
                bests.clear()
            shortlists = self.m.shortlists
            skey = key[:-2]
            short = shortlists.get(skey)
            if short is None:
                short = self._shortlist(
                    self.moves(side, kind, flag, exclude, battles_only), side, flag
                )
                if len(shortlists) > CACHE_MAX:
                    shortlists.clear()
                shortlists[skey] = short
            moves = short
        else:
            moves = self._shortlist(
                [mv for mv in self.moves(side, kind, flag, exclude, False) if keep(mv)], side, flag
            )
        best_v, best_m = -math.inf, None
        for mv in moves:
            val = self.value(mv, side, flag)
            if val > best_v + 1e-9:
                best_v, best_m = val, mv
        if keep is None:
            bests[key] = (best_v, best_m)
            if best_m is not None:
                self.plans[self.plan_key(side, kind, flag, exclude)] = (best_v, best_m)
        return best_v, best_m

    def _shortlist(self, moves: list[Move], side: int, flag: int) -> tuple[Move, ...]:
        """The moves worth valuing in full: all of few, else the best ranked without
        the threats."""
        if len(moves) > SHORTLIST:
            self.ctx.lite = True
            ranked = sorted(moves, key=lambda mv: -self.value(mv, side, flag))
            self.ctx.lite = False
            moves = ranked[:SHORTLIST]
        return tuple(moves)  # (a tuple: the cache holds no lists for the collector)

    def plan_key(self, side: int, kind: int, flag: int, exclude: int) -> tuple[Any, ...]:
        return (side, kind, flag, exclude, *self.ctx.pos.key())


# -- the agent -------------------------------------------------------------------------------

_MAPS: dict[str, Map] = {}


def _map(game: Any) -> Map:
    key = str(game.components_digest)
    m = _MAPS.get(key)
    if m is None:
        m = _MAPS[key] = Map(game.components)
    return m


EVAL_SCALE = 1.5  # score points that move the estimated chance of winning from 50% to 73%


def evaluate(game: Any, state: Any) -> tuple[float, float]:
    """Each side's estimated chance of winning `state`, for a search that stops before the
    end: the static value above (projected Scoring, pieces; no threats) seen from the
    spectator's view, through a logistic curve. It reads no hidden card."""
    ctx = Ctx(_map(game), game.view(state, None), P)
    ctx.lite = True
    p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, ctx.value(ctx.pos) / EVAL_SCALE))))
    return (p, 1.0 - p)


class Heuristic:
    """A rule-based agent for Persia or Greece (`--agent heuristic`)."""

    name = "heuristic"

    def __init__(self, **params: Any) -> None:
        if params:
            raise ValueError(f"the heuristic agent takes no parameters, not {sorted(params)}")
        self._plans: dict[tuple[Any, ...], tuple[float, Move]] = {}

    def act(self, game: Any, state: Any, rng: random.Random) -> Any:
        """One of `game.legal(state)`, chosen from the view of the seat to act (the agent
        is deterministic: `rng` is not needed)."""
        seat = game.to_act(state)
        legal = game.legal(state)
        if len(legal) == 1:
            return legal[0]
        v = game.view(state, seat)
        texts = {game.format(a): a for a in legal}
        ctx = Ctx(_map(game), v, seat)
        if len(self._plans) > 64:
            self._plans.clear()
        handler = getattr(self, "_" + str(v["phase"]).replace("-", "_"), None)
        choice = handler(ctx, texts) if handler is not None else None
        if choice is None or choice not in texts:  # (never seen: a safety net)
            return legal[0]
        return texts[choice]

    # -- Preparation

    def _prep_buy(self, ctx: Ctx, texts: dict[str, Any]) -> str:
        talents = ctx.v["talents"] or 0
        most = max(int(t.split()[1]) for t in texts)
        if ctx.me == P:
            want = P_CARDS
            if self._wants_bridge(ctx):
                want = min(P_CARDS_BRIDGE, talents - 6)
        else:
            hand = len(ctx.hand)
            want = max(1, min(G_CARDS_MAX, G_HAND_TARGET - hand))
            want = min(want, talents - G_FORCES)
        return f"buy {max(0, min(want, most))}"

    def _wants_bridge(self, ctx: Ctx) -> bool:
        """The bridge (6 talents) when the road it opens is worth that much now: armies
        in Thrace or Macedonia to supply or to reach by land. (A bridge built early, as
        a matter of course, measured worse than fleets and cards.)"""
        pos = ctx.pos
        if (
            pos.bridge
            or ctx.campaign > BRIDGE_UNTIL
            or (ctx.v["talents"] or 0) < 6
            or not ctrl(ctx.m, pos.arm, P, ctx.m.abydos)
        ):
            return False
        self._expect_preparation(ctx)
        bridged = pos.copy()
        bridged.bridge = True
        return ctx.value(bridged) - ctx.value(pos) >= BRIDGE_GAIN

    def _expect_preparation(self, ctx: Ctx) -> None:
        # Persia opens the Operations, and both will hold cards.
        ctx.expect(P, [max(c, 3) for c in ctx.counts])

    def _prep_build(self, ctx: Ctx, texts: dict[str, Any]) -> str:
        if "bridge" in texts and ctx.me == P and self._wants_bridge(ctx):
            return "bridge"
        self._expect_preparation(ctx)
        base = ctx.value(ctx.pos)
        best, best_gain = "done", -math.inf
        m = ctx.m
        fleet_price = 2 if ctx.me == P else 1
        for t in texts:
            verb, _, name = t.partition(" ")
            if verb not in ("army", "fleet"):
                continue
            x = m.city[name]
            pos = ctx.pos.copy()
            if verb == "army":
                pos.arm[ctx.me][x] += 1
                pos.res[ctx.me] -= 1
                price = 1
            else:
                pos.flt[ctx.me][x] += 1
                pos.resf[ctx.me] -= 1
                price = fleet_price
            gain = (ctx.value(pos) - base) / price
            if gain > best_gain + 1e-9:
                best, best_gain = t, gain
        return best

    # -- Operations

    def _operations(self, ctx: Ctx, texts: dict[str, Any]) -> str:
        me = ctx.me
        after = list(ctx.counts)
        after[me] -= 1  # a card played
        ctx.expect(ctx.opp if ctx.counts[ctx.opp] else me, after)
        plan = Planner(ctx, self._plans)
        base = ctx.value(ctx.pos)
        move_value = -math.inf
        if any(t.startswith("move ") for t in texts):
            move_value = plan.best(me, 0, 0)[0]
        options: list[tuple[float, str]] = []
        events: dict[int, float] = {}
        for t in texts:
            verb, _, arg = t.partition(" ")
            if verb == "event":
                k = int(arg)
                events[k] = self._event_value(ctx, plan, k)
        for t in texts:
            verb, _, arg = t.partition(" ")
            if verb not in ("event", "move"):
                continue
            k = int(arg)
            gain = (events[k] if verb == "event" else move_value) - base
            options.append(
                (gain - self._hold_value(ctx, k, max(0.0, events.get(k, base) - base)), t)
            )
        if not options:
            return "pass"
        options.sort(key=lambda o: -o[0])
        gain, best = options[0]
        threshold = P_PASS if me == P else G_PASS
        if ctx.campaign == 5:
            threshold = min(threshold, 0.02)
        return best if gain > threshold else "pass"

    def _hold_value(self, ctx: Ctx, k: int, event_gain: float) -> float:
        """What keeping card `k` is worth (given its event's gain now)."""
        if ctx.me == P:
            hold = P_HOLD * event_gain
            if k == 5 and ctx.kings < 2:
                hold += 0.35
            return hold
        keep = GREEK_KEEP.get(k, 0.3)
        once = GREEK_ONCE.get(k)
        if once is not None and once in ctx.once_used:
            keep = 0.25
        if k in SPARTA_CARDS and ctx.carneia and k in GREEK_REACTIONS:
            keep *= 0.6
        if ctx.campaign == 5 and k not in GREEK_REACTIONS:
            keep = 0.0
        return max(keep * G_HOLD, 0.6 * event_gain)

    def _event_value(self, ctx: Ctx, plan: Planner, k: int) -> float:
        """The expected value of playing card `k`'s event now."""
        m, pos = ctx.m, ctx.pos
        base = ctx.value(pos)
        if ctx.me == P:
            if k == 1:
                return plan.best(P, LAND_ONLY, CAVALRY)[0]
            if k == 7:
                return plan.best(P, LAND_ONLY, GREAT_KING)[0]
            if k in TRIBUTE:
                best = -math.inf
                for x in range(m.n):
                    if ctrl(m, pos.arm, P, x) or ctrl(m, pos.arm, G, x):
                        continue
                    p2 = pos.copy()
                    p2.arm[P][x] += 1
                    p2.res[P] -= 1
                    val = ctx.value(p2)
                    best = max(best, val - 0.6 * ctx.p_holds(12) * (val - base))
                return best
            greek_hand: int = ctx.counts[G]
            if k == 4:  # Carneia Festival
                spartans = pos.arm[G][m.sparta]
                return base + (0.25 + 0.12 * min(spartans, 3) if greek_hand else 0.1)
            if k == 6:
                return base + (0.45 if greek_hand else -1)
            if k == 9:
                return base + (0.7 if greek_hand else -1)
            if k == 10:
                return base + 0.2 * min(greek_hand, 3) * 0.4
            if k == 8:
                best = -math.inf
                for x in m.majors[P]:
                    p2 = pos.copy()
                    if p2.arm[G][x]:
                        p2.res[G] += p2.arm[G][x]
                        p2.arm[G][x] = 0
                    else:
                        n = min(3, p2.res[P])
                        if not n:
                            continue
                        p2.arm[P][x] += n
                        p2.res[P] -= n
                    best = max(best, ctx.value(p2))
                return best
            if k == 12:
                th = m.thebai
                p2 = pos.copy()
                if p2.arm[G][th]:
                    refuge = m.athenai if ctrl(m, p2.arm, G, m.athenai) else m.sparta
                    p2.arm[G][refuge] += p2.arm[G][th]
                    p2.arm[G][th] = 0
                if p2.res[P]:
                    p2.arm[P][th] += 1
                    p2.res[P] -= 1
                return ctx.value(p2)
            if k == 15:
                p2 = pos.copy()
                p2.acro = True
                return ctx.value(p2) + 0.4
            if k == 16:
                return base + 0.15
            return -math.inf
        # Greece
        if k == 1:
            return base + (1.6 if ctx.campaign < 5 else 1.0)
        if k == 2:  # Ionian Revolt: a Persian army leaves Abydos or Ephesos
            return _best_removal(ctx, pos, "arm", m.majors[P])
        if k == 3:  # Wrath of Poseidon: a Persian fleet
            return _best_removal(ctx, pos, "flt", m.ports)
        if k == 16:  # Desertion: a Persian army anywhere
            return _best_removal(ctx, pos, "arm", range(m.n))
        if k == 7:
            rest = [c for c in ctx.hand if c != 7]
            worth = sum(self._hold_value(ctx, c, 0.0) for c in rest)
            return base + 0.5 * (len(rest) + 1) - worth
        if k == 8:
            return plan.best(G, LAND_ONLY, LEONIDAS)[0] - 0.4
        if k == 10:
            return plan.best(G, LAND_ONLY, EVANGELION)[0]
        if k == 11:
            p2 = pos.copy()
            p2.arm[G][m.sparta] += 1
            return ctx.value(p2)
        if k == 13:
            return max(base, plan.best(G, FLEETS_ONLY, 0)[0]) + 0.05
        if k == 14:
            return base + 0.28 * pos.resf[G]
        return -math.inf

    # -- the steps of a move

    def _move(self, ctx: Ctx, texts: dict[str, Any]) -> str | None:
        mv = _move_list(ctx.v, ctx.m)
        if not mv:
            return None
        side = ctx.me
        kind, flag, exclude = mv[MV_KIND], mv[FLAG], mv[EXCLUDE]
        ctx.expect(ctx.opp if ctx.counts[ctx.opp] else side, list(ctx.counts))
        plan = Planner(ctx, self._plans)
        phase = ctx.phase
        if flag == THEMISTOCLES_MOVE:
            return self._themistocles_move(ctx, texts, mv)

        def fits(x: Move) -> bool:
            if phase == "move-origin":
                return True
            if x[0] != mv[MODE] or x[1] != mv[ORIGIN]:
                return False
            if phase in ("move-carry", "move-destination"):
                if flag == LEONIDAS and x[0] == LAND:
                    return x[2] == 1
                if x[2] != mv[COUNT]:
                    return False
            return not (phase == "move-destination" and x[0] == SEA and x[3] != mv[CARRY])

        cached = self._plans.get(plan.plan_key(side, kind, flag, exclude))
        best: Move | None
        if cached is not None and fits(cached[1]):
            val, best = cached
        else:
            val, best = plan.best(side, kind, flag, exclude, fits)
            if best is not None and phase == "move-origin":
                self._plans[plan.plan_key(side, kind, flag, exclude)] = (val, best)
        if "skip" in texts:
            ctx_val = ctx.value(ctx.pos)
            if best is None or val <= ctx_val:
                return "skip"
        if best is None:
            return None
        mode, o, n, c, d = best
        name = ctx.m.names
        if phase == "move-origin":
            return f"{'land' if mode == LAND else 'sea'} {name[o]}"
        if phase == "move-count":
            if mode == LAND:
                return f"armies {n}"
            return f"fleets {n}"
        if phase == "move-carry":
            return f"carry {c}"
        return f"to {name[d]}"

    _move_origin = _move
    _move_count = _move
    _move_carry = _move
    _move_destination = _move

    def _themistocles_move(self, ctx: Ctx, texts: dict[str, Any], mv: list[int]) -> str | None:
        """Greek fleets join the defence of the Persian destination: the biggest group."""
        m, pos = ctx.m, ctx.pos
        dest = mv[EXCLUDE]
        phase = ctx.phase
        if phase == "move-origin":
            best = max(
                (x for x in m.ports if pos.flt[G][x] and x != dest),
                key=lambda x: pos.flt[G][x],
                default=None,
            )
            return None if best is None else f"sea {m.names[best]}"
        if phase == "move-count":
            return f"fleets {pos.flt[G][mv[ORIGIN]]}"
        return f"to {m.names[dest]}"

    # -- reactions

    def _reaction(self, ctx: Ctx, texts: dict[str, Any]) -> str:
        w = ctx.v["window"]
        reacts = [t for t in texts if t.startswith("react")]
        if not reacts:
            return "decline"
        if w in (W_ARTEMISIA, W_MOLON):
            return reacts[0]
        bt = _battle_list(ctx.v, ctx.m)
        pos, m = ctx.pos, ctx.m
        ctx.expect(ctx.opp, list(ctx.counts))
        plan = Planner(ctx, self._plans)
        if w == W_IMMORTALS and bt:
            city = bt[CITY]
            n = min(3, bt[PSTART], pos.res[P])
            if n <= 0:
                return "decline"
            g = pos.arm[G][city]
            now = ctx.value(pos)
            cap = 6 if bt[CAV] else (5 if city in m.asia else 4)
            s = battle(n, g, True, bt[GDICE], cap)
            if bt[ATT] == G:  # Persia defends: the Greeks attack the restored armies
                s = battle(g, n, False, bt[GDICE], cap)
                s = (s[2], s[3], s[0], s[1], s[4])
            w_pos = pos.copy()
            w_pos.arm[G][city] = 0
            w_pos.arm[P][city] = max(1, round(s[1]))
            later = s[0] * ctx.value(w_pos) + (1 - s[0]) * now
            return "react 5" if later - now > 0.3 else "decline"
        if w in (W_PRE_PERSIAN_LAND, W_GREEK_LAND) and bt:
            return self._battle_reaction(ctx, texts, bt)
        if w == W_PERSIAN_NAVAL and "react 5" in texts:
            return self._themistocles(ctx, plan)
        return "decline"

    def _battle_reaction(self, ctx: Ctx, texts: dict[str, Any], bt: list[int]) -> str:
        """Miltiades, 300 Spartans, Pausanias: the best odds for what they cost."""
        city, att = bt[CITY], bt[ATT]
        pos, m = ctx.pos, ctx.m
        a, d = pos.arm[att][city], pos.arm[1 - att][city]
        cav = bool(bt[CAV])
        cap = 6 if cav else (5 if city in m.asia else 4)
        gd = bt[GDICE]
        late = ctx.campaign < 5

        def worth(gdice: int, capx: int) -> float:
            return self._battle_end_value(ctx, pos, city, att, battle(a, d, att == P, gdice, capx))

        options = {"decline": worth(gd, cap)}
        if "react 4" in texts:
            options["react 4"] = worth(3, cap) - (0.9 if late else 0.45)
        if "react 15" in texts:
            options["react 15"] = worth(3, cap) - (0.6 if late else 0.05)
        if "react 6" in texts and cav:
            options["react 6"] = worth(gd, 5 if city in m.asia else 4) - (0.2 if late else 0.0)
        return max(options, key=lambda t: options[t])

    def _themistocles(self, ctx: Ctx, plan: Planner) -> str:
        mv = _move_list(ctx.v, ctx.m)
        if not mv:
            return "decline"
        pos, m = ctx.pos, ctx.m
        dest, nf, c = mv[DEST], mv[COUNT], mv[CARRY]
        origin = mv[ORIGIN]
        now = plan.sea_arrive(pos.copy(), P, origin, dest, nf, c)
        src = max(
            (x for x in m.ports if pos.flt[G][x] and x != dest),
            key=lambda x: pos.flt[G][x],
            default=None,
        )
        if src is None:
            return "decline"
        p2 = pos.copy()
        p2.flt[G][dest] += p2.flt[G][src]
        p2.flt[G][src] = 0
        later = plan.sea_arrive(p2, P, origin, dest, nf, c) - 0.5
        return "react 5" if later > now + 0.2 else "decline"

    # -- battles

    def _battle(self, ctx: Ctx, texts: dict[str, Any]) -> str:
        bt = _battle_list(ctx.v, ctx.m)
        if not bt:
            return "continue"
        me = ctx.me
        pos, m = ctx.pos, ctx.m
        city, att, kind = bt[CITY], bt[ATT], bt[KIND]
        ctx.expect(G if ctx.v["active"] == "persia" else P, list(ctx.counts))
        plan = Planner(ctx, self._plans)
        options: dict[str, float] = {}
        if kind == LAND:
            a = pos.arm[att][city]
            d = pos.arm[1 - att][city]
            p2 = pos.copy()
            p2.arm[att][city] = 0
            if att == me:
                options["continue"] = plan.land_arrive(
                    p2, att, city, a, 0, gdice=bt[GDICE], cavalry=bool(bt[CAV])
                )
            else:
                cap = 6 if bt[CAV] else (5 if city in m.asia else 4)
                s = battle(a, d, att == P, bt[GDICE], cap)
                options["continue"] = self._battle_end_value(ctx, pos, city, att, s)
        else:
            a = pos.flt[att][city]
            carried = bt[BT_CARRY]
            p2 = pos.copy()
            p2.flt[att][city] = 0
            options["continue"] = plan.sea_arrive(p2, att, bt[FROM], city, a, carried)
        for t in texts:
            if not t.startswith("retreat"):
                continue
            by_sea = t.startswith("retreat by sea ")
            name = t.removeprefix("retreat by sea ").removeprefix("retreat ")
            to = m.city[name]
            q = pos.copy()
            if kind == LAND:  # (after a naval battle the armies ashore stay)
                q.arm[me][to] += q.arm[me][city]
                q.arm[me][city] = 0
            if by_sea:
                q.flt[me][to] += q.flt[me][city]
                q.flt[me][city] = 0
            if me == att and kind == SEA:
                q.arm[me][to] += bt[BT_CARRY]
            options[t] = ctx.value(q)
        return max(options, key=lambda t: options[t])

    def _battle_end_value(
        self, ctx: Ctx, pos: Pos, city: int, att: int, s: tuple[float, ...]
    ) -> float:
        """The expected value of how the land battle in `city` ends (summary `s`)."""
        total = 0.0
        dfd = 1 - att
        if s[0] > 0:
            q = pos.copy()
            q.arm[dfd][city] = 0
            q.arm[att][city] = max(1, round(s[1]))
            total += s[0] * ctx.value(q)
        if s[2] > 0:
            q = pos.copy()
            q.arm[att][city] = 0
            q.arm[dfd][city] = max(1, round(s[3]))
            total += s[2] * ctx.value(q)
        if s[4] > 0:
            q = pos.copy()
            q.arm[att][city] = q.arm[dfd][city] = 0
            total += s[4] * ctx.value(q)
        return total

    # -- the bridge, event choices, supply

    def _bridge(self, ctx: Ctx, texts: dict[str, Any]) -> str:
        return "destroy bridge"

    def _choose(self, ctx: Ctx, texts: dict[str, Any]) -> str | None:
        m, pos = ctx.m, ctx.pos
        top = ctx.discard[-1] if ctx.discard else 0
        ctx.expect(ctx.opp, list(ctx.counts))
        verbs = {t.partition(" ")[0] for t in texts}
        if "pick" in verbs:  # Hippias: the Greek card Persia fears most
            return max(
                (t for t in texts if t.startswith("pick")),
                key=lambda t: self._greek_card_worth(ctx, int(t.split()[1])),
            )
        if "count" in verbs:
            return max(texts, key=lambda t: int(t.split()[1]) if t.startswith("count") else -1)
        if "discard" in verbs or "done" in verbs:  # Pacification
            weak = {14, 11, 6, 10} | ({5} if ctx.kings >= 2 else set())  # dead or feeble
            for t in sorted(texts):
                if t.startswith("discard") and int(t.split()[1]) in weak:
                    return t
            return "done"

        def scored(t: str) -> float:
            verb, _, name = t.partition(" ")
            x = m.city[name]
            q = pos.copy()
            me = ctx.me
            if verb == "remove":
                if me == P or top in (4, 5, 8):  # a leader's or king's army to a portrait
                    q.arm[me][x] -= 1
                elif top == 3:
                    q.flt[P][x] -= 1
                else:
                    q.arm[P][x] -= 1
            elif me == P:
                if top == 8 and q.arm[G][x]:
                    q.arm[G][x] = 0
                else:
                    q.arm[P][x] += 3 if top == 8 else 1
            elif top == 14:
                q.flt[G][x] += 1
            else:  # Defection of Thebes: the Greeks leave Thebai
                q.arm[G][x] += q.arm[G][m.thebai]
                q.arm[G][m.thebai] = 0
                q.arm[P][m.thebai] += 1
            return ctx.value(q)

        cands = [t for t in texts if t.partition(" ")[0] in ("remove", "place")]
        if not cands:
            return None
        return max(cands, key=scored)

    def _greek_card_worth(self, ctx: Ctx, k: int) -> float:
        once = GREEK_ONCE.get(k)
        if once is not None and once in ctx.once_used:
            return 0.2
        if k in SPARTA_CARDS and ctx.carneia:
            return GREEK_KEEP[k] * 0.7
        return GREEK_KEEP.get(k, 0.3)

    def _supply_keep(self, ctx: Ctx, texts: dict[str, Any]) -> str:
        if ctx.me == P:  # a kept card costs 2 talents of the next budget: only a strong one
            kept = [t for t in texts if t != "keep none"]
            best = max(kept, key=lambda t: PERSIAN_KEEP.get(int(t.split()[1]), 0.0), default="")
            if best and PERSIAN_KEEP.get(int(best.split()[1]), 0.0) >= P_KEEP_MIN:
                return best
            return "keep none"
        return min(
            (t for t in texts if t.startswith("discard")),
            key=lambda t: self._greek_card_worth(ctx, int(t.split()[1])),
        )

    def _supply_remove(self, ctx: Ctx, texts: dict[str, Any]) -> str:
        m, pos = ctx.m, ctx.pos
        ctx.expect(ctx.opp, [0, 0])
        me = ctx.me

        def scored(t: str) -> float:
            x = m.city[t.partition(" ")[2]]
            q = pos.copy()
            q.arm[me][x] -= 1
            return ctx.value(q) + 0.01 * pos.arm[me][x]

        return max(texts, key=scored)
