"""Earth & Water in words: the text map, menu labels, log lines, and the rules in brief."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from thermopylae.engine.protocol import JSON, Event
from thermopylae.games.earth_and_water.actions import Act
from thermopylae.games.earth_and_water.state import SIDES, State

if TYPE_CHECKING:
    from thermopylae.games.earth_and_water.rules import EarthAndWater

PHASE_WORDS = {
    "prep-buy": "buy cards", "prep-build": "raise forces", "operations": "play a card or pass",
    "move-origin": "choose where the move starts", "move-count": "choose how many move",
    "move-carry": "choose how many armies the fleets carry",
    "move-destination": "choose the destination", "reaction": "react or decline",
    "battle": "continue the battle or retreat", "bridge": "destroy the bridge or spare it",
    "choose": "make the event's choice", "supply-keep": "choose the cards to keep",
    "supply-remove": "remove armies beyond supply", "draw": "a card is drawn",
    "roll": "dice are rolled", "lot": "a card is taken at random", "over": "game over",
}


def waiting_for(g: EarthAndWater, s: State) -> str:
    from thermopylae.games.earth_and_water.state import PHASES
    phase = PHASES[s.phase]
    if phase in ("draw", "roll", "lot", "over"):
        return PHASE_WORDS[phase]
    return f"{SIDES[s.side]} must {PHASE_WORDS[phase]}"


def label(g: EarthAndWater, a: Act) -> str:
    """A menu line: the notation, and the card's name where there is one."""
    text = g.format(a)
    if a.verb in ("event", "move", "react", "keep", "discard", "pick") and a.a > 0:
        p, gr = g.c.persian_names[a.a], g.c.greek_names[a.a]
        return f"{text}  ({gr} / {p})"
    return text


def _units(n: int, letter: str) -> str:
    return f"{n}{letter}" if n else ""


def render(v: JSON) -> str:
    lines = [f"300: Earth & Water - campaign {v['campaign']} of 5 - score "
             f"{_score(v['score'])} - {v['phase']}"
             + (f" - {v['to_act']} to act" if v["to_act"] else "")]
    lines.append(f"{'city':<10} {'ctrl':<7} {'Persia':<8} {'Greece':<8} notes")
    for city in v["cities"]:
        a, f = city["armies"], city["fleets"]
        persia = " ".join(filter(None, [_units(a["persia"], "A"), _units(f["persia"], "F")]))
        greece = " ".join(filter(None, [_units(a["greece"], "A"), _units(f["greece"], "F")]))
        notes = []
        if city["major"]:
            notes.append(f"major ({city['major']})")
        notes.append("port" if city["port"] else "no port")
        notes.append(f"{city['amphorae']} amph.")
        lines.append(f"{city['name']:<10} {city['control'] or '-':<7} {persia or '.':<8} "
                     f"{greece or '.':<8} {', '.join(notes)}")
    r = v["reserve"]
    lines.append(f"Bridge: {'built' if v['bridge'] else 'not built'}   Reserve: Persia "
                 f"{r['persia']['armies']}A {r['persia']['fleets']}F, Greece "
                 f"{r['greece']['armies']}A {r['greece']['fleets']}F   Kings dead: "
                 f"{v['kings_dead']}   Used: {', '.join(v['once_used']) or 'none'}")
    flags = [name for name in ("carneia", "acropolis", "acropolis_penalty") if v[name]]
    lines.append(f"Draw pile {v['draw_pile']}, discard top "
                 f"{v['discard'][-1] if v['discard'] else '-'} ({len(v['discard'])})"
                 + (f"   In force: {', '.join(flags)}" if flags else "")
                 + (f"   Talents: {v['talents']}" if v["talents"] is not None else ""))
    for side in SIDES:
        h = v["hands"][side]
        names = v["card_names"][side]
        cards = (", ".join(f"{k} {names[k]}" for k in h["cards"])
                 if h["cards"] is not None else "hidden")
        me = " (you)" if v["seat"] == side else ""
        lines.append(f"Hand {side}{me}: {cards or '(empty)'} [{h['count']}]")
    if v["result"]:
        lines.append(f"Game over: {v['result']['winner'] or 'draw'} - {v['result']['reason']}")
    return "\n".join(lines)


def _score(score: int) -> str:
    if score == 0:
        return "0"
    return f"Persia +{score}" if score > 0 else f"Greece +{-score}"


