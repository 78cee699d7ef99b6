"""What the heuristic makes of a card: the value of playing its event now, of holding it,
and of keeping it for the next campaign.

An event's value is estimated on the heuristic's own position (`Pos`) with its likely
best choice, not played through the rules' own card functions (cards.py, reactions.py):
those work on the whole `State`, one choice, reaction and chance node at a time, where a
valuation needs the few positions an event can lead to at once.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from thermopylae.games.earth_and_water import board
from thermopylae.games.earth_and_water.ai.plan import Planner
from thermopylae.games.earth_and_water.ai.reach import Pos
from thermopylae.games.earth_and_water.ai.value import Ctx
from thermopylae.games.earth_and_water.cards import SPARTA_CARDS
from thermopylae.games.earth_and_water.state import (
    CAVALRY,
    EVANGELION,
    FLEETS_ONLY,
    GREAT_KING,
    GREECE,
    LAND_ONLY,
    LEONIDAS,
    PERSIA,
)

# Holding and keeping cards.
P_HOLD = 0.45  # share of a card's event value Persia gives up to play it otherwise
G_HOLD = 1.2  # how much Greece values holding a card over playing it
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
GREEK_ONCE = {4: "Miltiades", 5: "Themistocles", 8: "Leonidas", 9: "Artemisia I"}
GREEK_REACTIONS = frozenset({4, 5, 6, 9, 12, 15})
TRIBUTE = frozenset({2, 3, 13})


def _best_removal(ctx: Ctx, pos: Pos, units: str, cities: Iterable[int]) -> float:
    """The best position value after removing one Persian army (`arm`) or fleet (`flt`)
    from one of `cities` (-inf when there is none to remove)."""
    best = -math.inf
    for x in cities:
        if getattr(pos, units)[PERSIA][x]:
            p2 = pos.copy()
            getattr(p2, units)[PERSIA][x] -= 1
            best = max(best, ctx.value(p2))
    return best


def hold_value(ctx: Ctx, k: int, event_gain: float) -> float:
    """What keeping card `k` is worth (given its event's gain now)."""
    if ctx.me == PERSIA:
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


def event_value(ctx: Ctx, plan: Planner, k: int) -> float:
    """The expected value of playing card `k`'s event now."""
    m, pos = ctx.m, ctx.pos
    base = ctx.value(pos)
    if ctx.me == PERSIA:
        if k == 1:
            return plan.best(PERSIA, LAND_ONLY, CAVALRY)[0]
        if k == 7:
            return plan.best(PERSIA, LAND_ONLY, GREAT_KING)[0]
        if k in TRIBUTE:
            best = -math.inf
            for x in range(m.n):
                if board.controls(m.c, pos, PERSIA, x) or board.controls(m.c, pos, GREECE, x):
                    continue
                p2 = pos.copy()
                p2.arm[PERSIA][x] += 1
                p2.res[PERSIA] -= 1
                val = ctx.value(p2)
                best = max(best, val - 0.6 * ctx.p_holds(12) * (val - base))
            return best
        greek_hand: int = ctx.counts[GREECE]
        if k == 4:  # Carneia Festival
            spartans = pos.arm[GREECE][m.sparta]
            return base + (0.25 + 0.12 * min(spartans, 3) if greek_hand else 0.1)
        if k == 6:
            return base + (0.45 if greek_hand else -1)
        if k == 9:
            return base + (0.7 if greek_hand else -1)
        if k == 10:
            return base + 0.2 * min(greek_hand, 3) * 0.4
        if k == 8:
            best = -math.inf
            for x in m.majors[PERSIA]:
                p2 = pos.copy()
                if p2.arm[GREECE][x]:
                    p2.res[GREECE] += p2.arm[GREECE][x]
                    p2.arm[GREECE][x] = 0
                else:
                    n = min(3, p2.res[PERSIA])
                    if not n:
                        continue
                    p2.arm[PERSIA][x] += n
                    p2.res[PERSIA] -= n
                best = max(best, ctx.value(p2))
            return best
        if k == 12:
            th = m.thebai
            p2 = pos.copy()
            if p2.arm[GREECE][th]:
                refuge = m.athenai if board.controls(m.c, p2, GREECE, m.athenai) else m.sparta
                p2.arm[GREECE][refuge] += p2.arm[GREECE][th]
                p2.arm[GREECE][th] = 0
            if p2.res[PERSIA]:
                p2.arm[PERSIA][th] += 1
                p2.res[PERSIA] -= 1
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
        return _best_removal(ctx, pos, "arm", m.majors[PERSIA])
    if k == 3:  # Wrath of Poseidon: a Persian fleet
        return _best_removal(ctx, pos, "flt", m.ports)
    if k == 16:  # Desertion: a Persian army anywhere
        return _best_removal(ctx, pos, "arm", range(m.n))
    if k == 7:
        rest = [c for c in ctx.hand if c != 7]
        worth = sum(hold_value(ctx, c, 0.0) for c in rest)
        return base + 0.5 * (len(rest) + 1) - worth
    if k == 8:
        return plan.best(GREECE, LAND_ONLY, LEONIDAS)[0] - 0.4
    if k == 10:
        return plan.best(GREECE, LAND_ONLY, EVANGELION)[0]
    if k == 11:
        p2 = pos.copy()
        p2.arm[GREECE][m.sparta] += 1
        return ctx.value(p2)
    if k == 13:
        return max(base, plan.best(GREECE, FLEETS_ONLY, 0)[0]) + 0.05
    if k == 14:
        return base + 0.28 * pos.resf[GREECE]
    return -math.inf


def greek_card_worth(ctx: Ctx, k: int) -> float:
    once = GREEK_ONCE.get(k)
    if once is not None and once in ctx.once_used:
        return 0.2
    if k in SPARTA_CARDS and ctx.carneia:
        return GREEK_KEEP[k] * 0.7
    return GREEK_KEEP.get(k, 0.3)
