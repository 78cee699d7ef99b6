"""Thermopyles actions: small frozen values, their text notation and integer encoding.

Decisions: `retreat`, `fight 15`, `fight 15 support 2`, `give p2`, `take`, `refuse`,
`discard 12`. Chance outcomes: `roll 4` (a die), `draw 15` (a Spartan card into a hand),
`reveal 16/21^` (a Persian card into a slot; `^` marks the bonus symbol "Λ").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from thermopylae.engine.errors import NotationError
from thermopylae.engine.game import NotationTable
from thermopylae.games.thermopyles.components import (
    MAX_SUPPORT,
    SPARTAN_MAX,
    SPARTAN_MIN,
    Components,
)

MAX_PLAYERS = 4


def seat_name(seat: int) -> str:
    return f"p{seat + 1}"


@dataclass(frozen=True, slots=True)
class Retreat:
    """Move the marker one location back, then the team may draw."""


@dataclass(frozen=True, slots=True)
class Fight:
    """Charge with the Spartan card of value `card`, discarding `support` support cards."""

    card: int
    support: int = 0


@dataclass(frozen=True, slots=True)
class Give:
    """Choose which player receives the team's draw."""

    seat: int


@dataclass(frozen=True, slots=True)
class Take:
    """With a full hand: take the card anyway, then discard down to five."""


@dataclass(frozen=True, slots=True)
class Refuse:
    """With a full hand: refuse the card."""


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard the card of value `card` after taking a sixth card."""

    card: int


@dataclass(frozen=True, slots=True)
class Roll:
    """Chance: a six-sided die shows `face`."""

    face: int


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: the Spartan card of value `card` is drawn."""

    card: int


@dataclass(frozen=True, slots=True)
class Reveal:
    """Chance: a Persian card of kind `kind` (index into the component kinds) is revealed."""

    kind: int


Action = Retreat | Fight | Give | Take | Refuse | Discard | Roll | Draw | Reveal

RETREAT, TAKE, REFUSE = Retreat(), Take(), Refuse()
_VALUES = range(SPARTAN_MIN, SPARTAN_MAX + 1)
_FIGHT = re.compile(r"fight\s+(\d+)(?:\s+support\s+(\d+))?")
_PERSIAN = re.compile(r"(\d+)\s*/\s*(\d+)\s*(\^|λ|Λ)?")


class Notation(NotationTable[Action]):
    """Text and integer forms of every action, for one component set.

    The integer space is fixed by the rules, not by the cards: decisions first, then
    chance outcomes, so an encoding stays valid across component sets (except `reveal`,
    which indexes the set's Persian kinds).
    """

    def __init__(self, components: Components) -> None:
        self.kinds = components.persian_kinds
        self._kind_index = {k.text: i for i, k in enumerate(self.kinds)}
        table: list[Action] = [RETREAT]
        table += [Fight(v, s) for v in _VALUES for s in range(MAX_SUPPORT + 1)]
        table += [Give(p) for p in range(MAX_PLAYERS)]
        table += [TAKE, REFUSE]
        table += [Discard(v) for v in _VALUES]
        self.num_decisions = len(table)
        table += [Roll(f) for f in range(1, 7)]
        table += [Draw(v) for v in _VALUES]
        table += [Reveal(k) for k in range(len(self.kinds))]
        self.set_table(table)
        # Interned instances: the rules hand these out instead of building new ones.
        self.fight = {(v, s): Fight(v, s) for v in _VALUES for s in range(MAX_SUPPORT + 1)}
        self.give = tuple(Give(p) for p in range(MAX_PLAYERS))
        self.discard = {v: Discard(v) for v in _VALUES}
        self.roll = tuple(Roll(f) for f in range(7))
        self.draw = {v: Draw(v) for v in _VALUES}
        self.reveal = tuple(Reveal(k) for k in range(len(self.kinds)))

    def format(self, action: Action) -> str:
        match action:
            case Retreat():
                return "retreat"
            case Fight(card, 0):
                return f"fight {card}"
            case Fight(card, support):
                return f"fight {card} support {support}"
            case Give(seat):
                return f"give {seat_name(seat)}"
            case Take():
                return "take"
            case Refuse():
                return "refuse"
            case Discard(card):
                return f"discard {card}"
            case Roll(face):
                return f"roll {face}"
            case Draw(card):
                return f"draw {card}"
            case Reveal(kind):
                return f"reveal {self.kinds[kind].text}"
        raise TypeError(f"not a Thermopyles action: {action!r}")

    def parse(self, text: str) -> Action:
        t = " ".join(text.strip().lower().split())
        simple: dict[str, Action] = {"retreat": RETREAT, "take": TAKE, "refuse": REFUSE}
        if t in simple:
            return simple[t]
        verb, _, arg = t.partition(" ")
        if m := _FIGHT.fullmatch(t):
            return self._fight(int(m[1]), int(m[2] or 0), text)
        if verb == "give" and (m2 := re.fullmatch(r"p([1-4])", arg)):
            return self.give[int(m2[1]) - 1]
        if verb in ("discard", "draw") and arg.isdigit():
            v = int(arg)
            if v not in _VALUES:
                raise NotationError(f"{text!r}: Spartan cards are {SPARTAN_MIN} to {SPARTAN_MAX}")
            return self.discard[v] if verb == "discard" else self.draw[v]
        if verb == "roll" and arg.isdigit():
            if not 1 <= int(arg) <= 6:
                raise NotationError(f"{text!r}: a die shows 1 to 6")
            return self.roll[int(arg)]
        if verb == "reveal" and (m3 := _PERSIAN.fullmatch(arg)):
            key = f"{int(m3[1])}/{int(m3[2])}{'^' if m3[3] else ''}"
            if key not in self._kind_index:
                known = ", ".join(k.text for k in self.kinds)
                raise NotationError(f"{text!r}: no Persian card {key} in this set ({known})")
            return self.reveal[self._kind_index[key]]
        raise NotationError(
            f"{text!r} is not a Thermopyles action; the forms are: retreat, fight N, "
            "fight N support K, give pN, take, refuse, discard N, roll N, draw N, reveal C/A[^]"
        )

    def _fight(self, card: int, support: int, text: str) -> Fight:
        if card not in _VALUES:
            raise NotationError(f"{text!r}: Spartan cards are {SPARTAN_MIN} to {SPARTAN_MAX}")
        if support > MAX_SUPPORT:
            raise NotationError(f"{text!r}: there are only {MAX_SUPPORT} support cards")
        return self.fight[card, support]
