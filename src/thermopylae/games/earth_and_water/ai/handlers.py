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
from thermopylae.games.earth_and_water import board
from thermopylae.games.earth_and_water.ai import cards
from thermopylae.games.earth_and_water.ai.cards import PERSIAN_KEEP
from thermopylae.games.earth_and_water.ai.odds import battle
from thermopylae.games.earth_and_water.ai.plan import Candidate, Planner
from thermopylae.games.earth_and_water.ai.reach import Map, Pos
from thermopylae.games.earth_and_water.ai.value import Ctx
from thermopylae.games.earth_and_water.reactions import (
    ARTEMISIA_W,
    GREEK_LAND,
    IMMORTALS,
    MOLON,
    PERSIAN_NAVAL,
    PRE_PERSIAN_LAND,
)
from thermopylae.games.earth_and_water.state import (
    GREECE,
    LAND,
    LEONIDAS,
    PERSIA,
    PHASES,
    SEA,
    SIDES,
    THEMISTOCLES_MOVE,
    Battle,
    Move,
)

Texts = Mapping[str, Any]  # the legal actions by their text
Plans = dict[tuple[Any, ...], tuple[float, Candidate]]

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


def _move_record(v: JSON, m: Map) -> Move | None:
    """The view's move as the rules' own record (None: no move under way)."""
    mv = v["move"]
    if not mv:
        return None
    return Move(
        side=SIDES.index(mv["side"]),
        kind=("any", "land", "fleets").index(mv["allowed"]),
        mode=-1 if mv["by"] is None else ("land", "sea").index(mv["by"]),
        origin=_city(m, mv["origin"]),
        count=mv["count"],
        carry=mv["carry"],
        flag=mv["event"],
        exclude=_city(m, mv["not_from"]),
        dest=_city(m, mv["destination"]),
    )


def _battle_record(v: JSON, m: Map) -> Battle | None:
    """The view's battle as the rules' own record (None: no battle under way); the fields
    the heuristic does not read are left 0."""
    bt = v["battle"]
    if not bt:
        return None
    return Battle(
        kind=LAND if bt["kind"] == "land" else SEA,
        city=_city(m, bt["city"]),
        att=SIDES.index(bt["attacker"]),
        gdice=bt["greek_dice"],
        cav=int(bt["cavalry"]),
        score=0,
        imm=0,
        pstart=bt["persian_start"],
        carry=bt["carried"],
        stage=0,
        aroll=0,
        gcard=0,
        by_sea=0,
        origin=_city(m, bt["from"]),
        no_retreat=0,
        ships=0,
    )


# -- Preparation


def prep_buy(ctx: Ctx, texts: Texts, plans: Plans) -> str:
    talents = ctx.v["talents"] or 0
    most = max(int(t.split()[1]) for t in texts)
    if ctx.me == PERSIA:
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
        or not board.controls(ctx.m.c, pos, PERSIA, ctx.m.abydos)
    ):
        return False
    expect_preparation(ctx)
    bridged = pos.copy()
    bridged.bridge = True
    return ctx.value(bridged) - ctx.value(pos) >= BRIDGE_GAIN


def expect_preparation(ctx: Ctx) -> None:
    # Persia opens the Operations, and both will hold cards.
    ctx.expect(PERSIA, [max(c, 3) for c in ctx.counts])


def prep_build(ctx: Ctx, texts: Texts, plans: Plans) -> str:
    if "bridge" in texts and ctx.me == PERSIA and wants_bridge(ctx):
        return "bridge"
    expect_preparation(ctx)
    base = ctx.value(ctx.pos)
    best, best_gain = "done", -math.inf
    m = ctx.m
    fleet_price = 2 if ctx.me == PERSIA else 1
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
    threshold = P_PASS if me == PERSIA else G_PASS
    if ctx.campaign == 5:
        threshold = min(threshold, 0.02)
    return best if gain > threshold else "pass"


# -- the steps of a move ----------


