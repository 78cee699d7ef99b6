"""The base every game extends: what is the same in every game, written once.

The text notation and the integer encoding go through the game's `notation` (a
`NotationTable`), `copy` through the state's own `copy()`, and every capability of the
protocol has a default here that is right for a game which does not override it: a game
with hidden information overrides `determinize` (the conformance suite checks that a
determinized state shows the seat the same view), a game with a position estimate
overrides `evaluate`, and so on.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast

from thermopylae.engine.errors import NotationError, ThermopylaeError
from thermopylae.engine.play import plays_legal, uniform
from thermopylae.engine.protocol import CHANCE, JSON, BatchSimulator, Game, Observer, Outcome

S = TypeVar("S", bound="Copyable")
A = TypeVar("A")


class Copyable(Protocol):
    def copy(self) -> Any: ...


class NotationTable(Generic[A]):
    """Every action of a component set in one table: an action's integer code is its
    place in `table`. A game's `Notation` extends this with `parse` and `format` and
    fills `table` (decisions first, then chance outcomes) in its constructor."""

    table: tuple[A, ...]
    index: dict[A, int]

    def set_table(self, table: Sequence[A]) -> None:
        self.table = tuple(table)
        self.index = {a: i for i, a in enumerate(self.table)}

    def parse(self, text: str) -> A:
        raise NotImplementedError

    def format(self, action: A) -> str:
        raise NotImplementedError

    def encode(self, action: A) -> int:
        try:
            return self.index[action]
        except (KeyError, TypeError):
            raise NotationError(f"{action!r} has no integer code") from None

    def decode(self, code: int) -> A:
        if not 0 <= code < len(self.table):
            raise NotationError(f"action code {code} is outside 0..{len(self.table) - 1}")
        return self.table[code]


class GameBase(Generic[S, A]):
    """The shared half of every game class (see the module's docstring)."""

    min_players: ClassVar[int]
    max_players: ClassVar[int]
    cooperative: ClassVar[bool] = False
    notation: NotationTable[A]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A game that does not override `sensible` gets its own `legal` as `sensible`
        (the default's meaning, without a call in between): the searches ask for
        `sensible` at every decision of every playout."""
        super().__init_subclass__(**kwargs)
        if cls.sensible is GameBase.sensible and cls.legal is not GameBase.legal:
            cls.sensible = cls.legal  # type: ignore[method-assign]

    # -- notation and copies, through the notation table and the state ---------------

    def parse(self, text: str) -> A:
        return self.notation.parse(text)

    def format(self, action: A) -> str:
        return self.notation.format(action)

    def encode(self, action: A) -> int:
        return self.notation.encode(action)

    def decode(self, index: int) -> A:
        return self.notation.decode(index)

    @property
    def num_actions(self) -> int:
        return len(self.notation.table)

    def copy(self, state: S) -> S:
        copied: S = state.copy()
        return copied

    # -- capabilities: defaults for a game that does not override them -----------------

    def legal(self, state: S) -> Sequence[A]:
        raise NotImplementedError

    def view(self, state: S, seat: int | None) -> JSON:
        raise NotImplementedError  # every game says what a seat sees

    def agents(self) -> Mapping[str, Any]:
        return {}

    def determinize(self, state: S, seat: int, rng: random.Random) -> S:
        """Without hidden information, the state itself (a copy)."""
        return self.copy(state)

    def open_view(self, state: S) -> JSON:
        """Without hidden information, a spectator's view shows everything already."""
        return self.view(state, None)

    def evaluate(self, state: S) -> tuple[float, ...] | None:
        return None

    def sensible(self, state: S) -> Sequence[A]:
        return self.legal(state)

    def advance_chance(self, state: S, rng: random.Random) -> int | None:
        """The protocol's own loop: each chance outcome drawn by `sample_chance` and
        applied quietly, until a seat decides or the game is over."""
        g: Game[S, A] = self  # type: ignore[assignment]  # completed into a Game by its game
        seat = g.to_act(state)
        if seat != CHANCE:  # the usual answer after a decision: nothing more to look up
            return seat
        to_act, apply, sample = g.to_act, g.apply, g.sample_chance
        while seat == CHANCE:
            apply(state, sample(state, rng), quiet=True)
            seat = to_act(state)
        return seat

    def apply_advance(self, state: S, action: A, rng: random.Random) -> int | None:
        """`apply(state, action, quiet=True)`, then `advance_chance(state, rng)`: a decision
        and the chance steps after it, the step of the searches' tree walks; returns the
        seat that decides next (None: the game is over). `action` is one of
        `legal(state)`, so a game that fuses the two calls need not check it again."""
        g: Game[S, A] = self  # type: ignore[assignment]  # completed into a Game by its game
        g.apply(state, action, quiet=True)
        return g.advance_chance(state, rng)

    def random_playout(self, state: S, chance_rng: random.Random, agent_rng: random.Random) -> int:
        g = cast("Game[S, A]", self)  # a GameBase is completed into a Game by its game
        return uniform(g.to_act, g.apply, g.sample_chance, g.sensible, state, chance_rng, agent_rng)

    def random_legal_playout(
        self, state: S, chance_rng: random.Random, agent_rng: random.Random
    ) -> int:
        """The game's own `random_playout` where `sensible` is `legal` (its fused loop, if
        it has one); else the protocol loop over `legal`."""
        g = cast("Game[S, A]", self)  # a GameBase is completed into a Game by its game
        if plays_legal(g):
            return g.random_playout(state, chance_rng, agent_rng)
        return uniform(g.to_act, g.apply, g.sample_chance, g.legal, state, chance_rng, agent_rng)

    def batch_simulator(self, options: Mapping[str, Any]) -> BatchSimulator | None:
        """No compiled kernel: simulations play through the protocol."""
        return None

    def label(self, action: A) -> str:
        return self.format(action)

    def hand_text(self, view: JSON) -> str | None:
        return None

    def reason_text(self, reason: str) -> str:
        return reason

    def levels(self, players: int, seat: str) -> Mapping[str, str]:
        """Easy plays at random; normal and hard play the game's heuristic where it has
        one (a game overrides this with the strongest agents it has measured)."""
        best = "heuristic" if "heuristic" in self.agents() else "random"
        return {"easy": "random", "normal": best, "hard": best}

    def observer(self, options: Mapping[str, Any]) -> Observer | None:
        return None

    def seats(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        raise NotImplementedError  # every game names its seats

    def side(self, options: Mapping[str, Any], seat: int) -> str:
        """The seat's own name: one seat, one side (a game with sides of several seats
        overrides this)."""
        return str(self.seats(options)[seat])

    def forfeit(self, state: S, seat: int, reason: str) -> Outcome:
        """Co-operative: every seat loses. Otherwise the seat loses and every other seat
        wins (a game with sides of several seats overrides this); scores 1 for a win, 0
        for a loss."""
        players = self.players_of(state)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ThermopylaeError(f"no seat {seat!r} to forfeit; the seats are 0..{players - 1}")
        losers = set(range(players)) if self.cooperative else {seat}
        results = tuple("loss" if p in losers else "win" for p in range(players))
        scores = tuple(0.0 if p in losers else 1.0 for p in range(players))
        return Outcome(results, scores, reason, self.turns_played(state))

    # -- what `forfeit` needs to know of a state (games with a player range override) ----

    def players_of(self, state: S) -> int:
        """The number of seats at the table of `state`: the game's one player count here;
        a game of several counts overrides this with what its state holds."""
        if self.min_players != self.max_players:
            raise NotImplementedError(f"{type(self).__name__} must say how many seats a state has")
        return int(self.min_players)

    def turns_played(self, state: S) -> int:
        """The turns played so far, counted as the game's `outcome` counts them (0 for a
        game that does not override this)."""
        return 0
