"""The rules of Thermopyles as a state machine (seeds 001, Portuguese, and 003, Italian):
the game class, which says who acts and what is legal and hands each action to its step.

The steps are plain functions of the state and the tables (`turn.py`: retreat, fight,
dice, combat; `draws.py`: the cards out of the decks; `flow.py`: what comes between), each
citing the sentence it implements. `legal` lists what the rules allow; each step checks
the same conditions before it changes anything, so an illegal action raises and leaves
the state untouched (the conformance suite checks that the two always agree).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from thermopylae.engine.errors import IllegalAction, ThermopylaeError
from thermopylae.engine.game import GameBase
from thermopylae.engine.protocol import (
    CHANCE,
    JSON,
    BatchSimulator,
    Event,
    MissingExtra,
    Outcome,
)
from thermopylae.games.thermopyles import chance as chance_steps
from thermopylae.games.thermopyles import draws, playout, text, turn, view
from thermopylae.games.thermopyles.actions import (
    MAX_PLAYERS,
    REFUSE,
    RETREAT,
    TAKE,
    Action,
    Discard,
    Draw,
    Fight,
    Give,
    Notation,
    Refuse,
    Retreat,
    Reveal,
    Roll,
    Take,
    seat_name,
)
from thermopylae.games.thermopyles.components import MAX_SUPPORT, Components
from thermopylae.games.thermopyles.flow import WON, Events
from thermopylae.games.thermopyles.state import (
    DISCARD,
    DRAW,
    FULL_HAND,
    OVER,
    PHASES,
    RECIPIENT,
    REFILL,
    ROLL,
    SETUP,
    TURN,
    State,
)

if TYPE_CHECKING:
    from thermopylae.games.thermopyles import observe
from thermopylae.games.thermopyles.tables import Tables
from thermopylae.games.wording import reword

HANDLERS: dict[type, Callable[[State, Tables, Any, Events], None]] = {
    Retreat: turn.retreat,
    Fight: turn.fight,
    Roll: turn.roll,
    Reveal: draws.reveal,
    Draw: draws.draw,
    Give: draws.give,
    Take: draws.take,
    Refuse: draws.refuse,
    Discard: draws.discard,
}
"""The step that plays each kind of action."""


class Thermopyles(GameBase[State, Action]):
    """The co-operative game for 1 to 4 Spartan players, bound to one component set."""

    id: ClassVar[str] = "thermopyles"
    title: ClassVar[str] = "Thermopyles"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = MAX_PLAYERS
    cooperative: ClassVar[bool] = True  # the players win or lose together
    notation: Notation

    def __init__(self, components: Components) -> None:
        self.components = components
        self.components_digest = components.digest
        self.provisional = components.provisional
        self.tables = Tables.of(components)
        self.notation = self.tables.notation
        self.kind_texts = self.tables.kind_texts
        self.locations = self.tables.locations
        self._turn_cache: dict[tuple[int, ...], list[tuple[Action, ...] | None]] = {}
        # By the number of players: the gifts of a draw, one tuple handed out each time
        # (a search knows a tuple of moves it has met by its identity)
        self._give = tuple(self.notation.give[:n] for n in range(MAX_PLAYERS + 1))
        self._outcomes: dict[tuple[int, str, int, int], Outcome] = {}
        # the die's distribution handed out again (OpenSpiel's interface encodes a tuple
        # it has seen once); a deck's is made anew: decks met again are too few to keep
        # (a cache by the cards in order made OpenSpiel's loop 1.5x slower, measured)
        self._roll = tuple((self.notation.roll[f], 1 / 6) for f in range(1, 7))

    # -- table ---------------------------------------------------------------------------

    def options(self, options: Mapping[str, Any] | None = None) -> JSON:
        """`players` (1-4, default 1) and `open_hands` (every seat sees every hand)."""
        given = dict(options or {})
        unknown = set(given) - {"players", "open_hands"}
        if unknown:
            raise ThermopylaeError(
                f"unknown option(s) {sorted(unknown)}; Thermopyles takes players and open_hands"
            )
        players = given.get("players", 1)
        if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 4:
            raise ThermopylaeError(f"players must be 1, 2, 3 or 4, not {players!r}")
        open_hands = given.get("open_hands", False)
        if not isinstance(open_hands, bool):
            raise ThermopylaeError(f"open_hands must be true or false, not {open_hands!r}")
        return {"players": players, "open_hands": open_hands}

    def seats(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        return tuple(seat_name(i) for i in range(self.options(options)["players"]))

    def new(self, options: Mapping[str, Any]) -> State:
        """Both decks shuffled face down (draws are chance nodes), support cards face up."""
        c = self.components
        # the options `options` returns, as simulations pass them game after game: no need
        # to check them again
        if type(options) is dict and len(options) == 2:
            players, open_hands = options.get("players"), options.get("open_hands")
            if type(players) is int and 1 <= players <= MAX_PLAYERS and type(open_hands) is bool:
                return State(players, open_hands, list(c.spartan), list(c.persian), c.support)
        o = self.options(options)
        return State(o["players"], o["open_hands"], list(c.spartan), list(c.persian), c.support)

    # -- whose move ----------------------------------------------------------------------

    def to_act(self, s: State) -> int | None:
        ph = s.phase
        if ph in (TURN, RECIPIENT):
            return s.active
        if ph in (FULL_HAND, DISCARD):
            return s.recipient
        if ph == OVER:
            return None
        return CHANCE

    def legal(self, s: State) -> Sequence[Action]:
        ph = s.phase
        if ph == TURN:
            key = tuple(s.hands[s.active])
            per = self._turn_cache.get(key)  # by the hand, then by the support cards left
            if per is None:
                per = self._turn_cache[key] = [None] * (MAX_SUPPORT + 1)
            cached = per[s.support]
            if cached is None:
                fight = self.notation.fight
                cached = per[s.support] = (
                    RETREAT,
                    *(fight[v, k] for v in dict.fromkeys(key) for k in range(s.support + 1)),
                )
            return cached
        if ph == RECIPIENT:
            return self._give[s.players]
        if ph == FULL_HAND:
            return (TAKE, REFUSE)
        if ph == DISCARD:
            return tuple(self.notation.discard[v] for v in dict.fromkeys(s.hands[s.recipient]))
        return ()

    # No legal move is pointless here: the searches' moves are the legal ones, asked of
    # `legal` itself (GameBase's `sensible` is one call more at every step of a walk).
    sensible = legal  # type: ignore[assignment]  # (its parameter is named s, not state)

    def _chance_kind(self, s: State) -> str:
        ph = s.phase
        if ph == ROLL:
            return "roll"
        if ph == REFILL or (ph == SETUP and (s.slots[0] < 0 or s.slots[1] < 0)):
            return "reveal"
        if ph in (DRAW, SETUP):
            return "draw"
        raise IllegalAction(f"no chance event is due now (phase {PHASES[ph]})")

    def chance(self, s: State) -> Sequence[tuple[Action, float]]:
        if s.phase in (TURN, RECIPIENT, FULL_HAND, DISCARD, OVER):
            return []
        kind = self._chance_kind(s)
        if kind == "roll":
            return self._roll
        n = self.notation
        deck, table = (s.pdeck, n.reveal) if kind == "reveal" else (s.sdeck, n.draw)
        # counted in a loop: a `Counter` costs more to build than the 20-28 cards to
        # count (OpenSpiel asks at every draw)
        counts: dict[int, int] = {}
        for k in deck:
            counts[k] = counts.get(k, 0) + 1
        size = len(deck)
        return [(table[k], c / size) for k, c in sorted(counts.items())]

    def sample_chance(self, s: State, rng: random.Random) -> Action:
        ph = s.phase
        n = self.notation
        if ph == ROLL:
            return n.roll[int(rng.random() * 6) + 1]
        if ph == REFILL or (ph == SETUP and (s.slots[0] < 0 or s.slots[1] < 0)):
            return n.reveal[s.pdeck[int(rng.random() * len(s.pdeck))]]
        if ph in (DRAW, SETUP):
            return n.draw[s.sdeck[int(rng.random() * len(s.sdeck))]]
        raise IllegalAction(f"no chance event is due now (phase {PHASES[ph]})")

    # -- applying actions ----------------------------------------------------------------

    def apply(self, s: State, action: Action, *, quiet: bool = False) -> list[Event]:
        handler = HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction(f"{action!r} is not a Thermopyles action")
        ev: list[Event] | None = None if quiet else []
        handler(s, self.tables, action, ev)
        return ev if ev is not None else []

    def advance_chance(self, s: State, rng: random.Random) -> int | None:
        """The protocol's chance steps fused into one call (chance.py): the same state
        for the same random source, what the searches' tree walks call."""
        return chance_steps.advance_chance(s, self.tables, rng)

    def apply_advance(self, s: State, action: Action, rng: random.Random) -> int | None:
        """A legal decision and the chance steps after it (each step of the searches'
        walks), a fight or a gift fused into one call (chance.py): the same state for the
        same random source."""
        if type(action) is Fight:
            return chance_steps.fight(s, self.tables, action, rng)
        if type(action) is Give:
            return chance_steps.give(s, self.tables, action, rng)
        HANDLERS[type(action)](s, self.tables, action, None)
        return chance_steps.advance_chance(s, self.tables, rng)

    def random_playout(self, s: State, chance_rng: random.Random, agent_rng: random.Random) -> int:
        """The protocol's uniformly random playout fused into one loop (playout.py): the
        same game for the same random sources, several times faster."""
        return playout.random_playout(s, self.tables, chance_rng, agent_rng)

    # -- results, views, notation ----------------------------------------------------------

    def outcome(self, s: State) -> Outcome | None:
        if s.phase != OVER:
            return None
        key = (s.result, s.reason, s.turn, s.players)
        known = self._outcomes.get(key)
        if known is None:  # a frozen value: one of each is enough (a search asks often)
            word = "win" if s.result == WON else "loss"
            score = 1.0 if s.result == WON else 0.0
            known = Outcome((word,) * s.players, (score,) * s.players, s.reason, s.turn)
            if len(self._outcomes) < 10_000:
                self._outcomes[key] = known
        return known

    def players_of(self, s: State) -> int:
        return s.players

    def turns_played(self, s: State) -> int:
        return s.turn

    def view(self, s: State, seat: int | None) -> JSON:
        return self._view(s, seat, reveal=False)

    def open_view(self, s: State) -> JSON:
        return self._view(s, None, reveal=True)

    def _view(self, s: State, seat: int | None, *, reveal: bool) -> JSON:
        return view.view(
            s,
            self.tables,
            seat,
            game_id=self.id,
            provisional=self.provisional,
            to_act=self.to_act(s),
            reveal=reveal,
        )

    def determinize(self, s: State, seat: int, rng: random.Random) -> State:
        return view.determinize(s, seat, rng)

    def describe(self, event: Event) -> str:
        return text.describe(event)

    def render(self, v: JSON) -> str:
        return text.render(v)

    def reason_text(self, reason: str) -> str:
        """An outcome's reason (English data in states and records) in the current
        language."""
        return reword(reason, text.REASONS)

    def label(self, action: Action) -> str:
        return text.label(action)

    def rules_text(self) -> str:
        return text.rules_text(self.components)

    def hand_text(self, v: JSON) -> str | None:
        from thermopylae.games.thermopyles.hand import hand_text

        return hand_text(v)

    # Saving, loading and observing are imported when first asked for: a command that
    # only plays (`simulate`) starts without them.
    def state_to_json(self, s: State) -> JSON:
        from thermopylae.games.thermopyles.serial import state_to_json

        return state_to_json(self.components, s)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        from thermopylae.games.thermopyles.serial import state_from_json

        return state_from_json(self.components, data)

    def agents(self) -> Mapping[str, Any]:
        from thermopylae.games.thermopyles.heuristic import Heuristic

        return {"heuristic": Heuristic}

    def observer(self, options: Mapping[str, Any]) -> observe.ThermopylesObserver:
        """Views as fixed-size numbers for learning interfaces (built once per seat count)."""
        return _observer(self, len(self.seats(options)))

    def levels(self, players: int, seat: str) -> Mapping[str, str]:
        from thermopylae.games.thermopyles.levels import levels

        return levels(players, seat)

    def batch_simulator(self, options: Mapping[str, Any]) -> BatchSimulator | None:
        """The compiled kernel (kernel.py, numba: the `[fast]` extra), imported only now:
        whole batches of random and heuristic games, held to the rules by
        tests/thermopyles/test_kernel.py."""
        players = self.options(options)["players"]
        try:
            from thermopylae.games.thermopyles.kernel import ThermopylesBatch
        except ImportError as exc:
            raise MissingExtra("fast", "the fast engine") from exc
        return ThermopylesBatch(self.components, players)


@lru_cache(maxsize=16)
def _observer(game: Thermopyles, players: int) -> observe.ThermopylesObserver:
    """The observer of `game` at `players` seats, built once (a few games are ever asked;
    kept here, off the instance, so that the game still pickles)."""
    from thermopylae.games.thermopyles import observe

    return observe.observer(game.tables, game.id, players)
