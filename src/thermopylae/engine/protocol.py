"""The game protocol: the one contract that the command line, the server, the bots and
the simulations share. Nothing outside a game package touches a game's internals.

Two choices differ from a purely functional protocol, for speed:

* `apply` changes the state it is given and returns the events it caused (as
  python-chess's `Board.push` and OpenSpiel's `apply_action` do). Call `copy` first to
  keep the old state; playouts and search would otherwise spend most of their time copying.
* `sample_chance` draws one chance outcome directly; `chance` lists every outcome with its
  probability for algorithms that enumerate. Both describe the same distribution.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar

from thermopylae.engine.errors import ThermopylaeError

CHANCE = -1
"""What `to_act` returns while a card is drawn or a die is rolled."""

JSON = dict[str, Any]
S = TypeVar("S")
A = TypeVar("A")


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for logs and screens.

    `to` is the one seat allowed to see it (a card drawn into a hand); `None` means
    everyone. Every event sent anywhere goes through `visible_events`.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    to: int | None = None

    def to_json(self) -> JSON:
        return {"kind": self.kind, **self.data}


def visible_events(events: Sequence[Event], seat: int | None) -> list[Event]:
    """The events that `seat` may see (`None`: a spectator sees only public events)."""
    return [e for e in events if e.to is None or e.to == seat]


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game: one result per seat (`win`, `loss`, `draw`),
    one score per seat, why it ended, and how many turns it lasted."""

    results: tuple[str, ...]
    scores: tuple[float, ...]
    reason: str
    turns: int

    def to_json(self) -> JSON:
        return {
            "results": list(self.results),
            "scores": list(self.scores),
            "reason": self.reason,
            "turns": self.turns,
        }


@dataclass(frozen=True, slots=True)
class BatchCounts:
    """What a batch of games came to, summed (a `BatchSimulator`'s answer): the games,
    each seat's wins, the drawn games, the turns and steps of all games together, and how
    many games ended for each reason (the reasons as `Outcome.reason` gives them)."""

    games: int
    wins: tuple[int, ...]
    draws: int
    turns: int
    steps: int
    reasons: Mapping[str, int]

    def __add__(self, other: BatchCounts) -> BatchCounts:
        reasons = dict(self.reasons)
        for reason, n in other.reasons.items():
            reasons[reason] = reasons.get(reason, 0) + n
        return BatchCounts(
            self.games + other.games,
            tuple(a + b for a, b in zip(self.wins, other.wins, strict=True)),
            self.draws + other.draws,
            self.turns + other.turns,
            self.steps + other.steps,
            reasons,
        )


class BatchSimulator(Protocol):
    """Whole batches of games of one game and one set of options played at once by a
    game's own compiled kernel (`Game.batch_simulator`): mass simulation."""

    @property
    def policies(self) -> tuple[str, ...]:
        """The agent specs it plays (e.g. `random`, `heuristic`)."""
        ...

    def run(self, games: int, seed: int, policies: Sequence[str], start: int = 0) -> BatchCounts:
        """Games `start` .. `start + games - 1` of a run seeded `seed`, each seat playing
        its policy (one for every seat, or one per seat). A game depends only on the seed
        and its index, so a run played in batches of any size gives the same counts."""
        ...


class MissingExtra(ThermopylaeError):
    """A capability needs an optional extra of the package that is not installed."""

    def __init__(self, extra: str, capability: str) -> None:
        super().__init__(
            f"{capability} needs the [{extra}] extra: pip install 'thermopylae[{extra}]'"
        )
        self.extra = extra
        self.capability = capability


class Observer(Protocol):
    """A fixed-size numeric form of a view, for one game and one set of options."""

    def layout(self) -> Sequence[tuple[str, int, str]]:
        """`(name, size, meaning)` of every field, in order (docs/rl.md lists them)."""
        ...

    @property
    def size(self) -> int:
        """The number of values of an observation (the sum of the fields' sizes)."""
        ...

    def features(self, view: JSON) -> Sequence[float]:
        """The observation of `view`: `size` numbers, each scaled to about [0, 1]."""
        ...


