"""Land and naval battles (RB 7): rounds of dice, losses, retreats, and their reactions.

Each side rolls one die per army (or fleet), at most 3, and keeps its highest die; a
Persian die counts at most 4, or 5 in Abydos and Ephesos. The loser of a round removes one
unit, both on a tie. After a round, the attacker then the defender may retreat. A die
throw is one chance node whose outcome is the highest die (all that the rules read).
"""

from __future__ import annotations

import random

from thermopylae.engine.protocol import Event
from thermopylae.games.earth_and_water import board, campaign, cards, moves, reactions
from thermopylae.games.earth_and_water.actions import (
    A,
    Action,
    Continue,
    Retreat,
    Roll,
)
from thermopylae.games.earth_and_water.components import Components
from thermopylae.games.earth_and_water.reactions import (
    ARTEMISIA_W,
    GREEK_LAND,
    IMMORTALS,
    PRE_PERSIAN_LAND,
)
from thermopylae.games.earth_and_water.state import (
    BT_CHOICE,
    CAVALRY,
    EVANGELION,
    GREAT_KING,
    GREECE,
    LAND,
    LEONIDAS,
    NO_RETREAT,
    PERSIA,
    ROLL,
    SEA,
    SIDES,
    Battle,
    Ev,
    State,
)

MAX_DICE = 3

# P(the highest of n dice is f), n = 0..6
_HIGHEST = [[0.0] * 7] + [
    [(f**n - (f - 1) ** n) / 6**n if f else 0.0 for f in range(7)] for n in range(1, 7)
]


# -- starting ------------------------------------------------------------------------------


def start_land_battle(s: State, c: Components, city: int, side: int, ev: Ev) -> None:
    mv = s.mv
    assert mv is not None
    flag = mv.flag
    # (positional: keywords cost a call ~0.3 us more; the fields in `Battle`'s order)
    s.bt = Battle(
        LAND,  # kind
        city,
        side,  # att
        2 if flag == LEONIDAS else 0,  # gdice
        int(flag == CAVALRY),  # cav
        flag if flag in (GREAT_KING, EVANGELION) else 0,  # score
        0,  # imm
        s.arm[PERSIA][city],  # pstart
        0,  # carry
        0,  # stage
        0,  # aroll
        LEONIDAS if flag == LEONIDAS else 0,  # gcard
        mv.mode,  # by_sea
        mv.origin,
        0,  # no_retreat
        min(mv.count, s.flt[side][city]) if mv.mode else 0,  # ships
    )  # (decision 23)
    if ev is not None:
        ev.append(Event("battle", {"kind": "land", "city": c.names[city], "attacker": SIDES[side]}))
    s.stack.append(("round",))
    window = PRE_PERSIAN_LAND if side == PERSIA else GREEK_LAND  # before the first round
    if reactions.open_window(s, window, ev):
        return
    campaign.resume(s, c, ev)


def start_naval_battle(s: State, c: Components, city: int, side: int, ev: Ev) -> None:
    """After Themistocles, no retreat in the turn's naval battles (`used & 32`); land
    battles keep their retreats (decision 23: the seed has no card text)."""
    mv = s.mv
    assert mv is not None
    s.bt = Battle(
        SEA,  # kind
        city,
        side,  # att
        0,  # gdice
        0,  # cav
        0,  # score
        0,  # imm
        0,  # pstart
        mv.carry,
        0,  # stage
        0,  # aroll
        0,  # gcard
        1,  # by_sea
        mv.origin,
        int(s.used & NO_RETREAT != 0),  # no_retreat
        0,  # ships
    )
    if ev is not None:
        ev.append(
            Event("battle", {"kind": "naval", "city": c.names[city], "attacker": SIDES[side]})
        )
    next_round(s, c, ev)


# -- rounds --------------------------------------------------------------------------------


def next_round(s: State, c: Components, ev: Ev) -> None:
    assert s.bt is not None
    s.bt.stage = 0
    s.phase = ROLL


def _dice(s: State, side: int) -> int:
    bt = s.bt
    assert bt is not None
    city = bt.city
    if bt.kind == SEA:
        return min(MAX_DICE, s.flt[side][city])
    if side == GREECE and bt.gdice:
        return bt.gdice  # Miltiades, 300 Spartans: 3 dice; Leonidas: 2
    return min(MAX_DICE, s.arm[side][city])


def _roller(s: State) -> int:
    bt = s.bt
    assert bt is not None
    return bt.att if bt.stage == 0 else 1 - bt.att


Distribution = tuple[tuple[Action, float], ...]

# the distributions of the highest die, built once: the same tuple for the same dice
# (OpenSpiel's interface encodes a distribution it is handed again only once)
_ROLLS: tuple[Distribution, ...] = tuple(
    tuple((A.roll[f], _HIGHEST[n][f]) for f in range(1, 7) if _HIGHEST[n][f] > 0)
    for n in range(len(_HIGHEST))
)
_ONE_DIE = _ROLLS[1]  # ((roll f, 1/6) for f in 1..6)


