"""Earth & Water in words: the text map, menu labels, log lines, and the rules in brief, in
the current language (`thermopylae.i18n`; catalogs in locale/*/games.po).

Side ids (`persia`, `greece`) and city names are the notation the players type, so they
stay as they are; every other word is looked up when the text is built.
"""

from __future__ import annotations

from typing import Any

from thermopylae.engine.protocol import JSON, Event
from thermopylae.games.earth_and_water.actions import (
    Action,
    Armies,
    Army,
    Buy,
    Carry,
    Count,
    Discard,
    Fleet,
    Fleets,
    Keep,
    Land,
    Notation,
    Pick,
    Place,
    PlayEvent,
    PlayMove,
    React,
    Remove,
    Retreat,
    Sea,
    To,
)
from thermopylae.games.earth_and_water.components import Components
from thermopylae.games.earth_and_water.state import SIDES, State
from thermopylae.games.wording import reword
from thermopylae.i18n import N_, _, ngettext

PHASE_WORDS = {
    "prep-buy": N_("buy cards"),
    "prep-build": N_("raise forces"),
    "operations": N_("play a card or pass"),
    "move-origin": N_("choose where the move starts"),
    "move-count": N_("choose how many move"),
    "move-carry": N_("choose how many armies the fleets carry"),
    "move-destination": N_("choose the destination"),
    "reaction": N_("react or decline"),
    "battle": N_("continue the battle or retreat"),
    "bridge": N_("destroy the bridge or spare it"),
    "choose": N_("make the event's choice"),
    "supply-keep": N_("choose the cards to keep"),
    "supply-remove": N_("remove armies beyond supply"),
    "draw": N_("a card is drawn"),
    "roll": N_("dice are rolled"),
    "lot": N_("a card is taken at random"),
    "over": N_("game over"),
}
# The phases by their ids (state.PHASES), as the board shows them.
PHASE_NAMES = {
    "prep-buy": N_("prep-buy"),
    "draw": N_("draw"),
    "prep-build": N_("prep-build"),
    "operations": N_("operations"),
    "move-origin": N_("move-origin"),
    "move-count": N_("move-count"),
    "move-carry": N_("move-carry"),
    "move-destination": N_("move-destination"),
    "reaction": N_("reaction"),
    "roll": N_("roll"),
    "battle": N_("battle"),
    "bridge": N_("bridge"),
    "choose": N_("choose"),
    "supply-keep": N_("supply-keep"),
    "supply-remove": N_("supply-remove"),
    "lot": N_("lot"),
    "over": N_("over"),
}
FLAGS = {
    "carneia": N_("carneia"),
    "acropolis": N_("acropolis"),
    "acropolis_penalty": N_("acropolis_penalty"),
}
# The buttons: each English msgid is the action's notation, so English shows the notation.
LABELS = {
    "army": N_("army {city}"),
    "fleet": N_("fleet {city}"),
    "land": N_("land {city}"),
    "sea": N_("sea {city}"),
    "to": N_("to {city}"),
    "remove": N_("remove {city}"),
    "place": N_("place {city}"),
    "retreat": N_("retreat {city}"),
    "retreat by sea": N_("retreat by sea {city}"),
    "event": N_("event {n}"),
    "move": N_("move {n}"),
    "react": N_("react {n}"),
    "keep": N_("keep {n}"),
    "discard": N_("discard {n}"),
    "pick": N_("pick {n}"),
    "buy": N_("buy {n}"),
    "armies": N_("armies {n}"),
    "fleets": N_("fleets {n}"),
    "carry": N_("carry {n}"),
    "count": N_("count {n}"),
    "bridge": N_("bridge"),
    "done": N_("done"),
    "pass": N_("pass"),
    "decline": N_("decline"),
    "continue": N_("continue"),
    "destroy bridge": N_("destroy bridge"),
    "spare bridge": N_("spare bridge"),
    "keep none": N_("keep none"),
    "skip": N_("skip"),
}
KINGS = {"Darius": N_("Darius dies"), "Xerxes": N_("Xerxes is assassinated")}
# The reasons the rules give for the end of a game (kept in English in the state).
REASONS = (
    N_("Persia holds both Athenai and Sparta"),
    N_("Greece holds both Abydos and Ephesos"),
    N_("Persia leads after the 5th campaign"),
    N_("Greece leads after the 5th campaign"),
    N_("the score is 0 after the 5th campaign"),
)


