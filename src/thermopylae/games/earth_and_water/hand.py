"""The cards a side holds, with what each does, for the terminal's `cards` command.

Reads only the seat's view, so it shows nothing the seat may not see. Each card has a
Greek and a Persian event; a side plays a card for its own half (or for a move)."""

from __future__ import annotations

from thermopylae.engine.protocol import JSON
from thermopylae.games.earth_and_water.cards import EFFECTS
from thermopylae.i18n import _, ngettext


def hand_text(v: JSON) -> str | None:
    """The seat's hand, one card a line with its event's effect; None for a spectator."""
    side = v.get("seat")
    if side not in ("persia", "greece"):
        return None
    cards = v["hands"][side]["cards"] or []
    names = v["card_names"][side]
    half = 0 if side == "greece" else 1  # EFFECTS holds (Greek half, Persian half)
    count = ngettext("{n} card", "{n} cards", len(cards)).format(n=len(cards))
    lines = [
        _("Your hand ({side}, {count}); L: marks a lightning card, played as a reaction:").format(
            side=side, count=count
        )
    ]
    for k in cards:
        lines.append(f"  {k:2d} {_(names[k])}: {_(EFFECTS[k][half])}")
    if not cards:
        lines.append("  " + _("(no cards)"))
    lines.append(
        _(
            "A card is played for its event or for one move; every card's two "
            "events: `thermopylae rules earth-and-water`."
        )
    )
    return "\n".join(lines)