def describe(g: EarthAndWater, e: Event) -> str:
    d: dict[str, Any] = dict(e.data)
    k = e.kind
    if k == "event":
        return f"{d['side']} plays {d['card']} for its event: {d['name']}"
    if k == "react":
        return f"{d['side']} reacts with {d['card']}: {d['name']}"
    if k == "move-card":
        return f"{d['side']} plays card {d['card']} to move"
    if k == "land-move":
        return f"{d['side']} moves {d['armies']} army(ies) {d['from']} -> {d['to']}"
    if k == "sea-move":
        return (f"{d['side']} sails {d['fleets']} fleet(s) carrying {d['armies']} army(ies) "
                f"{d['from']} -> {d['to']}")
    if k == "roll":
        return (f"{d['side']} rolls {d['dice']} die/dice: highest {d['highest']}, "
                f"counts {d['counts']}")
    if k == "buy":
        return f"{d['side']} buys {d['cards']} card(s)"
    if k == "build":
        if d["what"] == "done":
            return f"{d['side']} ends its preparation"
        if d["what"] == "bridge":
            return f"{d['side']} builds the pontoon bridge"
        unit = "an army" if d["what"] == "army" else "a fleet"
        return f"{d['side']} raises {unit} in {d['city']}"
    if k == "preparation":
        return f"campaign {d['campaign']}: {d['side']} prepares with {d['talents']} talents"
    if k == "operations":
        return f"campaign {d['campaign']}: operations begin"
    if k == "pass":
        return f"{d['side']} passes"
    if k == "battle":
        return f"{d['kind']} battle in {d['city']}, {d['attacker']} attacking"
    if k == "battle-end":
        return f"the {d['kind']} battle in {d['city']} ends"
    if k == "loss":
        return f"{d['side']} loses a {d['unit']} in {d['city']}"
    if k == "retreat":
        how = " by sea" if d["by_sea"] else ""
        return f"{d['side']} retreats{how} from {d['from']} to {d['to']}"
    if k == "attrition":
        return f"{d['side']} loses an army in {d['city']} (beyond its supply)"
    if k == "out-of-supply":
        return f"{d['side']} loses {d['armies']} army(ies) in {d['city']} (cut off)"
    if k == "keep":
        return f"{d['side']} keeps {d['cards']} card(s)"
    if k == "discard":
        how = " at random" if d.get("at_random") else ""
        return f"{d['side']} discards card {d['card']}{how}"
    if k == "sudden-death":
        return f"Sudden Death of the Great King: {d['king']} dies ({d['during']})"
    if k == "reshuffle":
        return "the discard pile is shuffled into a new draw pile"
    if k == "drew":
        return f"{d['side']} drew card {d['card']}"
    if k == "draw":
        return f"{d['side']} draws a card"
    if k == "scoring":
        return (f"scoring: Persia {d['persia']}, Greece {d['greece']}; score now "
                f"{_score(d['score'])}")
    if k == "end":
        return f"game over: {d['winner'] or 'draw'} ({d['reason']})"
    return f"{k}: " + ", ".join(f"{key} {val}" for key, val in d.items())


RULES = """\
300: Earth & Water - Persia against Greece over 5 campaigns (2 players).
Each campaign: Preparation (Persia, then Greece: buy cards, raise armies and fleets,
Persia may build the pontoon bridge), Operations (alternate turns from Persia: play a card
for its event, or for one land or naval move, or pass; two passes in a row end it),
Supply (keep cards; armies beyond the amphorae of your cities are lost; armies cut from
your major cities are lost), Scoring (1 point per city, 2 per major city; the difference
moves the marker, which never goes past 6). Holding both enemy major cities at Scoring
wins at once; after campaign 5 the side the marker favours wins, 0 is a draw.
Battles: one die per unit, at most 3, highest die counts; Persian dice count at most 4
(5 in Abydos and Ephesos); the loser of a round loses a unit, both on a tie.
Card effects are written in the project's own words (see docs/rules/earth-and-water.md)."""


def rules_text(g: EarthAndWater) -> str:
    c = g.c
    lines = [RULES, "", f"Components: {c.title} (from {c.origin}, digest {c.digest})"]
    from thermopylae.games.earth_and_water.cards import EFFECTS
    lines.append("Cards (number: Greek event / Persian event). Effects in our own words, "
                 "not the printed text; L: = lightning card, played as a reaction:")
    for k in range(1, 17):
        greek, persian = EFFECTS[k]
        lines.append(f"  {k:2d}: {c.greek_names[k]} / {c.persian_names[k]}")
        lines.append(f"      Greece: {greek}")
        lines.append(f"      Persia: {persian}")
    lines.append("Cities: " + ", ".join(
        f"{n}{' (major ' + SIDES[c.major[i]] + ')' if c.major[i] >= 0 else ''}"
        for i, n in enumerate(c.names)))
    return "\n".join(lines)