def waiting_for(s: State) -> str:
    from thermopylae.games.earth_and_water.state import PHASES

    phase = PHASES[s.phase]
    if phase in ("draw", "roll", "lot", "over"):
        return _(PHASE_WORDS[phase])
    return _("{side} must {what}").format(side=SIDES[s.side], what=_(PHASE_WORDS[phase]))


def label(c: Components, notation: Notation, a: Action) -> str:
    """A menu line: the action in words (in English its notation), and the card's names
    where there is one."""
    msgid = LABELS.get("retreat by sea" if isinstance(a, Retreat) and a.by_sea else a.verb)
    match a:
        case Army(x) | Fleet(x) | Land(x) | Sea(x) | To(x) | Remove(x) | Place(x) | Retreat(x):
            text = notation.format(a) if msgid is None else _(msgid).format(city=c.names[x])
        case (
            Buy(n)
            | Armies(n)
            | Fleets(n)
            | Carry(n)
            | Count(n)
            | PlayEvent(n)
            | PlayMove(n)
            | React(n)
            | Keep(n)
            | Discard(n)
            | Pick(n)
        ):
            text = notation.format(a) if msgid is None else _(msgid).format(n=n)
        case _:
            text = notation.format(a) if msgid is None else _(msgid).format(n=-1)
    match a:
        case PlayEvent(k) | PlayMove(k) | React(k) | Keep(k) | Discard(k) | Pick(k) if k > 0:
            p, gr = _(c.persian_names[k]), _(c.greek_names[k])
            return f"{text}  ({gr} / {p})"
    return text


def _units(n: int, letter: str) -> str:
    return f"{n}{letter}" if n else ""


def _kings(v: JSON) -> str:
    """The kings dead, and what card 11 still does (Sudden Death: RB 5.3)."""
    dead = v["kings_dead"]
    if dead == 0:
        return "0"
    if dead == 1:
        return _("1 (Darius; card 11 drawn by Persia kills Xerxes and ends the phase)")
    return _("2 (Darius, Xerxes; card 11 is now only a move card)")


def render(v: JSON) -> str:
    """The table as a seat sees it, in plain text."""
    phase = _(PHASE_NAMES[v["phase"]]) if v["phase"] in PHASE_NAMES else v["phase"]
    lines = [
        _("300: Earth & Water - campaign {campaign} of 5 - score {score} - {phase}").format(
            campaign=v["campaign"], score=_score(v["score"]), phase=phase
        )
        + (
            _(" - {side} to act").format(
                side=_("chance") if v["to_act"] == "chance" else v["to_act"]
            )
            if v["to_act"]
            else ""
        )
    ]
    head = _("city"), _("ctrl"), _("Persia"), _("Greece"), _("notes")
    lines.append(f"{head[0]:<10} {head[1]:<7} {head[2]:<8} {head[3]:<8} {head[4]}")
    for city in v["cities"]:
        a, f = city["armies"], city["fleets"]
        persia = " ".join(filter(None, [_units(a["persia"], "A"), _units(f["persia"], "F")]))
        greece = " ".join(filter(None, [_units(a["greece"], "A"), _units(f["greece"], "F")]))
        notes = []
        if city["major"]:
            notes.append(_("major ({side})").format(side=city["major"]))
        notes.append(_("port") if city["port"] else _("no port"))
        notes.append(_("{n} amph.").format(n=city["amphorae"]))
        lines.append(
            f"{city['name']:<10} {city['control'] or '-':<7} {persia or '.':<8} "
            f"{greece or '.':<8} {', '.join(notes)}"
        )
    r = v["reserve"]
    used = ", ".join(_(name) for name in v["once_used"]) or _("none")
    lines.append(
        _(
            "Bridge: {bridge}   Reserve: Persia {pa}A {pf}F, Greece {ga}A {gf}F   "
            "Kings dead: {kings}   Used: {used}"
        ).format(
            bridge=_("built") if v["bridge"] else _("not built"),
            pa=r["persia"]["armies"],
            pf=r["persia"]["fleets"],
            ga=r["greece"]["armies"],
            gf=r["greece"]["fleets"],
            kings=_kings(v),
            used=used,
        )
    )
    flags = [_(FLAGS[name]) for name in FLAGS if v[name]]
    lines.append(
        _("Draw pile {pile}, discard top {top} ({n})").format(
            pile=v["draw_pile"], top=v["discard"][-1] if v["discard"] else "-", n=len(v["discard"])
        )
        + (_("   In force: {flags}").format(flags=", ".join(flags)) if flags else "")
        + (_("   Talents: {n}").format(n=v["talents"]) if v["talents"] is not None else "")
    )
    for side in SIDES:
        h = v["hands"][side]
        names = v["card_names"][side]
        cards = (
            ", ".join(f"{k} {_(names[k])}" for k in h["cards"])
            if h["cards"] is not None
            else _("hidden")
        )
        me = _(" (you)") if v["seat"] == side else ""
        lines.append(
            _("Hand {side}{me}: {cards} [{count}]").format(
                side=side, me=me, cards=cards or _("(empty)"), count=h["count"]
            )
        )
    if v["result"]:
        lines.append(
            _("Game over: {winner} - {reason}").format(
                winner=v["result"]["winner"] or _("draw"),
                reason=reword(v["result"]["reason"], REASONS),
            )
        )
    return "\n".join(lines)