def roll_distribution(s: State, c: Components) -> Distribution:
    """The highest die of the roller's throw (an interned tuple per number of dice)."""
    if s.bt is not None and s.bt.stage >= 2:  # Separate Peace: one die each
        return _ONE_DIE
    return _ROLLS[_dice(s, _roller(s))]


def sample_roll(s: State, c: Components, rng: random.Random) -> Action:
    assert s.bt is not None
    n = 1 if s.bt.stage >= 2 else _dice(s, _roller(s))
    best = 0
    for _ in range(n):
        d = int(rng.random() * 6) + 1
        if d > best:
            best = d
    return A.roll[best]


def _value(s: State, c: Components, side: int, face: int) -> int:
    """A Persian die counts at most 4, 5 in Abydos and Ephesos, 6 with the Cavalry."""
    if side == GREECE:
        return face
    bt = s.bt
    assert bt is not None
    if bt.kind == LAND and bt.cav:
        return face
    cap = 5 if bt.city in (c.abydos, c.ephesos) else 4
    return min(face, cap)


def roll_possible(s: State, face: int) -> bool:
    """Whether `face` is in the support of `roll_distribution`, without building it."""
    assert s.bt is not None
    return 1 <= face <= 6 and (s.bt.stage >= 2 or _dice(s, _roller(s)) > 0)


def rolled(s: State, c: Components, roll: Roll, ev: Ev) -> None:
    face = roll.face
    bt = s.bt
    assert bt is not None
    if bt.stage >= 2:
        return cards.separate_peace_roll(s, c, face, ev)
    side = _roller(s)
    if ev is not None:
        ev.append(
            Event(
                "roll",
                {
                    "side": SIDES[side],
                    "dice": _dice(s, side),
                    "highest": face,
                    "counts": _value(s, c, side, face),
                },
            )
        )
    if bt.stage == 0:
        bt.aroll = face
        bt.stage = 1
        return
    att = bt.att
    a = _value(s, c, att, bt.aroll)
    d = _value(s, c, 1 - att, face)
    losers = [att, 1 - att] if a == d else [att] if a < d else [1 - att]
    persia_lost_fleet = False
    for loser in losers:
        _lose_one(s, c, loser, ev)
        persia_lost_fleet |= loser == PERSIA and bt.kind == SEA
    s.stack.append(("after_round",))
    city = bt.city
    if bt.kind == LAND and not s.arm[PERSIA][city] and reactions.open_window(s, IMMORTALS, ev):
        return  # The Immortals
    if persia_lost_fleet and s.flt[PERSIA][city] and reactions.open_window(s, ARTEMISIA_W, ev):
        return  # Artemisia I
    campaign.resume(s, c, ev)


def _lose_one(s: State, c: Components, side: int, ev: Ev) -> None:
    bt = s.bt
    assert bt is not None
    city = bt.city
    if bt.kind == LAND:
        if s.arm[side][city]:
            s.arm[side][city] -= 1
            s.res_arm[side] += 1
    elif s.flt[side][city]:
        s.flt[side][city] -= 1
        s.res_flt[side] += 1
        sink_carried(s, side, ev)
    if ev is not None:
        ev.append(
            Event(
                "loss",
                {
                    "side": SIDES[side],
                    "unit": ("army", "fleet")[bt.kind],
                    "city": c.names[city],
                },
            )
        )


def sink_carried(s: State, side: int, ev: Ev) -> None:
    """A carried army sinks when fewer fleets remain than armies carried (RB 7.2)."""
    bt = s.bt
    assert bt is not None
    if side == bt.att and bt.carry > s.flt[side][bt.city]:
        bt.carry -= 1
        s.res_arm[side] += 1
        if ev is not None:
            ev.append(Event("sunk", {"side": SIDES[side]}))


def after_round(s: State, c: Components, ev: Ev) -> None:
    bt = s.bt
    assert bt is not None
    city, att = bt.city, bt.att
    units = s.arm if bt.kind == LAND else s.flt
    if not units[att][city] or not units[1 - att][city]:
        return _end_battle(s, c, ev)
    _offer_retreat(s, c, att, ev)


def _offer_retreat(s: State, c: Components, side: int, ev: Ev) -> None:
    assert s.bt is not None
    if s.bt.no_retreat or not retreats(s, c, side):
        return _next_decider(s, c, side, ev)
    s.side = side
    s.phase = BT_CHOICE


def _next_decider(s: State, c: Components, side: int, ev: Ev) -> None:
    assert s.bt is not None
    if side == s.bt.att:
        return _offer_retreat(s, c, 1 - side, ev)
    next_round(s, c, ev)


# -- retreats and the end of a battle ------------------------------------------------------


