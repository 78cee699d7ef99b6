"""Earth & Water actions: one small frozen value type, its notation and integer encoding.

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

from typing import NamedTuple

from thermopylae.engine.errors import NotationError
from thermopylae.engine.game import NotationTable

CITY_VERBS = ("army", "fleet", "land", "sea", "to", "remove", "place")
CARD_VERBS = ("event", "move", "react", "keep", "discard", "pick", "draw", "lot")
COUNT_VERBS = ("buy", "armies", "fleets", "carry", "count", "roll")
PLAIN = (
    "bridge",
    "done",
    "pass",
    "decline",
    "continue",
    "destroy bridge",
    "spare bridge",
    "keep none",
    "skip",
)
CHANCE_VERBS = ("draw", "roll", "lot")
MAX_COUNT = 24


class Act(NamedTuple):
    """`verb` with up to two integer arguments (a city index, a card number or a count;
    `b` is 1 for a retreat by sea). A named tuple: comparing and hashing run at C speed,
    and `apply` checks membership in the legal list at every step."""

    verb: str
    a: int = -1
    b: int = -1


# Interned actions: the rules hand these out instead of building new ones at every step.
# A[verb][n] is Act(verb, n); P[verb] an action without argument; RETREAT[by_sea][city].
A: dict[str, tuple[Act, ...]] = {
    v: tuple(Act(v, n) for n in range(MAX_COUNT + 1))
    for v in (*CITY_VERBS, *CARD_VERBS, *COUNT_VERBS)
}
P: dict[str, Act] = {v: Act(v) for v in PLAIN if v != "keep none"}
RETREAT = tuple(tuple(Act("retreat", c, b) for c in range(MAX_COUNT + 1)) for b in (0, 1))


class Notation(NotationTable[Act]):
    def __init__(self, city_names: tuple[str, ...]) -> None:
        self.names = city_names
        self._city = {n.lower(): i for i, n in enumerate(city_names)}
        table: list[Act] = [Act(v) for v in PLAIN if v not in ("keep none",)]
        table.append(Act("keep", 0))
        for v in CITY_VERBS:
            table += [Act(v, c) for c in range(len(city_names))]
        table += [Act("retreat", c, b) for b in (0, 1) for c in range(len(city_names))]
        for v in CARD_VERBS:
            if v not in CHANCE_VERBS:
                table += [Act(v, k) for k in range(1, 17)]
        for v in COUNT_VERBS:
            if v not in CHANCE_VERBS:
                table += [Act(v, n) for n in range(MAX_COUNT + 1)]
        self.num_decisions = len(table)
        table += [Act("draw", k) for k in range(1, 17)]
        table += [Act("lot", k) for k in range(1, 17)]
        table += [Act("roll", n) for n in range(1, 7)]
        self.set_table(table)

    def format(self, a: Act) -> str:
        v = a.verb
        if v in CITY_VERBS:
            return f"{v} {self.names[a.a]}"
        if v == "retreat":
            return f"retreat {'by sea ' if a.b == 1 else ''}{self.names[a.a]}"
        if v == "keep" and a.a == 0:
            return "keep none"
        if v in CARD_VERBS or v in COUNT_VERBS:
            return f"{v} {a.a}"
        return v

    def parse(self, text: str) -> Act:
        t = " ".join(text.strip().split())
        low = t.lower()
        if low == "keep none":
            return Act("keep", 0)
        if low in PLAIN:
            return Act(low)
        verb, _, arg = low.partition(" ")
        if verb == "retreat":
            sea = arg.startswith("by sea ")
            return Act("retreat", self._city_of(arg.removeprefix("by sea "), text), int(sea))
        if verb in CITY_VERBS:
            return Act(verb, self._city_of(arg, text))
        if verb in CARD_VERBS or verb in COUNT_VERBS:
            if not arg.isdigit():
                raise NotationError(f"{text!r}: {verb} takes a number")
            n = int(arg)
            if verb in CARD_VERBS and not 1 <= n <= 16:
                raise NotationError(f"{text!r}: the cards are numbered 1 to 16")
            if verb == "roll" and not 1 <= n <= 6:
                raise NotationError(f"{text!r}: a die shows 1 to 6")
            if n > MAX_COUNT:
                raise NotationError(f"{text!r}: {n} is more than any count in the game")
            return Act(verb, n)
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
