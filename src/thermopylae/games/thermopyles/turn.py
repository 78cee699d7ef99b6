"""A player's turn (seed 001, "Turno"): retreat, or charge with a card and support, the
dice, and the combat against the two Persian slots."""

from __future__ import annotations

from thermopylae.engine.errors import IllegalAction
from thermopylae.engine.protocol import Event
from thermopylae.games.thermopyles import text
from thermopylae.games.thermopyles.actions import Action, Fight, Retreat, Roll, seat_name
from thermopylae.games.thermopyles.flow import LOST, WON, Events, end_turn, finish, next_draw
from thermopylae.games.thermopyles.state import REFILL, ROLL, TURN, State
from thermopylae.games.thermopyles.tables import LOST_LOCATION, Tables

GRAVEYARD_WIN = 12  # "quando a 12ª carta persa é colocada no cemitério"


def expect(s: State, t: Tables, phase: int, action: Action) -> None:
    """IllegalAction, naming what the table waits for, unless the game is in `phase`."""
    if s.phase != phase:
        raise IllegalAction(
            f"{t.notation.format(action)!r} is not possible now: {text.waiting_for(s)}"
        )


def retreat(s: State, t: Tables, a: Retreat, ev: Events) -> None:
    """ "Recuar - move o marcador para trás um passo no mapa e compra uma carta"."""
    expect(s, t, TURN, a)
    s.turn += 1
    s.marker += 1
    if ev is not None:
        ev.append(Event("retreat", {"seat": seat_name(s.active), "marker": s.marker}))
    if s.marker >= LOST_LOCATION:
        return finish(s, LOST, "retreated onto location 7", ev)
    s.draws = 1  # "os jogadores como time podem comprar uma carta espartana"
    next_draw(s, ev)


def fight(s: State, t: Tables, a: Fight, ev: Events) -> None:
    """ "Carga": a card from hand; "Solicitar suporte": any number of support cards."""
    expect(s, t, TURN, a)
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
    if a.support or t.die[s.marker]:
        s.phase = ROLL
    else:
        resolve(s, t, ev)


def roll(s: State, t: Tables, a: Roll, ev: Events) -> None:
    """One support die per support card, then the location die on locations 3 and 6."""
    expect(s, t, ROLL, a)
    if not 1 <= a.face <= 6:
        raise IllegalAction(f"a die shows 1 to 6, not {a.face}")
    s.dice.append(a.face)
    if ev is not None:
        die = "support" if len(s.dice) <= s.committed else "location"
        ev.append(Event("roll", {"die": die, "face": a.face, "total": s.card + sum(s.dice)}))
    if len(s.dice) >= s.committed + t.die[s.marker]:
        resolve(s, t, ev)


def _combat(ev: list[Event], t: Tables, slot: int, kind: int, total: int, result: str) -> None:
    ev.append(
        Event(
            "combat",
            {"slot": slot + 1, "card": t.kind_texts[kind], "total": total, "result": result},
        )
    )


def resolve(s: State, t: Tables, ev: Events) -> None:
    """ "Resolução de Combate": the same total against slot 1, then slot 2."""
    total = s.card + sum(s.dice)
    s.sdiscard.append(s.card)  # "a carta espartana é descartada" in every case
    s.card = 0
    s.committed = 0
    s.dice = []
    for slot in (0, 1):
        kind = s.slots[slot]
        if total < t.combat[kind]:  # result a: the Persian card stays
            if ev is not None:
                _combat(ev, t, slot, kind, total, "lost")
            break
        s.slots[slot] = -1
        if total >= t.annihilation[kind]:  # result c: to the graveyard
            s.graveyard.append(kind)
            result = "annihilated"
        else:  # result b: to the Persian discard pile
            s.pdiscard.append(kind)
            result = "repelled"
        if t.bonus[kind]:
            s.draws += 1  # "para cada carta persa derrotada que tinha um símbolo ... Λ"
        if ev is not None:
            _combat(ev, t, slot, kind, total, result)
        if len(s.graveyard) >= GRAVEYARD_WIN:
            return finish(s, WON, "the 12th Persian card entered the graveyard", ev)
    if s.slots[0] < 0 and s.slots[1] >= 0:  # beat slot 1, lost to slot 2: slide
        s.slots[0], s.slots[1] = s.slots[1], -1
        if ev is not None:
            ev.append(Event("slide", {}))
    empty = (s.slots[0] < 0) + (s.slots[1] < 0)
    if empty == 0:  # lost against slot 1: "o turno termina imediatamente"
        s.draws = 0
        return end_turn(s, ev)
    if len(s.pdeck) < empty:
        return finish(s, WON, "the Persian deck cannot refill the slots", ev)
    s.phase = REFILL
