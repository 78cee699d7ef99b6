"""300: Earth & Water as a state machine: preparation, operations, supply, scoring.

Sources: the English rulebook (sections cited as RB n.n) and the digest in
shared/rules/earth-and-water.md; where they leave a point open, docs/rules/earth-and-water.md
says what we decided. The rules are plain functions of the state and the components:
the campaign sequence in campaign.py, movement in moves.py, battles in battle.py, the
card events in cards.py, the reactions in reactions.py; this module holds the protocol
object, which dispatches to them.

Legality has one source: `legal(state)`. `apply` accepts exactly the actions it lists
(cached per state), so an illegal action raises and changes nothing.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, ClassVar

from thermopylae.engine.errors import IllegalAction, RecordError, ThermopylaeError
from thermopylae.engine.game import GameBase
from thermopylae.engine.protocol import CHANCE, JSON, Event, Outcome
from thermopylae.games.earth_and_water import (
    battle,
    board,
    campaign,
    cards,
    moves,
    observe,
    reactions,
    text,
    view,
)
from thermopylae.games.earth_and_water.actions import (
    ACTION_TYPES,
    A,
    Action,
    Buy,
    Draw,
    Lot,
    Notation,
    Remove,
    Roll,
    Skip,
)
from thermopylae.games.earth_and_water.components import Components
from thermopylae.games.earth_and_water.serial import state_from_json, state_to_json
from thermopylae.games.earth_and_water.state import (
    BRIDGE,
    BT_CHOICE,
    CHOOSE,
    DRAW,
    GREECE,
    LOT,
    MOLON_LABE,
    MV_CARRY,
    MV_COUNT,
    MV_DEST,
    MV_ORIGIN,
    OPS,
    OVER,
    PERSIA,
    PHASES,
    PREP_BUILD,
    PREP_BUY,
    REACT,
    ROLL,
    SIDES,
    SUP_KEEP,
    SUP_REMOVE,
    TRIREMES_2,
    Ev,
    State,
)
from thermopylae.games.wording import reword


def _listed(action: Action, legal: Sequence[Action]) -> bool:
    """`action in legal`, the interned value found by identity first (an equality test of
    these values runs in Python, an identity test does not)."""
    for a in legal:
        if a is action:
            return True
    return action in legal


class EarthAndWater(GameBase[State, Action]):
    """Persia against Greece over five campaigns."""

    id: ClassVar[str] = "earth-and-water"
    title: ClassVar[str] = "300: Earth & Water"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    cooperative: ClassVar[bool] = False
    notation: Notation
    provisional = False

    def __init__(self, components: Components) -> None:
        self.c = components
        self.components = components
        self.components_digest = components.digest
        self.notation = Notation(components.names)
        self.cities = components.cities

    # -- table ---------------------------------------------------------------------------

    def options(self, options: Mapping[str, Any] | None = None) -> JSON:
        """`cheap_fleets`: the optional rule, Persian fleets cost 1 talent (RB 5.1)."""
        given = dict(options or {})
        unknown = set(given) - {"cheap_fleets", "players"}
        if unknown:
            raise ThermopylaeError(
                f"unknown option(s) {sorted(unknown)}; Earth & Water takes cheap_fleets"
            )
        if given.get("players", 2) != 2:
            raise ThermopylaeError("300: Earth & Water is a game for exactly 2 players")
        cheap = given.get("cheap_fleets", False)
        if not isinstance(cheap, bool):
            raise ThermopylaeError(f"cheap_fleets must be true or false, not {cheap!r}")
        return {"cheap_fleets": cheap}

    def seats(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        return SIDES

    def new(self, options: Mapping[str, Any]) -> State:
        """RB 3: the pieces on the map, the rest in reserve, cards shuffled, hands empty."""
        s = State(len(self.c.names), self.options(options))
        for side in (PERSIA, GREECE):
            for city, (a, f) in self.c.setup[side].items():
                s.arm[side][city] = a
                s.flt[side][city] = f
            s.res_arm[side] = self.c.armies[side] - sum(s.arm[side])
            s.res_flt[side] = self.c.fleets[side] - sum(s.flt[side])
        campaign.start_preparation(s, self.c, PERSIA, None)
        return s

    # -- whose move, and what is legal -----------------------------------------------------

    def to_act(self, s: State) -> int | None:
        ph = s.phase
        if ph == OVER:
            return None
        if ph in (DRAW, ROLL, LOT):
            return CHANCE
        return s.side

    def legal(self, s: State) -> Sequence[Action]:
        cached = s._legal
        if cached is None:
            cached = s._legal = tuple(self._legal(s))
            if not cached and s.phase not in (DRAW, ROLL, LOT, OVER):
                # never in a game played by the rules (the property tests check it); a
                # hand-edited position can get here
                raise RecordError(
                    f"no legal action in phase {PHASES[s.phase]!r}: this position is inconsistent"
                )
        return cached

    def _legal(self, s: State) -> list[Action]:
        ph = s.phase
        if ph == PREP_BUY:
            return [A.buy[n] for n in range(campaign.max_buy(s, self.c) + 1)]
        if ph == PREP_BUILD:
            return campaign.build_options(s, self.c)
        if ph == OPS:
            return campaign.ops_options(s, self.c)
        if ph == SUP_KEEP:
            hand = sorted(set(s.hands[s.side]))
            if s.side == PERSIA:
                return [A.keep_none, *(A.keep[k] for k in hand)]
            return [A.discard[k] for k in hand]
        if ph == SUP_REMOVE:
            _, counted = board.capacity(self.c, s, s.side)
            return [A.remove[x] for x in counted if s.arm[s.side][x]]
        if ph in (DRAW, ROLL, LOT, OVER):
            return []
        return self._step_options(s)  # moves, battles, reactions, event choices

    def chance(self, s: State) -> list[tuple[Action, float]]:
        ph = s.phase
        if ph == DRAW:
            pile = s.deck or s.discard
            counts = Counter(pile)
            return [(A.draw[k], n / len(pile)) for k, n in sorted(counts.items())]
        if ph == LOT:
            hand = Counter(s.hands[GREECE])
            total = len(s.hands[GREECE])
            return [(A.lot[k], n / total) for k, n in sorted(hand.items())]
        if ph == ROLL:
            return battle.roll_distribution(s, self.c)
        return []

    def sample_chance(self, s: State, rng: random.Random) -> Action:
        ph = s.phase
        if ph == DRAW:
            pile = s.deck or s.discard
            return A.draw[pile[int(rng.random() * len(pile))]]
        if ph == LOT:
            hand = s.hands[GREECE]
            return A.lot[hand[int(rng.random() * len(hand))]]
        if ph == ROLL:
            return battle.sample_roll(s, self.c, rng)
        raise IllegalAction(f"no chance event is due now (phase {PHASES[ph]})")

    # -- applying ----------------------------------------------------------------------------

    def apply(self, s: State, action: Action, *, quiet: bool = False) -> list[Event]:
        if type(action) not in ACTION_TYPES:
            raise IllegalAction(f"{action!r} is not an Earth & Water action")
        ph = s.phase
        if ph == OVER:
            raise IllegalAction("the game is over")
        if ph in (DRAW, ROLL, LOT):
            if not self._chance_ok(s, action):
                raise IllegalAction(
                    f"{self.format(action)!r} cannot happen now: {text.waiting_for(s)}"
                )
        elif not _listed(action, self.legal(s)):
            raise IllegalAction(f"{self.format(action)!r} is not legal now: {text.waiting_for(s)}")
        ev: list[Event] | None = None if quiet else []
        s._legal = None
        self._dispatch(s, action, ev)
        s._legal = None
        return ev if ev is not None else []

    def _chance_ok(self, s: State, a: Action) -> bool:
        """The same support as `chance`, checked without building the distribution."""
        ph = s.phase
        if ph == DRAW:
            return isinstance(a, Draw) and a.card in (s.deck or s.discard)
        if ph == LOT:
            return isinstance(a, Lot) and a.card in s.hands[GREECE]
        return isinstance(a, Roll) and _listed(
            a, [r for r, _ in battle.roll_distribution(s, self.c)]
        )

    def _dispatch(self, s: State, a: Action, ev: Ev) -> None:
        ph, c = s.phase, self.c
        # (`apply` let through only what the phase lists: the type checks are its types)
        if ph == PREP_BUY and isinstance(a, Buy):
            return campaign.buy(s, c, a.count, ev)
        if ph == DRAW and isinstance(a, Draw):
            return campaign.drawn(s, c, a.card, ev)
        if ph == PREP_BUILD:
            return campaign.build(s, c, a, ev)
        if ph == OPS:
            return campaign.ops(s, c, a, ev)
        if ph == SUP_KEEP:
            return campaign.keep(s, c, a, ev)
        if ph == SUP_REMOVE and isinstance(a, Remove):
            return campaign.attrition(s, c, a.city, ev)
        if ph == LOT and isinstance(a, Lot):
            return cards.lot(s, c, a.card, ev)
        if ph == ROLL and isinstance(a, Roll):
            return battle.rolled(s, c, a.face, ev)
        return self._step(s, a, ev)

    def _step_options(self, s: State) -> list[Action]:
        """The small decisions: the steps of a move, reactions, battles, event choices."""
        ph, c = s.phase, self.c
        if ph in (MV_ORIGIN, MV_COUNT, MV_CARRY, MV_DEST):
            out = moves.move_options(s, c)
            if ph == MV_ORIGIN and s.mv is not None and s.mv.flag in (MOLON_LABE, TRIREMES_2):
                out.append(A.skip)  # decision: these extra moves are optional
            return out
        if ph == REACT:
            return reactions.reaction_options(s)
        if ph == BT_CHOICE:
            return [A.continue_, *battle.retreats(s, c, s.side)]
        if ph == BRIDGE:
            return [A.destroy_bridge, A.spare_bridge]
        if ph == CHOOSE:
            return cards.choice_options(s, c)
        return []

    def _step(self, s: State, a: Action, ev: Ev) -> None:
        ph, c = s.phase, self.c
        if ph in (MV_ORIGIN, MV_COUNT, MV_CARRY, MV_DEST):
            if isinstance(a, Skip):
                s.mv = None
                return campaign.resume(s, c, ev)
            return moves.move_step(s, c, a, ev)
        if ph == REACT:
            return reactions.react(s, c, a, ev)
        if ph == BT_CHOICE:
            return battle.battle_step(s, c, a, ev)
        if ph == BRIDGE:
            return moves.bridge_step(s, c, a, ev)
        if ph == CHOOSE:
            return cards.choice_step(s, c, a, ev)
        raise AssertionError(f"no decision in phase {ph}")

    # -- results, views, notation ------------------------------------------------------------

    def outcome(self, s: State) -> Outcome | None:
        if s.phase != OVER:
            return None
        results = {0: ("win", "loss"), 1: ("loss", "win"), 2: ("draw", "draw")}[s.result]
        scores = {0: (1.0, 0.0), 1: (0.0, 1.0), 2: (0.5, 0.5)}[s.result]
        return Outcome(results, scores, s.reason, s.turns)

    def turns_played(self, s: State) -> int:
        return s.turns

    def view(self, s: State, seat: int | None) -> JSON:
        return view.view(s, self.c, seat, game_id=self.id, to_act=self.to_act(s))

    def determinize(self, s: State, seat: int, rng: random.Random) -> State:
        return view.determinize(s, seat, rng)

    def evaluate(self, s: State) -> tuple[float, float]:
        """Each side's estimated chance of winning an unfinished game (for a search that
        stops early; `ai.evaluate`)."""
        from thermopylae.games.earth_and_water.ai import evaluate

        return evaluate(self, s)

    def describe(self, event: Event) -> str:
        return text.describe(event)

    def render(self, v: JSON) -> str:
        return text.render(v)

    def rules_text(self) -> str:
        return text.rules_text(self.c)

    def hand_text(self, v: JSON) -> str | None:
        from thermopylae.games.earth_and_water.hand import hand_text

        return hand_text(v)

    def reason_text(self, reason: str) -> str:
        """An outcome's reason (English data in states and records) in the current
        language."""
        return reword(reason, text.REASONS)

    def label(self, action: Action) -> str:
        return text.label(self.c, self.notation, action)

    def state_to_json(self, s: State) -> JSON:
        return state_to_json(s)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return state_from_json(data, self.c, self)

    def agents(self) -> Mapping[str, Any]:
        from thermopylae.games.earth_and_water.ai import Heuristic

        return {"heuristic": Heuristic}

    def observer(self, options: Mapping[str, Any]) -> observe.EarthAndWaterObserver:
        """Views as fixed-size numbers for learning interfaces (built once per seat count)."""
        return _observer(self, len(self.seats(options)))

    def levels(self, players: int, seat: str) -> Mapping[str, str]:
        from thermopylae.games.earth_and_water.levels import levels

        return levels(players, seat)


@lru_cache(maxsize=16)
def _observer(game: EarthAndWater, players: int) -> observe.EarthAndWaterObserver:
    """The observer of `game` at `players` seats, built once (a few games are ever asked;
    kept here, off the instance, so that the game still pickles)."""
    return observe.observer(game.c, game.id, players)
