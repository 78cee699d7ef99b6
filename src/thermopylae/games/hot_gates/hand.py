"""The cards a seat holds, with their window and effect, for the terminal's `cards`
command. Reads only the seat's view (other hands are hidden there)."""

from __future__ import annotations

from thermopylae.engine.protocol import JSON
from thermopylae.games.hot_gates.components import card_text
from thermopylae.i18n import _, ngettext


def hand_text(v: JSON) -> str | None:
    """The seat's hand, one card a line; None for a spectator."""
    mine = next((h for h in v["hands"] if h["seat"] == v.get("seat")), None)
    if mine is None or mine["cards"] is None:
        return None
    cards = mine["cards"]
    count = ngettext("{n} card", "{n} cards", len(cards)).format(n=len(cards))
    lines = [
        _("Your hand ({side}, {count}); [window]: when the card may be played:").format(
            side=mine["seat"], count=count
        )
    ]
    # titles, windows and effects in the current language (the view holds the data's words)
    lines += [
        f"  {c['code']:>4} [{_(c['window'])}] {_(c['title'])}: "
        f"{card_text(c['effect'], c['amount'])}"
        for c in cards
    ]
    if not cards:
        lines.append("  " + _("(no cards)"))
    return "\n".join(lines)