def _score(score: int) -> str:
    if score == 0:
        return "0"
    return _("Persia +{n}").format(n=score) if score > 0 else _("Greece +{n}").format(n=-score)


def _armies(n: int) -> str:
    return ngettext("{n} army", "{n} armies", n).format(n=n)


def _cards(n: int) -> str:
    return ngettext("{n} card", "{n} cards", n).format(n=n)


def _sudden_death(d: dict[str, Any]) -> str:
    """Card 11 drawn by Persia: which king, what is lost, and whether it may strike again."""
    king = _(KINGS.get(d["king"], d["king"]))
    if d["kings_dead"] < d["kings"]:
        which = ngettext(
            "the first of the {n} Great King", "the first of the {n} Great Kings", d["kings"]
        ).format(n=d["kings"])
    else:
        which = _("the last Great King: card 11 is only a move card from now on")
    where = (
        _("an army from the Persian reserve goes onto his portrait")
        if d["from_reserve"]
        else _("Persia chooses an army on the map to go onto his portrait")
    )
    return _(
        "Persia drew card 11, Sudden Death of the Great King: {king} ({which}). "
        "Persia discards its whole hand ({cards}); {where}."
    ).format(king=king, which=which, cards=_cards(d["discarded"]), where=where)


def _sudden_death_end(d: dict[str, Any]) -> str:
    """Why the phase stopped, and that card 11 is back in the draw pile."""
    pile = _(
        "the draw pile and the discards, card 11 among them, are shuffled into a new "
        "draw pile of {pile}"
    ).format(pile=_cards(d["draw_pile"]))
    if d["during"] == "operations":
        end = _(
            "Sudden Death ends the operations of campaign {campaign} at once; supply and "
            "scoring follow"
        ).format(campaign=d["campaign"])
    else:
        end = _(
            "Sudden Death ends campaign {campaign} at once: no raising, no Greek "
            "preparation, no operations, supply or scoring"
        ).format(campaign=d["campaign"])
        if d["last"]:
            return end + _("; it was the last campaign: the game ends on the score.")
    again = ""
    if d["kings_dead"] < d["kings"]:
        again = _(" (if Persia draws it again, the other king dies too)")
    return f"{end}; {pile}{again}."


