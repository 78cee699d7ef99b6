"""Thermopyles in words: the play screen drawn from a view, the action labels and one log
line per event, in the current language (`thermopylae.i18n`; catalogs in locale/*/games.po).

Every text is looked up when it is built, never at import, so that a server can build one
client's message in that client's language.
"""

from __future__ import annotations

from typing import Any

from thermopylae.engine.protocol import JSON, Event
from thermopylae.games.thermopyles.actions import (
    Action,
    Discard,
    Fight,
    Give,
    Refuse,
    Retreat,
    Take,
)
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
from thermopylae.games.wording import reword
from thermopylae.i18n import N_, _, ngettext

# The reasons the rules give for the end of a game (rules.py keeps them in English, in the
# state and the records); shown through `reword`.
REASONS = (
    N_("retreated onto location 7"),
    N_("the 12th Persian card entered the graveyard"),
    N_("the Persian deck cannot refill the slots"),
    N_("no cards left in any hand or in the Spartan deck"),
)
RESULTS = {"lost": N_("lost"), "repelled": N_("repelled"), "annihilated": N_("annihilated")}
DICE = {"support": N_("support die"), "location": N_("location die")}


def waiting_for(s: State) -> str:
    p, r = f"p{s.active + 1}", f"p{s.recipient + 1}"
    ph = s.phase
    if ph == SETUP:
        return _("the cards are being dealt")
    if ph == TURN:
        return _("{seat} must retreat or fight").format(seat=p)
    if ph == ROLL:
        return _("the dice are being rolled")
    if ph == REFILL:
        return _("a Persian card is being revealed")
    if ph == RECIPIENT:
        return _("{seat} must choose who receives the team's draw").format(seat=p)
    if ph == FULL_HAND:
        return _("{seat} holds 5 cards and must take or refuse the draw").format(seat=r)
    if ph == DRAW:
        return _("a Spartan card is being drawn for {seat}").format(seat=r)
    if ph == DISCARD:
        return _("{seat} holds 6 cards and must discard one").format(seat=r)
    assert ph == OVER
    return _("the game is over")


def label(a: Action) -> str:
    """A button: the action in words (in English, its notation)."""
    match a:
        case Retreat():
            return _("retreat")
        case Fight(card, 0):
            return _("fight {card}").format(card=card)
        case Fight(card, support):
            return _("fight {card} support {support}").format(card=card, support=support)
        case Give(seat):
            return _("give {seat}").format(seat=f"p{seat + 1}")
        case Take():
            return _("take")
        case Refuse():
            return _("refuse")
        case Discard(card):
            return _("discard {card}").format(card=card)
    return str(a)


def _persian(c: dict[str, Any] | None) -> str:
    if c is None:
        return _("(empty)")
    bonus = " Λ" if c["bonus"] else ""
    return f"{c['combat']}/{c['annihilation']}{bonus}"


def _cards(n: int) -> str:
    return ngettext("{n} card", "{n} cards", n).format(n=n)


def render(v: JSON) -> str:
    """The table as a seat sees it, in plain text (works on any terminal and in a pipe)."""
    lines = []
    turns = v["turn"]
    when = (
        ngettext("game over after {n} turn", "game over after {n} turns", turns)
        if v["result"]
        else _("turn {n}")
    ).format(n=turns if v["result"] else turns + 1)
    players = ngettext("{n} player", "{n} players", v["players"]).format(n=v["players"])
    lines.append(_("Thermopyles, {players}, {when}").format(players=players, when=when))
    cells = []
    for loc in v["locations"]:
        n = loc["number"]
        label = f"{n}" + (f" {_(loc['name'])}" if not loc["name"].startswith("Location") else "")
        label += " " + _("+die") if loc["die"] else ""
        cells.append(f"[{label}]" if n == v["marker"] else f" {label} ")
    lines.append(_("Map:      {cells}   (reaching 7 loses)").format(cells=" - ".join(cells)))
    s1, s2 = v["slots"]
    lines.append(
        _(
            "Persians: slot 1 {first}   slot 2 {second}   (combat/annihilation, Λ = bonus draw)"
        ).format(first=_persian(s1), second=_persian(s2))
    )
    lines.append(
        _("Support:  {left} of {total} left (each adds one die)").format(
            left=v["support"], total=v["support_total"]
        )
    )
    lines.append(
        _(
            "Spartan deck {deck}, discard {discard}   Persian deck {pdeck}, discard "
            "{pdiscard}, graveyard {graveyard}/12"
        ).format(
            deck=v["spartan_deck"],
            discard=len(v["spartan_discard"]),
            pdeck=v["persian_deck"],
            pdiscard=len(v["persian_discard"]),
            graveyard=len(v["graveyard"]),
        )
    )
    for h in v["hands"]:
        me = _(" (you)") if h["seat"] == v["seat"] else ""
        cards = " ".join(map(str, h["cards"])) if h["cards"] is not None else _("hidden")
        turn = _("  <- turn") if h["seat"] == v["active"] and v["result"] is None else ""
        lines.append(
            _("Hand {seat}{me}: {cards}  [{count}]{turn}").format(
                seat=h["seat"],
                me=me,
                cards=cards or _("(empty)"),
                count=_cards(h["count"]),
                turn=turn,
            )
        )
    if v["fight"]:
        f = v["fight"]
        lines.append(
            _("Fight:    card {card}, support {support}, dice {dice}, total {total}").format(
                **{k: f[k] for k in ("card", "support", "dice", "total")}
            )
        )
    if v["result"]:
        reason = reword(v["result"]["reason"], REASONS)
        lines.append(
            (
                _("The Spartans WON: {reason}.")
                if v["result"]["result"] == "win"
                else _("The Spartans LOST: {reason}.")
            ).format(reason=reason)
        )
    return "\n".join(lines)


