"""The flow between the steps of a turn: the draws still owed, the offer of a card to a
seat, the end of a turn, the end of the game, the set-up deal (seed 001, "Preparação"
and "Turno")."""

from __future__ import annotations

from thermopylae.engine.protocol import Event
from thermopylae.games.thermopyles.state import DRAW, FULL_HAND, OVER, RECIPIENT, TURN, State

HAND_LIMIT = 5  # "Todos os jogadores têm um limite de mão de 5 cartas"
START_HAND = 3  # "Cada jogador compra uma mão inicial de 3 cartas espartanas"
SOLO_START_HAND = 4  # "com um jogador, comece com 4 cartas"
WON, LOST = 1, -1

Events = list[Event] | None
"""Where a step writes its events; None when the game is played quietly (playouts)."""


def setup_next(s: State) -> None:
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


def next_draw(s: State, ev: Events) -> None:
    """Resolve the team draws still owed; with the Spartan deck empty none are drawn."""
    if s.draws > 0 and s.sdeck:
        if s.players == 1:
            return offer(s, 0)
        s.phase = RECIPIENT
        return
    s.draws = 0
    end_turn(s, ev)


def offer(s: State, seat: int) -> None:
    s.recipient = seat
    s.phase = FULL_HAND if len(s.hands[seat]) >= HAND_LIMIT else DRAW


def end_turn(s: State, ev: Events) -> None:
    s.recipient = -1
    if not s.sdeck and not any(s.hands):
        return finish(s, LOST, "no cards left in any hand or in the Spartan deck", ev)
    s.active = (s.active + 1) % s.players  # "a vez do próximo jogador"
    s.phase = TURN


def finish(s: State, result: int, reason: str, ev: Events) -> None:
    s.phase = OVER
    s.result = result
    s.reason = reason
    s.recipient = -1
    if ev is not None:
        ev.append(Event("end", {"result": "win" if result == WON else "loss", "reason": reason}))
