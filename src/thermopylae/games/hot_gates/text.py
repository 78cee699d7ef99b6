"""300: The Board Game in words: the play screen drawn from a view, log lines, the rules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from thermopylae.engine.protocol import JSON, Event
from thermopylae.games.hot_gates.actions import Act
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
)

if TYPE_CHECKING:
    from thermopylae.games.hot_gates.rules import HotGates

PROVISIONAL_BANNER = ("PROVISIONAL values: unit numbers, Battle Chart, dice, Goat Path and "
                      "card texts are ours, not the printed ones; see "
                      "`thermopylae rules hot-gates`.")
SHORT = {"spartan": "Sp", "leonidas": "LEO", "stelios": "STE", "astinos": "AST",
         "dilios": "DIL", "captain": "CAP", "immortal": "Imm", "cavalry": "Cav",
         "infantry": "Inf", "beast": "BEAST", "xerxes": "XER", "uber": "UBER",
         "general": "GEN"}


def waiting_for(g: HotGates, s: State) -> str:
    who = SEATS[s.players][s.actor] if 0 <= s.actor < s.players else "?"
    ph = s.phase
    if ph == DEAL:
        return "cards are being drawn" if s.draws else "the Battle Dice are being rolled"
    if ph == WINDOW:
        return f"{who} may play a {WINDOWS[s.window]} card or pass"
    if ph == MARCH:
        return f"{who} is marching"
    if ph == CASUALTY:
        return f"{who} must choose a casualty"
    if ph == CONQUER:
        return f"{who} may advance into the conquered space"
    if ph == PULLBACK:
        return f"{who} must place the pulled-back units in the Hot Gates"
    if ph == RETURN:
        return f"{who} must march reinforcements back up to the Hot Gates"
    if ph == OVER:
        return "the game is over"
    return "?"


def label(g: HotGates, a: Act) -> str:
    """A menu line: the notation, with the card's title and effect when it is a card."""
    text = g.format(a)
    if a.verb == "play":
        c = g.cards[a.a]
        return f"{text}  {c.title} ({c.text})"
    return text


def _units(units: list[dict[str, Any]]) -> str:
    """`LEO Sp*x2 Sp` style: short names, * for the Wounded side, xN for repeats."""
    names = [SHORT.get(u["unit"], u["unit"]) + ("*" if u["wounded"] else "") for u in units]
    counts = dict.fromkeys(names, 0)
    for n in names:
        counts[n] += 1
    return " ".join(n if k == 1 else f"{n}x{k}" for n, k in counts.items())