def move_step(ctx: Ctx, texts: Texts, plans: Plans) -> str | None:
    mv = _move_record(ctx.v, ctx.m)
    if mv is None:
        return None
    side = ctx.me
    kind, flag, exclude = mv.kind, mv.flag, mv.exclude
    ctx.expect(ctx.opp if ctx.counts[ctx.opp] else side, list(ctx.counts))
    plan = Planner(ctx, plans)
    phase = ctx.phase
    if flag == THEMISTOCLES_MOVE:
        return themistocles_move(ctx, texts, mv)

    def fits(x: Candidate) -> bool:
        if phase == "move-origin":
            return True
        if x[0] != mv.mode or x[1] != mv.origin:
            return False
        if phase in ("move-carry", "move-destination"):
            if flag == LEONIDAS and x[0] == LAND:
                return x[2] == 1
            if x[2] != mv.count:
                return False
        return not (phase == "move-destination" and x[0] == SEA and x[3] != mv.carry)

    cached = plans.get(plan.plan_key(side, kind, flag, exclude))
    best: Candidate | None
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


def themistocles_move(ctx: Ctx, texts: Texts, mv: Move) -> str | None:
    """Greek fleets join the defence of the Persian destination: the biggest group."""
    m, pos = ctx.m, ctx.pos
    dest = mv.exclude
    phase = ctx.phase
    if phase == "move-origin":
        best = max(
            (x for x in m.ports if pos.flt[GREECE][x] and x != dest),
            key=lambda x: pos.flt[GREECE][x],
            default=None,
        )
        return None if best is None else f"sea {m.names[best]}"
    if phase == "move-count":
        return f"fleets {pos.flt[GREECE][mv.origin]}"
    return f"to {m.names[dest]}"


# -- reactions ----------


def reaction(ctx: Ctx, texts: Texts, plans: Plans) -> str:
    w = ctx.v["window"]
    reacts = [t for t in texts if t.startswith("react")]
    if not reacts:
        return "decline"
    if w in (ARTEMISIA_W, MOLON):
        return reacts[0]
    bt = _battle_record(ctx.v, ctx.m)
    pos, m = ctx.pos, ctx.m
    ctx.expect(ctx.opp, list(ctx.counts))
    plan = Planner(ctx, plans)
    if w == IMMORTALS and bt is not None:
        city = bt.city
        n = min(3, bt.pstart, pos.res[PERSIA])
        if n <= 0:
            return "decline"
        g = pos.arm[GREECE][city]
        now = ctx.value(pos)
        cap = 6 if bt.cav else (5 if city in m.asia else 4)
        s = battle(n, g, True, bt.gdice, cap)
        if bt.att == GREECE:  # Persia defends: the Greeks attack the restored armies
            s = battle(g, n, False, bt.gdice, cap)
            s = (s[2], s[3], s[0], s[1], s[4])
        w_pos = pos.copy()
        w_pos.arm[GREECE][city] = 0
        w_pos.arm[PERSIA][city] = max(1, round(s[1]))
        later = s[0] * ctx.value(w_pos) + (1 - s[0]) * now
        return "react 5" if later - now > 0.3 else "decline"
    if w in (PRE_PERSIAN_LAND, GREEK_LAND) and bt is not None:
        return battle_reaction(ctx, texts, bt)
    if w == PERSIAN_NAVAL and "react 5" in texts:
        return themistocles(ctx, plan)
    return "decline"


def battle_reaction(ctx: Ctx, texts: Texts, bt: Battle) -> str:
    """Miltiades, 300 Spartans, Pausanias: the best odds for what they cost."""
    city, att = bt.city, bt.att
    pos, m = ctx.pos, ctx.m
    a, d = pos.arm[att][city], pos.arm[1 - att][city]
    cav = bool(bt.cav)
    cap = 6 if cav else (5 if city in m.asia else 4)
    gd = bt.gdice
    late = ctx.campaign < 5

    def worth(gdice: int, capx: int) -> float:
        return battle_end_value(ctx, pos, city, att, battle(a, d, att == PERSIA, gdice, capx))

    options = {"decline": worth(gd, cap)}
    if "react 4" in texts:
        options["react 4"] = worth(3, cap) - (0.9 if late else 0.45)
    if "react 15" in texts:
        options["react 15"] = worth(3, cap) - (0.6 if late else 0.05)
    if "react 6" in texts and cav:
        options["react 6"] = worth(gd, 5 if city in m.asia else 4) - (0.2 if late else 0.0)
    return max(options, key=lambda t: options[t])