class Game(Protocol[S, A]):
    """What every game offers. Seats are indices `0..n-1`; `seats(options)` names them.

    The members down to `agents` are the rules; those after it are capabilities with a
    default in `engine.game.GameBase` (the base every game extends), which a game
    overrides where it can do better: faces call them directly, never through `getattr`.
    docs/ARCHITECTURE.md has the table of both.
    """

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    cooperative: ClassVar[bool]  # every seat shares one result
    provisional: bool
    components_digest: str

    def options(self, options: Mapping[str, Any] | None = None) -> JSON:
        """Complete and check table options; raises `ThermopylaeError` naming a bad one.
        `{"players": n}` asks every game for `n` seats (a game of one player count takes
        its own count too)."""
        ...

    def seats(self, options: Mapping[str, Any]) -> tuple[str, ...]: ...

    def new(self, options: Mapping[str, Any]) -> S:
        """The state before any chance event (cards are dealt by chance nodes)."""
        ...

    def to_act(self, state: S) -> int | None:
        """The deciding seat, `CHANCE`, or `None` once the game is over."""
        ...

    def legal(self, state: S) -> Sequence[A]:
        """The deciding seat's legal actions, in a stable order."""
        ...

    def chance(self, state: S) -> Sequence[tuple[A, float]]: ...

    def sample_chance(self, state: S, rng: random.Random) -> A: ...

    def apply(self, state: S, action: A, *, quiet: bool = False) -> list[Event]:
        """Play `action` (a decision or a chance outcome) in place.

        Raises `IllegalAction` and leaves the state unchanged if the rules forbid it.
        With `quiet=True` no events are built (playouts).
        """
        ...

    def outcome(self, state: S) -> Outcome | None: ...

    def view(self, state: S, seat: int | None) -> JSON:
        """Exactly what `seat` may see, JSON-ready; `None` is a spectator."""
        ...

    def parse(self, text: str) -> A:
        """An action from its text notation, whatever its case and spacing; any other
        text raises `NotationError` (and nothing else)."""
        ...

    def format(self, action: A) -> str: ...

    def encode(self, action: A) -> int: ...

    def decode(self, index: int) -> A: ...

    @property
    def num_actions(self) -> int:
        """Size of the integer action space (decisions and chance outcomes)."""
        ...

    def copy(self, state: S) -> S: ...

    def state_to_json(self, state: S) -> JSON: ...

    def state_from_json(self, data: Mapping[str, Any]) -> S:
        """A state from `state_to_json`'s output; raises `RecordError` naming a bad field."""
        ...

    def describe(self, event: Event) -> str:
        """One line of the log for an event."""
        ...

    def render(self, view: JSON) -> str:
        """A view as plain text, for the terminal."""
        ...

    def rules_text(self) -> str:
        """The rules in brief and the components with their sources."""
        ...

    def agents(self) -> Mapping[str, Any]:
        """Game-specific agent factories (e.g. `heuristic`), by name."""
        ...

    # -- capabilities (defaults in engine.game.GameBase) ---------------------------------

    def determinize(self, state: S, seat: int, rng: random.Random) -> S:
        """A copy of `state` in which what `seat` cannot see (others' hands, the draw
        pile's order) is dealt anew from what it could be: what searches sample. The
        result depends only on what `seat` sees and on `rng` (two states the seat cannot
        tell apart give the same one), so a search learns nothing hidden from it."""
        ...

    def open_view(self, state: S) -> JSON:
        """A spectator's view with every seat's hidden parts shown (their hands), shaped
        like `view` so a board draws it: what a replay of a finished game shows."""
        ...

    def evaluate(self, state: S) -> tuple[float, ...] | None:
        """Each seat's estimated chance of winning an unfinished game, for a search that
        stops early; None where the game has no estimate for this position."""
        ...

    def sensible(self, state: S) -> Sequence[A]:
        """The legal actions without the plays whose effect cannot apply now (a march
        card when no unit can march): the rules allow them, so `legal` keeps them, but
        agents choose among these so as not to spend a card for nothing. A game with no
        such knowledge leaves `sensible` to be its `legal`, the same method (`GameBase`
        does so): then `random_playout` plays what random agents play
        (`engine.play.plays_legal`), and is `random_legal_playout` too."""
        ...

    def advance_chance(self, state: S, rng: random.Random) -> int | None:
        """Play the chance steps due now, in place, each `sample_chance(state, rng)`
        applied quietly, until a seat decides or the game is over; returns `to_act(state)`
        then (at once if no chance step is due). Exactly that loop, random draw for random
        draw: a game may fuse it into one call of its own (no action objects, no checks of
        the outcomes it drew itself), as the searches walk their trees through chance with
        it. The conformance suite holds every game to that equality."""
        ...

    def random_playout(self, state: S, chance_rng: random.Random, agent_rng: random.Random) -> int:
        """Play `state` to the end, in place, every seat choosing uniformly among
        `sensible(state)` (the move at `int(agent_rng.random() * len(moves))`), chance
        drawn by `sample_chance(state, chance_rng)`; returns the number of steps. Exactly
        `engine.play.play(game, state, (), chance_rng, agent_rng, moves=game.sensible)`,
        random stream for random stream: a game may fuse it into one loop of its own (no
        events, no re-checking the moves it made itself), the searches' and simulations'
        hot path. The conformance suite holds every game to that equality."""
        ...

    def random_legal_playout(
        self, state: S, chance_rng: random.Random, agent_rng: random.Random
    ) -> int:
        """`random_playout` with every seat choosing among `legal(state)` instead of
        `sensible`: what a table of random agents (`ai.base.RandomAgent`) plays, so
        simulations of random agents play through it. Exactly `engine.play.play(game,
        state, (), chance_rng, agent_rng, moves=game.legal)`, random stream for random
        stream (the conformance suite holds every game to it); `random_playout` itself
        where `sensible` is `legal`."""
        ...

    def batch_simulator(self, options: Mapping[str, Any]) -> BatchSimulator | None:
        """The game's compiled kernel for whole batches of games at `options` (`simulate
        --engine fast`, `balance`); None when the game has none. Raises `MissingExtra`
        when it has one that needs an optional extra not installed. The kernel is a
        second implementation of the rules: the game's tests hold it to the same games as
        the protocol for the same chance outcomes."""
        ...

    def label(self, action: A) -> str:
        """An action as a button says it (defaults to its notation)."""
        ...

    def hand_text(self, view: JSON) -> str | None:
        """The cards the view's seat holds, each with what it does, for the terminal's
        `cards` command; None when the game has no hands or the view is a spectator's."""
        ...

    def reason_text(self, reason: str) -> str:
        """An outcome's reason in the current language (`thermopylae.i18n`); the reason
        itself stays English, as data of states and records."""
        ...

    def levels(self, players: int, seat: str) -> Mapping[str, str]:
        """The server's AI levels for one seat of a table of `players`: `easy`,
        `normal` and `hard`, each an agent spec (`ai.base.make_agent`)."""
        ...

    def observer(self, options: Mapping[str, Any]) -> Observer | None:
        """The fixed-size numeric form of views for learning interfaces; None when the
        game offers none."""
        ...

    def side(self, options: Mapping[str, Any], seat: int) -> str:
        """The side `seat` plays, for ratings per side: the seat's name, unless several
        seats play one side together (300's two Spartan seats are both "sparta")."""
        ...

    def forfeit(self, state: S, seat: int, reason: str) -> Outcome:
        """The outcome when `seat` gives up the game now (its clock ran out: `reason`
        "time"), which the rules themselves never produce: the seat and whoever plays on
        its side lose, the others win (in a co-operative game every seat loses). `state`
        is left as it is; `turns` counts as `outcome` would, up to now."""
        ...


class Decider(Protocol):
    """Whatever chooses a seat's actions (`ai.base.Agent` is one): the engine's loops in
    `engine.play` need no more of an agent than this."""

    def act(self, game: GenericGame, state: Any, rng: random.Random) -> Any: ...


GenericGame = Game[Any, Any]
"""A game whose state and action types the code at hand does not need to know."""
