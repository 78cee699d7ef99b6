"""The rules of Thermopyles as a state machine (seeds 001, Portuguese, and 003, Italian).

Each handler below is one step of the rulebook's turn sequence and cites the sentence it
implements. `legal` lists what the rules allow; each handler checks the same conditions
before it changes anything, so an illegal action raises and leaves the state untouched
(a property test checks that the two always agree).
"""

from __future__ import annotations

import random
from bisect import insort
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from thermopylae.engine.errors import IllegalAction, ThermopylaeError
from thermopylae.engine.game import GameBase
from thermopylae.engine.protocol import CHANCE, JSON, Event, Outcome
from thermopylae.games.thermopyles import text, view
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
from thermopylae.games.thermopyles.components import Components
from thermopylae.games.thermopyles.serial import state_from_json, state_to_json
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
from thermopylae.games.wording import reword

HAND_LIMIT = 5  # "Todos os jogadores têm um limite de mão de 5 cartas"
START_HAND = 3  # "Cada jogador compra uma mão inicial de 3 cartas espartanas"
SOLO_START_HAND = 4  # "com um jogador, comece com 4 cartas"
LOST_LOCATION = 7  # "forçados a recuar para a 7ª local"
GRAVEYARD_WIN = 12  # "quando a 12ª carta persa é colocada no cemitério"
WON, LOST = 1, -1

