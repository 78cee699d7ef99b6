"""Toy: High Card, a fourth game that lives only in the tests, built on the engine's
`GameBase` and `NotationTable` and nothing else of thermopylae.

It is as small as a game can be while still having what makes the contract hard: chance
(cards are drawn), hidden information (hands), 2 or 3 seats, and an end. The rules: ten
cards numbered 1-10 are shuffled face down; each seat is dealt two. In turn, each seat
plays a card of its hand face up; it scores a point if the card is higher than the card
it covers (any card scores on the empty table), then draws a card while any are left.
When every hand is empty, the most points win; seats level on the most points draw.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from thermopylae.engine.components import digest
from thermopylae.engine.errors import IllegalAction, NotationError, RecordError, ThermopylaeError
from thermopylae.engine.game import GameBase, NotationTable
from thermopylae.engine.observation import Observer
from thermopylae.engine.protocol import CHANCE, JSON, Event, Outcome

CARDS = tuple(range(1, 11))
HAND = 2
MIN_PLAYERS, MAX_PLAYERS = 2, 3


@dataclass(frozen=True, slots=True)
class Play:
    """A seat plays `card` from its hand."""

    card: int


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: `card` is drawn into the hand of the next seat owed a card."""

    card: int


Action = Play | Draw


def seat_name(seat: int) -> str:
    return f"p{seat + 1}"


@dataclass(slots=True)
class State:
    """Hands and the draw pile are kept sorted: a drawn card is any card of the pile
    (chance picks it), so the pile's order is not part of the game."""

    players: int
    hands: list[list[int]]
    deck: list[int]
    played: list[int]
    points: list[int]
    turn: int  # the seat to play next (once nobody is owed a card)
    owed: list[int]  # seats owed a card, in the order they get it

    def copy(self) -> State:
        return State(
            self.players,
            [h[:] for h in self.hands],
            self.deck[:],
            self.played[:],
            self.points[:],
            self.turn,
            self.owed[:],
        )


class Notation(NotationTable[Action]):
    """`play N` and `draw N`; case and spaces do not matter."""

    def __init__(self) -> None:
        self.set_table([*(Play(c) for c in CARDS), *(Draw(c) for c in CARDS)])

    def parse(self, text: str) -> Action:
        words = text.lower().split()
        if len(words) == 2 and words[0] in ("play", "draw") and words[1].isdigit():
            card = int(words[1])
            if card in CARDS:
                return Play(card) if words[0] == "play" else Draw(card)
        raise NotationError(f"{text!r} is not `play N` or `draw N` with N in 1-10")

    def format(self, action: Action) -> str:
        verb = "play" if isinstance(action, Play) else "draw"
        return f"{verb} {action.card}"


