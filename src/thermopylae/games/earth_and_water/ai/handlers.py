"""The heuristic's decisions, one function a phase (`HANDLERS`, keyed by the phase's name
in the view): each takes the seat's context, the legal actions by their text, and the
agent's plans (the whole move chosen at its first step, followed through its later
steps), and returns the text of the action chosen (None: no opinion).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from thermopylae.engine.protocol import JSON
from thermopylae.games.earth_and_water.ai import cards
from thermopylae.games.earth_and_water.ai.cards import PERSIAN_KEEP
from thermopylae.games.earth_and_water.ai.odds import battle
from thermopylae.games.earth_and_water.ai.plan import Move, Planner
from thermopylae.games.earth_and_water.ai.reach import Map, Pos, ctrl
from thermopylae.games.earth_and_water.ai.value import Ctx
from thermopylae.games.earth_and_water.battle import ATT, CAV, CITY, FROM, GDICE, KIND, PSTART
from thermopylae.games.earth_and_water.battle import CARRY as BT_CARRY
from thermopylae.games.earth_and_water.moves import (
    CARRY,
    COUNT,
    DEST,
    EXCLUDE,
    FLAG,
    LEONIDAS,
    MODE,
    ORIGIN,
    THEMISTOCLES_MOVE,
)
from thermopylae.games.earth_and_water.moves import KIND as MV_KIND
from thermopylae.games.earth_and_water.state import PHASES

P, G = 0, 1
LAND, SEA = 0, 1
SIDE_INDEX = {"persia": P, "greece": G}
# Reaction windows (cards.py).
W_PRE_PERSIAN_LAND, W_GREEK_LAND, W_PERSIAN_NAVAL, W_IMMORTALS, W_ARTEMISIA, W_MOLON = range(1, 7)

Texts = Mapping[str, Any]  # the legal actions by their text
Plans = dict[tuple[Any, ...], tuple[float, Move]]

# Preparation.
P_CARDS = 6  # cards Persia buys
P_CARDS_BRIDGE = 4  # ... when it builds the bridge too
BRIDGE_UNTIL = 4  # the last campaign in which Persia may build the bridge
BRIDGE_GAIN = 0.3  # the value the bridge must add now
G_HAND_TARGET = 5  # Greece buys cards up to this hand (kept cards included)
G_CARDS_MAX = 4
G_FORCES = 2  # talents Greece keeps for armies and fleets

# Operations and Supply: playing a card, or not, and keeping cards.
P_PASS = 0.02  # the least gain for which Persia plays a card
G_PASS = 0.4  # the least gain for which Greece plays a card
P_KEEP_MIN = 2.0  # Persia keeps a card worth this much (2 talents: the budget it costs)


def _city(m: Map, name: str | None) -> int:
    return -1 if name is None else int(m.names.index(name))


def _move_list(v: JSON, m: Map) -> list[int]:
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


def _battle_list(v: JSON, m: Map) -> list[int]:
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


# -- Preparation


def prep_buy(ctx: Ctx, texts: Texts, plans: Plans) -> str:
    talents = ctx.v["talents"] or 0
    most = max(int(t.split()[1]) for t in texts)
    if ctx.me == P:
        want = P_CARDS
        if wants_bridge(ctx):
            want = min(P_CARDS_BRIDGE, talents - 6)
    else:
        hand = len(ctx.hand)
        want = max(1, min(G_CARDS_MAX, G_HAND_TARGET - hand))
        want = min(want, talents - G_FORCES)
    return f"buy {max(0, min(want, most))}"


def wants_bridge(ctx: Ctx) -> bool:
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
    expect_preparation(ctx)
    bridged = pos.copy()
    bridged.bridge = True
    return ctx.value(bridged) - ctx.value(pos) >= BRIDGE_GAIN


def expect_preparation(ctx: Ctx) -> None:
    # Persia opens the Operations, and both will hold cards.
    ctx.expect(P, [max(c, 3) for c in ctx.counts])


def prep_build(ctx: Ctx, texts: Texts, plans: Plans) -> str:
    if "bridge" in texts and ctx.me == P and wants_bridge(ctx):
        return "bridge"
    expect_preparation(ctx)
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


# -- Operations ----------


def operations(ctx: Ctx, texts: Texts, plans: Plans) -> str:
    me = ctx.me
    after = list(ctx.counts)
    after[me] -= 1  # a card played
    ctx.expect(ctx.opp if ctx.counts[ctx.opp] else me, after)
    plan = Planner(ctx, plans)
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
            events[k] = cards.event_value(ctx, plan, k)
    for t in texts:
        verb, _, arg = t.partition(" ")
        if verb not in ("event", "move"):
            continue
        k = int(arg)
        gain = (events[k] if verb == "event" else move_value) - base
        options.append((gain - cards.hold_value(ctx, k, max(0.0, events.get(k, base) - base)), t))
    if not options:
        return "pass"
    options.sort(key=lambda o: -o[0])
    gain, best = options[0]
    threshold = P_PASS if me == P else G_PASS
    if ctx.campaign == 5:
        threshold = min(threshold, 0.02)
    return best if gain > threshold else "pass"


# -- the steps of a move ----------


def move_step(ctx: Ctx, texts: Texts, plans: Plans) -> str | None:
    mv = _move_list(ctx.v, ctx.m)
    if not mv:
        return None
    side = ctx.me
    kind, flag, exclude = mv[MV_KIND], mv[FLAG], mv[EXCLUDE]
    ctx.expect(ctx.opp if ctx.counts[ctx.opp] else side, list(ctx.counts))
    plan = Planner(ctx, plans)
    phase = ctx.phase
    if flag == THEMISTOCLES_MOVE:
        return themistocles_move(ctx, texts, mv)

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

    cached = plans.get(plan.plan_key(side, kind, flag, exclude))
    best: Move | None
    if cached is not None and fits(cached[1]):
        val, best = cached
    else:
        val, best = plan.best(side, kind, flag, exclude, fits)
        if best is not None and phase == "move-origin":
            plans[plan.plan_key(side, kind, flag, exclude)] = (val, best)
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


def themistocles_move(ctx: Ctx, texts: Texts, mv: list[int]) -> str | None:
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


# -- reactions ----------


def reaction(ctx: Ctx, texts: Texts, plans: Plans) -> str:
    w = ctx.v["window"]
    reacts = [t for t in texts if t.startswith("react")]
    if not reacts:
        return "decline"
    if w in (W_ARTEMISIA, W_MOLON):
        return reacts[0]
    bt = _battle_list(ctx.v, ctx.m)
    pos, m = ctx.pos, ctx.m
    ctx.expect(ctx.opp, list(ctx.counts))
    plan = Planner(ctx, plans)
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
        return battle_reaction(ctx, texts, bt)
    if w == W_PERSIAN_NAVAL and "react 5" in texts:
        return themistocles(ctx, plan)
    return "decline"


def battle_reaction(ctx: Ctx, texts: Texts, bt: list[int]) -> str:
    """Miltiades, 300 Spartans, Pausanias: the best odds for what they cost."""
    city, att = bt[CITY], bt[ATT]
    pos, m = ctx.pos, ctx.m
    a, d = pos.arm[att][city], pos.arm[1 - att][city]
    cav = bool(bt[CAV])
    cap = 6 if cav else (5 if city in m.asia else 4)
    gd = bt[GDICE]
    late = ctx.campaign < 5

    def worth(gdice: int, capx: int) -> float:
        return battle_end_value(ctx, pos, city, att, battle(a, d, att == P, gdice, capx))

    options = {"decline": worth(gd, cap)}
    if "react 4" in texts:
        options["react 4"] = worth(3, cap) - (0.9 if late else 0.45)
    if "react 15" in texts:
        options["react 15"] = worth(3, cap) - (0.6 if late else 0.05)
    if "react 6" in texts and cav:
        options["react 6"] = worth(gd, 5 if city in m.asia else 4) - (0.2 if late else 0.0)
    return max(options, key=lambda t: options[t])


def themistocles(ctx: Ctx, plan: Planner) -> str:
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


# -- battles ----------


def battle_choice(ctx: Ctx, texts: Texts, plans: Plans) -> str:
    bt = _battle_list(ctx.v, ctx.m)
    if not bt:
        return "continue"
    me = ctx.me
    pos, m = ctx.pos, ctx.m
    city, att, kind = bt[CITY], bt[ATT], bt[KIND]
    ctx.expect(G if ctx.v["active"] == "persia" else P, list(ctx.counts))
    plan = Planner(ctx, plans)
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
            options["continue"] = battle_end_value(ctx, pos, city, att, s)
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


def battle_end_value(ctx: Ctx, pos: Pos, city: int, att: int, s: tuple[float, ...]) -> float:
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


# -- the bridge, event choices, supply ----------


def bridge_choice(ctx: Ctx, texts: Texts, plans: Plans) -> str:
    return "destroy bridge"


def choose(ctx: Ctx, texts: Texts, plans: Plans) -> str | None:
    m, pos = ctx.m, ctx.pos
    top = ctx.discard[-1] if ctx.discard else 0
    ctx.expect(ctx.opp, list(ctx.counts))
    verbs = {t.partition(" ")[0] for t in texts}
    if "pick" in verbs:  # Hippias: the Greek card Persia fears most
        return max(
            (t for t in texts if t.startswith("pick")),
            key=lambda t: cards.greek_card_worth(ctx, int(t.split()[1])),
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


def supply_keep(ctx: Ctx, texts: Texts, plans: Plans) -> str:
    if ctx.me == P:  # a kept card costs 2 talents of the next budget: only a strong one
        kept = [t for t in texts if t != "keep none"]
        best = max(kept, key=lambda t: PERSIAN_KEEP.get(int(t.split()[1]), 0.0), default="")
        if best and PERSIAN_KEEP.get(int(best.split()[1]), 0.0) >= P_KEEP_MIN:
            return best
        return "keep none"
    return min(
        (t for t in texts if t.startswith("discard")),
        key=lambda t: cards.greek_card_worth(ctx, int(t.split()[1])),
    )


def supply_remove(ctx: Ctx, texts: Texts, plans: Plans) -> str:
    m, pos = ctx.m, ctx.pos
    ctx.expect(ctx.opp, [0, 0])
    me = ctx.me

    def scored(t: str) -> float:
        x = m.city[t.partition(" ")[2]]
        q = pos.copy()
        q.arm[me][x] -= 1
        return ctx.value(q) + 0.01 * pos.arm[me][x]

    return max(texts, key=scored)


Handler = Callable[[Ctx, Texts, Plans], str | None]
HANDLERS: dict[str, Handler] = {
    "prep-buy": prep_buy,
    "prep-build": prep_build,
    "operations": operations,
    "move-origin": move_step,
    "move-count": move_step,
    "move-carry": move_step,
    "move-destination": move_step,
    "reaction": reaction,
    "battle": battle_choice,
    "bridge": bridge_choice,
    "choose": choose,
    "supply-keep": supply_keep,
    "supply-remove": supply_remove,
}
assert set(HANDLERS) <= set(PHASES)
