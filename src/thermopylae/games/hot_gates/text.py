"""300: The Board Game in words: the play screen drawn from a view, log lines, the rules, in
the current language (`thermopylae.i18n`; catalogs in locale/*/games.po).

Seat names, unit ids and space names are the notation the players type, so they stay as
they are; every other word is looked up when the text is built.
"""

from __future__ import annotations

from typing import Any

from thermopylae.engine.protocol import JSON, Event
from thermopylae.games.hot_gates.actions import (
    Action,
    Casualty,
    Done,
    Enter,
    Move,
    Notation,
    Pass,
    Play,
    piece_name,
)
from thermopylae.games.hot_gates.board import SEATS
from thermopylae.games.hot_gates.components import TYPE_IDS, Components, card_text
from thermopylae.games.hot_gates.state import (
    CASUALTY,
    CONQUER,
    DEAL,
    MARCH,
    OVER,
    PULLBACK,
    RETURN,
    WINDOW,
    WINDOWS,
    State,
    space_name,
)
from thermopylae.games.wording import reword
from thermopylae.i18n import N_, _, ngettext

SHORT = {
    "spartan": "Sp",
    "leonidas": "LEO",
    "stelios": "STE",
    "astinos": "AST",
    "dilios": "DIL",
    "captain": "CAP",
    "immortal": "Imm",
    "cavalry": "Cav",
    "infantry": "Inf",
    "beast": "BEAST",
    "xerxes": "XER",
    "uber": "UBER",
    "general": "GEN",
}
# The windows and phases by the names the rules give them (state.PHASES, WINDOWS).
WINDOW_WORDS = {
    "march": N_("march"),
    "battle": N_("battle"),
    "roll": N_("roll"),
    "casualty": N_("casualty"),
    "ephialtes": N_("ephialtes"),
    "any": N_("any"),
}
WINDOW_CARDS = {
    "march": N_("march cards"),
    "battle": N_("battle cards"),
    "roll": N_("roll cards"),
    "casualty": N_("casualty cards"),
    "ephialtes": N_("ephialtes cards"),
}
PHASE_WORDS = {
    "deal": N_("deal"),
    "window": N_("window"),
    "march": N_("march"),
    "casualty": N_("casualty"),
    "conquer": N_("conquer"),
    "pull-back": N_("pull-back"),
    "return": N_("return"),
    "over": N_("over"),
    **{f"{w} cards": words for w, words in WINDOW_CARDS.items()},
}
# Places a unit comes from that are not spaces (pullback.reserve_name).
PLACES = (N_("the Spartan Camp"), N_("the Persian Camp"), N_("the Reinforcement Boxes"))
# Sentences the rules keep in English in the state (reasons, Glory causes): see `reword`.
REASONS = (
    N_("a Spartan reached {n} Glory"),
    N_("the Spartans reached {n} Glory"),
    N_("Ephialtes reached the end of the Goat Path"),
    N_("the Persians broke into the Spartan Camp"),
    N_("the Spartans were wiped out"),
)
WHY = (
    N_("first into {space}"),
    N_("the Persians entered {space}"),
    N_("Dilios fell"),
)
SIDE_WORDS = {"persian": N_("Persian"), "spartan": N_("Spartan")}


def _place(name: str) -> str:
    return _(name) if name in PLACES else name


def _winners(winners: list[str], reason: str) -> str:
    names = _(" and ").join(winners)
    reason = reword(reason, REASONS)
    if len(winners) == 1:
        return _("Game over: {winners} wins — {reason}").format(winners=names, reason=reason)
    return _("Game over: {winners} share the victory — {reason}").format(
        winners=names, reason=reason
    )


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def waiting_for(s: State) -> str:
    """Who or what the game waits for, for the message that refuses an action."""
    who = SEATS[s.players][s.actor] if 0 <= s.actor < s.players else "?"
    ph = s.phase
    if ph == DEAL:
        return _("cards are being drawn") if s.draws else _("the Battle Dice are being rolled")
    if ph == WINDOW:
        return _("{who} may play a {window} card or pass").format(
            who=who, window=_(WINDOW_WORDS[WINDOWS[s.window]])
        )
    if ph == MARCH:
        return _("{who} is marching").format(who=who)
    if ph == CASUALTY:
        return _("{who} must choose a casualty").format(who=who)
    if ph == CONQUER:
        return _("{who} may advance into the conquered space").format(who=who)
    if ph == PULLBACK:
        return _("{who} must place the pulled-back units in the Hot Gates").format(who=who)
    if ph == RETURN:
        return _("{who} must march reinforcements back up to the Hot Gates").format(who=who)
    if ph == OVER:
        return _("the game is over")
    return "?"


