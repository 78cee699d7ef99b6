"""The rules of 300: The Board Game as a state machine (seed 000, the English rulebook).

The game class is the protocol object; the rules themselves live in modules of one
subject each: the round's phases (phases.py) and its pending steps (flow.py), the March
Phase (march.py), the battles (battle.py), the Battle Cards (cards.py), the pull-back
and the Persian return (pullback.py), Glory and the ends of the game (victory.py).

`legal` lists what the rules allow; `apply` accepts exactly those actions (a property
test checks it), so an illegal action raises and leaves the state unchanged.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from math import trunc
from typing import Any, ClassVar, NoReturn

from thermopylae.engine.errors import IllegalAction, ThermopylaeError
from thermopylae.engine.game import GameBase
from thermopylae.engine.protocol import CHANCE, JSON, Event, Outcome
from thermopylae.games.hot_gates import (
    battle,
    cards,
    flow,
    march,
    observe,
    phases,
    playout,
    pullback,
    text,
    view,
)
from thermopylae.games.hot_gates.actions import (
    ACTION_TYPES,
    Action,
    Casualty,
    Draw,
    Enter,
    Notation,
    Roll,
)
from thermopylae.games.hot_gates.battle import DICE
from thermopylae.games.hot_gates.board import (
    CAMP_SPARTANS,
    GAME_ID,
    PERSIAN,
    SEATS,
    SETUP,
    SPARTAN_SETUP,
    START_BOX,
    Tables,
    side_of_seat,
)
from thermopylae.games.hot_gates.components import GENERAL, SPARTAN, UBER, XERXES, Components
from thermopylae.games.hot_gates.serial import state_from_json, state_to_json
from thermopylae.games.hot_gates.state import (
    CASUALTY,
    CONQUER,
    DEAL,
    MARCH,
    OVER,
    PULLBACK,
    RETURN,
    WINDOW,
    State,
    phase_name,
)
from thermopylae.games.wording import reword


class HotGates(GameBase[State, Action]):
    """300: The Board Game for 2, 3 or 4 players, bound to one component set."""

    id: ClassVar[str] = GAME_ID
    title: ClassVar[str] = "300: The Board Game"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    cooperative: ClassVar[bool] = False
    notation: Notation

    def __init__(self, components: Components) -> None:
        self.components = components
        self.components_digest = components.digest
        self.provisional = components.provisional
        self.notation = Notation(components)
        self.t = Tables(components, self.notation)
        self.cards = components.cards
        faces = Counter(components.faces)
        self._faces = list(components.faces)
        # The die's actions by face slot, as `sample_chance` draws them (one look-up a roll).
        self._face_rolls = [self.notation.roll[f] for f in self._faces]
        self._roll_dist = [
            (self.notation.roll[f], c / len(components.faces)) for f, c in sorted(faces.items())
        ]
        # Each seat's deck by player count, sorted out of the cards once: `new` copies them.
        self._decks = {n: cards.decks(self.cards, n) for n in (2, 3, 4)}

    # -- table ---------------------------------------------------------------------------

    def options(self, options: Mapping[str, Any] | None = None) -> JSON:
        """`players`: 2 (one Spartan, one Persian, the default), 3 or 4."""
        given = dict(options or {})
        unknown = set(given) - {"players"}
        if unknown:
            raise ThermopylaeError(
                f"unknown option(s) {sorted(unknown)}; 300: The Board Game takes players"
            )
        players = given.get("players", 2)
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
            raise ThermopylaeError(f"players must be 2, 3 or 4, not {players!r}")
        return {"players": players}

    def seats(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        return SEATS[self.options(options)["players"]]

    def new(self, options: Mapping[str, Any]) -> State:
        """The set-up of seed 000; the opening hands are dealt by chance nodes."""
        n = self.options(options)["players"]
        s = State(n)
        for sp, types in {**SETUP, **SPARTAN_SETUP}.items():
            s.board[sp] = [t * 2 for t in types]
        s.camp = [SPARTAN * 2] * CAMP_SPARTANS
        s.boxes = [[t * 2 for t in START_BOX]]
        s.leaders = [XERXES, UBER, GENERAL, GENERAL]
        s.decks = [deck[:] for deck in self._decks[n]]
        phases.opening(s, self.t, None)
        return s

    # -- whose move ----------------------------------------------------------------------

    def to_act(self, s: State) -> int | None:
        # flow.to_act, written out: a playout asks twice a step
        ph = s.phase
        if ph == OVER:
            return None
        return CHANCE if ph == DEAL else s.actor

    def legal(self, s: State) -> Sequence[Action]:
        """Each decision's list is built once per step and kept in the state (`cache`):
        an agent asks for it, then `apply` checks the move against it."""
        ph = s.phase
        cached = s.cache
        if cached is not None and cached[0] == s.steps and ph != DEAL and ph != OVER:
            return cached[1]
        if ph in (DEAL, OVER):
            return ()
        acts: list[Action]
        if ph == MARCH:
            acts, geometry = march.march_list(s, self.t, None)
            s.cache = (s.steps, acts, geometry)
            return acts
        if ph == WINDOW:
            acts = cards.legal(s, self.t)
        elif ph == CASUALTY:
            acts = battle.casualty_legal(s, self.t)
        elif ph == CONQUER:
            acts = battle.conquer_legal(s, self.t)
        elif ph == PULLBACK:
            acts = pullback.pullback_legal(s, self.t)
        elif ph == RETURN:
            acts = pullback.return_legal(s, self.t)
        else:
            return ()
        s.cache = (s.steps, acts, None)
        return acts

    def sensible(self, s: State) -> Sequence[Action]:
        """`legal` without the plays the game knows to be pointless: a card whose effect
        cannot apply (decision 35). The rules allow them, so `legal` keeps them; the
        searches choose among these instead, so as not to spend a card for nothing."""
        acts = self.legal(s)
        return cards.sensible(s, self.t, acts) if s.phase == WINDOW else acts

    def chance(self, s: State) -> list[tuple[Action, float]]:
        if s.phase != DEAL:
            return []
        if s.draws:
            deck = s.decks[s.draws[0]]
            counts = Counter(deck)
            return [(self.notation.draw[c], k / len(deck)) for c, k in sorted(counts.items())]
        return list(self._roll_dist)

    def sample_chance(self, s: State, rng: random.Random) -> Action:
        if s.phase != DEAL:
            raise IllegalAction(f"no chance event is due now ({text.waiting_for(s)})")
        if s.draws:
            deck = s.decks[s.draws[0]]
            return self.notation.draw[deck[trunc(rng.random() * len(deck))]]
        rolls = self._face_rolls
        return rolls[trunc(rng.random() * len(rolls))]  # (trunc: playout.py)

    def advance_chance(self, s: State, rng: random.Random) -> int | None:
        """The chance steps due, with the protocol's draws, in one loop (playout.py)."""
        if s.phase != DEAL:
            return None if s.phase == OVER else s.actor
        return playout.advance_chance(s, self.t, self._faces, rng)

    def random_playout(self, s: State, chance_rng: random.Random, agent_rng: random.Random) -> int:
        """The protocol's uniformly random playout in one loop (playout.py): the same game
        for the same random sources, without the protocol's calls between the steps."""
        return playout.random_playout(s, self.t, self._faces, chance_rng, agent_rng)

    def random_legal_playout(
        self, s: State, chance_rng: random.Random, agent_rng: random.Random
    ) -> int:
        """The same loop choosing among `legal`: a card window's whole list."""
        return playout.random_playout(s, self.t, self._faces, chance_rng, agent_rng, False)

    # -- applying actions ----------------------------------------------------------------

    def apply(self, s: State, action: Action, *, quiet: bool = False) -> list[Event]:
        ev: list[Event] | None = None if quiet else []
        ph = s.phase
        if ph == MARCH:  # the most frequent step, its list usually kept from the last one
            cached = s.cache
            if cached is None or cached[0] != s.steps:
                self.legal(s)  # (keeps the list and its geometry in the cache)
                cached = s.cache
                assert cached is not None
            marches = cached[1]
            for a in marches:  # (as below)
                if a is action:
                    break
            else:
                if action not in marches:
                    self._refuse(s, action)
            # the cache read once above; the next list kept for the next step
            geometry = cached[2]
            nxt = march.march_on(s, self.t, action, ev, geometry)
            if nxt is not None:
                s.cache = (s.steps + 1, nxt, geometry)
        elif ph == DEAL:
            rolls = s.rolls
            if (
                action.__class__ is Roll
                and ev is None
                and not s.draws
                and len(rolls) > 1
                and action.face in self.notation.roll
            ):
                # a die that is not the last one due: it only shows its face (`battle.rolled`,
                # then `flow.deal` finds more dice to roll); most chance steps are these
                slot = rolls.pop(0)
                s.bt[DICE + (slot >> 3)][slot & 7] = action.face
            else:
                self._chance(s, action, ev)
        elif ph == OVER:
            raise IllegalAction("the game is over")
        else:
            acts = self.legal(s)
            # The very object first, without the dataclasses' `__eq__`: the rules and the
            # notation hand out interned actions. An equal copy still counts.
            for a in acts:
                if a is action:
                    break
            else:
                if action not in acts:
                    self._refuse(s, action)
            self._decide(s, action, ev)
        s.steps += 1
        return ev if ev is not None else []

    def _refuse(self, s: State, action: Action) -> NoReturn:
        """Refuse an action that is not among the legal ones (or no action at all: the
        type is checked only here, off the hot path)."""
        if not isinstance(action, ACTION_TYPES):
            raise IllegalAction(f"{action!r} is not a 300: The Board Game action")
        raise IllegalAction(f"{self._name(action)!r} is not legal now: {text.waiting_for(s)}")

    def _name(self, a: Action) -> str:
        try:
            return self.format(a)
        except (TypeError, IndexError, KeyError):
            return repr(a)

    def _chance(self, s: State, a: Action, ev: flow.Events) -> None:
        if s.draws:
            if not isinstance(a, Draw) or a.card not in s.decks[s.draws[0]]:
                if not isinstance(a, ACTION_TYPES):
                    self._refuse(s, a)
                raise IllegalAction(
                    f"{self._name(a)!r} is not possible now: a card is drawn "
                    f"from the deck of {SEATS[s.players][s.draws[0]]}"
                )
            cards.drawn(s, self.t, a.card, ev)
        else:
            if not isinstance(a, Roll) or a.face not in self.notation.roll:
                if not isinstance(a, ACTION_TYPES):
                    self._refuse(s, a)
                raise IllegalAction(
                    f"{self._name(a)!r} is not possible now: a Battle Die is rolled"
                )
            battle.rolled(s, a.face, ev)
        flow.deal(s, self.t, ev)

    def _decide(self, s: State, a: Action, ev: flow.Events) -> None:
        """A legal decision of the phase (the March Phase's are applied in `apply`)."""
        ph = s.phase
        if ph == WINDOW:
            return cards.decide(s, self.t, a, ev)
        if ph == CASUALTY:
            assert isinstance(a, Casualty)
            return battle.casualty(s, self.t, a.piece, ev)
        if ph == CONQUER:
            return battle.conquer(s, self.t, a, ev)
        if ph == PULLBACK:
            assert isinstance(a, Enter)
            return pullback.place(s, self.t, a, ev)
        return pullback.returned(s, self.t, a, ev)

    def march_order(self, players: int) -> tuple[int, ...]:
        """Persians first (row A's before row B's), then the Spartans the same way."""
        return march.order(players)

    def could_march(self, s: State, seats: Sequence[int]) -> bool:
        """Whether one of `seats` could move or bring on a unit if its march began now
        (what a `march` card needs, decision 35)."""
        return march.could_march(s, self.t, seats)

    # -- results, views, notation ----------------------------------------------------------

    def outcome(self, s: State) -> Outcome | None:
        if s.phase != OVER:
            return None
        results = tuple("win" if p in s.winners else "loss" for p in range(s.players))
        scores = tuple(1.0 if p in s.winners else 0.0 for p in range(s.players))
        return Outcome(results, scores, s.reason, s.round)

    def forfeit(self, s: State, seat: int, reason: str) -> Outcome:
        """The seat's side loses and every seat of the other side wins: with 3 players the
        two Spartan seats, with 4 also the two Persian ones, hold the Pass together, so
        one who gives up gives it up for both (whoever of them had the most Glory or kills)."""
        super().forfeit(s, seat, reason)  # checks the seat
        side = side_of_seat(s.players, seat)
        lose = [side_of_seat(s.players, p) == side for p in range(s.players)]
        results = tuple("loss" if lost else "win" for lost in lose)
        scores = tuple(0.0 if lost else 1.0 for lost in lose)
        return Outcome(results, scores, reason, s.round)

    def side(self, options: Mapping[str, Any], seat: int) -> str:
        """Persia or Sparta, whichever seat of the side plays it."""
        players = len(self.seats(options))
        return "persia" if side_of_seat(players, seat) == PERSIAN else "sparta"

    def players_of(self, s: State) -> int:
        return s.players

    def turns_played(self, s: State) -> int:
        """Rounds, as `outcome` counts them."""
        return s.round

    def view(self, s: State, seat: int | None) -> JSON:
        return view.view(s, self.t, seat)

    def open_view(self, s: State) -> JSON:
        return view.view(s, self.t, None, reveal=True)

    def determinize(self, s: State, seat: int, rng: random.Random) -> State:
        return view.determinize(s, seat, rng)

    def evaluate(self, s: State) -> tuple[float, ...] | None:
        """Each seat's estimated chance of winning an unfinished game, for a search that
        stops early (`evaluation.py`; None where there is no model)."""
        from thermopylae.games.hot_gates.evaluation import evaluate

        return evaluate(s, self.t)

    def describe(self, event: Event) -> str:
        return text.describe(self.components, event)

    def render(self, v: JSON) -> str:
        return text.render(v)

    def rules_text(self) -> str:
        return text.rules_text(self.components)

    def hand_text(self, v: JSON) -> str | None:
        from thermopylae.games.hot_gates.hand import hand_text

        return hand_text(v)

    def state_to_json(self, s: State) -> JSON:
        return state_to_json(s, self.t)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return state_from_json(data, self.t, self)

    def agents(self) -> Mapping[str, Any]:
        from thermopylae.games.hot_gates.heuristic import Heuristic

        return {"heuristic": Heuristic}

    def observer(self, options: Mapping[str, Any]) -> observe.HotGatesObserver:
        """Views as fixed-size numbers for learning interfaces (built once per seat count)."""
        return observe.observer(self, len(self.seats(options)))

    def levels(self, players: int, seat: str) -> Mapping[str, str]:
        from thermopylae.games.hot_gates.levels import levels

        return levels(players, seat)

    def reason_text(self, reason: str) -> str:
        """An outcome's reason (English data in states and records) in the current
        language."""
        return reword(reason, text.REASONS)

    def label(self, action: Action) -> str:
        return text.label(self.notation, action)

    def phase_name(self, s: State) -> str:
        return phase_name(s)
