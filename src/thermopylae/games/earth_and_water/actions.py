"""Earth & Water actions: one frozen value type per verb, their notation and integer encoding.

Decisions (a multi-step move is several small decisions):
  buy N · army CITY · fleet CITY · bridge · done          (Preparation)
  event N · move N · pass                                 (Operations: card N)
  land CITY · sea CITY · armies N · fleets N · carry N · to CITY   (a move)
  react N · decline                                       (lightning cards)
  continue · retreat CITY · retreat by sea CITY           (battles)
  destroy bridge · spare bridge
  keep N · keep none · discard N · remove CITY            (Supply)
  place CITY · count N · pick N · skip                    (choices inside events)
Chance outcomes: draw N (a card), roll N (the highest die of a throw), lot N (a card
taken at random from a hand).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, get_args

from thermopylae.engine.errors import NotationError
from thermopylae.engine.game import NotationTable

MAX_COUNT = 24  # the most of anything counted (the interned values go up to it)
CARDS = range(1, 17)


@dataclass(frozen=True, slots=True)
class Buy:
    """Preparation: buy `count` cards."""

    verb: ClassVar[str] = "buy"  # (its word in the notation)
    count: int


@dataclass(frozen=True, slots=True)
class Army:
    """Preparation: raise an army in `city`."""

    verb: ClassVar[str] = "army"  # (its word in the notation)
    city: int


@dataclass(frozen=True, slots=True)
class Fleet:
    """Preparation: build a fleet in `city`."""

    verb: ClassVar[str] = "fleet"  # (its word in the notation)
    city: int


@dataclass(frozen=True, slots=True)
class BuildBridge:
    """Preparation: Persia builds the pontoon bridge."""

    verb: ClassVar[str] = "bridge"  # (its word in the notation)


@dataclass(frozen=True, slots=True)
class Done:
    """Preparation ends; or an event's choice (Pacification) is done."""

    verb: ClassVar[str] = "done"  # (its word in the notation)


@dataclass(frozen=True, slots=True)
class PlayEvent:
    """Operations: play `card` for its event."""

    verb: ClassVar[str] = "event"  # (its word in the notation)
    card: int


@dataclass(frozen=True, slots=True)
class PlayMove:
    """Operations: play `card` for a movement."""

    verb: ClassVar[str] = "move"  # (its word in the notation)
    card: int


@dataclass(frozen=True, slots=True)
class Pass:
    """Operations: play no card."""

    verb: ClassVar[str] = "pass"  # (its word in the notation)


@dataclass(frozen=True, slots=True)
class Land:
    """A move: a land move from `city`."""

    verb: ClassVar[str] = "land"  # (its word in the notation)
    city: int


@dataclass(frozen=True, slots=True)
class Sea:
    """A move: a naval move from `city`."""

    verb: ClassVar[str] = "sea"  # (its word in the notation)
    city: int


@dataclass(frozen=True, slots=True)
class Armies:
    """A move: `count` armies move."""

    verb: ClassVar[str] = "armies"  # (its word in the notation)
    count: int


@dataclass(frozen=True, slots=True)
class Fleets:
    """A move: `count` fleets move."""

    verb: ClassVar[str] = "fleets"  # (its word in the notation)
    count: int


@dataclass(frozen=True, slots=True)
class Carry:
    """A move: the fleets carry `count` armies."""

    verb: ClassVar[str] = "carry"  # (its word in the notation)
    count: int


@dataclass(frozen=True, slots=True)
class To:
    """A move: the group goes to `city`."""

    verb: ClassVar[str] = "to"  # (its word in the notation)
    city: int


@dataclass(frozen=True, slots=True)
class React:
    """A lightning card: play `card` in answer."""

    verb: ClassVar[str] = "react"  # (its word in the notation)
    card: int


@dataclass(frozen=True, slots=True)
class Decline:
    """A lightning card: play none."""

    verb: ClassVar[str] = "decline"  # (its word in the notation)


@dataclass(frozen=True, slots=True)
class Continue:
    """A battle: fight on."""

    verb: ClassVar[str] = "continue"  # (its word in the notation)


@dataclass(frozen=True, slots=True)
class Retreat:
    """A battle: retreat to `city`, by land or (`by_sea`) by sea."""

    verb: ClassVar[str] = "retreat"  # (its word in the notation)
    city: int
    by_sea: bool = False


@dataclass(frozen=True, slots=True)
class DestroyBridge:
    """Greece destroys the pontoon bridge."""

    verb: ClassVar[str] = "destroy bridge"  # (its word in the notation)


@dataclass(frozen=True, slots=True)
class SpareBridge:
    """Greece spares the pontoon bridge."""

    verb: ClassVar[str] = "spare bridge"  # (its word in the notation)


@dataclass(frozen=True, slots=True)
class Keep:
    """Supply: Persia keeps `card` for the next campaign."""

    verb: ClassVar[str] = "keep"  # (its word in the notation)
    card: int


