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
    lines.append(f"Thermopyles, {v['players']} player(s), turn {v['turn'] + 1}")
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
