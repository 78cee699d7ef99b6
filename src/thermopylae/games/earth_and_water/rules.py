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
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any, ClassVar, NoReturn

from thermopylae.engine.errors import IllegalAction, RecordError, ThermopylaeError
from thermopylae.engine.game import GameBase
from thermopylae.engine.protocol import CHANCE, JSON, Event, Outcome
from thermopylae.games.earth_and_water import (
    battle,
    campaign,
    cards,
    moves,
    observe,
    playout,
    reactions,
    text,
    view,
)
from thermopylae.games.earth_and_water.actions import (
    ACTION_TYPES,
    A,
    Action,
    Draw,
    Lot,
    Notation,
    Roll,
)
from thermopylae.games.earth_and_water.components import Components
from thermopylae.games.earth_and_water.serial import state_from_json, state_to_json
from thermopylae.games.earth_and_water.state import (
    BRIDGE,
    BT_CHOICE,
    CHANCE_PHASES,
    CHOOSE,
    DRAW,
    GREECE,
    LOT,
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
    Ev,
    State,
)
from thermopylae.games.wording import reword


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
        if ph in CHANCE_PHASES:
            return CHANCE
        if ph == OVER:
            return None
        return s.side

    def legal(self, s: State) -> Sequence[Action]:
        cached = s._legal
        if cached is None:
            # (not interned: a key by the actions' identities, `tuple(map(id, ...))`,
            # costs about five times the tuple itself, a fifth of a decision)
            cached = s._legal = tuple(_OPTIONS[s.phase](s, self.c))
            if not cached and s.phase not in (DRAW, ROLL, LOT, OVER):
                # never in a game played by the rules (the property tests check it); a
                # hand-edited position can get here
                raise RecordError(
                    f"no legal action in phase {PHASES[s.phase]!r}: this position is inconsistent"
                )
        return cached

    def chance(self, s: State) -> Sequence[tuple[Action, float]]:
        """Rolls: an interned tuple per number of dice (OpenSpiel's interface encodes it
        once). Cards: a new list (interned by the cards, measured: two thirds of the piles
        are new, and the look-up cost more than it saved)."""
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
            return _DRAWS[pile[int(rng.random() * len(pile))]]
        if ph == LOT:
            hand = s.hands[GREECE]
            return A.lot[hand[int(rng.random() * len(hand))]]
        if ph == ROLL:
            return battle.sample_roll(s, self.c, rng)
        raise IllegalAction(f"no chance event is due now (phase {PHASES[ph]})")

    def apply_advance(self, s: State, action: Action, rng: random.Random) -> int | None:
        """A legal decision and the chance steps after it (the searches' walks and the
        learning interfaces step with it): `action` came from `legal(s)`, so it goes to
        its rule unchecked and without events, and each chance outcome is drawn as
        `sample_chance` draws it and goes to its rule too. The same state as `apply`
        then `advance_chance` for the same random source (tests/conformance)."""
        c = self.c
        s._legal = None  # (stale from here on; no rule sets it again)
        _RULES[s.phase](s, c, action, None)
        ph = s.phase
        while ph in CHANCE_PHASES:
            if ph == DRAW:
                pile = s.deck or s.discard
                outcome: Action = _DRAWS[pile[int(rng.random() * len(pile))]]
            elif ph == LOT:
                hand = s.hands[GREECE]
                outcome = A.lot[hand[int(rng.random() * len(hand))]]
            else:
                outcome = battle.sample_roll(s, c, rng)
            _RULES[ph](s, c, outcome, None)
            ph = s.phase
        return None if ph == OVER else s.side

    def random_playout(self, s: State, chance_rng: random.Random, agent_rng: random.Random) -> int:
        """The protocol's uniformly random playout, fused into one loop (`playout`)."""
        return playout.random_playout(s, self.c, _OPTIONS, _RULES, chance_rng, agent_rng)

    # -- applying ----------------------------------------------------------------------------

    def apply(self, s: State, action: Action, *, quiet: bool = False) -> list[Event]:
        ph = s.phase
        if ph == DRAW:  # (`_chance_ok`'s draw, inline: ISMCTS's tree draws every card bought)
            if not (isinstance(action, Draw) and action.card in (s.deck or s.discard)):
                self._refuse(s, action)
        elif ph in CHANCE_PHASES:
            if not self._chance_ok(s, action):
                self._refuse(s, action)
        else:
            legal: Sequence[Action] | None = s._legal
            if legal is None:
                legal = self.legal(s)
            # The very object first, without the dataclasses' `__eq__` (the rules and the
            # notation hand out interned actions); an equal copy still counts.
            for a in legal:
                if a is action:
                    break
            else:
                if action not in legal:
                    self._refuse(s, action)
        ev: list[Event] | None = None if quiet else []
        s._legal = None
        _RULES[ph](s, self.c, action, ev)
        s._legal = None
        return ev if ev is not None else []

    def _refuse(self, s: State, action: Action) -> NoReturn:
        """Refuse an action that is not among the legal ones (or no action at all: the
        type is checked only here, off the hot path)."""
        if type(action) not in ACTION_TYPES:
            raise IllegalAction(f"{action!r} is not an Earth & Water action")
        if s.phase == OVER:
            raise IllegalAction("the game is over")
        if s.phase in CHANCE_PHASES:
            raise IllegalAction(f"{self.format(action)!r} cannot happen now: {text.waiting_for(s)}")
        raise IllegalAction(f"{self.format(action)!r} is not legal now: {text.waiting_for(s)}")

    def _chance_ok(self, s: State, a: Action) -> bool:
        """The same support as `chance`, checked without building the distribution."""
        ph = s.phase
        if ph == DRAW:
            return isinstance(a, Draw) and a.card in (s.deck or s.discard)
        if ph == LOT:
            return isinstance(a, Lot) and a.card in s.hands[GREECE]
        return isinstance(a, Roll) and battle.roll_possible(s, a.face)

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

    def open_view(self, s: State) -> JSON:
        return view.view(s, self.c, None, game_id=self.id, to_act=self.to_act(s), reveal=True)

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


