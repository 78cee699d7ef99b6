"""The fused random playout (issue 21): a game played to its end in one loop.

What `engine.play.uniform` does through the protocol — every seat plays
`sensible(s)[int(agent_rng.random() * n)]`, chance `sample_chance(s, chance_rng)` — done
here without the protocol's calls: the phase is read once a step, chance is drawn inline
from `chance_rng` exactly as `sample_chance` draws it, the options of a decision are those
`legal` lists in the same order (for the most frequent decisions, only the chosen one is
built), and the chosen action goes straight to its rule, without `apply`'s check that it
is legal (it came from the rules' own list) and without events. Same random streams, same
game: the conformance suite holds it to the protocol loop (tests/conformance/
test_random_playout.py), and tests/earth_and_water/test_playout.py on more games.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Callable, Sequence
from typing import Any

from thermopylae.games.earth_and_water import campaign
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
    LOT,
    MAX_CARRY,
    MV_CARRY,
    MV_COUNT,
    MV_DEST,
    MV_ORIGIN,
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
    State,
)

Options = Callable[[State, Components], Sequence[Action]]
Rule = Callable[[State, Components, Any, None], None]

_MAX_KINGS = campaign.MAX_KINGS
# The decisions played from the rules' own list of options (the others are drawn here
# without building it).
_LISTED = frozenset(
    {OPS, MV_ORIGIN, MV_DEST, CHOOSE, REACT, BT_CHOICE, SUP_KEEP, SUP_REMOVE, BRIDGE}
)
_MAX_DICE = 3


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
    draw_actions, buy, armies, fleets, carry_actions = A.draw, A.buy, A.armies, A.fleets, A.carry
    roll_actions, lot_actions = A.roll, A.lot
    drawn, rolled, lot = rules[DRAW], rules[ROLL], rules[LOT]
    choose_count, choose_carry, bought = rules[MV_COUNT], rules[MV_CARRY], rules[PREP_BUY]
    next_draw = campaign._next_draw
    build = rules[PREP_BUILD]
    done, army, fleet, build_bridge = A.done, A.army, A.fleet, A.build_bridge
    prices = c.prices
    army_price, max_fleets, bridge_price = prices.army, prices.max_fleets, prices.bridge
    port, abydos = c.port, c.abydos
    max_cards, card_price = c.prices.max_cards, c.prices.card
    steps = 0
    while True:
        ph = s.phase
        steps += 1
        if ph == DRAW:  # `sample_chance`, then `campaign.drawn`
            deck = s.deck
            pile = deck or s.discard
            card = pile[int(crand() * len(pile))]
            if deck:
                deck.remove(card)
                if not deck and s.discard:  # RB 5.4: the discards become the new pile
                    s.deck, s.discard = sorted(s.discard), []
                to = s.draw_to
                insort(s.hands[to], card)
                s.draws -= 1
                if card == 11 and to == PERSIA and s.kings < _MAX_KINGS:
                    s.used |= SUDDEN_DEATH
                if not (s.draws > 0 and s.deck):  # (else the next draw is due: `_next_draw`)
                    next_draw(s, c, None)
            else:  # (a position with an empty pile: the rule says what happens)
                drawn(s, c, draw_actions[card], None)
        elif ph == PREP_BUILD:  # `campaign.build_options` and `campaign.build`, build
            # after build until the side is done: what it controls cannot change meanwhile
            # (it raises armies only where it has control), nor the enemy's fleets
            side = s.side
            mine = controlled(c, s, side)
            theirs = s.flt[1 - side]
            havens = [x for x in mine if port[x] and not theirs[x]]
            may_bridge = side == PERSIA and controls(c, s, PERSIA, abydos)
            fleet_price = campaign._fleet_price(s, c)
            while True:
                talents = s.talents
                acts: list[Action] = [done]
                if talents >= army_price and s.res_arm[side]:
                    acts += [army[x] for x in mine]
                built = s.fleets_built
                if talents >= fleet_price and s.res_flt[side] and (built < 0 or built < max_fleets):
                    acts += [fleet[x] for x in havens]
                if may_bridge and not s.bridge and talents >= bridge_price:
                    acts.append(build_bridge)
                a = acts[int(rand() * len(acts))]
                build(s, c, a, None)
                if a is done:
                    break
                steps += 1
        elif ph in _LISTED:
            listed = options[ph](s, c)
            rules[ph](s, c, listed[int(rand() * len(listed))], None)
        elif ph == PREP_BUY:  # `buy_options`: buy 0 to `most`
            most = min(max_cards, s.talents // card_price, len(s.deck) + len(s.discard))
            bought(s, c, buy[int(rand() * (most + 1))], None)
        elif ph == MV_COUNT:  # `count_options`: 1 to all the armies / fleets there
            mv = s.mv
            assert mv is not None
            if mv.mode == LAND:
                n = s.arm[mv.side][mv.origin]
                choose_count(s, c, armies[int(rand() * n) + 1], None)
            else:
                n = s.flt[mv.side][mv.origin]
                choose_count(s, c, fleets[int(rand() * n) + 1], None)
        elif ph == MV_CARRY:  # `carry_options`: 0 to the most the fleets may carry
            mv = s.mv
            assert mv is not None
            side = mv.side
            if (
                mv.kind == FLEETS_ONLY
                or mv.flag == THEMISTOCLES_MOVE
                or (s.carneia and side == GREECE and mv.origin == c.sparta)
            ):
                most = 0
            else:
                most = min(mv.count, MAX_CARRY, s.arm[side][mv.origin])
            choose_carry(s, c, carry_actions[int(rand() * (most + 1))], None)
        elif ph == ROLL:  # `battle.sample_roll`
            bt = s.bt
            assert bt is not None
            if bt.stage >= 2:
                n = 1
            else:
                side = bt.att if bt.stage == 0 else 1 - bt.att
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
            rolled(s, c, roll_actions[best], None)
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