def label(n: Notation, a: Action) -> str:
    """A button: the action in words (in English, its notation), with the card's title and
    effect when it is a card."""
    match a:
        case Move(src, dst, piece):
            return _("move {src}-{dst} {unit}").format(
                src=space_name(src), dst=space_name(dst), unit=piece_name(piece)
            )
        case Enter(dst, piece):
            return _("enter {space} {unit}").format(space=space_name(dst), unit=piece_name(piece))
        case Casualty(piece):
            return _("casualty {unit}").format(unit=piece_name(piece))
        case Play(card):
            c = n.cards[card]
            return _("play {code}  {title} ({text})").format(
                code=c.code, title=_(c.title), text=card_text(c.effect, c.amount)
            )
        case Pass():
            return _("pass")
        case Done():
            return _("done")
    return n.format(a)


def _units(units: list[dict[str, Any]]) -> str:
    """`LEO Sp*x2 Sp` style: short names, * for the Wounded side, xN for repeats."""
    names = [SHORT.get(u["unit"], u["unit"]) + ("*" if u["wounded"] else "") for u in units]
    counts = dict.fromkeys(names, 0)
    for n in names:
        counts[n] += 1
    return " ".join(n if k == 1 else f"{n}x{k}" for n, k in counts.items())


def _card(c: dict[str, Any]) -> tuple[str, str]:
    """A card of a view: its title and effect in the current language."""
    return _(c["title"]), card_text(c["effect"], c["amount"])


def render(v: JSON) -> str:
    """The table as a seat sees it, in plain text (works on any terminal and in a pipe)."""
    lines = []
    gp = v["goat_path"]
    path = "".join("E" if i == gp["space"] else "." for i in range(gp["length"] + 1))
    lines.append(
        _(
            "300: The Board Game, {players}, round {round}   Goat Path [{path}] "
            "(Ephialtes on {space} of {length})"
        ).format(
            players=ngettext("{n} player", "{n} players", v["players"]).format(n=v["players"]),
            round=v["round"],
            path=path,
            space=gp["space"],
            length=gp["length"],
        )
    )
    glory = ", ".join(f"{k} {n}" for k, n in v["glory"].items())
    kills = ", ".join(f"{k} {n}" for k, n in v["kills"].items())
    lines.append(
        _("Glory: {glory} (wins at {win})").format(glory=glory, win=v["win_glory"])
        + (_("   kills: {kills}").format(kills=kills) if v["players"] == 4 else "")
    )
    lines.append(_("Persian Camp > Coastal Plain (spaces 1-3) | Hot Gates (4-6) < Spartan Camp"))
    lines.append(_("  (+N: Glory bonus still to win; n/m: places used/capacity; *: Wounded)"))
    for row in "AB":
        cells = []
        for sp in v["board"]:
            if sp["space"][0] != row:
                continue
            mark = f"+{sp['bonus']}" if sp["bonus"] else ""
            content = _units(sp["units"]) or "-"
            cells.append(f"{sp['space']}{mark}[{content}]{sp['load']}/{sp['capacity']}")
        lines.append(f"  {row}: " + "  ".join(cells[:3]) + "  |  " + "  ".join(cells[3:]))
    spartans = len(v["spartan_camp"])
    lines.append(
        _("Spartan Camp: {spartans}   Persian Camp: {persians}   Boxes: {boxes}").format(
            spartans=ngettext("{n} Spartan", "{n} Spartans", spartans).format(n=spartans),
            persians=_units(v["persian_camp"]) or "-",
            boxes=(" | ".join(f"{i + 1}:{_units(b)}" for i, b in enumerate(v["boxes"])) or "-"),
        )
    )
    if v["pulled_back"]:
        lines.append(_("Pulled back, to place: {units}").format(units=_units(v["pulled_back"])))
    if v["breach"]:
        lines.append(
            _(
                "The Persians hold a row's last space: they win at the end of the "
                "round unless the Spartans win first."
            )
        )
    bt = v["battle"]
    if bt and not bt.get("pull_back"):
        persian = bt["attack"]["persian"]
        lines.append(
            (
                _(
                    "Battle in row {row}: Persians in {persian_space} (Attack {persian}, "
                    "narrow entrance) against Spartans in {spartan_space} (Attack "
                    "{spartan})"
                )
                if bt["narrow_entrance"]
                else _(
                    "Battle in row {row}: Persians in {persian_space} (Attack {persian}) "
                    "against Spartans in {spartan_space} (Attack {spartan})"
                )
            ).format(
                row=bt["row"],
                persian_space=bt["persian_space"],
                persian=persian,
                spartan_space=bt["spartan_space"],
                spartan=bt["attack"]["spartan"],
            )
        )
        dice = bt["dice"]
        if dice["persian"] or dice["spartan"]:
            lines.append(_("  dice: Persian {persian}  Spartan {spartan}").format(**dice))
        if bt["damage_left"]:
            lines.append(
                _("  Damage still to take: Persian {persian}, Spartan {spartan}").format(
                    **bt["damage_left"]
                )
            )
    if v["window"]:
        played = ", ".join(
            f"{p['seat']}: {_(p['card']['title'])}" + (_(" (cancelled)") if p["cancelled"] else "")
            for p in v["window"]["played"]
        )
        cards = _cap(_(WINDOW_CARDS.get(v["window"]["name"], v["window"]["name"])))
        lines.append(
            _("{cards} played: {played}").format(cards=cards, played=played)
            if played
            else _("{cards}: none played yet").format(cards=cards)
        )
    for h in v["hands"]:
        if h["cards"] is not None:
            lines.append(_("Hand of {seat}:").format(seat=h["seat"]))
            for c in h["cards"]:
                title, effect = _card(c)
                lines.append(
                    f"  {c['code']:>4} [{_(WINDOW_WORDS.get(c['window'], c['window']))}]"
                    f" {title}: {effect}"
                )
        else:
            lines.append(
                ngettext("{seat} holds {n} card", "{seat} holds {n} cards", h["count"]).format(
                    seat=h["seat"], n=h["count"]
                )
            )
    if v["result"]:
        lines.append(_winners(v["result"]["winners"], v["result"]["reason"]))
    else:
        phase = v["phase"]
        lines.append(
            _("Phase: {phase}; to act: {to_act}").format(
                phase=_(PHASE_WORDS[phase]) if phase in PHASE_WORDS else phase,
                to_act=_("chance") if v["to_act"] == "chance" else v["to_act"],
            )
        )
    return "\n".join(lines)