@dataclass(frozen=True, slots=True)
class KeepNone:
    """Supply: Persia keeps no card."""

    verb: ClassVar[str] = "keep none"  # (its word in the notation)


@dataclass(frozen=True, slots=True)
class Discard:
    """Supply, or an event: discard `card`."""

    verb: ClassVar[str] = "discard"  # (its word in the notation)
    card: int


@dataclass(frozen=True, slots=True)
class Remove:
    """Supply, or an event: remove a unit from `city`."""

    verb: ClassVar[str] = "remove"  # (its word in the notation)
    city: int


@dataclass(frozen=True, slots=True)
class Place:
    """An event: place a unit in `city`."""

    verb: ClassVar[str] = "place"  # (its word in the notation)
    city: int


@dataclass(frozen=True, slots=True)
class Count:
    """An event: how many (The Royal Road)."""

    verb: ClassVar[str] = "count"  # (its word in the notation)
    count: int


@dataclass(frozen=True, slots=True)
class Pick:
    """An event: the Greek card to discard (Hippias)."""

    verb: ClassVar[str] = "pick"  # (its word in the notation)
    card: int


@dataclass(frozen=True, slots=True)
class Skip:
    """An optional extra move is not made."""

    verb: ClassVar[str] = "skip"  # (its word in the notation)


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: `card` is drawn."""

    verb: ClassVar[str] = "draw"  # (its word in the notation)
    card: int


@dataclass(frozen=True, slots=True)
class Roll:
    """Chance: the highest die of a throw shows `face`."""

    verb: ClassVar[str] = "roll"  # (its word in the notation)
    face: int


@dataclass(frozen=True, slots=True)
class Lot:
    """Chance: `card` is taken at random from the Greek hand."""

    verb: ClassVar[str] = "lot"  # (its word in the notation)
    card: int


Action = (
    Buy
    | Army
    | Fleet
    | BuildBridge
    | Done
    | PlayEvent
    | PlayMove
    | Pass
    | Land
    | Sea
    | Armies
    | Fleets
    | Carry
    | To
    | React
    | Decline
    | Continue
    | Retreat
    | DestroyBridge
    | SpareBridge
    | Keep
    | KeepNone
    | Discard
    | Remove
    | Place
    | Count
    | Pick
    | Skip
    | Draw
    | Roll
    | Lot
)
CHANCE_ACTIONS = (Draw, Roll, Lot)  # the types of chance outcomes
ACTION_TYPES: frozenset[type] = frozenset(get_args(Action))  # every type of action


class Interned:
    """The actions the rules hand out, built once (the rules never build new ones at a
    step): one value per verb without argument, a tuple per verb by its argument."""

    def __init__(self) -> None:
        n = range(MAX_COUNT + 1)
        self.build_bridge = BuildBridge()
        self.done = Done()
        self.pass_ = Pass()
        self.decline = Decline()
        self.continue_ = Continue()
        self.destroy_bridge = DestroyBridge()
        self.spare_bridge = SpareBridge()
        self.keep_none = KeepNone()
        self.skip = Skip()
        self.buy = tuple(Buy(x) for x in n)
        self.army = tuple(Army(x) for x in n)
        self.fleet = tuple(Fleet(x) for x in n)
        self.event = tuple(PlayEvent(x) for x in n)
        self.move = tuple(PlayMove(x) for x in n)
        self.land = tuple(Land(x) for x in n)
        self.sea = tuple(Sea(x) for x in n)
        self.armies = tuple(Armies(x) for x in n)
        self.fleets = tuple(Fleets(x) for x in n)
        self.carry = tuple(Carry(x) for x in n)
        self.to = tuple(To(x) for x in n)
        self.react = tuple(React(x) for x in n)
        self.keep = tuple(Keep(x) for x in n)
        self.discard = tuple(Discard(x) for x in n)
        self.remove = tuple(Remove(x) for x in n)
        self.place = tuple(Place(x) for x in n)
        self.count = tuple(Count(x) for x in n)
        self.pick = tuple(Pick(x) for x in n)
        self.draw = tuple(Draw(x) for x in n)
        self.roll = tuple(Roll(x) for x in n)
        self.lot = tuple(Lot(x) for x in n)
        self.retreat = tuple(tuple(Retreat(x, by_sea) for x in n) for by_sea in (False, True))


A = Interned()

_PLAIN: dict[str, Action] = {
    "bridge": A.build_bridge,
    "done": A.done,
    "pass": A.pass_,
    "decline": A.decline,
    "continue": A.continue_,
    "destroy bridge": A.destroy_bridge,
    "spare bridge": A.spare_bridge,
    "keep none": A.keep_none,
    "skip": A.skip,
}
_CITY: dict[str, tuple[Action, ...]] = {
    "army": A.army,
    "fleet": A.fleet,
    "land": A.land,
    "sea": A.sea,
    "to": A.to,
    "remove": A.remove,
    "place": A.place,
}
_CARD: dict[str, tuple[Action, ...]] = {
    "event": A.event,
    "move": A.move,
    "react": A.react,
    "keep": A.keep,
    "discard": A.discard,
    "pick": A.pick,
    "draw": A.draw,
    "lot": A.lot,
}
_COUNT: dict[str, tuple[Action, ...]] = {
    "buy": A.buy,
    "armies": A.armies,
    "fleets": A.fleets,
    "carry": A.carry,
    "count": A.count,
    "roll": A.roll,
}


def _verb(names: tuple[str, ...], a: Any) -> str:
    return str(a.verb)


def _verb_city(names: tuple[str, ...], a: Any) -> str:
    return f"{a.verb} {names[a.city]}"


def _verb_card(names: tuple[str, ...], a: Any) -> str:
    return f"{a.verb} {a.card}"


def _verb_count(names: tuple[str, ...], a: Any) -> str:
    return f"{a.verb} {a.count}"


def _roll(names: tuple[str, ...], a: Any) -> str:
    return f"roll {a.face}"


def _retreat(names: tuple[str, ...], a: Any) -> str:
    return f"retreat {'by sea ' if a.by_sea else ''}{names[a.city]}"


# How each type is spelled, given the city names (by the type: the heuristic spells every
# legal action at each of its decisions); a type not here is its verb alone.
_SPELL: dict[type, Callable[[tuple[str, ...], Any], str]] = {
    **dict.fromkeys((Army, Fleet, Land, Sea, To, Remove, Place), _verb_city),
    **dict.fromkeys((PlayEvent, PlayMove, React, Keep, Discard, Pick, Draw, Lot), _verb_card),
    **dict.fromkeys((Buy, Armies, Fleets, Carry, Count), _verb_count),
    Roll: _roll,
    Retreat: _retreat,
}


class Notation(NotationTable[Action]):
    """Text and integer forms of every action. The integer space: the decisions first
    (those without argument, `keep none`, those of a city, the retreats, those of a card,
    those of a count), then the chance outcomes (draws, lots, rolls)."""

    def __init__(self, city_names: tuple[str, ...]) -> None:
        self.names = city_names
        self._city = {n.lower(): i for i, n in enumerate(city_names)}
        cities = range(len(city_names))
        table: list[Action] = [v for t, v in _PLAIN.items() if t != "keep none"]
        table.append(A.keep_none)
        for row in _CITY.values():
            table += [row[x] for x in cities]
        table += [A.retreat[by_sea][x] for by_sea in (0, 1) for x in cities]
        for verb, row in _CARD.items():
            if verb not in ("draw", "lot"):
                table += [row[k] for k in CARDS]
        for verb, row in _COUNT.items():
            if verb != "roll":
                table += list(row)
        self.num_decisions = len(table)
        table += [A.draw[k] for k in CARDS]
        table += [A.lot[k] for k in CARDS]
        table += [A.roll[f] for f in range(1, 7)]
        self.set_table(table)

    def format(self, a: Action) -> str:
        return _SPELL.get(type(a), _verb)(self.names, a)

    def parse(self, text: str) -> Action:
        t = " ".join(text.strip().split())
        low = t.lower()
        plain = _PLAIN.get(low)
        if plain is not None:
            return plain
        verb, _, arg = low.partition(" ")
        if verb == "retreat":
            sea = arg.startswith("by sea ")
            return A.retreat[sea][self._city_of(arg.removeprefix("by sea "), text)]
        if verb in _CITY:
            return _CITY[verb][self._city_of(arg, text)]
        if verb in _CARD or verb in _COUNT:
            if not arg.isdigit():
                raise NotationError(f"{text!r}: {verb} takes a number")
            n = int(arg)
            if verb in _CARD and not 1 <= n <= 16:
                raise NotationError(f"{text!r}: the cards are numbered 1 to 16")
            if verb == "roll" and not 1 <= n <= 6:
                raise NotationError(f"{text!r}: a die shows 1 to 6")
            if n > MAX_COUNT:
                raise NotationError(f"{text!r}: {n} is more than any count in the game")
            return (_CARD.get(verb) or _COUNT[verb])[n]
        raise NotationError(
            f"{text!r} is not an Earth & Water action; the forms are: buy N, army CITY, "
            "fleet CITY, bridge, done, event N, move N, pass, land CITY, sea CITY, armies N, "
            "fleets N, carry N, to CITY, react N, decline, continue, retreat [by sea] CITY, "
            "destroy bridge, spare bridge, keep N, keep none, discard N, remove CITY, "
            "place CITY, count N, pick N, skip, draw N, roll N, lot N"
        )

    def _city_of(self, name: str, text: str) -> int:
        i = self._city.get(name.strip().lower())
        if i is None:
            raise NotationError(
                f"{text!r}: no city {name!r}; the cities are " + ", ".join(self.names)
            )
        return i
