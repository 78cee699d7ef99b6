"""300: Earth & Water as a state machine: preparation, operations, supply, scoring.

Sources: the English rulebook (sections cited as RB n.n) and the digest in
shared/rules/earth-and-water.md; where they leave a point open, docs/rules/earth-and-water.md
says what we decided. Movement, battles and the card events live in moves.py, battle.py
and cards.py; this module holds the campaign sequence and the protocol.

Legality has one source: `legal(state)`. `apply` accepts exactly the actions it lists
(cached per state), so an illegal action raises and changes nothing.
"""

from __future__ import annotations

import random
from bisect import insort
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from thermopylae.engine.errors import IllegalAction, RecordError, ThermopylaeError
from thermopylae.engine.notation import NotationMixin
from thermopylae.engine.protocol import CHANCE, JSON, Event, Outcome
from thermopylae.games.earth_and_water import board, text, view
from thermopylae.games.earth_and_water.actions import A, Act, Notation, P
from thermopylae.games.earth_and_water.battle import Battles
from thermopylae.games.earth_and_water.cards import Events
from thermopylae.games.earth_and_water.components import Components
from thermopylae.games.earth_and_water.moves import Moves
from thermopylae.games.earth_and_water.serial import state_from_json, state_to_json
from thermopylae.games.earth_and_water.state import (
    DRAW,
    GREECE,
    LOT,
    NO_RETREAT,
    OPS,
    OVER,
    PERSIA,
    PHASES,
    PREP_BUILD,
    PREP_BUY,
    ROLL,
    SIDES,
    SUDDEN_DEATH,
    SUP_KEEP,
    SUP_REMOVE,
    State,
)
from thermopylae.games.wording import reword

CAMPAIGNS = 5  # RB 4.1
SCORE_LIMIT = 6  # the score track runs from 6 for one side to 6 for the other
PERSIA_KEEPS, GREECE_KEEPS = 1, 4  # RB 8.1
MAX_KINGS = 2  # Darius, then Xerxes (RB 5.3)

Ev = list[Event] | None