def render(v: JSON) -> str:
    """The table as a seat sees it, in plain text (works on any terminal and in a pipe)."""
    lines = []
    if v["provisional"]:
        lines.append(PROVISIONAL_BANNER)
    gp = v["goat_path"]
    path = "".join("E" if i == gp["space"] else "." for i in range(gp["length"] + 1))
    lines.append(f"300: The Board Game, {v['players']} players, round {v['round']}   "
                 f"Goat Path [{path}] (Ephialtes on {gp['space']} of {gp['length']})")
    glory = ", ".join(f"{k} {n}" for k, n in v["glory"].items())
    lines.append(f"Glory: {glory} (wins at {v['win_glory']})" +
                 (f"   kills: {', '.join(f'{k} {n}' for k, n in v['kills'].items())}"
                  if v["players"] == 4 else ""))
    lines.append("Persian Camp > Coastal Plain (spaces 1-3) | Hot Gates (4-6) < Spartan Camp")
    lines.append("  (+N: Glory bonus still to win; n/m: places used/capacity; *: Wounded)")
    for row in "AB":
        cells = []
        for sp in v["board"]:
            if sp["space"][0] != row:
                continue
            mark = f"+{sp['bonus']}" if sp["bonus"] else ""
            content = _units(sp["units"]) or "-"
            cells.append(f"{sp['space']}{mark}[{content}]{sp['load']}/{sp['capacity']}")
        lines.append(f"  {row}: " + "  ".join(cells[:3]) + "  |  " + "  ".join(cells[3:]))
    lines.append(f"Spartan Camp: {len(v['spartan_camp'])} Spartans   Persian Camp: "
                 f"{_units(v['persian_camp']) or '-'}   Boxes: " +
                 (" | ".join(f"{i + 1}:{_units(b)}" for i, b in enumerate(v["boxes"])) or "-"))
    if v["pulled_back"]:
        lines.append(f"Pulled back, to place: {_units(v['pulled_back'])}")
    if v["breach"]:
        lines.append("The Persians hold a row's last space: they win at the end of the round "
                     "unless the Spartans win first.")
    bt = v["battle"]
    if bt and not bt.get("pull_back"):
        lines.append(f"Battle in row {bt['row']}: Persians in {bt['persian_space']} "
                     f"(Attack {bt['attack']['persian']}"
                     f"{', narrow entrance' if bt['narrow_entrance'] else ''}) against "
                     f"Spartans in {bt['spartan_space']} (Attack {bt['attack']['spartan']})")
        dice = bt["dice"]
        if dice["persian"] or dice["spartan"]:
            lines.append(f"  dice: Persian {dice['persian']}  Spartan {dice['spartan']}")
        if bt["damage_left"]:
            left = bt["damage_left"]
            lines.append(f"  Damage still to take: Persian {left['persian']}, "
                         f"Spartan {left['spartan']}")
    if v["window"]:
        played = ", ".join(f"{p['seat']}: {p['card']['title']}"
                           + (" (cancelled)" if p["cancelled"] else "")
                           for p in v["window"]["played"])
        lines.append(f"{v['window']['name'].capitalize()} cards" +
                     (f" played: {played}" if played else ": none played yet"))
    for h in v["hands"]:
        if h["cards"] is not None:
            lines.append(f"Hand of {h['seat']}:")
            lines += [f"  {c['code']:>4} [{c['window']}] {c['title']}: {c['text']}"
                      for c in h["cards"]]
        else:
            lines.append(f"{h['seat']} holds {h['count']} card(s)")
    if v["result"]:
        winners = v["result"]["winners"]
        verb = "wins" if len(winners) == 1 else "share the victory"
        lines.append(f"Game over: {' and '.join(winners)} {verb} — {v['result']['reason']}")
    else:
        lines.append(f"Phase: {v['phase']}; to act: {v['to_act']}")
    return "\n".join(lines)


def describe(g: HotGates, e: Event) -> str:
    d = e.data
    k = e.kind
    if k == "round":
        return f"— Round {d['round']} —"
    if k == "draw":
        return f"{d['seat']} draws a card"
    if k == "drew":
        c = next(c for c in g.cards if c.code == d["card"])
        return f"{d['seat']} drew {c.code}: {c.title} ({c.text})"
    if k in ("move", "enter"):
        return f"{d['seat']}: {d['unit']} {d['from']} -> {d['to']}"
    if k == "march-done":
        return f"{d['seat']} ends the march"
    if k == "glory":
        sign = "+" if d["change"] > 0 else ""
        return f"{d['seat']} {sign}{d['change']} Glory ({d['why']}): now {d['glory']}"
    if k == "breach":
        return f"The Persians reach {d['space']}, the last space of a Spartan row!"
    if k == "battle":
        return f"Battle in row {d['row']}: {d['persian']} against {d['spartan']}"
    if k == "attack":
        return (f"Attack: Persians {d['persian']} ({d['persian_dice']} dice), "
                f"Spartans {d['spartan']} ({d['spartan_dice']} dice)")
    if k == "roll":
        return f"{d['side'].capitalize()} die: {d['face']}"
    if k == "damage":
        return f"Damage: {d['to_persian']} to the Persians, {d['to_spartan']} to the Spartans"
    if k == "wounded":
        return f"{d['unit']} in {d['space']} is wounded"
    if k == "eliminated":
        return f"{d['unit']} is eliminated"
    if k in ("advance", "follow"):
        return f"{d['seat']}: {d['unit']} {'advances' if k == 'advance' else 'follows'} " \
               f"{d['from']} -> {d['to']}"
    if k == "pull-back":
        return f"The Spartans of row {d['row']} reach the last space and pull back " \
               f"({d['units']} units)"
    if k == "place":
        return f"{d['unit']} takes position in {d['to']}"
    if k == "to-camp":
        return f"{d['units']} unit(s) find no room and return to the Spartan Camp"
    if k == "return":
        return f"The Persians march reinforcements back up row {d['row']}"
    if k == "play":
        extra = f", cancelling {d['cancels']}" if "cancels" in d else ""
        return f"{d['seat']} plays {d['card']} \"{d['title']}\" ({d['text']}){extra}"
    if k == "effect":
        return f"  {d['card']} takes effect: {d['text']}"
    if k == "ephialtes":
        return f"Ephialtes moves to space {d['space']} of {d['length']} on the Goat Path"
    if k == "end":
        verb = "wins" if len(d["winners"]) == 1 else "share the victory"
        return f"Game over: {' and '.join(d['winners'])} {verb} — {d['reason']}"
    return f"{k} {dict(d)}"


