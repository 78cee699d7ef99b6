"""The fused random playout (issue 21): a game played to its end in one loop.

What `engine.play.uniform` does through the protocol — every seat plays
`sensible(s)[int(agent_rng.random() * n)]`, chance `sample_chance(s, chance_rng)` — done
here without the protocol's calls: the phase is read once a step, chance is drawn inline
from `chance_rng` exactly as `sample_chance` draws it, the options of a decision are those
`legal` lists in the same order, and the chosen action goes straight to its rule, without
`apply`'s check that it is legal (it came from the rules' own list) and without events.

The frequent decisions (a card played or a pass, each small decision of a move, a
Preparation's builds, a purchase) are not built as action lists at all: their options are
counted, the chosen one found by its place in the order `legal` would list them, and its
rule's effect written here on the state's fields, down to the next decision; a rarer
step (an event, a battle, a reaction, supply) goes to the rule itself. Same random
streams, same game: the conformance suite holds it to the protocol loop (tests/
conformance/test_random_playout.py), and tests/earth_and_water/test_playout.py on more
games and on positions of every phase.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Callable, Sequence
from itertools import compress
from typing import Any

from thermopylae.games.earth_and_water import battle, campaign, cards, moves
from thermopylae.games.earth_and_water.actions import A, Action
from thermopylae.games.earth_and_water.board import controlled, controls
from thermopylae.games.earth_and_water.components import Components
from thermopylae.games.earth_and_water.state import (
    BRIDGE,
    BT_CHOICE,
    CHOOSE,
    DRAW,
    FLEETS_ONLY,
    GREECE,
    LAND,
    LAND_ONLY,
    LEONIDAS,
    LOT,
    MAX_CARRY,
    MOLON_LABE,
    MV_CARRY,
    MV_COUNT,
    MV_DEST,
    MV_ORIGIN,
    NO_RETREAT,
    OPS,
    OVER,
    PERSIA,
    PREP_BUILD,
    PREP_BUY,
    REACT,
    ROLL,
    SEA,
    SUDDEN_DEATH,
    SUP_KEEP,
    SUP_REMOVE,
    THEMISTOCLES_MOVE,
    TRIREMES_2,
    Move,
    State,
)

Options = Callable[[State, Components], Sequence[Action]]
Rule = Callable[[State, Components, Any, None], None]

_MAX_KINGS = campaign.MAX_KINGS
# The decisions played from the rules' own list of options (the others are drawn here
# without building it).
_LISTED = frozenset({CHOOSE, REACT, BT_CHOICE, SUP_KEEP, BRIDGE})
_MAX_DICE = 3
_AT_SEA = 64  # a move's origin code: city + _AT_SEA for a naval move (cities < 25)
_OPS_NEXT = ("ops_next",)


def random_playout(
    s: State,
    c: Components,
    options: Sequence[Options],
    rules: Sequence[Rule],
    chance_rng: random.Random,
    agent_rng: random.Random,
) -> int:
    """Play `s` to the end in place, uniformly at random (`options`/`rules`: the game's
    tables by phase, `rules._OPTIONS` and `rules._RULES`); the number of steps."""
    crand, rand = chance_rng.random, agent_rng.random
    draw_actions, roll_actions, lot_actions = A.draw, A.roll, A.lot
    drawn, rolled, lot = rules[DRAW], rules[ROLL], rules[LOT]
    bought = rules[PREP_BUY]
    next_draw, start_supply, resume = campaign._next_draw, campaign._start_supply, campaign.resume
    supply_lines = campaign._lines_of_communication
    start_preparation = campaign.start_preparation
    play_event, event_tests = cards.play_event, cards.EVENT_TESTS
    land_battle, sea_move, sea_arrive = battle.start_land_battle, moves._sea_move, moves.sea_arrive
    prices = c.prices
    army_price, max_fleets, bridge_price = prices.army, prices.max_fleets, prices.bridge
    max_cards, card_price = prices.max_cards, prices.card
    port, ports, abydos, sparta, major = c.port, c.ports, c.abydos, c.sparta, c.major
    cities, leaves, roads_by_bridge = c.cities, c.exits, (c.unbridged, c.roads)
    n_cities = len(cities)
    steps = 0
    while True:
        ph = s.phase
        steps += 1
        if ph == OPS:  # `campaign.ops_options`, then `campaign.ops`
            side = s.active
            hand = s.hands[side]
            plays: list[int] = []  # card k: its event; -k: its move
            if hand:
                # (`moves.can_move_land`, asked once, and only if the side's fleets do not
                # settle whether it can move: else the events that need it ask it)
                land: bool | None = None
                movable = any(s.flt[side])
                if not movable:
                    locked = sparta if (s.carneia and side == GREECE) else -1
                    ways = leaves[s.bridge]
                    land = False
                    for city in compress(cities, s.arm[side]):
                        if city != locked and ways[city]:
                            land = movable = True
                            break
                tests, last = event_tests[side], 0
                for k in hand:  # (a hand is kept sorted: each card once, in order)
                    if k == last:
                        continue
                    last = k
                    test = tests.get(k)  # (`cards.can_event`)
                    if test is not None and test(s, c, land):
                        plays.append(k)
                    if movable:
                        plays.append(-k)
            i = int(rand() * (len(plays) + 1))
            s.turns += 1
            if not i:  # pass
                s.passes += 1
                if s.passes >= 2 or (not s.hands[PERSIA] and not s.hands[GREECE]):
                    start_supply(s, c, PERSIA, None)
                else:
                    s.side = s.active = 1 - side
                continue
            k = plays[i - 1]
            s.passes = 0
            s.stack.append(_OPS_NEXT)
            if k > 0:
                hand.remove(k)
                s.discard.append(k)
                play_event(s, c, side, k, None)
                continue
            hand.remove(-k)
            s.discard.append(-k)
            # `moves.begin_move` (a card's move: the side can move, so it has an origin)
            s.mv = Move(side, 0, -1, -1, 0, 0, 0, -1, -1)
            s.side = side
            s.phase = ph = MV_ORIGIN
            steps += 1  # (the origin is the next decision: on without the loop)
        if ph == MV_ORIGIN:  # `moves.origin_options`, then `moves.choose_origin`
            mv = s.mv
            assert mv is not None
            side, kind, flag = mv.side, mv.kind, mv.flag
            origins: list[int] = []  # a city by land, city + _AT_SEA by sea, -1 skip
            if kind != FLEETS_ONLY:
                locked = sparta if (s.carneia and side == GREECE) else -1
                ways = leaves[s.bridge]
                for city in compress(cities, s.arm[side]):
                    if city != locked and ways[city]:
                        origins.append(city)
            if kind != LAND_ONLY:
                exclude = mv.exclude
                for city in compress(cities, s.flt[side]):
                    if city != exclude:
                        origins.append(city + _AT_SEA)
            if flag in (MOLON_LABE, TRIREMES_2):
                origins.append(-1)
            x = origins[int(rand() * len(origins))]
            if x < 0:
                s.mv = None
                resume(s, c, None)
                continue
            if x < _AT_SEA:
                mv.mode = LAND
                mv.origin = x
                if flag == LEONIDAS:
                    mv.count = 1  # Leonidas moves exactly one army
                    s.phase = ph = MV_DEST
                else:
                    s.phase = ph = MV_COUNT
            else:
                mv.mode = SEA
                mv.origin = x - _AT_SEA
                s.phase = ph = MV_COUNT
            steps += 1
        if ph == MV_COUNT:  # `count_options`: 1 to all the armies / fleets there
            mv = s.mv
            assert mv is not None
            side, origin = mv.side, mv.origin
            if mv.mode == LAND:
                mv.count = int(rand() * s.arm[side][origin]) + 1
                s.phase = ph = MV_DEST
            else:
                n = mv.count = int(rand() * s.flt[side][origin]) + 1
                # `moves._max_carry`
                if (
                    mv.kind == FLEETS_ONLY
                    or mv.flag == THEMISTOCLES_MOVE
                    or (s.carneia and side == GREECE and origin == sparta)
                    or min(n, MAX_CARRY, s.arm[side][origin]) <= 0
                ):
                    s.phase = ph = MV_DEST
                else:
                    s.phase = ph = MV_CARRY
            steps += 1
        if ph == MV_CARRY:  # `carry_options`: 0 to the most the fleets may carry
            mv = s.mv
            assert mv is not None
            side = mv.side
            if (
                mv.kind == FLEETS_ONLY
                or mv.flag == THEMISTOCLES_MOVE
                or (s.carneia and side == GREECE and mv.origin == sparta)
            ):
                most = 0
            else:
                most = min(mv.count, MAX_CARRY, s.arm[side][mv.origin])
            mv.carry = int(rand() * (most + 1))
            s.phase = ph = MV_DEST
            steps += 1
        if ph == MV_DEST:  # `moves.dest_options`, then `moves.choose_dest`
            mv = s.mv
            assert mv is not None
            side, origin = mv.side, mv.origin
            if mv.mode == SEA:
                to_ports = []
                for x in ports:
                    if x != origin:
                        to_ports.append(x)
                dest = mv.dest = to_ports[int(rand() * len(to_ports))]
                if side == PERSIA and s.hands[GREECE]:  # Themistocles' window opens
                    sea_move(s, c, None)
                    continue
                # `moves._sea_move` and at once `moves.sea_arrive` (nothing comes between)
                n, k = mv.count, mv.carry
                fleets = s.flt[side]
                fleets[origin] -= n
                s.arm[side][origin] -= k
                if s.flt[1 - side][dest] or (mv.flag == THEMISTOCLES_MOVE and dest == mv.exclude):
                    sea_arrive(s, c, None, mv)  # a naval battle, or fleets waiting for one
                    continue
                fleets[dest] += n
                if k > 0:  # `moves.disembark`
                    armies = s.arm[side]
                    armies[dest] += k
                    if s.arm[1 - side][dest]:
                        land_battle(s, c, dest, side, None)
                        continue
                _end_move(s, c)
                continue
            # `board.land_reach`: it may pass only through cities its side controls
            mine, theirs = s.arm[side], s.arm[1 - side]
            roads = roads_by_bridge[s.bridge]
            seen = [False] * n_cities  # (a flag per city: no hashing, no set)
            seen[origin] = True
            frontier = [origin]
            reach = []
            while frontier:
                for n in roads[frontier.pop()]:
                    if not seen[n]:
                        seen[n] = True
                        reach.append(n)
                        if not theirs[n] and (mine[n] or major[n] == side):
                            frontier.append(n)
            reach.sort()
            dest = mv.dest = reach[int(rand() * len(reach))]
            n = mv.count  # `moves._land_move`
            mine[origin] -= n
            mine[dest] += n
            if theirs[dest]:
                land_battle(s, c, dest, side, None)
            else:
                _end_move(s, c)
            continue
        # (every phase above ends with `continue`, or falls into the next step of a move)
        if ph == DRAW:  # `sample_chance`, then `campaign.drawn`, draw after draw
            deck = s.deck
            if not deck:  # (a position with an empty pile: the rule says what happens)
                pile = s.discard
                drawn(s, c, draw_actions[pile[int(crand() * len(pile))]], None)
                continue
            to = s.draw_to
            hand = s.hands[to]
            draws = s.draws
            while True:
                card = deck[int(crand() * len(deck))]
                deck.remove(card)
                insort(hand, card)
                draws -= 1
                if card == 11 and to == PERSIA and s.kings < _MAX_KINGS:
                    s.used |= SUDDEN_DEATH
                if not deck:
                    if s.discard:  # RB 5.4: the discards become the new pile
                        deck = s.deck = sorted(s.discard)
                        s.discard = []
                    else:
                        break
                if draws <= 0:
                    break
                steps += 1  # (`_next_draw`: the next draw is due)
            s.draws = draws
            stack = s.stack
            if (
                draws <= 0 and stack and stack[-1][0] == "after_buy" and not s.used & SUDDEN_DEATH
            ):  # (`campaign.after_buy`: on to the builds)
                s.draws = 0
                s.side = stack.pop()[1]
                s.phase = PREP_BUILD
            else:
                next_draw(s, c, None)
        elif ph == PREP_BUILD:  # `campaign.build_options` and `campaign.build`, build
            # after build until the side is done: what it controls cannot change meanwhile
            # (it raises armies only where it has control), nor the enemy's fleets
            side = s.side
            mine_cities = controlled(c, s, side)
            theirs_fleets = s.flt[1 - side]
            havens = []  # (loops, not list comprehensions: each of those is a call)
            for x in mine_cities:
                if port[x] and not theirs_fleets[x]:
                    havens.append(x)
            n_mine, n_havens = len(mine_cities), len(havens)
            may_bridge = side == PERSIA and controls(c, s, PERSIA, abydos)
            fleet_price = campaign._fleet_price(s, c)
            armies, fleets, res_arm, res_flt = s.arm[side], s.flt[side], s.res_arm, s.res_flt
            talents, built, bridge = s.talents, s.fleets_built, s.bridge
            while True:  # options: done, the armies, the fleets, the bridge
                raise_army = talents >= army_price and res_arm[side]
                build_fleet = (
                    talents >= fleet_price and res_flt[side] and (built < 0 or built < max_fleets)
                )
                build_bridge = may_bridge and not bridge and talents >= bridge_price
                i = int(
                    rand()
                    * (
                        1
                        + (n_mine if raise_army else 0)
                        + (n_havens if build_fleet else 0)
                        + (1 if build_bridge else 0)
                    )
                )
                if not i:  # `campaign.build`, done
                    s.talents, s.fleets_built, s.bridge = talents, built, bridge
                    if built < 0:  # (the extra Preparation of Mines of Laurion ends)
                        resume(s, c, None)
                    elif side == PERSIA:
                        start_preparation(s, c, GREECE, None)
                    else:  # `campaign._start_operations`
                        s.side = s.active = PERSIA
                        s.passes = 0
                        s.phase = OPS
                    break
                steps += 1
                i -= 1
                if raise_army:
                    if i < n_mine:
                        talents -= army_price
                        res_arm[side] -= 1
                        armies[mine_cities[i]] += 1
                        continue
                    i -= n_mine
                if build_fleet and i < n_havens:
                    talents -= fleet_price
                    res_flt[side] -= 1
                    fleets[havens[i]] += 1
                    if built >= 0:
                        built += 1
                    continue
                talents -= bridge_price
                bridge = True
        elif ph == PREP_BUY:  # `buy_options`: buy 0 to `most`
            most = min(max_cards, s.talents // card_price, len(s.deck) + len(s.discard))
            n = int(rand() * (most + 1))
            if (n and not s.deck) or (not n and s.used & SUDDEN_DEATH):
                bought(s, c, A.buy[n], None)  # (the discards shuffled in, or a death due)
                continue
            side = s.side  # `campaign.buy`, `campaign.draw`
            s.talents -= n * card_price
            s.draws = n
            s.draw_to = side
            if n:  # the first draw is due
                s.stack.append(("after_buy", side))
                s.phase = DRAW
            else:  # `campaign.after_buy`
                s.phase = PREP_BUILD
        elif ph == SUP_REMOVE:  # `campaign.attrition_options`, then `campaign.attrition`
            side = s.side
            armies = s.arm[side]
            fed = []
            for x in c.attrition_cities[side]:
                if armies[x]:
                    fed.append(x)
            armies[fed[int(rand() * len(fed))]] -= 1
            s.res_arm[side] += 1
            s.draws -= 1
            if s.draws <= 0:
                supply_lines(s, c, side, None)
        elif ph == ROLL:  # `battle.sample_roll`
            bt = s.bt
            assert bt is not None
            stage = bt.stage
            if stage >= 2:
                n = 1
            else:
                side = bt.att if stage == 0 else 1 - bt.att
                if bt.kind == SEA:
                    n = s.flt[side][bt.city]
                elif side == GREECE and bt.gdice:
                    n = bt.gdice
                else:
                    n = s.arm[side][bt.city]
                if n > _MAX_DICE:
                    n = _MAX_DICE
            best = 0
            for _ in range(n):
                d = int(crand() * 6) + 1
                if d > best:
                    best = d
            if stage == 0:  # (`battle.rolled`: the attacker's die waits for the defender's)
                bt.aroll = best
                bt.stage = 1
            else:
                rolled(s, c, roll_actions[best], None)
        elif ph in _LISTED:
            listed = options[ph](s, c)
            rules[ph](s, c, listed[int(rand() * len(listed))], None)
        elif ph == LOT:
            hand = s.hands[GREECE]
            lot(s, c, lot_actions[hand[int(crand() * len(hand))]], None)
        elif ph == OVER:
            steps -= 1
            break
        else:  # (no other phase: the rules say what an unknown one does)
            listed = options[ph](s, c)
            rules[ph](s, c, listed[int(rand() * len(listed))], None)
    if steps:
        s._legal = None
    return steps


def _end_move(s: State, c: Components) -> None:
    """`moves.end_move` and what waited for the move; after a card's move (the usual
    case), the turn's end (`campaign.ops_next`) written out."""
    mv = s.mv
    assert mv is not None
    if mv.side == GREECE and mv.dest == c.abydos and s.bridge and controls(c, s, GREECE, c.abydos):
        s.side = GREECE
        s.phase = BRIDGE
        return
    s.mv = None
    stack = s.stack
    if not stack or stack[-1][0] != "ops_next":
        return campaign.resume(s, c, None)
    stack.pop()
    s.used &= ~NO_RETREAT
    if s.passes >= 2 or (not s.hands[PERSIA] and not s.hands[GREECE]):
        return campaign._start_supply(s, c, PERSIA, None)
    s.side = s.active = 1 - s.active
    s.phase = OPS
