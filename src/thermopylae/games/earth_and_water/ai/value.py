"""How the heuristic values a position, from what its seat knows (`Ctx`).

The value is in score points, seen from Persia and signed for the seat: the projected
Scoring (`reach.project`) added to the score track and bent towards its sign as the last
campaign nears, automatic victories as a large win or loss, the pieces on the map, and
the best single attack each side could make next, weighted by who moves next and whether
it still holds cards. Values are cached by position and by what the seat knows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import compress
from operator import itemgetter
from typing import Any

from thermopylae.engine.protocol import JSON
from thermopylae.games.earth_and_water.ai.odds import battle, mix, sea_win
from thermopylae.games.earth_and_water.ai.reach import (
    CACHE_MAX,
    Map,
    Pos,
    land_reach,
    project,
    units_of,
)
from thermopylae.games.earth_and_water.state import (
    GREECE,
    LAND,
    PERSIA,
)

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
# (reading the view's cities: the units by kind, then by side)
_ARMIES, _FLEETS = itemgetter("armies"), itemgetter("fleets")
_PERSIA, _GREECE = itemgetter("persia"), itemgetter("greece")


def position_summary(
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
    ap, _ = units_of(units[:n])
    ag, sum_ag = units_of(units[n : 2 * n])
    fp, sum_fp = units_of(units[2 * n : 3 * n])
    fg, sum_fg = units_of(units[3 * n : 4 * n])
    masks = (ap, ag, fp, fg)
    pp, gp, auto, fed, fragile = project(m, pos, masks)
    aby, eph = m.majors[PERSIA]
    pieces = (
        ARMY[PERSIA] * (arm[PERSIA][aby] + arm[PERSIA][eph] + fed)
        + FLEET[PERSIA] * sum_fp
        - ARMY[GREECE] * sum_ag
        - FLEET[GREECE] * sum_fg
    )
    return pp, gp, auto, pieces, masks, fragile


class Ctx:
    """What this seat knows, and how it values positions."""

    def __init__(self, m: Map, v: JSON, seat: int) -> None:
        self.m = m
        self.v = v
        self.me = seat
        self.opp = 1 - seat
        self.sign = 1.0 if seat == PERSIA else -1.0
        self.campaign: int = v["campaign"]
        self.score: int = v["score"]
        cities = v["cities"]
        armies, fleets = list(map(_ARMIES, cities)), list(map(_FLEETS, cities))
        arm = [list(map(_PERSIA, armies)), list(map(_GREECE, armies))]
        flt = [list(map(_PERSIA, fleets)), list(map(_GREECE, fleets))]
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
        self._weights = (self._threat_weight(PERSIA), self._threat_weight(GREECE))
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
        self._gains_p: dict[bytes, float] = m.table(("gain", PERSIA, self.q_defence))
        self._gains_g: dict[bytes, float] = m.table(("gain", GREECE, gdice, self.carneia))

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
        if self.me == GREECE:
            return 1.0 if any(k in self.hand for k in cards) else 0.0
        q = 1.0
        for k in cards:
            q *= 1 - self.p_holds(k)
        return 1 - q

    def greek_attack_dice(self) -> int:
        """Greek dice when Greece (this seat) attacks by land: Miltiades if held."""
        if self.me == GREECE and 4 in self.hand and "Miltiades" not in self.once_used:
            return 3
        return 0

    def locked(self, side: int) -> int:
        return self.m.sparta if (self.carneia and side == GREECE) else -1

    # -- battles as positions

    def land_battle(
        self, att: int, city: int, a: int, d: int, gdice: int = -1, cavalry: bool = False
    ) -> tuple[float, ...]:
        """Summary of a land battle; gdice -1: Greek reactions as this seat expects them."""
        cap = 6 if cavalry else (5 if city in self.m.asia else 4)
        if gdice >= 0:
            return battle(a, d, att == PERSIA, gdice, cap)
        if att == GREECE:
            return battle(a, d, False, self.greek_attack_dice() if self.me == GREECE else 0, cap)
        base = battle(a, d, True, 0, cap)
        return mix(base, battle(a, d, True, 3, cap), self.q_defence)

    def naval_battle(self, att: int, city: int, a: int, d: int) -> tuple[float, ...]:
        return battle(a, d, att == PERSIA, 0, 5 if city in self.m.asia else 4)

    # -- valuing positions

    def expect(self, next_side: int, cards_after: list[int]) -> None:
        """Who is expected to move after the decision being valued, and how many cards
        each side will then hold (they weigh the threats)."""
        self.next_side = next_side
        self.cards_after = cards_after
        self._weights = (self._threat_weight(PERSIA), self._threat_weight(GREECE))
        self._cache = self.m.table(("full", *self.static_key, *self._weights))

    def util(self, total: float) -> float:
        t = max(-6.0, min(6.0, total))
        return t + self.pull * math.tanh(0.8 * t) if self.pull else t

    def value(self, pos: Pos, delta: int = 0) -> float:
        """This seat's value of `pos` (`delta`: score points already added by an event)."""
        arm, flt = pos.arm, pos.flt
        # (keys of bytes: the caches then hold few objects for the garbage collector) the
        # armies and fleets per city, the bridge, the Acropolis, the score delta (mod 256)
        key = bytes([*arm[0], *arm[1], *flt[0], *flt[1], pos.bridge, pos.acro, delta & 255])
        lite = self.lite
        if not lite:
            full = self._cache.get(key)
            if full is not None:
                return full
        val = self._static.get(key)
        if val is not None and lite:
            return val
        # the position's summary, through a cache shared by every decision
        m = self.m
        pkey = key[:-1]  # (without `delta`)
        summary = m.statics.get(pkey)
        if summary is None:
            if len(m.statics) > CACHE_MAX:
                m.statics.clear()
            summary = m.statics[pkey] = position_summary(m, pos, pkey)
        if val is None:
            val = self._static[key] = self._static_value(summary, delta)
            m.stored += 1
            if lite:
                return val
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
                    g = self._gains_p[gkey] = self.best_gain(pos, PERSIA, masks, fragile[GREECE])
                    m.stored += 1
                threats += wp * g
            if wg > 0:
                g = self._gains_g.get(gkey)
                if g is None:
                    g = self._gains_g[gkey] = self.best_gain(pos, GREECE, masks, fragile[PERSIA])
                    m.stored += 1
                threats += -wg * g
        full = self._cache[key] = val + threats * self.sign
        m.stored += 1
        return full

    def _static_value(self, summary: tuple[Any, ...], delta: int) -> float:
        """The value without the threats (this seat's), from the position's summary."""
        pp, gp, auto, pieces, _, _ = summary
        if auto == PERSIA:
            val = WIN
        elif auto == GREECE:
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
        carneia = side == GREECE and self.carneia
        locked = m.sparta if carneia else -1  # (`locked`)
        bridge = pos.bridge
        rkey = (bytes(mine), theirs_m, side, bridge, locked)
        got = m.reaches.get(rkey)
        if got is None:
            if len(m.reaches) > CACHE_MAX:
                m.reaches.clear()
            got = m.reaches[rkey] = land_reach(m, mine, mine_m, theirs_m, side, bridge, locked)
        reach_t, covered = got
        reach_of: Sequence[int] = reach_t
        persian, asia = side == PERSIA, m.asia  # (for the naval odds, `sea_win`)
        if masks[2 + side] & mine_m:  # landings: the two biggest groups fleets can carry
            fl = pos.flt[side]
            their_flt = pos.flt[opp]
            c1 = c2 = f1 = f2 = 0
            o1 = -1
            for o in compress(m.cities, fl):
                a = mine[o]
                if not a or (carneia and o == locked):
                    continue
                c = fl[o] if fl[o] < a else a  # (min(fl[o], 3, a), without the call)
                if c > 3:
                    c = 3
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
                    if ef and sea_win(persian, d in asia, f, ef) < 0.3:
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
                g = sea_win(persian, d in asia, most, their_flt[d]) * m.pts[d]
                if g > best:
                    best = g
        targets = covered & ~mine_m
        if targets & m.minor_mask & ~theirs_m:  # a city nobody holds, for the taking
            best = max(best, m.minor_top[targets & m.minor_mask & ~theirs_m])
        pts = m.pts
        pwin = self._pwin
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
