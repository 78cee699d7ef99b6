"""Cards coming out of the decks (seed 001, "Comprar cartas"): a Persian card revealed
into a slot, a Spartan card drawn by the seat the team chose, a full hand that takes
and discards or refuses."""

from __future__ import annotations

from bisect import insort

from thermopylae.engine.errors import IllegalAction
from thermopylae.engine.protocol import Event
from thermopylae.games.thermopyles.actions import (
    Discard,
    Draw,
    Give,
    Refuse,
    Reveal,
    Take,
    seat_name,
)
from thermopylae.games.thermopyles.flow import HAND_LIMIT, Events, next_draw, offer, setup_next
from thermopylae.games.thermopyles.state import (
    DISCARD,
    DRAW,
    FULL_HAND,
    RECIPIENT,
    REFILL,
    SETUP,
    State,
)
from thermopylae.games.thermopyles.tables import Tables
from thermopylae.games.thermopyles.turn import expect


def reveal(s: State, t: Tables, a: Reveal, ev: Events) -> None:
    ph = s.phase
    if ph != REFILL and not (ph == SETUP and (s.slots[0] < 0 or s.slots[1] < 0)):
        expect(s, t, REFILL, a)
    if not 0 <= a.kind < len(t.kind_texts):
        raise IllegalAction(f"there is no Persian card kind {a.kind} in this set")
    if a.kind not in s.pdeck:
        raise IllegalAction(f"no Persian card {t.kind_texts[a.kind]} is left in the deck")
    s.pdeck.remove(a.kind)
    slot = 0 if s.slots[0] < 0 else 1
    s.slots[slot] = a.kind
    if ev is not None:
        ev.append(Event("reveal", {"slot": slot + 1, "card": t.kind_texts[a.kind]}))
    if s.phase == SETUP:
        setup_next(s)
    elif s.slots[1] >= 0:
        next_draw(s, ev)


def draw(s: State, t: Tables, a: Draw, ev: Events) -> None:
    ph = s.phase
    if ph != DRAW and not (ph == SETUP and s.slots[0] >= 0 and s.slots[1] >= 0):
        expect(s, t, DRAW, a)
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
        return setup_next(s)
    if len(hand) > HAND_LIMIT:
        s.phase = DISCARD  # "comprar uma carta, mas depois descartar para 5 cartas"
        return
    s.draws -= 1
    next_draw(s, ev)


def give(s: State, t: Tables, a: Give, ev: Events) -> None:
    """ "Os jogadores juntos decidem qual jogador receberá a carta" (the active player
    speaks for the team)."""
    expect(s, t, RECIPIENT, a)
    if not 0 <= a.seat < s.players:
        raise IllegalAction(f"there is no {seat_name(a.seat)} at this table")
    if ev is not None:
        ev.append(Event("give", {"seat": seat_name(s.active), "to": seat_name(a.seat)}))
    offer(s, a.seat)


def take(s: State, t: Tables, a: Take, ev: Events) -> None:
    expect(s, t, FULL_HAND, a)
    if ev is not None:
        ev.append(Event("take", {"seat": seat_name(s.recipient)}))
    s.phase = DRAW


def refuse(s: State, t: Tables, a: Refuse, ev: Events) -> None:
    """ "O jogador pode recusar-se a comprar uma carta" when the hand is full."""
    expect(s, t, FULL_HAND, a)
    if ev is not None:
        ev.append(Event("refuse", {"seat": seat_name(s.recipient)}))
    s.draws -= 1
    next_draw(s, ev)


def discard(s: State, t: Tables, a: Discard, ev: Events) -> None:
    expect(s, t, DISCARD, a)
    hand = s.hands[s.recipient]
    if a.card not in hand:
        raise IllegalAction(f"{seat_name(s.recipient)} holds no {a.card}")
    hand.remove(a.card)
    s.sdiscard.append(a.card)
    if ev is not None:
        ev.append(Event("discard", {"seat": seat_name(s.recipient), "card": a.card}))
    s.draws -= 1
    next_draw(s, ev)
