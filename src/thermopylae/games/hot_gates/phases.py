"""The phases of a round (seed 000, "Sequence of Play"): Draw, March, Battle, Ephialtes.

`start` lays the round's steps on `state.stack`, last first: the March Phase's card
window, the marches, the battles of row A then row B (Battle Start cards, Attack, the
dice, Casualty cards, casualties, Conquer), the end of the Battle Phase, the Ephialtes
Phase's card window, Ephialtes's move and the end of the round. `STEPS` names each of
them for `flow.resume`.
"""

from __future__ import annotations

from thermopylae.engine.protocol import Event
from thermopylae.games.hot_gates import battle, cards, flow, march, victory
from thermopylae.games.hot_gates.board import PERSIAN_OF, Tables
from thermopylae.games.hot_gates.flow import Events
from thermopylae.games.hot_gates.state import CASUALTY_W, EPHIALTES_W, MARCH_W, ROLL_W, State


def opening(s: State, t: Tables, ev: Events) -> None:
    """The opening hands, dealt by chance ("start with 4 cards": the lone Persian of a
    3-player game draws one more), then round 1."""
    n = s.players
    hand = t.c.rules.start_hand
    for seat in range(n):
        extra = 1 if n == 3 and seat in PERSIAN_OF[n] else 0
        s.draws += [seat] * (hand + extra)
    s.stack = [("round",)]
    flow.deal(s, t, ev)


def start(s: State, t: Tables, ev: Events) -> None:
    """Draw Phase: one card each (two for the lone Persian of a 3-player game)."""
    n = s.players
    if ev is not None:
        ev.append(Event("round", {"round": s.round}))
    s.stack += [
        ("round_end",),
        ("ephialtes",),
        ("window", EPHIALTES_W),
        ("battle_end",),
        ("battle", 1),
        ("battle", 0),
        ("march", 0),
        ("window", MARCH_W),
    ]
    for seat in range(n):
        s.draws += [seat] * (2 if n == 3 and seat in PERSIAN_OF[n] else 1)
    flow.deal(s, t, ev)


def battle_rolled(s: State, t: Tables, ev: Events) -> None:
    """The dice are in: the roll's card window, then the Casualty cards' window."""
    s.stack += [("bt_casualties",), ("window", CASUALTY_W)]
    cards.open_window(s, t, ev, ROLL_W)


flow.STEPS.update(
    {
        "round": start,
        "window": cards.open_window,
        "march": march.turn,
        "march_resume": march.resume_seat,
        "battle": battle.start,
        "bt_attack": battle.attack,
        "bt_rolled": battle_rolled,
        "bt_casualties": battle.casualties,
        "battle_end": victory.battle_end,
        "ephialtes": victory.ephialtes,
        "round_end": victory.round_end,
    }
)
