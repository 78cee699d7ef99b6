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


class Game(Protocol[S, A]):
    """What every game offers. Seats are indices `0..n-1`; `seats(options)` names them."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    cooperative: ClassVar[bool]  # every seat shares one result
    provisional: bool
    components_digest: str

    def options(self, options: Mapping[str, Any] | None = None) -> JSON:
        """Complete and check table options; raises `ThermopylaeError` naming a bad one."""
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
        """An action from its text notation; raises `NotationError`."""
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


class HandText(Protocol):
    """An optional member of a game: `hand_text(view)`, the cards the view's seat holds,
    each with what it does, as text for the terminal's `cards` command; `None` when the
    game has no hands or the view is a spectator's. It reads only the view, so it shows
    nothing the seat may not see. Faces look for it with `getattr(game, "hand_text")`."""

    def hand_text(self, view: JSON) -> str | None: ...


class Sensible(Protocol):
    """An optional member of a game: `sensible(state)`, the legal actions without the
    plays whose effect cannot apply now (a march card when no unit can march). The rules
    may allow such a play, so `legal` keeps it; agents choose among these so as not to
    spend a card for nothing. It reads only what every seat sees. Agents look for it with
    `getattr(game, "sensible")` (ai/playout.py `choices`)."""

    def sensible(self, state: Any) -> Sequence[Any]: ...


class ReasonText(Protocol):
    """An optional member of a game: `reason_text(reason)`, an outcome's reason in the
    current language (`thermopylae.i18n`). The reason itself stays English: it is data of
    states and records. The server sends both (`outcome.reason_text`)."""

    def reason_text(self, reason: str) -> str: ...