def describe(components: Components, e: Event) -> str:
    """The log line of one event."""
    d = e.data
    k = e.kind
    if k == "round":
        return _("— Round {round} —").format(**d)
    if k == "draw":
        return _("{seat} draws a card").format(**d)
    if k == "drew":
        c = next(c for c in components.cards if c.code == d["card"])
        return _("{seat} drew {code}: {title} ({text})").format(
            seat=d["seat"], code=c.code, title=_(c.title), text=card_text(c.effect, c.amount)
        )
    if k in ("move", "enter"):
        return f"{d['seat']}: {d['unit']} {_place(d['from'])} -> {_place(d['to'])}"
    if k == "march-done":
        return _("{seat} ends the march").format(**d)
    if k == "glory":
        sign = "+" if d["change"] > 0 else ""
        return _("{seat} {change} Glory ({why}): now {glory}").format(
            seat=d["seat"],
            change=f"{sign}{d['change']}",
            why=reword(d["why"], WHY),
            glory=d["glory"],
        )
    if k == "breach":
        return _("The Persians reach {space}, the last space of a Spartan row!").format(**d)
    if k == "battle":
        return _("Battle in row {row}: {persian} against {spartan}").format(**d)
    if k == "attack":
        return _(
            "Attack: Persians {persian} ({persian_dice}), Spartans {spartan} ({spartan_dice})"
        ).format(
            persian=d["persian"],
            spartan=d["spartan"],
            persian_dice=_dice(d["persian_dice"]),
            spartan_dice=_dice(d["spartan_dice"]),
        )
    if k == "roll":
        side = _(SIDE_WORDS.get(d["side"], d["side"]))
        return _("{side} die: {face}").format(side=side, face=d["face"])
    if k == "damage":
        return _("Damage: {to_persian} to the Persians, {to_spartan} to the Spartans").format(**d)
    if k == "wounded":
        return _("{unit} in {space} is wounded").format(**d)
    if k == "eliminated":
        return _("{unit} is eliminated").format(**d)
    if k in ("advance", "follow"):
        return (
            _("{seat}: {unit} advances {src} -> {dst}")
            if k == "advance"
            else _("{seat}: {unit} follows {src} -> {dst}")
        ).format(seat=d["seat"], unit=d["unit"], src=_place(d["from"]), dst=_place(d["to"]))
    if k == "pull-back":
        return ngettext(
            "The Spartans of row {row} reach the last space and pull back ({units} unit)",
            "The Spartans of row {row} reach the last space and pull back ({units} units)",
            d["units"],
        ).format(**d)
    if k == "place":
        return _("{unit} takes position in {to}").format(**d)
    if k == "to-camp":
        return ngettext(
            "{units} unit finds no room and returns to the Spartan Camp",
            "{units} units find no room and return to the Spartan Camp",
            d["units"],
        ).format(**d)
    if k == "return":
        return _("The Persians march reinforcements back up row {row}").format(**d)
    if k == "play":
        c = next(c for c in components.cards if c.code == d["card"])
        text = card_text(c.effect, c.amount)
        if "cancels" in d:
            return _('{seat} plays {card} "{title}" ({text}), cancelling {cancels}').format(
                seat=d["seat"], card=d["card"], title=_(c.title), text=text, cancels=d["cancels"]
            )
        return _('{seat} plays {card} "{title}" ({text})').format(
            seat=d["seat"], card=d["card"], title=_(c.title), text=text
        )
    if k == "effect":
        c = next(c for c in components.cards if c.code == d["card"])
        return _("  {card} takes effect: {text}").format(
            card=d["card"], text=card_text(c.effect, c.amount)
        )
    if k == "ephialtes":
        return _("Ephialtes moves to space {space} of {length} on the Goat Path").format(**d)
    if k == "end":
        return _winners(d["winners"], d["reason"])
    return f"{k} {dict(d)}"