Events = list[Event] | None


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
        self.notation = Notation(components)
        kinds = components.persian_kinds
        self._combat = [k.combat for k in kinds]
        self._annihilation = [k.annihilation for k in kinds]
        self._bonus = [k.bonus for k in kinds]
        self._die = [n in components.die_locations for n in range(LOST_LOCATION + 2)]
        self.kind_texts = tuple(k.text for k in kinds)
        self.locations = tuple(
            {"number": loc.number, "name": components.location_name(loc.number), "die": loc.die}
            for loc in components.locations
        )
        self._turn_cache: dict[tuple[tuple[int, ...], int], tuple[Action, ...]] = {}
        self._handlers: dict[type, Callable[[State, Any, Events], None]] = {
            Retreat: self._retreat,
            Fight: self._fight,
            Roll: self._roll,
            Reveal: self._reveal,
            Draw: self._draw,
            Give: self._give,
            Take: self._take,
            Refuse: self._refuse,
            Discard: self._discard,
        }

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
        o = self.options(options)
        c = self.components
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
            hand = s.hands[s.active]
            key = (tuple(hand), s.support)
            cached = self._turn_cache.get(key)
            if cached is None:
                fight = self.notation.fight
                cached = (
                    RETREAT,
                    *(fight[v, k] for v in dict.fromkeys(hand) for k in range(s.support + 1)),
                )
                self._turn_cache[key] = cached
            return cached
        if ph == RECIPIENT:
            return self.notation.give[: s.players]
        if ph == FULL_HAND:
            return (TAKE, REFUSE)
        if ph == DISCARD:
            return tuple(self.notation.discard[v] for v in dict.fromkeys(s.hands[s.recipient]))
        return ()

    def _chance_kind(self, s: State) -> str:
        ph = s.phase
        if ph == ROLL:
            return "roll"
        if ph == REFILL or (ph == SETUP and (s.slots[0] < 0 or s.slots[1] < 0)):
            return "reveal"
        if ph in (DRAW, SETUP):
            return "draw"
        raise IllegalAction(f"no chance event is due now (phase {PHASES[ph]})")

    def chance(self, s: State) -> list[tuple[Action, float]]:
        if s.phase in (TURN, RECIPIENT, FULL_HAND, DISCARD, OVER):
            return []
        kind = self._chance_kind(s)
        n = self.notation
        if kind == "roll":
            return [(n.roll[f], 1 / 6) for f in range(1, 7)]
        deck, table = (s.pdeck, n.reveal) if kind == "reveal" else (s.sdeck, n.draw)
        counts = Counter(deck)
        return [(table[k], c / len(deck)) for k, c in sorted(counts.items())]

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
        handler = self._handlers.get(type(action))
        if handler is None:
            raise IllegalAction(f"{action!r} is not a Thermopyles action")
        ev: list[Event] | None = None if quiet else []
        handler(s, action, ev)
        return ev if ev is not None else []

    def _expect(self, s: State, phase: int, action: Action) -> None:
        if s.phase != phase:
            raise IllegalAction(
                f"{self.format(action)!r} is not possible now: {text.waiting_for(s)}"
            )

    def _retreat(self, s: State, a: Retreat, ev: Events) -> None:
        """ "Recuar - move o marcador para trás um passo no mapa e compra uma carta"."""
        self._expect(s, TURN, a)
        s.turn += 1
        s.marker += 1
        if ev is not None:
            ev.append(Event("retreat", {"seat": seat_name(s.active), "marker": s.marker}))
        if s.marker >= LOST_LOCATION:
            return self._finish(s, LOST, "retreated onto location 7", ev)
        s.draws = 1  # "os jogadores como time podem comprar uma carta espartana"
        self._next_draw(s, ev)

    def _fight(self, s: State, a: Fight, ev: Events) -> None:
        """ "Carga": a card from hand; "Solicitar suporte": any number of support cards."""
        self._expect(s, TURN, a)
        hand = s.hands[s.active]
        if a.card not in hand:
            raise IllegalAction(
                f"{seat_name(s.active)} holds no {a.card}"
                + (
                    f" (hand: {' '.join(map(str, hand))})"
                    if hand
                    else " (the hand is empty: the player must retreat)"
                )
            )
        if not 0 <= a.support <= s.support:
            raise IllegalAction(f"only {s.support} support card(s) remain, not {a.support}")
        s.turn += 1
        hand.remove(a.card)
        s.card = a.card
        s.committed = a.support
        s.support -= a.support
        s.dice = []
        if ev is not None:
            ev.append(
                Event("fight", {"seat": seat_name(s.active), "card": a.card, "support": a.support})
            )
        if a.support or self._die[s.marker]:
            s.phase = ROLL
        else:
            self._resolve(s, ev)

    def _roll(self, s: State, a: Roll, ev: Events) -> None:
        """One support die per support card, then the location die on locations 3 and 6."""
        self._expect(s, ROLL, a)
        if not 1 <= a.face <= 6:
            raise IllegalAction(f"a die shows 1 to 6, not {a.face}")
        s.dice.append(a.face)
        if ev is not None:
            die = "support" if len(s.dice) <= s.committed else "location"
            ev.append(Event("roll", {"die": die, "face": a.face, "total": s.card + sum(s.dice)}))
        if len(s.dice) >= s.committed + self._die[s.marker]:
            self._resolve(s, ev)

    def _resolve(self, s: State, ev: Events) -> None:
        """ "Resolução de Combate": the same total against slot 1, then slot 2."""
        total = s.card + sum(s.dice)
        s.sdiscard.append(s.card)  # "a carta espartana é descartada" in every case
        s.card = 0
        s.committed = 0
        s.dice = []
        for slot in (0, 1):
            kind = s.slots[slot]
            if total < self._combat[kind]:  # result a: the Persian card stays
                if ev is not None:
                    ev.append(
                        Event(
                            "combat",
                            {
                                "slot": slot + 1,
                                "card": self._text(kind),
                                "total": total,
                                "result": "lost",
                            },
                        )
                    )
                break
            s.slots[slot] = -1
            if total >= self._annihilation[kind]:  # result c: to the graveyard
                s.graveyard.append(kind)
                result = "annihilated"
            else:  # result b: to the Persian discard pile
                s.pdiscard.append(kind)
                result = "repelled"
            if self._bonus[kind]:
                s.draws += 1  # "para cada carta persa derrotada que tinha um símbolo ... Λ"
            if ev is not None:
                ev.append(
                    Event(
                        "combat",
                        {
                            "slot": slot + 1,
                            "card": self._text(kind),
                            "total": total,
                            "result": result,
                        },
                    )
                )
            if len(s.graveyard) >= GRAVEYARD_WIN:
                return self._finish(s, WON, "the 12th Persian card entered the graveyard", ev)
        if s.slots[0] < 0 and s.slots[1] >= 0:  # beat slot 1, lost to slot 2: slide
            s.slots[0], s.slots[1] = s.slots[1], -1
            if ev is not None:
                ev.append(Event("slide", {}))
        empty = (s.slots[0] < 0) + (s.slots[1] < 0)
        if empty == 0:  # lost against slot 1: "o turno termina imediatamente"
            s.draws = 0
            return self._end_turn(s, ev)
        if len(s.pdeck) < empty:
            return self._finish(s, WON, "the Persian deck cannot refill the slots", ev)
        s.phase = REFILL

    def _reveal(self, s: State, a: Reveal, ev: Events) -> None:
        ph = s.phase
        if ph != REFILL and not (ph == SETUP and (s.slots[0] < 0 or s.slots[1] < 0)):
            self._expect(s, REFILL, a)
        if not 0 <= a.kind < len(self.kind_texts):
            raise IllegalAction(f"there is no Persian card kind {a.kind} in this set")
        if a.kind not in s.pdeck:
            raise IllegalAction(f"no Persian card {self._text(a.kind)} is left in the deck")
        s.pdeck.remove(a.kind)
        slot = 0 if s.slots[0] < 0 else 1
        s.slots[slot] = a.kind
        if ev is not None:
            ev.append(Event("reveal", {"slot": slot + 1, "card": self._text(a.kind)}))
        if s.phase == SETUP:
            self._setup_next(s)
        elif s.slots[1] >= 0:
            self._next_draw(s, ev)

    def _draw(self, s: State, a: Draw, ev: Events) -> None:
        ph = s.phase
        if ph != DRAW and not (ph == SETUP and s.slots[0] >= 0 and s.slots[1] >= 0):
            self._expect(s, DRAW, a)
        if a.card not in s.sdeck:
            raise IllegalAction(f"no Spartan card {a.card} is left in the deck")
        s.sdeck.remove(a.card)
        hand = s.hands[s.recipient]
        insort(hand, a.card)
        if ev is not None:
            who = seat_name(s.recipient)
            ev.append(Event("draw", {"seat": who}))
            ev.append(Event("drew", {"seat": who, "card": a.card}, to=s.recipient))
        if s.phase == SETUP:
            return self._setup_next(s)
        if len(hand) > HAND_LIMIT:
            s.phase = DISCARD  # "comprar uma carta, mas depois descartar para 5 cartas"
            return
        s.draws -= 1
        self._next_draw(s, ev)

    def _give(self, s: State, a: Give, ev: Events) -> None:
        """ "Os jogadores juntos decidem qual jogador receberá a carta" (the active player
        speaks for the team)."""
        self._expect(s, RECIPIENT, a)
        if not 0 <= a.seat < s.players:
            raise IllegalAction(f"there is no {seat_name(a.seat)} at this table")
        if ev is not None:
            ev.append(Event("give", {"seat": seat_name(s.active), "to": seat_name(a.seat)}))
        self._offer(s, a.seat)

    def _take(self, s: State, a: Take, ev: Events) -> None:
        self._expect(s, FULL_HAND, a)
        if ev is not None:
            ev.append(Event("take", {"seat": seat_name(s.recipient)}))
        s.phase = DRAW

    def _refuse(self, s: State, a: Refuse, ev: Events) -> None:
        """ "O jogador pode recusar-se a comprar uma carta" when the hand is full."""
        self._expect(s, FULL_HAND, a)
        if ev is not None:
            ev.append(Event("refuse", {"seat": seat_name(s.recipient)}))
        s.draws -= 1
        self._next_draw(s, ev)

    def _discard(self, s: State, a: Discard, ev: Events) -> None:
        self._expect(s, DISCARD, a)
        hand = s.hands[s.recipient]
        if a.card not in hand:
            raise IllegalAction(f"{seat_name(s.recipient)} holds no {a.card}")
        hand.remove(a.card)
        s.sdiscard.append(a.card)
        if ev is not None:
            ev.append(Event("discard", {"seat": seat_name(s.recipient), "card": a.card}))
        s.draws -= 1
        self._next_draw(s, ev)

    # -- the flow between steps ----------------------------------------------------------

    def _setup_next(self, s: State) -> None:
        """Two Persian cards into the slots, then 3 Spartan cards each (4 when solo)."""
        if s.slots[0] < 0 or s.slots[1] < 0:
            return
        size = SOLO_START_HAND if s.players == 1 else START_HAND
        for p in range(s.players):
            if len(s.hands[p]) < size:
                s.recipient = p
                return
        s.recipient = -1
        s.phase = TURN

    def _next_draw(self, s: State, ev: Events) -> None:
        """Resolve the team draws still owed; with the Spartan deck empty none are drawn."""
        if s.draws > 0 and s.sdeck:
            if s.players == 1:
                return self._offer(s, 0)
            s.phase = RECIPIENT
            return
        s.draws = 0
        self._end_turn(s, ev)

    def _offer(self, s: State, seat: int) -> None:
        s.recipient = seat
        s.phase = FULL_HAND if len(s.hands[seat]) >= HAND_LIMIT else DRAW

    def _end_turn(self, s: State, ev: Events) -> None:
        s.recipient = -1
        if not s.sdeck and not any(s.hands):
            return self._finish(s, LOST, "no cards left in any hand or in the Spartan deck", ev)
        s.active = (s.active + 1) % s.players  # "a vez do próximo jogador"
        s.phase = TURN

    def _finish(self, s: State, result: int, reason: str, ev: Events) -> None:
        s.phase = OVER
        s.result = result
        s.reason = reason
        s.recipient = -1
        if ev is not None:
            ev.append(
                Event("end", {"result": "win" if result == WON else "loss", "reason": reason})
            )

    # -- results, views, notation ----------------------------------------------------------

    def outcome(self, s: State) -> Outcome | None:
        if s.phase != OVER:
            return None
        word = "win" if s.result == WON else "loss"
        score = 1.0 if s.result == WON else 0.0
        return Outcome((word,) * s.players, (score,) * s.players, s.reason, s.turn)

    def view(self, s: State, seat: int | None) -> JSON:
        return view.view(self, s, seat)

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

    def state_to_json(self, s: State) -> JSON:
        return state_to_json(self.components, s)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return state_from_json(self.components, data)

    def agents(self) -> Mapping[str, Any]:
        from thermopylae.games.thermopyles.heuristic import Heuristic

        return {"heuristic": Heuristic}

    def levels(self, players: int, seat: str) -> Mapping[str, str]:
        from thermopylae.games.thermopyles.levels import levels

        return levels(players, seat)

    def _text(self, kind: int) -> str:
        return self.kind_texts[kind]
