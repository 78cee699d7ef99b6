"""Thermopyles in words: the play screen drawn from a view, and one log line per event."""

from __future__ import annotations

from typing import Any

from thermopylae.engine.protocol import JSON, Event
from thermopylae.games.thermopyles.state import (
    DISCARD,
    DRAW,
    FULL_HAND,
    OVER,
    RECIPIENT,
    REFILL,
    ROLL,
    SETUP,
    TURN,
    State,
)

PROVISIONAL_BANNER = ("PROVISIONAL card values: the printed distribution is not public; "
                      "see `thermopylae rules thermopyles`.")


def waiting_for(s: State) -> str:
    p, r = f"p{s.active + 1}", f"p{s.recipient + 1}"
    return {
        SETUP: "the cards are being dealt",
        TURN: f"{p} must retreat or fight",
        ROLL: "the dice are being rolled",
        REFILL: "a Persian card is being revealed",
        RECIPIENT: f"{p} must choose who receives the team's draw",
        FULL_HAND: f"{r} holds 5 cards and must take or refuse the draw",
        DRAW: f"a Spartan card is being drawn for {r}",
        DISCARD: f"{r} holds 6 cards and must discard one",
        OVER: "the game is over",
    }[s.phase]


def _persian(c: dict[str, Any] | None) -> str:
    if c is None:
        return "(empty)"
    bonus = " Λ" if c["bonus"] else ""
    return f"{c['combat']}/{c['annihilation']}{bonus}"


def render(v: JSON) -> str:
    """The table as a seat sees it, in plain text (works on any terminal and in a pipe)."""
    lines = []
    if v["provisional"]:
        lines.append(PROVISIONAL_BANNER)
    when = (f"game over after {v['turn']} turns" if v["result"] else f"turn {v['turn'] + 1}")
    lines.append(f"Thermopyles, {v['players']} player(s), {when}")
    cells = []
    for loc in v["locations"]:
        n = loc["number"]
        label = f"{n}" + (f" {loc['name']}" if not loc["name"].startswith("Location") else "")
        label += " +die" if loc["die"] else ""
        cells.append(f"[{label}]" if n == v["marker"] else f" {label} ")
    lines.append("Map:      " + " - ".join(cells) + "   (reaching 7 loses)")
    s1, s2 = v["slots"]
    lines.append(f"Persians: slot 1 {_persian(s1)}   slot 2 {_persian(s2)}"
                 "   (combat/annihilation, Λ = bonus draw)")
    lines.append(f"Support:  {v['support']} of {v['support_total']} left (each adds one die)")
    lines.append(f"Spartan deck {v['spartan_deck']}, discard {len(v['spartan_discard'])}   "
                 f"Persian deck {v['persian_deck']}, discard {len(v['persian_discard'])}, "
                 f"graveyard {len(v['graveyard'])}/12")
    for h in v["hands"]:
        me = " (you)" if h["seat"] == v["seat"] else ""
        cards = " ".join(map(str, h["cards"])) if h["cards"] is not None else "hidden"
        turn = "  <- turn" if h["seat"] == v["active"] and v["result"] is None else ""
        lines.append(f"Hand {h['seat']}{me}: {cards or '(empty)'}  [{h['count']} card(s)]{turn}")
    if v["fight"]:
        f = v["fight"]
        lines.append(f"Fight:    card {f['card']}, support {f['support']}, dice {f['dice']}, "
                     f"total {f['total']}")
    if v["result"]:
        word = "WON" if v["result"]["result"] == "win" else "LOST"
        lines.append(f"The Spartans {word}: {v['result']['reason']}.")
    return "\n".join(lines)


def describe(e: Event) -> str:
    d = e.data
    match e.kind:
        case "retreat":
            return f"{d['seat']} retreats to location {d['marker']}"
        case "fight":
            sup = f" with {d['support']} support" if d["support"] else ""
            return f"{d['seat']} charges with {d['card']}{sup}"
        case "roll":
            return f"{d['die']} die: {d['face']} (total {d['total']})"
        case "combat":
            return f"total {d['total']} vs slot {d['slot']} {d['card']}: {d['result']}"
        case "slide":
            return "slot 2 slides into slot 1"
        case "reveal":
            return f"Persian card {d['card']} revealed into slot {d['slot']}"
        case "draw":
            return f"{d['seat']} draws a Spartan card"
        case "drew":
            return f"{d['seat']} drew {d['card']}"
        case "give":
            return f"{d['seat']} gives the team's draw to {d['to']}"
        case "take":
            return f"{d['seat']} takes a sixth card"
        case "refuse":
            return f"{d['seat']} refuses the card (hand full)"
        case "discard":
            return f"{d['seat']} discards {d['card']}"
        case "end":
            word = "win" if d["result"] == "win" else "lose"
            return f"The Spartans {word}: {d['reason']}"
    return f"{e.kind} {dict(d)}"


RULES = """\
Thermopyles: 1 to 4 players together are the Spartans holding the pass.
Setup: two Persian cards face up in slots 1 and 2; each player draws 3 Spartan cards
(4 when playing alone); the 4 support cards lie face up; the marker is on location 1.
Hand limit 5: a player with 5 cards may refuse a draw, or take it and discard down to 5.
On your turn, either
  retreat: the marker moves one location back; the team may draw one Spartan card and
    chooses who receives it (a player with no card must retreat), or
  fight: play one card; discard any number of support cards, rolling one die for each;
    on location 3 (the Hot Gates) or 6 (the Last Stand) roll one more die. The total
    fights slot 1: below its combat value the charge fails and the turn ends; at least
    the combat value repels it (Persian discard pile); at least the annihilation value
    annihilates it (graveyard). After a win the same total fights slot 2. Defeated slots
    are refilled (slot 2 slides into slot 1 first). Each defeated card with the bonus
    symbol gives the team a draw. The played card is always discarded.
The team loses on retreating onto location 7, or when no player holds a card and the
Spartan deck is empty. It wins when the 12th Persian card enters the graveyard, or when
the Persian deck cannot refill the slots after a battle.
Notation: retreat | fight N [support K] | give pN | take | refuse | discard N."""


def rules_text(c: Any) -> str:
    """The rules in brief, then every component value with its source."""
    lines = [RULES, "", f"Components: {c.title}  (from {c.origin}, digest {c.digest})"]
    if c.provisional:
        lines.append("PROVISIONAL: the card values below are the project's own choice; the "
                     "printed distribution is not public. Load yours with --components FILE.")
    if c.note:
        lines.append(c.note)
    for w in c.warnings:
        lines.append(f"WARNING: {w} (this set departs from the known rules).")
    lines.append("Values by source: " + ", ".join(f"{k} {v}" for k, v in sorted(c.sources.items())))
    lines.append(f"Support cards: {c.support}")
    lines.append("Map: " + ", ".join(
        f"{loc.number} {c.location_name(loc.number)}{' (die)' if loc.die else ''}"
        for loc in c.locations))
    lines.append(f"Spartan cards ({len(c.spartan)}, total {sum(c.spartan)}): "
                 + " ".join(map(str, c.spartan)))
    persian = [c.persian_kinds[k].text for k in c.persian]
    lines.append(f"Persian cards ({len(persian)}, combat/annihilation, ^ = bonus): "
                 + " ".join(persian))
    return "\n".join(lines)