def describe(e: Event) -> str:
    """The log line of one event."""
    d = e.data
    match e.kind:
        case "retreat":
            return _("{seat} retreats to location {marker}").format(**d)
        case "fight":
            if d["support"]:
                return ngettext(
                    "{seat} charges with {card} with {support} support",
                    "{seat} charges with {card} with {support} support",
                    d["support"],
                ).format(**d)
            return _("{seat} charges with {card}").format(**d)
        case "roll":
            return _("{die}: {face} (total {total})").format(
                die=_(DICE[d["die"]]), face=d["face"], total=d["total"]
            )
        case "combat":
            return _("total {total} vs slot {slot} {card}: {result}").format(
                total=d["total"], slot=d["slot"], card=d["card"], result=_(RESULTS[d["result"]])
            )
        case "slide":
            return _("slot 2 slides into slot 1")
        case "reveal":
            return _("Persian card {card} revealed into slot {slot}").format(**d)
        case "draw":
            return _("{seat} draws a Spartan card").format(**d)
        case "drew":
            return _("{seat} drew {card}").format(**d)
        case "give":
            return _("{seat} gives the team's draw to {to}").format(**d)
        case "take":
            return _("{seat} takes a sixth card").format(**d)
        case "refuse":
            return _("{seat} refuses the card (hand full)").format(**d)
        case "discard":
            return _("{seat} discards {card}").format(**d)
        case "end":
            reason = reword(d["reason"], REASONS)
            return (
                _("The Spartans win: {reason}")
                if d["result"] == "win"
                else _("The Spartans lose: {reason}")
            ).format(reason=reason)
    return f"{e.kind} {dict(d)}"


RULES = N_("""\
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
Notation: retreat | fight N [support K] | give pN | take | refuse | discard N.""")


def _location(c: Any, number: int) -> str:
    name = c.location_name(number)
    return _("Location {n}").format(n=number) if name == f"Location {number}" else _(name)


def rules_text(c: Any) -> str:
    """The rules in brief, then every component value with its source."""
    lines = [
        _(RULES),
        "",
        _("Components: {title}  (from {origin}, digest {digest})").format(
            title=_(c.title), origin=c.origin, digest=c.digest
        ),
    ]
    if c.provisional:
        lines.append(
            _(
                "PROVISIONAL: the card values below are the project's own choice; the "
                "printed distribution is not public. Load yours with --components "
                "FILE."
            )
        )
    if c.note:
        lines.append(_(c.note))
    for w in c.warnings:
        lines.append(
            _("WARNING: {warning} (this set departs from the known rules).").format(warning=w)
        )
    lines.append(
        _("Values by source: {sources}").format(
            sources=", ".join(f"{k} {v}" for k, v in sorted(c.sources.items()))
        )
    )
    lines.append(_("Support cards: {n}").format(n=c.support))
    die = _(" (die)")
    lines.append(
        _("Map: {locations}").format(
            locations=", ".join(
                f"{loc.number} {_location(c, loc.number)}{die if loc.die else ''}"
                for loc in c.locations
            )
        )
    )
    lines.append(
        _("Spartan cards ({n}, total {total}): {cards}").format(
            n=len(c.spartan), total=sum(c.spartan), cards=" ".join(map(str, c.spartan))
        )
    )
    persian = [c.persian_kinds[k].text for k in c.persian]
    lines.append(
        _("Persian cards ({n}, combat/annihilation, ^ = bonus): {cards}").format(
            n=len(persian), cards=" ".join(persian)
        )
    )
    return "\n".join(lines)