def describe(e: Event) -> str:
    """The log line of one event."""
    d: dict[str, Any] = dict(e.data)
    k = e.kind
    if k == "event":
        return _("{side} plays {card} for its event: {name}").format(
            side=d["side"], card=d["card"], name=_(d["name"])
        )
    if k == "react":
        return _("{side} reacts with {card}: {name}").format(
            side=d["side"], card=d["card"], name=_(d["name"])
        )
    if k == "move-card":
        return _("{side} plays card {card} to move").format(**d)
    if k == "land-move":
        return _("{side} moves {armies} {src} -> {dst}").format(
            side=d["side"], armies=_armies(d["armies"]), src=d["from"], dst=d["to"]
        )
    if k == "sea-move":
        return _("{side} sails {fleets} carrying {armies} {src} -> {dst}").format(
            side=d["side"],
            fleets=ngettext("{n} fleet", "{n} fleets", d["fleets"]).format(n=d["fleets"]),
            armies=_armies(d["armies"]),
            src=d["from"],
            dst=d["to"],
        )
    if k == "roll":
        return ngettext(
            "{side} rolls {dice} die: highest {highest}, counts {counts}",
            "{side} rolls {dice} dice: highest {highest}, counts {counts}",
            d["dice"],
        ).format(**d)
    if k == "buy":
        return _("{side} buys {cards}").format(side=d["side"], cards=_cards(d["cards"]))
    if k == "build":
        if d["what"] == "done":
            return _("{side} ends its preparation").format(**d)
        if d["what"] == "bridge":
            return _("{side} builds the pontoon bridge").format(**d)
        if d["what"] == "army":
            return _("{side} raises an army in {city}").format(**d)
        return _("{side} raises a fleet in {city}").format(**d)
    if k == "preparation":
        return _("campaign {campaign}: {side} prepares with {talents} talents").format(**d)
    if k == "operations":
        return _("campaign {campaign}: operations begin").format(**d)
    if k == "pass":
        return _("{side} passes").format(**d)
    if k == "battle":
        return (
            _("land battle in {city}, {attacker} attacking")
            if d["kind"] == "land"
            else _("naval battle in {city}, {attacker} attacking")
        ).format(**d)
    if k == "battle-end":
        return (
            _("the land battle in {city} ends")
            if d["kind"] == "land"
            else _("the naval battle in {city} ends")
        ).format(**d)
    if k == "loss":
        return (
            _("{side} loses an army in {city}")
            if d["unit"] == "army"
            else _("{side} loses a fleet in {city}")
        ).format(**d)
    if k == "retreat":
        return (
            _("{side} retreats by sea from {src} to {dst}")
            if d["by_sea"]
            else _("{side} retreats from {src} to {dst}")
        ).format(side=d["side"], src=d["from"], dst=d["to"])
    if k == "attrition":
        return _("{side} loses an army in {city} (beyond its supply)").format(**d)
    if k == "out-of-supply":
        return _("{side} loses {armies} in {city} (cut off)").format(
            side=d["side"], armies=_armies(d["armies"]), city=d["city"]
        )
    if k == "keep":
        return _("{side} keeps {cards}").format(side=d["side"], cards=_cards(d["cards"]))
    if k == "discard":
        return (
            _("{side} discards card {card} at random")
            if d.get("at_random")
            else _("{side} discards card {card}")
        ).format(**d)
    if k == "sudden-death":
        return _sudden_death(d)
    if k == "sudden-death-end":
        return _sudden_death_end(d)
    if k == "reshuffle":
        return _("the discard pile is shuffled into a new draw pile")
    if k == "drew":
        return _("{side} drew card {card}").format(**d)
    if k == "draw":
        return _("{side} draws a card").format(**d)
    if k == "scoring":
        return _("scoring: Persia {persia}, Greece {greece}; score now {score}").format(
            persia=d["persia"], greece=d["greece"], score=_score(d["score"])
        )
    if k == "end":
        return _("game over: {winner} ({reason})").format(
            winner=d["winner"] or _("draw"), reason=reword(d["reason"], REASONS)
        )
    if k == "bridge-destroyed":
        return _("the pontoon bridge is destroyed")
    if k == "event-points":
        return _("card {card} moves the score: now {score}").format(
            card=d["card"], score=_score(d["score"])
        )
    if k == "separate-peace":
        lost = d["discarded"]
        if not lost:
            return _("Separate Peace: Greece discards no Sparta card")
        return _("Separate Peace: Greece discards its Sparta cards {cards}").format(
            cards=", ".join(map(str, lost))
        )
    if k == "sunk":
        return _("{side} loses an army carried by the sunk fleet").format(**d)
    return f"{k}: " + ", ".join(f"{key} {val}" for key, val in d.items())


RULES = N_("""\
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
Card effects are written in the project's own words (see docs/rules/earth-and-water.md).""")


def rules_text(c: Components) -> str:
    """The rules in brief, then every card with its effects in our own words."""
    lines = [
        _(RULES),
        "",
        _("Components: {title} (from {origin}, digest {digest})").format(
            title=_(c.title), origin=c.origin, digest=c.digest
        ),
    ]
    from thermopylae.games.earth_and_water.cards import EFFECTS

    lines.append(
        _(
            "Cards (number: Greek event / Persian event). Effects in our own words, "
            "not the printed text; L: = lightning card, played as a reaction:"
        )
    )
    for k in range(1, 17):
        greek, persian = EFFECTS[k]
        lines.append(f"  {k:2d}: {_(c.greek_names[k])} / {_(c.persian_names[k])}")
        lines.append(_("      Greece: {effect}").format(effect=_(greek)))
        lines.append(_("      Persia: {effect}").format(effect=_(persian)))
    lines.append(
        _("Cities: {cities}").format(
            cities=", ".join(
                n + (_(" (major {side})").format(side=SIDES[c.major[i]]) if c.major[i] >= 0 else "")
                for i, n in enumerate(c.names)
            )
        )
    )
    return "\n".join(lines)