class EarthAndWater(NotationMixin, Moves, Battles, Events):
    """Persia against Greece over five campaigns."""

    id: ClassVar[str] = "earth-and-water"
    title: ClassVar[str] = "300: Earth & Water"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    cooperative: ClassVar[bool] = False
    notation: Notation
    provisional = False

    def __init__(self, components: Components) -> None:
        self.c = components
        self.components = components
        self.components_digest = components.digest
        self.notation = Notation(components.names)
        self.ports = board.ports(components)
        self.abydos = components.city["Abydos"]
        self.ephesos = components.city["Ephesos"]
        self.athenai = components.city["Athenai"]
        self.sparta = components.city["Sparta"]
        self.thebai = components.city["Thebai"]
        self.cities = range(len(components.names))

    # -- table ---------------------------------------------------------------------------

    def options(self, options: Mapping[str, Any] | None = None) -> JSON:
        """`cheap_fleets`: the optional rule, Persian fleets cost 1 talent (RB 5.1)."""
        given = dict(options or {})
        unknown = set(given) - {"cheap_fleets", "players"}
        if unknown:
            raise ThermopylaeError(
                f"unknown option(s) {sorted(unknown)}; Earth & Water takes cheap_fleets"
            )
        if given.get("players", 2) != 2:
            raise ThermopylaeError("300: Earth & Water is a game for exactly 2 players")
        cheap = given.get("cheap_fleets", False)
        if not isinstance(cheap, bool):
            raise ThermopylaeError(f"cheap_fleets must be true or false, not {cheap!r}")
        return {"cheap_fleets": cheap}

    def seats(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        return SIDES

    def new(self, options: Mapping[str, Any]) -> State:
        """RB 3: the pieces on the map, the rest in reserve, cards shuffled, hands empty."""
        s = State(len(self.c.names), self.options(options))
        for side in (PERSIA, GREECE):
            for city, (a, f) in self.c.setup[side].items():
                s.arm[side][city] = a
                s.flt[side][city] = f
            s.res_arm[side] = self.c.armies[side] - sum(s.arm[side])
            s.res_flt[side] = self.c.fleets[side] - sum(s.flt[side])
        self._start_preparation(s, PERSIA, None)
        return s

    # -- whose move, and what is legal -----------------------------------------------------

    def to_act(self, s: State) -> int | None:
        ph = s.phase
        if ph == OVER:
            return None
        if ph in (DRAW, ROLL, LOT):
            return CHANCE
        return s.side

    def legal(self, s: State) -> Sequence[Act]:
        cached = s._legal
        if cached is None:
            cached = s._legal = tuple(self._legal(s))
            if not cached and s.phase not in (DRAW, ROLL, LOT, OVER):
                # never in a game played by the rules (the property tests check it); a
                # hand-edited position can get here
                raise RecordError(
                    f"no legal action in phase {PHASES[s.phase]!r}: this position is inconsistent"
                )
        return cached

    def _legal(self, s: State) -> list[Act]:
        ph = s.phase
        if ph == PREP_BUY:
            return [A["buy"][n] for n in range(self._max_buy(s) + 1)]
        if ph == PREP_BUILD:
            return self._build_options(s)
        if ph == OPS:
            return self._ops_options(s)
        if ph == SUP_KEEP:
            hand = sorted(set(s.hands[s.side]))
            if s.side == PERSIA:
                return [A["keep"][0], *(A["keep"][k] for k in hand)]
            return [A["discard"][k] for k in hand]
        if ph == SUP_REMOVE:
            _, counted = board.capacity(self.c, s, s.side)
            return [A["remove"][x] for x in counted if s.arm[s.side][x]]
        if ph in (DRAW, ROLL, LOT, OVER):
            return []
        return self._step_options(s)  # moves, battles, reactions, event choices

    def chance(self, s: State) -> list[tuple[Act, float]]:
        ph = s.phase
        if ph == DRAW:
            pile = s.deck or s.discard
            counts = Counter(pile)
            return [(A["draw"][k], n / len(pile)) for k, n in sorted(counts.items())]
        if ph == LOT:
            hand = Counter(s.hands[GREECE])
            total = len(s.hands[GREECE])
            return [(A["lot"][k], n / total) for k, n in sorted(hand.items())]
        if ph == ROLL:
            return self._roll_distribution(s)
        return []

    def sample_chance(self, s: State, rng: random.Random) -> Act:
        ph = s.phase
        if ph == DRAW:
            pile = s.deck or s.discard
            return A["draw"][pile[int(rng.random() * len(pile))]]
        if ph == LOT:
            hand = s.hands[GREECE]
            return A["lot"][hand[int(rng.random() * len(hand))]]
        if ph == ROLL:
            return self._sample_roll(s, rng)
        raise IllegalAction(f"no chance event is due now (phase {PHASES[ph]})")

    # -- applying ----------------------------------------------------------------------------

    def apply(self, s: State, action: Act, *, quiet: bool = False) -> list[Event]:
        if not isinstance(action, Act):
            raise IllegalAction(f"{action!r} is not an Earth & Water action")
        ph = s.phase
        if ph == OVER:
            raise IllegalAction("the game is over")
        if ph in (DRAW, ROLL, LOT):
            if not self._chance_ok(s, action):
                raise IllegalAction(
                    f"{self.format(action)!r} cannot happen now: {text.waiting_for(self, s)}"
                )
        elif action not in self.legal(s):
            raise IllegalAction(
                f"{self.format(action)!r} is not legal now: {text.waiting_for(self, s)}"
            )
        ev: list[Event] | None = None if quiet else []
        s._legal = None
        self._dispatch(s, action, ev)
        s._legal = None
        return ev if ev is not None else []

    def _chance_ok(self, s: State, a: Act) -> bool:
        """The same support as `chance`, checked without building the distribution."""
        ph = s.phase
        if ph == DRAW:
            return a.verb == "draw" and a.a in (s.deck or s.discard)
        if ph == LOT:
            return a.verb == "lot" and a.a in s.hands[GREECE]
        return a.verb == "roll" and a in dict(self._roll_distribution(s))

    def _dispatch(self, s: State, a: Act, ev: Ev) -> None:
        ph = s.phase
        if ph == PREP_BUY:
            return self._buy(s, a.a, ev)
        if ph == DRAW:
            return self._drawn(s, a.a, ev)
        if ph == PREP_BUILD:
            return self._build(s, a, ev)
        if ph == OPS:
            return self._ops(s, a, ev)
        if ph == SUP_KEEP:
            return self._keep(s, a, ev)
        if ph == SUP_REMOVE:
            return self._attrition(s, a.a, ev)
        if ph == LOT:
            return self._lot(s, a.a, ev)
        if ph == ROLL:
            return self._rolled(s, a.a, ev)
        return self._step(s, a, ev)

    # -- continuations -----------------------------------------------------------------------

    def _resume(self, s: State, ev: Ev) -> None:
        """A procedure ended: carry on with whatever waited for it."""
        if not s.stack:  # only a hand-edited position can get here
            raise RecordError(
                "this position's pending steps are inconsistent: nothing "
                "waits for the procedure that just ended"
            )
        item = s.stack.pop()
        getattr(self, "_k_" + item[0])(s, ev, *item[1:])

    def _k_ops_next(self, s: State, ev: Ev) -> None:
        s.used &= ~NO_RETREAT  # Themistocles' "no retreat" lasts for the turn
        self._next_turn(s, ev)

    # -- preparation (RB 5) ---------------------------------------------------------------

    def _start_preparation(
        self, s: State, side: int, ev: Ev, talents: int | None = None, extra: bool = False
    ) -> None:
        p = self.c.prices
        if talents is None:
            if side == PERSIA:
                talents = p.persia_budget_kept_card if s.hands[PERSIA] else p.persia_budget
            else:
                talents = p.greece_budget - (1 if s.acropolis_penalty else 0)
                s.acropolis_penalty = False
        s.talents = talents
        s.fleets_built = -1 if extra else 0  # -1: no fleet limit (Mines of Laurion)
        s.side = side
        s.phase = PREP_BUY
        if ev is not None:
            ev.append(
                Event(
                    "preparation", {"side": SIDES[side], "talents": talents, "campaign": s.campaign}
                )
            )

    def _max_buy(self, s: State) -> int:
        available = len(s.deck) + len(s.discard)
        return min(self.c.prices.max_cards, s.talents // self.c.prices.card, available)

    def _buy(self, s: State, n: int, ev: Ev) -> None:
        s.talents -= n * self.c.prices.card
        if ev is not None:
            ev.append(Event("buy", {"side": SIDES[s.side], "cards": n}))
        s.stack.append(("after_buy", s.side))
        self._draw(s, s.side, n, ev)

    def _k_after_buy(self, s: State, ev: Ev, side: int) -> None:
        if s.used & SUDDEN_DEATH:
            s.used &= ~SUDDEN_DEATH
            return self._sudden_death(s, ev, during="preparation")
        s.phase = PREP_BUILD
        s.side = side

    def _draw(self, s: State, side: int, n: int, ev: Ev) -> None:
        """Draw `n` cards for `side` (chance nodes); an empty pile takes the discards."""
        s.draws = n
        s.draw_to = side
        self._next_draw(s, ev)

    def _next_draw(self, s: State, ev: Ev) -> None:
        if s.draws > 0 and not s.deck and s.discard:
            s.deck, s.discard = sorted(s.discard), []  # RB 5.4: the discards are shuffled in
            if ev is not None:
                ev.append(Event("reshuffle", {}))
        if s.draws > 0 and s.deck:
            s.phase = DRAW
            return
        s.draws = 0
        self._resume(s, ev)

    def _drawn(self, s: State, card: int, ev: Ev) -> None:
        s.deck.remove(card)
        if not s.deck and s.discard:  # RB 5.4: the discards become the new draw pile
            s.deck, s.discard = sorted(s.discard), []
            if ev is not None:
                ev.append(Event("reshuffle", {}))
        insort(s.hands[s.draw_to], card)  # hands and pile kept sorted: draws are by chance
        s.draws -= 1
        if ev is not None:
            ev.append(Event("draw", {"side": SIDES[s.draw_to]}))
            ev.append(Event("drew", {"side": SIDES[s.draw_to], "card": card}, to=s.draw_to))
        if card == 11 and s.draw_to == PERSIA and s.kings < MAX_KINGS:
            s.used |= SUDDEN_DEATH  # resolved once every card of this draw is in hand
        self._next_draw(s, ev)

    def _build_options(self, s: State) -> list[Act]:
        """Seed 002, "Placement • Dans une cité (ou port) que vous contrôlez" and "Si flotte
        ennemie : Impossible d'y placer une flotte": armies and fleets alike go only where
        the side has control, and a major city is its owner's only "sans armée ennemie"."""
        side = s.side
        p = self.c.prices
        out = [P["done"]]
        who = board.controllers(self.c, s)
        if s.talents >= p.army and s.res_arm[side]:
            out += [A["army"][x] for x in self.cities if who[x] == side]
        price = self._fleet_price(s)
        if (
            s.talents >= price
            and s.res_flt[side]
            and (s.fleets_built < 0 or s.fleets_built < p.max_fleets)
        ):
            out += [A["fleet"][x] for x in self.ports if who[x] == side and not s.flt[1 - side][x]]
        if (
            side == PERSIA
            and not s.bridge
            and s.talents >= p.bridge
            and board.controls(self.c, s, PERSIA, self.abydos)
        ):
            out.append(P["bridge"])
        return out

    def _fleet_price(self, s: State) -> int:
        p = self.c.prices
        if s.side == GREECE:
            return p.greece_fleet
        return p.persia_fleet_cheap if s.options["cheap_fleets"] else p.persia_fleet

    def _build(self, s: State, a: Act, ev: Ev) -> None:
        side = s.side
        if a.verb == "army":
            s.talents -= self.c.prices.army
            s.res_arm[side] -= 1
            s.arm[side][a.a] += 1
        elif a.verb == "fleet":
            s.talents -= self._fleet_price(s)
            s.res_flt[side] -= 1
            s.flt[side][a.a] += 1
            if s.fleets_built >= 0:
                s.fleets_built += 1
        elif a.verb == "bridge":
            s.talents -= self.c.prices.bridge
            s.bridge = True
        if ev is not None:
            ev.append(
                Event(
                    "build",
                    {
                        "side": SIDES[side],
                        "what": a.verb,
                        "city": self.c.names[a.a] if a.a >= 0 else None,
                    },
                )
            )
        if a.verb != "done":
            return
        if s.fleets_built < 0:  # the extra Preparation of Mines of Laurion ends
            return self._resume(s, ev)
        if side == PERSIA:
            return self._start_preparation(s, GREECE, ev)
        self._start_operations(s, ev)

    # -- operations (RB 6.1) ----------------------------------------------------------------

    def _start_operations(self, s: State, ev: Ev) -> None:
        s.active = PERSIA
        s.passes = 0
        s.side = PERSIA
        s.phase = OPS
        if ev is not None:
            ev.append(Event("operations", {"campaign": s.campaign}))

    def _ops_options(self, s: State) -> list[Act]:
        side = s.active
        out = [P["pass"]]
        movable = self.can_move_with(s, side)
        for k in sorted(set(s.hands[side])):
            if self.can_event(s, side, k):
                out.append(A["event"][k])
            if movable:
                out.append(A["move"][k])
        return out

    def _ops(self, s: State, a: Act, ev: Ev) -> None:
        side = s.active
        s.turns += 1
        if a.verb == "pass":
            s.passes += 1
            if ev is not None:
                ev.append(Event("pass", {"side": SIDES[side]}))
            return self._next_turn(s, ev)
        s.passes = 0
        self._play_card(s, side, a.a)
        s.stack.append(("ops_next",))
        if a.verb == "move":
            if ev is not None:
                ev.append(Event("move-card", {"side": SIDES[side], "card": a.a}))
            return self.begin_move(s, side, ev)
        if ev is not None:
            ev.append(
                Event(
                    "event", {"side": SIDES[side], "card": a.a, "name": self.card_name(side, a.a)}
                )
            )
        self.play_event(s, side, a.a, ev)

    def _play_card(self, s: State, side: int, card: int) -> None:
        s.hands[side].remove(card)
        s.discard.append(card)

    def _next_turn(self, s: State, ev: Ev) -> None:
        """RB 6.1: the phase ends when both players pass one after the other."""
        if s.phase == OVER:
            return
        if s.passes >= 2 or (not s.hands[PERSIA] and not s.hands[GREECE]):
            return self._start_supply(s, PERSIA, ev)
        s.active = 1 - s.active
        s.side = s.active
        s.phase = OPS

    # -- Sudden Death of the Great King (RB 5.3) -------------------------------------------

    def _sudden_death(self, s: State, ev: Ev, during: str) -> None:
        s.kings += 1
        if ev is not None:  # the data says why the phase ends and that it may strike again
            ev.append(
                Event(
                    "sudden-death",
                    {
                        "king": "Darius" if s.kings == 1 else "Xerxes",
                        "during": during,
                        "campaign": s.campaign,
                        "kings_dead": s.kings,
                        "kings": MAX_KINGS,
                        "discarded": len(s.hands[PERSIA]),
                        "from_reserve": s.res_arm[PERSIA] > 0,
                    },
                )
            )
        s.discard.extend(s.hands[PERSIA])
        s.hands[PERSIA] = []
        s.stack.append(("after_sudden_death", during))
        self.pay_portrait(s, PERSIA, ev)

    def _k_after_sudden_death(self, s: State, ev: Ev, during: str) -> None:
        s.deck = sorted(s.deck + s.discard)  # the pile and the discards shuffled together
        s.discard = []
        if ev is not None:
            ev.append(
                Event(
                    "sudden-death-end",
                    {
                        "during": during,
                        "campaign": s.campaign,
                        "draw_pile": len(s.deck),
                        "last": s.campaign >= CAMPAIGNS,
                        "kings_dead": s.kings,
                        "kings": MAX_KINGS,
                    },
                )
            )
        if during == "operations":
            s.stack = []
            return self._start_supply(s, PERSIA, ev)
        s.carneia = False  # the campaign ends at once: no operations, supply or scoring
        s.acropolis = False
        s.acropolis_penalty = False
        s.stack = []
        self._next_campaign(s, ev)

    # -- supply (RB 8) ----------------------------------------------------------------------

    def _start_supply(self, s: State, side: int, ev: Ev) -> None:
        s.stack = []
        s.mv = None
        s.bt = None
        s.side = side
        keep = PERSIA_KEEPS if side == PERSIA else GREECE_KEEPS
        if (
            s.campaign < CAMPAIGNS
            and len(s.hands[side]) > 0
            and (side == PERSIA or len(s.hands[side]) > keep)
        ):
            s.phase = SUP_KEEP
            return
        if s.campaign >= CAMPAIGNS:
            s.discard.extend(s.hands[side])
            s.hands[side] = []
        self._attrition_start(s, side, ev)

    def _keep(self, s: State, a: Act, ev: Ev) -> None:
        side = s.side
        if side == PERSIA:
            kept = [a.a] if a.a else []
            rest = list(s.hands[PERSIA])
            for k in kept:
                rest.remove(k)
            s.discard.extend(rest)
            s.hands[PERSIA] = kept
            if ev is not None:
                ev.append(Event("keep", {"side": "persia", "cards": len(kept)}))
            return self._attrition_start(s, side, ev)
        s.hands[GREECE].remove(a.a)
        s.discard.append(a.a)
        if ev is not None:
            ev.append(Event("discard", {"side": "greece", "card": a.a}))
        if len(s.hands[GREECE]) <= GREECE_KEEPS:
            self._attrition_start(s, side, ev)

    def _attrition_start(self, s: State, side: int, ev: Ev) -> None:
        food, counted = board.capacity(self.c, s, side)
        excess = sum(s.arm[side][x] for x in counted) - food
        if excess > 0:
            s.side = side
            s.draws = excess  # armies still to remove
            s.phase = SUP_REMOVE
            return
        self._lines_of_communication(s, side, ev)

    def _attrition(self, s: State, city: int, ev: Ev) -> None:
        side = s.side
        s.arm[side][city] -= 1
        s.res_arm[side] += 1
        s.draws -= 1
        if ev is not None:
            ev.append(Event("attrition", {"side": SIDES[side], "city": self.c.names[city]}))
        if s.draws <= 0:
            self._lines_of_communication(s, side, ev)

    def _lines_of_communication(self, s: State, side: int, ev: Ev) -> None:
        reached = board.supplied(self.c, s, side)
        for city in self.cities:
            n = s.arm[side][city]
            if n and city not in reached:
                s.arm[side][city] = 0
                s.res_arm[side] += n
                if ev is not None:
                    ev.append(
                        Event(
                            "out-of-supply",
                            {"side": SIDES[side], "city": self.c.names[city], "armies": n},
                        )
                    )
        if side == PERSIA:
            return self._start_supply(s, GREECE, ev)
        self._scoring(s, ev)

    # -- scoring (RB 9, 10) -----------------------------------------------------------------

    def _scoring(self, s: State, ev: Ev) -> None:
        c = self.c
        if board.controls(c, s, PERSIA, self.athenai) and board.controls(c, s, PERSIA, self.sparta):
            return self._finish(s, PERSIA, "Persia holds both Athenai and Sparta", ev)
        if board.controls(c, s, GREECE, self.abydos) and board.controls(c, s, GREECE, self.ephesos):
            return self._finish(s, GREECE, "Greece holds both Abydos and Ephesos", ev)
        persia, greece = board.points(c, s, PERSIA), board.points(c, s, GREECE)
        self.add_score(s, persia - greece)
        if ev is not None:
            ev.append(
                Event(
                    "scoring",
                    {"persia": persia, "greece": greece, "score": s.score, "campaign": s.campaign},
                )
            )
        if s.acropolis:
            s.acropolis = False
            s.acropolis_penalty = True
        s.carneia = False
        self._next_campaign(s, ev)

    def add_score(self, s: State, points: int) -> None:
        """Move the marker; it never goes past 6 either way."""
        s.score = max(-SCORE_LIMIT, min(SCORE_LIMIT, s.score + points))

    def _next_campaign(self, s: State, ev: Ev) -> None:
        if s.campaign >= CAMPAIGNS:
            if s.score > 0:
                return self._finish(s, PERSIA, "Persia leads after the 5th campaign", ev)
            if s.score < 0:
                return self._finish(s, GREECE, "Greece leads after the 5th campaign", ev)
            return self._finish(s, 2, "the score is 0 after the 5th campaign", ev)
        s.campaign += 1
        self._start_preparation(s, PERSIA, ev)

    def _finish(self, s: State, result: int, reason: str, ev: Ev) -> None:
        s.phase = OVER
        s.result = result
        s.reason = reason
        s.stack = []
        if ev is not None:
            ev.append(
                Event(
                    "end",
                    {
                        "winner": ("persia", "greece", None)[result],
                        "reason": reason,
                        "score": s.score,
                    },
                )
            )

    # -- results, views, notation ------------------------------------------------------------

    def outcome(self, s: State) -> Outcome | None:
        if s.phase != OVER:
            return None
        results = {0: ("win", "loss"), 1: ("loss", "win"), 2: ("draw", "draw")}[s.result]
        scores = {0: (1.0, 0.0), 1: (0.0, 1.0), 2: (0.5, 0.5)}[s.result]
        return Outcome(results, scores, s.reason, s.turns)

    def view(self, s: State, seat: int | None) -> JSON:
        return view.view(self, s, seat)

    def determinize(self, s: State, seat: int, rng: random.Random) -> State:
        return view.determinize(s, seat, rng)

    def evaluate(self, s: State) -> tuple[float, float]:
        """Each side's estimated chance of winning an unfinished game (for a search that
        stops early; `ai.evaluate`)."""
        from thermopylae.games.earth_and_water.ai import evaluate

        return evaluate(self, s)

    def describe(self, event: Event) -> str:
        return text.describe(self, event)

    def render(self, v: JSON) -> str:
        return text.render(v)

    def rules_text(self) -> str:
        return text.rules_text(self)

    def hand_text(self, v: JSON) -> str | None:
        from thermopylae.games.earth_and_water.hand import hand_text

        return hand_text(v)

    def reason_text(self, reason: str) -> str:
        """An outcome's reason (English data in states and records) in the current
        language."""
        return reword(reason, text.REASONS)

    def label(self, action: Act) -> str:
        return text.label(self, action)

    def state_to_json(self, s: State) -> JSON:
        return state_to_json(self, s)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return state_from_json(self, data)

    def agents(self) -> Mapping[str, Any]:
        from thermopylae.games.earth_and_water.ai import Heuristic

        return {"heuristic": Heuristic}