def rules_text(c: Components) -> str:
    r = c.rules
    lines = [c.title, ""]
    if c.provisional:
        lines += [PROVISIONAL_BANNER, c.note, ""]
    lines += [
        "Spartans hold the Hot Gates (A4-A6, B4-B6, 3 units a space) against the Persians",
        "marching up the Coastal Plain (A1-A3, B1-B3, 6 units a space; a War Beast fills 3).",
        "Each round: Draw, March (Persians must advance), Battle in row A then row B,",
        "Ephialtes moves one space on the Goat Path.",
        f"Spartans win at {r.win_glory_2p} Glory (2 players) or {r.win_glory_team} "
        "(3-4 players, most Glory at the end of a Battle Phase).",
        "Persians win when Ephialtes reaches the end of the Goat Path, when the Spartans are",
        "wiped out, or at the end of a round in which they took a row's last space.",
        f"Glory bonuses {r.glory_bonus[2]}/{r.glory_bonus[1]}/{r.glory_bonus[0]} for spaces "
        f"3/2/1; -{r.gates_penalty} per Hot Gates space the Persians enter; "
        f"Dilios -{r.dilios_2p} (-{r.dilios_team} each with 3-4).",
        "",
        f"Goat Path: {c.goat_path} spaces; Reinforcement Boxes: {c.boxes}.",
        "Battle Chart (Attack -> dice): " + ", ".join(f"{a}+ -> {d}" for a, d in c.chart),
        f"Battle Dice faces: {list(c.faces)}",
        "",
        "Units (Attack/Defense, Wounded side, Glory):",
    ]
    for tid, u in zip(TYPE_IDS, c.units, strict=True):
        wounded = "Dead on the back" if u.dead_back else \
            f"wounded {u.wounded_attack}/{u.wounded_defense}"
        glory = f", glory {u.glory}" if u.side == "persian" else ""
        size = f", size {u.size}" if u.size > 1 else ""
        lines.append(f"  {u.name} ({tid}) x{u.count}: {u.attack}/{u.defense}, {wounded}"
                     f"{glory}{size}  [{u.source or 'provisional'}]")
    for side in ("spartan", "persian"):
        lines += ["", f"{side.capitalize()} Battle Cards:"]
        for card in c.cards:
            if card.side == side:
                lines.append(f"  {card.code:>4} {card.letter} [{card.window}] {card.title}: "
                             f"{card_text(card.effect, card.amount)}")
    lines += ["", f"Component set {c.digest} ({c.origin}); sources: "
              + ", ".join(f"{k} {v}" for k, v in sorted(c.sources.items()))]
    return "\n".join(lines)
