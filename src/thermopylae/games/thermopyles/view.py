"""What each seat may see. The one place where hidden information is filtered.

Hidden: the order and identity of face-down cards (both decks) and, unless the table
plays with open hands, the other players' hands (their sizes are public). Everything
else is face up on the table: slots, piles, graveyard, support cards, the fight.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from thermopylae.engine.protocol import CHANCE, JSON
from thermopylae.games.thermopyles.actions import seat_name
from thermopylae.games.thermopyles.state import PHASES, State

if TYPE_CHECKING:
    from thermopylae.games.thermopyles.rules import Thermopyles


def card(game: Thermopyles, kind: int) -> JSON | None:
    if kind < 0:
        return None
    k = game.components.persian_kinds[kind]
    return {"combat": k.combat, "annihilation": k.annihilation, "bonus": k.bonus,
            "text": k.text}


def view(game: Thermopyles, s: State, seat: int | None) -> JSON:
    c = game.components
    texts = game.kind_texts
    to_act = game.to_act(s)
    return {
        "game": game.id,
        "provisional": game.provisional,
        "players": s.players,
        "seat": None if seat is None else seat_name(seat),
        "phase": PHASES[s.phase],
        "to_act": ("chance" if to_act == CHANCE else
                   None if to_act is None else seat_name(to_act)),
        "active": seat_name(s.active),
        "recipient": seat_name(s.recipient) if s.recipient >= 0 else None,
        "turn": s.turn,
        "marker": s.marker,
        "locations": [dict(loc) for loc in game.locations],
        "slots": [card(game, k) for k in s.slots],
        "support": s.support,
        "support_total": c.support,
        "hands": [
            {"seat": seat_name(p), "count": len(h),
             "cards": list(h) if (s.open_hands or p == seat) else None}
            for p, h in enumerate(s.hands)
        ],
        "spartan_deck": len(s.sdeck),
        "spartan_discard": list(s.sdiscard),
        "persian_deck": len(s.pdeck),
        "persian_discard": [texts[k] for k in s.pdiscard],
        "graveyard": [texts[k] for k in s.graveyard],
        "fight": None if not s.card else {
            "card": s.card, "support": s.committed, "dice": list(s.dice),
            "location_die": bool(game._die[s.marker]), "total": s.card + sum(s.dice)},
        "draws": s.draws,
        "result": None if not s.result else {
            "result": "win" if s.result > 0 else "loss", "reason": s.reason},
    }