def retreats(s: State, c: Components, side: int) -> list[Action]:
    """Where `side` may retreat to from the battle (RB 7.1, 7.2; docs for decisions)."""
    c, bt = c, s.bt
    assert bt is not None
    city = bt.city
    attacker = side == bt.att
    enemy = 1 - side
    if attacker:
        origin = bt.origin
        if bt.by_sea:  # back aboard the fleets that brought them, if any survive:
            # they "retournent ... sur leur port de départ", where "ses armées
            # débarquent" (seed 002). "Flottes et armées ne s'affrontent jamais": enemy
            # armies there bar only fleets with armies to land; enemy fleets that have
            # sailed in meanwhile bar any retreat (decision 33)
            ships = bt.ships if bt.kind == LAND else s.flt[side][city]
            lands = bt.kind == LAND or bt.carry > 0
            if s.flt[enemy][origin] or (lands and s.arm[enemy][origin]):
                return []
            return [A.retreat[1][origin]] if min(ships, s.flt[side][city]) else []
        near = board.neighbours(c, s, city)
        if origin in near:
            return [] if s.arm[enemy][origin] else [A.retreat[0][origin]]
        # after a long move: back to an adjacent city the move may have come through
        route = board.route_cities(c, s, side, origin)
        return [A.retreat[0][x] for x in near if x in route and x != city and not s.arm[enemy][x]]
    out: list[Action] = []
    # (`board.controls` read city by city: an army of its own there, or its own major city
    # with no enemy army; loops rather than list comprehensions, each a call in CPython 3.11;
    # by land, only where no enemy army stands)
    mine, theirs, major = s.arm[side], s.arm[enemy], c.major
    if bt.kind == LAND:
        by_land = A.retreat[0]
        for x in board.neighbours(c, s, city):
            if not theirs[x] and (mine[x] or major[x] == side):
                out.append(by_land[x])
        if mine[city] > s.flt[side][city] or mine[city] > MAX_DICE:  # a naval move carries
            return out  # at most 3
    by_sea, their_fleets = A.retreat[1], s.flt[enemy]
    for x in c.ports:
        if x != city and (mine[x] or (not theirs[x] and major[x] == side)) and not their_fleets[x]:
            out.append(by_sea[x])
    return out


def battle_options(s: State, c: Components) -> list[Action]:
    return [A.continue_, *retreats(s, c, s.side)]


def battle_step(s: State, c: Components, a: Continue | Retreat, ev: Ev) -> None:
    side = s.side
    if not isinstance(a, Retreat):  # continue
        return _next_decider(s, c, side, ev)
    _retreat(s, c, side, a.city, a.by_sea, ev)
    _end_battle(s, c, ev)


def _retreat(s: State, c: Components, side: int, to: int, by_sea: bool, ev: Ev) -> None:
    bt = s.bt
    assert bt is not None
    city = bt.city
    if bt.kind == LAND:  # in a naval battle the armies in the city stay ashore
        s.arm[side][to] += s.arm[side][city]
        s.arm[side][city] = 0
    if by_sea:
        ships = s.flt[side][city]
        if side == bt.att and bt.kind == LAND and bt.by_sea:
            ships = min(bt.ships, ships)  # only the fleets that made the landing
        s.flt[side][to] += ships
        s.flt[side][city] -= ships
    if side == bt.att and bt.kind == SEA:
        s.arm[side][to] += bt.carry  # the carried armies disembark at home
        bt.carry = 0
    if ev is not None:
        ev.append(
            Event(
                "retreat",
                {
                    "side": SIDES[side],
                    "from": c.names[city],
                    "to": c.names[to],
                    "by_sea": by_sea,
                },
            )
        )


def _end_battle(s: State, c: Components, ev: Ev) -> None:
    bt = s.bt
    assert bt is not None
    city, att = bt.city, bt.att
    if bt.kind == SEA:
        carry = bt.carry
        won = s.flt[att][city] > 0 and not s.flt[1 - att][city]
        if not s.flt[att][city] and carry:  # every carrying fleet lost: armies lost
            s.res_arm[att] += carry
        s.bt = None
        if ev is not None:
            ev.append(Event("battle-end", {"kind": "naval", "city": c.names[city]}))
        return moves.disembark(s, c, carry if won else 0, ev)
    if bt.score:
        _event_points(s, c, bt.score, city, ev)
    s.bt = None
    if ev is not None:
        ev.append(Event("battle-end", {"kind": "land", "city": c.names[city]}))
    moves.end_move(s, c, ev)


def _event_points(s: State, c: Components, card: int, city: int, ev: Ev) -> None:
    """The Great King (7) and Evangelion (10): points when the battle they caused ends."""
    mover = PERSIA if card == 7 else GREECE
    enemy = 1 - mover
    gain = 1 if not s.arm[enemy][city] else 0
    loss = 0 if board.controls(c, s, mover, city) else 1
    sign = 1 if mover == PERSIA else -1
    campaign.add_score(s, sign * (gain - loss))
    if ev is not None and (gain or loss):
        ev.append(Event("event-points", {"card": card, "score": s.score}))