def _dice(n: int) -> str:
    return ngettext("{n} die", "{n} dice", n).format(n=n)


def rules_text(c: Components) -> str:
    """The rules in brief, then every component value with its source."""
    r = c.rules
    lines = [_(c.title), ""]
    if c.provisional:
        lines += [
            _(
                "PROVISIONAL values: unit numbers, Battle Chart, dice, Goat Path and "
                "card texts are ours, not the printed ones; see `thermopylae rules "
                "hot-gates`."
            ),
            _(c.note),
            "",
        ]
    lines += [
        _(
            "Spartans hold the Hot Gates (A4-A6, B4-B6, 3 units a space) against the Persians\n"
            "marching up the Coastal Plain (A1-A3, B1-B3, 6 units a space; a War Beast fills "
            "3).\n"
            "Each round: Draw, March (Persians must advance), Battle in row A then row B,\n"
            "Ephialtes moves one space on the Goat Path."
        ),
        _(
            "Spartans win at {win_2p} Glory (2 players) or {win_team} (3-4 players, most Glory "
            "at the end of a Battle Phase)."
        ).format(win_2p=r.win_glory_2p, win_team=r.win_glory_team),
        _(
            "Persians win when Ephialtes reaches the end of the Goat Path, when the Spartans "
            "are\nwiped out, or at the end of a round in which they took a row's last space."
        ),
        _(
            "Glory bonuses {first}/{second}/{third} for spaces 3/2/1; -{penalty} per Hot Gates "
            "space the Persians enter; Dilios -{dilios_2p} (-{dilios_team} each with 3-4)."
        ).format(
            first=r.glory_bonus[2],
            second=r.glory_bonus[1],
            third=r.glory_bonus[0],
            penalty=r.gates_penalty,
            dilios_2p=r.dilios_2p,
            dilios_team=r.dilios_team,
        ),
        "",
        _("Goat Path: {spaces} spaces; Reinforcement Boxes: {boxes}.").format(
            spaces=c.goat_path, boxes=c.boxes
        ),
        _("Battle Chart (Attack -> dice): {chart}").format(
            chart=", ".join(f"{a}+ -> {d}" for a, d in c.chart)
        ),
        _("Battle Dice faces: {faces}").format(faces=list(c.faces)),
        "",
        _("Units (Attack/Defense, Wounded side, Glory):"),
    ]
    for tid, u in zip(TYPE_IDS, c.units, strict=True):
        wounded = (
            _("Dead on the back")
            if u.dead_back
            else _("wounded {attack}/{defense}").format(
                attack=u.wounded_attack, defense=u.wounded_defense
            )
        )
        glory = _(", glory {n}").format(n=u.glory) if u.side == "persian" else ""
        size = _(", size {n}").format(n=u.size) if u.size > 1 else ""
        lines.append(
            f"  {_(u.name)} ({tid}) x{u.count}: {u.attack}/{u.defense}, {wounded}"
            f"{glory}{size}  [{u.source or 'provisional'}]"
        )
    for side in ("spartan", "persian"):
        lines += [
            "",
            _("Spartan Battle Cards:") if side == "spartan" else _("Persian Battle Cards:"),
        ]
        for card in c.cards:
            if card.side == side:
                window = _(WINDOW_WORDS.get(card.window, card.window))
                lines.append(
                    f"  {card.code:>4} {card.letter} [{window}] {_(card.title)}: "
                    f"{card_text(card.effect, card.amount)}"
                )
    lines += [
        "",
        _("Component set {digest} ({origin}); sources: {sources}").format(
            digest=c.digest,
            origin=c.origin,
            sources=", ".join(f"{k} {v}" for k, v in sorted(c.sources.items())),
        ),
    ]
    return "\n".join(lines)