class Toy(GameBase[State, Action]):
    """The rules (module docstring); every capability the contract has, the toy offers."""

    id: ClassVar[str] = "toy"
    title: ClassVar[str] = "Toy: High Card"
    min_players: ClassVar[int] = MIN_PLAYERS
    max_players: ClassVar[int] = MAX_PLAYERS
    cooperative: ClassVar[bool] = False

    def __init__(self) -> None:
        self.notation = Notation()
        self.provisional = False
        self.components_digest = digest({"cards": list(CARDS), "hand": HAND})

    # -- table --------------------------------------------------------------------------

    def options(self, options: Mapping[str, Any] | None = None) -> JSON:
        given = dict(options or {})
        unknown = set(given) - {"players"}
        if unknown:
            raise ThermopylaeError(f"unknown option(s) {sorted(unknown)}; the toy takes players")
        players = given.get("players", MIN_PLAYERS)
        if (
            not isinstance(players, int)
            or isinstance(players, bool)
            or not MIN_PLAYERS <= players <= MAX_PLAYERS
        ):
            raise ThermopylaeError(f"players must be 2 or 3, not {players!r}")
        return {"players": players}

    def seats(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        return tuple(seat_name(p) for p in range(self.options(options)["players"]))

    def new(self, options: Mapping[str, Any]) -> State:
        n = self.options(options)["players"]
        return State(n, [[] for _ in range(n)], list(CARDS), [], [0] * n, 0, list(range(n)) * HAND)

    # -- rules --------------------------------------------------------------------------

    def to_act(self, state: State) -> int | None:
        if state.owed:
            return CHANCE
        if not any(state.hands):
            return None
        return state.turn

    def legal(self, state: State) -> Sequence[Action]:
        seat = self.to_act(state)
        if seat is None or seat == CHANCE:
            return []
        return [Play(c) for c in state.hands[seat]]

    def chance(self, state: State) -> Sequence[tuple[Action, float]]:
        if self.to_act(state) != CHANCE:
            return []
        p = 1.0 / len(state.deck)
        return [(Draw(c), p) for c in state.deck]

    def sample_chance(self, state: State, rng: random.Random) -> Action:
        if self.to_act(state) != CHANCE:
            raise IllegalAction("no card is to be drawn now")
        return Draw(state.deck[int(rng.random() * len(state.deck))])

    def apply(self, state: State, action: Action, *, quiet: bool = False) -> list[Event]:
        seat = self.to_act(state)
        if isinstance(action, Draw) and seat == CHANCE and action.card in state.deck:
            who = state.owed.pop(0)
            state.deck.remove(action.card)
            state.hands[who].append(action.card)
            state.hands[who].sort()
            events = [
                Event("drew", {"seat": seat_name(who), "card": action.card}, to=who),
                Event("draws", {"seat": seat_name(who)}),
            ]
        elif (
            isinstance(action, Play)
            and seat is not None
            and seat != CHANCE
            and action.card in state.hands[seat]
        ):
            scored = not state.played or action.card > state.played[-1]
            state.hands[seat].remove(action.card)
            state.played.append(action.card)
            state.points[seat] += scored
            if state.deck:
                state.owed.append(seat)
            state.turn = (seat + 1) % state.players
            events = [
                Event("played", {"seat": seat_name(seat), "card": action.card, "scored": scored})
            ]
        else:
            raise IllegalAction(f"{action!r} is not allowed now")
        if not state.owed and any(state.hands):
            while not state.hands[state.turn]:  # a seat with no card left is passed over
                state.turn = (state.turn + 1) % state.players
        if quiet:
            return []
        outcome = self.outcome(state)
        if outcome is not None:
            events.append(Event("over", {"reason": outcome.reason}))
        return events

    def outcome(self, state: State) -> Outcome | None:
        if self.to_act(state) is not None:
            return None
        best = max(state.points)
        top = [p for p in range(state.players) if state.points[p] == best]
        if len(top) == 1:
            results = tuple("win" if p in top else "loss" for p in range(state.players))
            reason = "the most points"
        else:
            results = tuple("draw" if p in top else "loss" for p in range(state.players))
            reason = "level on the most points"
        scores = tuple((1.0 / len(top)) if p in top else 0.0 for p in range(state.players))
        return Outcome(results, scores, reason, len(state.played))

    def players_of(self, state: State) -> int:
        return state.players

    def turns_played(self, state: State) -> int:
        return len(state.played)

    # -- what seats see -----------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> JSON:
        return self._view(state, seat, reveal=False)

    def open_view(self, state: State) -> JSON:
        return self._view(state, None, reveal=True)

    def _view(self, state: State, seat: int | None, *, reveal: bool) -> JSON:
        to_act = self.to_act(state)
        outcome = self.outcome(state)
        return {
            "seat": None if seat is None else seat_name(seat),
            "players": state.players,
            "hands": [
                {
                    "seat": seat_name(p),
                    "count": len(h),
                    "cards": list(h) if (reveal or p == seat) else None,
                }
                for p, h in enumerate(state.hands)
            ],
            "deck": len(state.deck),
            "played": list(state.played),
            "points": list(state.points),
            "to_act": "chance"
            if to_act == CHANCE
            else None
            if to_act is None
            else seat_name(to_act),
            "outcome": None if outcome is None else outcome.to_json(),
        }

    def describe(self, event: Event) -> str:
        d = event.data
        if event.kind == "drew":
            return f"{d['seat']} drew {d['card']}"
        if event.kind == "draws":
            return f"{d['seat']} draws a card"
        if event.kind == "played":
            return f"{d['seat']} played {d['card']}" + (", a point" if d["scored"] else "")
        return f"game over: {d['reason']}"

    def render(self, view: JSON) -> str:
        lines = [f"table: {' '.join(map(str, view['played'])) or 'empty'}"]
        lines.append(f"draw pile: {view['deck']} cards")
        for h, points in zip(view["hands"], view["points"], strict=True):
            cards = "hidden" if h["cards"] is None else " ".join(map(str, h["cards"])) or "-"
            lines.append(f"{h['seat']}: {points} points, {h['count']} cards: {cards}")
        return "\n".join(lines)

    def rules_text(self) -> str:
        return __doc__ or ""

    # -- positions ----------------------------------------------------------------------

    def state_to_json(self, state: State) -> JSON:
        return {
            "players": state.players,
            "hands": [list(h) for h in state.hands],
            "deck": list(state.deck),
            "played": list(state.played),
            "points": list(state.points),
            "turn": state.turn,
            "owed": list(state.owed),
        }

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        fields = {"players", "hands", "deck", "played", "points", "turn", "owed"}
        if not isinstance(data, Mapping) or set(data) != fields:
            raise RecordError(f"a toy position has exactly the fields {sorted(fields)}")
        n = data["players"]
        if not _whole(n) or not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise RecordError(f"players must be 2 or 3, not {n!r}")
        hands, deck, played, points = data["hands"], data["deck"], data["played"], data["points"]
        if not isinstance(hands, list) or len(hands) != n:
            raise RecordError("hands: one list per seat")
        if not all(isinstance(x, list) and all(map(_whole, x)) for x in [*hands, deck, played]):
            raise RecordError("hands, deck and played are lists of cards")
        if not isinstance(points, list) or not all(map(_whole, points)):
            raise RecordError("points: a list of numbers")
        if sorted([*deck, *played, *(c for h in hands for c in h)]) != list(CARDS):
            raise RecordError("every card 1-10 must be in exactly one hand, the deck or played")
        if len(points) != n or sum(points) > len(played):
            raise RecordError("points: one per seat, at most one per card played")
        turn, owed = data["turn"], data["owed"]
        if not _whole(turn) or not 0 <= turn < n:
            raise RecordError(f"turn must be a seat, not {turn!r}")
        if not isinstance(owed, list) or not all(_whole(p) and 0 <= p < n for p in owed):
            raise RecordError("owed: a list of seats")
        if len(owed) > len(deck) or any(len(h) > HAND for h in hands):
            raise RecordError("more cards owed than the deck holds, or a hand above two")
        if not owed and any(hands) and not hands[turn]:
            raise RecordError("the seat to play has no card")
        return State(
            n, [sorted(h) for h in hands], sorted(deck), list(played), list(points), turn, owed[:]
        )

    # -- capabilities -------------------------------------------------------------------

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """The other hands dealt anew from the cards `seat` cannot see (theirs and the
        draw pile's), each keeping its size."""
        t = state.copy()
        # sorted first: the pool's order would tell where its cards were
        unseen = sorted([c for p in range(t.players) if p != seat for c in t.hands[p]] + t.deck)
        rng.shuffle(unseen)
        for p in range(t.players):
            if p != seat:
                k = len(t.hands[p])
                t.hands[p], unseen = sorted(unseen[:k]), unseen[k:]
        t.deck = sorted(unseen)
        return t

    def evaluate(self, state: State) -> tuple[float, ...] | None:
        """A seat's share of the points so far (one added to each, so early on all are
        even): crude, but each in [0, 1] as the contract asks."""
        if self.to_act(state) is None:
            return None
        total = sum(state.points) + state.players
        return tuple((p + 1) / total for p in state.points)

    def hand_text(self, view: JSON) -> str | None:
        mine = next((h for h in view["hands"] if h["seat"] == view["seat"]), None)
        if mine is None:
            return None
        return "your cards: " + (" ".join(map(str, mine["cards"])) or "none")

    def observer(self, options: Mapping[str, Any]) -> Observer | None:
        from tests.toy.observer import ToyObserver

        return ToyObserver(self.options(options)["players"])


def _whole(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0
