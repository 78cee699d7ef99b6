"""The heuristic's planner: every whole move of a seat (origin, count, carried armies,
destination), ranked quickly without the threats, the best few valued in full.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from thermopylae.games.earth_and_water import board
from thermopylae.games.earth_and_water.ai.reach import CACHE_MAX, Pos
from thermopylae.games.earth_and_water.ai.value import Ctx
from thermopylae.games.earth_and_water.state import (
    CAVALRY,
    EVANGELION,
    FLEETS_ONLY,
    GREAT_KING,
    GREECE,
    LAND,
    LAND_ONLY,
    LEONIDAS,
    PERSIA,
    SEA,
    THEMISTOCLES_MOVE,
)

SHORTLIST = 7  # moves valued in full, of those ranked without the threats

Candidate = tuple[int, int, int, int, int]  # mode, origin, count (armies or fleets), carry, dest
BATTLE_FLAGS = frozenset({CAVALRY, GREAT_KING, LEONIDAS, EVANGELION})


def _counts(n: int) -> list[int]:
    """How many armies of a stack of n to move: all, all but one (to hold), or one."""
    return sorted({c for c in (1, n - 1, n) if c >= 1})


class Planner:
    """Enumerates and values whole moves for one seat."""

    def __init__(self, ctx: Ctx, plans: dict[tuple[Any, ...], tuple[float, Candidate]]) -> None:
        self.ctx = ctx
        self.m = ctx.m
        self.plans = plans  # the best whole move found, per position, for its later steps

    def moves(
        self, side: int, kind: int, flag: int, exclude: int = -1, battles_only: bool = False
    ) -> list[Candidate]:
        """Candidate whole moves (`battles_only`: land moves into enemy armies)."""
        ctx, m, pos = self.ctx, self.m, self.ctx.pos
        out: list[Candidate] = []
        opp = 1 - side
        if kind != FLEETS_ONLY:
            locked = ctx.locked(side)
            for o in range(m.n):
                n = pos.arm[side][o]
                if not n or o == locked or not board.neighbours(m.c, pos, o):
                    continue
                dests = board.land_reach(m.c, pos, side, o)
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
        if self.ctx.carneia and side == GREECE and origin == self.m.sparta:
            return 0
        return min(nf, 3, self.ctx.pos.arm[side][origin])

    def value(self, mv: Candidate, side: int, flag: int) -> float:
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
        sgn = 1 if side == PERSIA else -1
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
        if side == GREECE and pos.bridge and d == self.m.abydos and pos.arm[GREECE][d]:
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
        keep: Callable[[Candidate], bool] | None = None,
    ) -> tuple[float, Candidate | None]:
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

    def _shortlist(self, moves: list[Candidate], side: int, flag: int) -> tuple[Candidate, ...]:
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
