"""The Spartan cards a seat holds and what they do in a fight, for the terminal's `cards`
command. Reads only the seat's view (with open hands it shows every hand there)."""

from __future__ import annotations

from thermopylae.engine.protocol import JSON
from thermopylae.i18n import _, ngettext


def hand_text(v: JSON) -> str | None:
    """The seat's Spartan cards and how a fight uses them; None for a spectator."""
    mine = next((h for h in v["hands"] if h["seat"] == v.get("seat")), None)
    if mine is None or mine["cards"] is None:
        return None
    cards = mine["cards"]
    count = ngettext("{n} card", "{n} cards", len(cards)).format(n=len(cards))
    values = " ".join(map(str, sorted(cards))) or _("(no cards)")
    return "\n".join(
        [
            _("Your Spartan cards ({side}, {count}): {values}").format(
                side=mine["seat"], count=count, values=values
            ),
            _(
                "A fight plays one card: its value, plus one die for each support card spent "
                "and one more on a location marked +die, is the total. A total at least the "
                "combat value of the Persian card in slot 1 repels it, at least its annihilation "
                "value annihilates it; then the same total fights slot 2. The played card is "
                "always discarded."
            ),
        ]
    )