def themistocles(ctx: Ctx, plan: Planner) -> str:
    mv = _move_record(ctx.v, ctx.m)
    if mv is None:
        return "decline"
    pos, m = ctx.pos, ctx.m
    dest, nf, c = mv.dest, mv.count, mv.carry
    origin = mv.origin
    now = plan.sea_arrive(pos.copy(), PERSIA, origin, dest, nf, c)
    src = max(
        (x for x in m.ports if pos.flt[GREECE][x] and x != dest),
        key=lambda x: pos.flt[GREECE][x],
        default=None,
    )
    if src is None:
        return "decline"
    p2 = pos.copy()
    p2.flt[GREECE][dest] += p2.flt[GREECE][src]
    p2.flt[GREECE][src] = 0
    later = plan.sea_arrive(p2, PERSIA, origin, dest, nf, c) - 0.5
    return "react 5" if later > now + 0.2 else "decline"


# -- battles ----------


def battle_choice(ctx: Ctx, texts: Texts, plans: Plans) -> str:
    bt = _battle_record(ctx.v, ctx.m)
    if bt is None:
        return "continue"
    me = ctx.me
    pos, m = ctx.pos, ctx.m
    city, att, kind = bt.city, bt.att, bt.kind
    ctx.expect(GREECE if ctx.v["active"] == "persia" else PERSIA, list(ctx.counts))
    plan = Planner(ctx, plans)
    options: dict[str, float] = {}
    if kind == LAND:
        a = pos.arm[att][city]
        d = pos.arm[1 - att][city]
        p2 = pos.copy()
        p2.arm[att][city] = 0
        if att == me:
            options["continue"] = plan.land_arrive(
                p2, att, city, a, 0, gdice=bt.gdice, cavalry=bool(bt.cav)
            )
        else:
            cap = 6 if bt.cav else (5 if city in m.asia else 4)
            s = battle(a, d, att == PERSIA, bt.gdice, cap)
            options["continue"] = battle_end_value(ctx, pos, city, att, s)
    else:
        a = pos.flt[att][city]
        carried = bt.carry
        p2 = pos.copy()
        p2.flt[att][city] = 0
        options["continue"] = plan.sea_arrive(p2, att, bt.origin, city, a, carried)
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
            q.arm[me][to] += bt.carry
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
            if me == PERSIA or top in (4, 5, 8):  # a leader's or king's army to a portrait
                q.arm[me][x] -= 1
            elif top == 3:
                q.flt[PERSIA][x] -= 1
            else:
                q.arm[PERSIA][x] -= 1
        elif me == PERSIA:
            if top == 8 and q.arm[GREECE][x]:
                q.arm[GREECE][x] = 0
            else:
                q.arm[PERSIA][x] += 3 if top == 8 else 1
        elif top == 14:
            q.flt[GREECE][x] += 1
        else:  # Defection of Thebes: the Greeks leave Thebai
            q.arm[GREECE][x] += q.arm[GREECE][m.thebai]
            q.arm[GREECE][m.thebai] = 0
            q.arm[PERSIA][m.thebai] += 1
        return ctx.value(q)

    cands = [t for t in texts if t.partition(" ")[0] in ("remove", "place")]
    if not cands:
        return None
    return max(cands, key=scored)


def supply_keep(ctx: Ctx, texts: Texts, plans: Plans) -> str:
    if ctx.me == PERSIA:  # a kept card costs 2 talents of the next budget: only a strong one
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