def _nothing(s: State, c: Components) -> list[Action]:
    """The options of a chance phase, or of the end: no decision."""
    return []


def _over(s: State, c: Components, a: Action, ev: Ev) -> None:
    raise IllegalAction("the game is over")  # (`apply` refuses every action first)


Rule = Callable[[State, Components, Any, Ev], None]  # (the action: one of the phase's types)

# Per phase (in `state.PHASES` order): the decisions open to the seat to act, and the rule
# that applies one of them (or a chance outcome). `legal` and `apply` index these by the
# phase: one call each, whatever the phase.
_PHASE_RULES: dict[int, tuple[Callable[[State, Components], list[Action]], Rule]] = {
    PREP_BUY: (campaign.buy_options, campaign.buy),
    DRAW: (_nothing, campaign.drawn),
    PREP_BUILD: (campaign.build_options, campaign.build),
    OPS: (campaign.ops_options, campaign.ops),
    MV_ORIGIN: (moves.origin_options, moves.choose_origin),
    MV_COUNT: (moves.count_options, moves.choose_count),
    MV_CARRY: (moves.carry_options, moves.choose_carry),
    MV_DEST: (moves.dest_options, moves.choose_dest),
    REACT: (reactions.reaction_options, reactions.react),
    ROLL: (_nothing, battle.rolled),
    BT_CHOICE: (battle.battle_options, battle.battle_step),
    BRIDGE: (moves.bridge_options, moves.bridge_step),
    CHOOSE: (cards.choice_options, cards.choice_step),
    SUP_KEEP: (campaign.keep_options, campaign.keep),
    SUP_REMOVE: (campaign.attrition_options, campaign.attrition),
    LOT: (_nothing, cards.lot),
    OVER: (_nothing, _over),
}
_OPTIONS = tuple(_PHASE_RULES[ph][0] for ph in range(len(PHASES)))
_RULES = tuple(_PHASE_RULES[ph][1] for ph in range(len(PHASES)))
_DRAWS = A.draw  # (`sample_chance`'s draws: one global, not an attribute, per draw)
