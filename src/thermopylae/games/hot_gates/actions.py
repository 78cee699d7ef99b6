"""300: The Board Game actions: a small frozen value type per verb, their text notation
and integer encoding.

Decisions (a march or a set of casualties is several small decisions):
  move A3-A4 immortal     a unit marches, switches rows or advances (a * marks Wounded:
                          `move B4-A4 spartan*`)
  enter A1 beast          a unit comes on the board: from the Reinforcement Boxes or the
                          Persian Camp (Leaders), the Spartan Camp, or a pulled-back row
  casualty infantry       the next casualty in your battle space
  play s12 · pass         a Battle Card (s1-s26 Spartan, p1-p26 Persian), or no card
  done                    end your march, your advance, or the Persian return
Chance outcomes: draw s12 (a card into a hand), roll 5 (a Battle Die shows 5).

Spaces are numbers (`state.space_name`), pieces are codes `type * 2 + wounded`, cards
are numbers into the component set's cards. The rules hand out the interned instances of
`Notation` (its `move`, `enter`, ... tables), so that checking an action against a legal
list mostly finds the very same object.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from thermopylae.engine.errors import NotationError
from thermopylae.engine.game import NotationTable
from thermopylae.games.hot_gates.components import TYPE_IDS, Components
from thermopylae.games.hot_gates.state import ROWS, SPACES, WOUNDED, space_name

CODES = len(TYPE_IDS) * 2  # piece codes: type * 2 + wounded
NSPACES = ROWS * SPACES


@dataclass(frozen=True, slots=True)
class Move:
    """The unit `piece` marches, switches rows, advances or follows from `src` to `dst`."""

    src: int
    dst: int
    piece: int


@dataclass(frozen=True, slots=True)
class Enter:
    """The unit `piece` comes on the board at `dst` (reserves, camps, a pulled-back row)."""

    dst: int
    piece: int


@dataclass(frozen=True, slots=True)
class Casualty:
    """The unit `piece` is the next casualty in the seat's battle space."""

    piece: int


@dataclass(frozen=True, slots=True)
class Play:
    """The Battle Card numbered `card` is played in the open window."""

    card: int


@dataclass(frozen=True, slots=True)
class Pass:
    """No card (more) in this window."""


@dataclass(frozen=True, slots=True)
class Done:
    """The end of a march, an advance or the Persian return."""


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: the card numbered `card` is drawn into the hand of the seat to draw."""

    card: int


@dataclass(frozen=True, slots=True)
class Roll:
    """Chance: the next Battle Die shows `face`."""

    face: int


Action = Move | Enter | Casualty | Play | Pass | Done | Draw | Roll
ACTION_TYPES = (Move, Enter, Casualty, Play, Pass, Done, Draw, Roll)

PASS, DONE = Pass(), Done()


def piece_name(code: int) -> str:
    return TYPE_IDS[code >> 1] + ("*" if code & WOUNDED else "")


def neighbours(space: int) -> tuple[int, ...]:
    """Spaces a unit can move to in one step: along its row either way, or across."""
    row, n = divmod(space, SPACES)
    out = [space + d for d in (-1, 1) if 0 <= n + d < SPACES]
    out.append((1 - row) * SPACES + n)
    return tuple(out)


class Notation(NotationTable[Action]):
    """Text and integer forms of every action for one component set, and the interned
    instances the rules hand out."""

    def __init__(self, components: Components) -> None:
        self.cards = components.cards
        self._card = {c.code: c.number for c in components.cards}
        self.faces = tuple(sorted(set(components.faces)))
        self._piece = {piece_name(code): code for code in range(CODES)}
        table: list[Action] = [PASS, DONE]
        self.move = {
            (src, dst, code): Move(src, dst, code)
            for src in range(NSPACES)
            for dst in neighbours(src)
            for code in range(CODES)
        }
        self.enter = {
            (dst, code): Enter(dst, code) for dst in range(NSPACES) for code in range(CODES)
        }
        self.casualty = tuple(Casualty(code) for code in range(CODES))
        self.play = tuple(Play(c.number) for c in self.cards)
        table += [*self.move.values(), *self.enter.values(), *self.casualty, *self.play]
        self.num_decisions = len(table)
        self.draw = tuple(Draw(c.number) for c in self.cards)
        self.roll = {f: Roll(f) for f in self.faces}
        table += [*self.draw, *self.roll.values()]
        self.set_table(table)

    def format(self, a: Action) -> str:
        match a:
            case Move(src, dst, piece):
                return f"move {space_name(src)}-{space_name(dst)} {piece_name(piece)}"
            case Enter(dst, piece):
                return f"enter {space_name(dst)} {piece_name(piece)}"
            case Casualty(piece):
                return f"casualty {piece_name(piece)}"
            case Play(card):
                return f"play {self.cards[card].code}"
            case Pass():
                return "pass"
            case Done():
                return "done"
            case Draw(card):
                return f"draw {self.cards[card].code}"
            case Roll(face):
                return f"roll {face}"
        raise TypeError(f"not a 300: The Board Game action: {a!r}")

    def parse(self, text: str) -> Action:
        t = " ".join(text.strip().lower().split())
        if t in ("pass", "done"):
            return PASS if t == "pass" else DONE
        verb, _, rest = t.partition(" ")
        if verb == "move" and (m := re.fullmatch(r"([ab][1-6])\s*-\s*([ab][1-6])\s+(\S+)", rest)):
            src, dst = _space(m[1]), _space(m[2])
            key = (src, dst, self._piece_code(m[3], text))
            if key not in self.move:
                raise NotationError(
                    f"{text!r}: {m[1].upper()} and {m[2].upper()} are not next to each other"
                )
            return self.move[key]
        if verb == "enter" and (m := re.fullmatch(r"([ab][1-6])\s+(\S+)", rest)):
            return self.enter[_space(m[1]), self._piece_code(m[2], text)]
        if verb == "casualty" and rest:
            return self.casualty[self._piece_code(rest, text)]
        if verb in ("play", "draw") and rest:
            code = rest.replace(" ", "")
            if code not in self._card:
                raise NotationError(f"{text!r}: cards are s1-s26 (Spartan) and p1-p26 (Persian)")
            n = self._card[code]
            return self.play[n] if verb == "play" else self.draw[n]
        if verb == "roll" and rest.isdigit():
            if int(rest) not in self.roll:
                raise NotationError(
                    f"{text!r}: the Battle Dice show {', '.join(map(str, self.faces))}"
                )
            return self.roll[int(rest)]
        raise NotationError(
            f"{text!r} is not a 300: The Board Game action; the forms are: move A3-A4 UNIT, "
            "enter A1 UNIT, casualty UNIT, play s5, pass, done, draw p3, roll N "
            "(a * after a unit marks its Wounded side)"
        )

    def _piece_code(self, word: str, text: str) -> int:
        code = self._piece.get(word)
        if code is None:
            raise NotationError(
                f"{text!r}: no unit {word!r}; units are "
                f"{', '.join(TYPE_IDS)} (add * for the Wounded side)"
            )
        return code


def _space(word: str) -> int:
    return "ab".index(word[0]) * SPACES + int(word[1]) - 1
