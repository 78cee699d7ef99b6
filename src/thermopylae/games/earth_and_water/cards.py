"""The 16 cards: when each event may be played and what it does, reactions included.

Card names are as printed. The effects below are written in our own words from the
rulebook and the public implementation (the printed card texts were not available to us;
docs/rules/earth-and-water.md lists where we had to decide). Greek halves first, then
Persian halves.
"""

from __future__ import annotations

from collections.abc import Callable

from thermopylae.engine.protocol import Event
from thermopylae.games.earth_and_water import board, campaign, moves, reactions
from thermopylae.games.earth_and_water.actions import (
    A,
    Action,
    Count,
    Discard,
    Done,
    Lot,
    Pick,
    Place,
    Remove,
)
from thermopylae.games.earth_and_water.components import Components
from thermopylae.games.earth_and_water.state import (
    CAVALRY,
    CHOOSE,
    EVANGELION,
    FLEETS_ONLY,
    GREAT_KING,
    GREECE,
    LAND,
    LAND_ONLY,
    LEONIDAS,
    LOT,
    PERSIA,
    ROLL,
    SIDES,
    SUDDEN_DEATH,
    TRIREMES,
    TRIREMES_2,
    USED_LEONIDAS,
    Battle,
    Ev,
    State,
)
from thermopylae.i18n import N_

SPARTA_CARDS = frozenset({6, 8, 11, 15})  # Greek halves that are Sparta cards (RB 6.1)
LIGHTNING: tuple[set[int], set[int]] = ({5}, {4, 5, 6, 9, 12, 15})  # per side: Persia, Greece
# Never played as events: Sudden Death (it strikes when drawn), Alliance with Carthage.
NEVER: tuple[set[int], set[int]] = ({11, 14}, set())
# Per side, the cards whose event is never played in Operations (lightning or never).
NO_EVENT: tuple[frozenset[int], frozenset[int]] = (
    frozenset(LIGHTNING[0] | NEVER[0]),
    frozenset(LIGHTNING[1] | NEVER[1]),
)
# What each half does, in our own words (not the printed text), for `rules` and screens.
# Index: card number; (Greek half, Persian half). "L:" marks a lightning (reaction) card.
EFFECTS: dict[int, tuple[str, str]] = {
    1: (
        N_("An extra Greek preparation with 3 talents, with no limit on fleets."),
        N_("A Persian land move; in the battle it causes, Persian dice are not capped."),
    ),
    2: (
        N_("Remove one Persian army from Abydos or Ephesos."),
        N_("Put a reserve Persian army into a city that no side controls."),
    ),
    3: (
        N_("Remove one Persian fleet from the map."),
        N_("Put a reserve Persian army into a city that no side controls."),
    ),
    4: (
        N_(
            "L: Greece rolls 3 dice in every round of a land battle; once per game; "
            "a Greek army goes to his portrait."
        ),
        N_(
            "Until the campaign ends, no Sparta events; Greek armies in Sparta stay put and "
            "Greek fleets leaving Sparta carry none."
        ),
    ),
    5: (
        N_(
            "L: after a Persian naval move is declared, Greek fleets move first (no armies; "
            "no retreats at sea this turn); once per game; a Greek army goes to his "
            "portrait."
        ),
        N_(
            "L: when every Persian army in a land battle has fallen, the armies Persia "
            "started with (at most 3) come back from reserve; not after Xerxes' death."
        ),
    ),
    6: (
        N_("L: cancels the Cavalry of Mardonius bonus before the first round (Sparta card)."),
        N_("A random card of the Greek hand is discarded."),
    ),
    7: (
        N_("Discard your hand, then draw one card more than you discarded."),
        N_(
            "A Persian land move; when its battle ends, +1 to Persia if no Greek army is left, "
            "+1 to Greece if Persia does not hold the city."
        ),
    ),
    8: (
        N_(
            "Move exactly one Greek army by land; it rolls 2 dice in its battle; once per "
            "game; a Greek army goes to his portrait (Sparta card)."
        ),
        N_(
            "In Abydos or Ephesos: remove every Greek army there, or else add 1 to 3 "
            "Persian armies from reserve."
        ),
    ),
    9: (
        N_(
            "L: after a naval round in which Persia lost a fleet, Persia loses one more "
            "for good; once per game."
        ),
        N_("Persia looks at the Greek hand and chooses a card to discard."),
    ),
    10: (
        N_(
            "A Greek land move; when its battle ends, +1 to Greece if no Persian army is "
            "left, +1 to Persia if Greece does not hold the city."
        ),
        N_("A die each; if Persia rolls higher, Greece discards all its Sparta cards."),
    ),
    11: (
        N_("Put a reserve Greek army into Sparta, if Greece controls it (Sparta card)."),
        N_("Never played: drawn by Persia, a Great King dies (Sudden Death)."),
    ),
    12: (
        N_("L: after a Tribute army is placed, remove it; Greece may then move by land."),
        N_(
            "Greek armies in Thebai go to another Greek city; then a Persian army enters "
            "Thebai from reserve."
        ),
    ),
    13: (
        N_("Two naval moves of Greek fleets, without armies (the second may be skipped)."),
        N_("Put a reserve Persian army into a city that no side controls."),
    ),
    14: (
        N_("Every Greek fleet in reserve goes to a port of a Greek city without Persian fleets."),
        N_("Never playable as an event (as in the public implementation)."),
    ),
    15: (
        N_("L: Greece rolls 3 dice in every round of a Persian land attack (Sparta card)."),
        N_(
            "With Persian armies in Athenai: Athenai scores for no one this campaign, and "
            "Greece has one talent less at its next preparation."
        ),
    ),
    16: (
        N_("Remove one Persian army from the map."),
        N_("Discard any number of cards, then draw one more than you discarded."),
    ),
}

# Choices inside events.
(
    C_PORTRAIT,
    C_IONIAN,
    C_TRIBUTE,
    C_POSEIDON,
    C_ROYAL_CITY,
    C_ROYAL_COUNT,
    C_HIPPIAS,
    C_THEBES,
    C_SYRACUSE,
    C_DESERTION,
    C_PACIFY,
) = range(1, 12)


# -- which events may be played ------------------------------------------------------------


def card_name(c: Components, side: int, card: int) -> str:
    return (c.persian_names if side == PERSIA else c.greek_names)[card]


def can_event(s: State, c: Components, side: int, k: int, land: bool | None = None) -> bool:
    """Whether `side` may play card `k` for its event now (`land`: whether it can move by
    land, `moves.can_move_land`, when the caller knows)."""
    test = EVENT_TESTS[side].get(k)
    return test is not None and test(s, c, land)


EventTest = Callable[[State, Components, bool | None], bool]


def _always(s: State, c: Components, land: bool | None) -> bool:
    return True


# Persian halves.


def _persian_land_move(s: State, c: Components, land: bool | None) -> bool:
    return _land(s, c, PERSIA, land)  # Cavalry of Mardonius, The Great King


def _tribute(s: State, c: Components, land: bool | None) -> bool:
    return bool(s.res_arm[PERSIA]) and _any_neutral(s, c)  # Tribute of Earth and Water


def _greek_hand(s: State, c: Components, land: bool | None) -> bool:
    return bool(s.hands[GREECE])  # Ostracism, Hippias, Separate Peace


def _royal_road(s: State, c: Components, land: bool | None) -> bool:
    return bool(s.res_arm[PERSIA] or s.arm[GREECE][c.abydos] or s.arm[GREECE][c.ephesos])


def _thebes(s: State, c: Components, land: bool | None) -> bool:
    if s.arm[GREECE][c.thebai]:
        return _any_thebes_refuge(s, c)
    return bool(s.res_arm[PERSIA])


def _acropolis(s: State, c: Components, land: bool | None) -> bool:
    return bool(s.arm[PERSIA][c.athenai])


# Greek halves (the Sparta cards among them not under the Carneia Festival).


def _ionian_revolt(s: State, c: Components, land: bool | None) -> bool:
    return bool(s.arm[PERSIA][c.abydos] or s.arm[PERSIA][c.ephesos])


def _poseidon(s: State, c: Components, land: bool | None) -> bool:
    return any(s.flt[PERSIA])


def _leonidas(s: State, c: Components, land: bool | None) -> bool:
    return not s.carneia and not s.used & USED_LEONIDAS and _land(s, c, GREECE, land)


def _evangelion(s: State, c: Components, land: bool | None) -> bool:
    return _land(s, c, GREECE, land)


def _melas_zomos(s: State, c: Components, land: bool | None) -> bool:
    return not s.carneia and bool(s.res_arm[GREECE]) and board.controls(c, s, GREECE, c.sparta)


def _triremes(s: State, c: Components, land: bool | None) -> bool:
    return any(s.flt[GREECE])


def _syracuse(s: State, c: Components, land: bool | None) -> bool:
    return bool(s.res_flt[GREECE]) and _any_syracuse_port(s, c)


def _desertion(s: State, c: Components, land: bool | None) -> bool:
    return any(s.arm[PERSIA])


# Per side, by card: whether its event may be played now in Operations (`can_event`). The
# cards of `NO_EVENT` have none: lightning cards answer in reaction windows, and Sudden
# Death and the Alliance with Carthage are never played.
EVENT_TESTS: tuple[dict[int, EventTest], dict[int, EventTest]] = (
    {
        1: _persian_land_move,
        2: _tribute,
        3: _tribute,
        4: _always,  # Carneia Festival
        6: _greek_hand,
        7: _persian_land_move,
        8: _royal_road,
        9: _greek_hand,
        10: _greek_hand,
        12: _thebes,
        13: _tribute,
        15: _acropolis,
        16: _always,  # Pacification of Babylon or Egypt
    },
    {
        1: _always,  # Mines of Laurion
        2: _ionian_revolt,
        3: _poseidon,
        7: _always,  # Oracle of Delphi
        8: _leonidas,
        10: _evangelion,
        11: _melas_zomos,
        13: _triremes,
        14: _syracuse,
        16: _desertion,
    },
)


def _land(s: State, c: Components, side: int, land: bool | None) -> bool:
    return moves.can_move_land(s, c, side) if land is None else land


def _neutral(s: State, c: Components) -> list[int]:
    """The cities `board.controllers` gives to no one: no army and no major city, or
    armies of both sides."""
    persia, greece, major = s.arm[PERSIA], s.arm[GREECE], c.major
    out = []
    for x in c.cities:
        if (persia[x] and greece[x]) or not (persia[x] or greece[x] or major[x] >= 0):
            out.append(x)
    return out


def _any_neutral(s: State, c: Components) -> bool:
    """Is some city controlled by no one? (a city with no army that is no major city)"""
    persia, greece = s.arm[PERSIA], s.arm[GREECE]
    for x in c.minors:  # noqa: SIM110 (a loop: asked at most turns, faster than `any`)
        if not persia[x] and not greece[x]:
            return True
    return False


def _royal_road_cities(s: State, c: Components) -> list[int]:
    return [x for x in (c.abydos, c.ephesos) if s.arm[GREECE][x] or s.res_arm[PERSIA]]


def _thebes_refuges(s: State, c: Components) -> list[int]:
    thebai = c.thebai
    return [x for x in board.controlled(c, s, GREECE) if x != thebai]


def _any_thebes_refuge(s: State, c: Components) -> bool:
    """Whether `_thebes_refuges` lists any city (stopping at the first)."""
    greece, persia, major, thebai = s.arm[GREECE], s.arm[PERSIA], c.major, c.thebai
    for x in c.cities:  # (`board.controlled`)
        if x != thebai and not persia[x] and (greece[x] or major[x] == GREECE):
            return True
    return False


def _any_syracuse_port(s: State, c: Components) -> bool:
    """Whether `_syracuse_ports` lists any city (stopping at the first)."""
    greece, persia, major, fleets = s.arm[GREECE], s.arm[PERSIA], c.major, s.flt[PERSIA]
    for x in c.ports:  # (`board.controlled`)
        if not fleets[x] and not persia[x] and (greece[x] or major[x] == GREECE):
            return True
    return False


def _syracuse_ports(s: State, c: Components) -> list[int]:
    port, persian = c.port, s.flt[PERSIA]
    return [x for x in board.controlled(c, s, GREECE) if port[x] and not persian[x]]


# -- the events ----------------------------------------------------------------------------


def play_event(s: State, c: Components, side: int, k: int, ev: Ev) -> None:
    if side == GREECE:
        return _greek_event(s, c, k, ev)
    return _persian_event(s, c, k, ev)


def _greek_event(s: State, c: Components, k: int, ev: Ev) -> None:
    if k == 1:  # Mines of Laurion: an extra Preparation with 3 talents, no fleet limit
        return campaign.start_preparation(s, c, GREECE, ev, talents=3, extra=True)
    if k == 2:  # Ionian Revolt: one Persian army leaves Abydos or Ephesos
        return _choose(s, GREECE, C_IONIAN)
    if k == 3:  # Wrath of Poseidon: one Persian fleet is removed
        return _choose(s, GREECE, C_POSEIDON)
    if k == 7:  # Oracle of Delphi: discard the hand, draw one card more
        n = len(s.hands[GREECE])
        s.discard.extend(s.hands[GREECE])
        s.hands[GREECE] = []
        return campaign.draw(s, c, GREECE, n + 1, ev)
    if k == 8:  # Leonidas: a leader's army to his portrait, then one army moves
        s.used |= USED_LEONIDAS
        s.stack.append(("event_move", GREECE, LAND_ONLY, LEONIDAS))
        return pay_portrait(s, c, GREECE, ev)
    if k == 10:  # Evangelion: a land move that scores at the end of its battle
        return moves.begin_move(s, c, GREECE, ev, LAND_ONLY, EVANGELION)
    if k == 11:  # Melas Zomos: one army from reserve into Sparta
        s.res_arm[GREECE] -= 1
        s.arm[GREECE][c.sparta] += 1
        return campaign.resume(s, c, ev)
    if k == 13:  # Triremes: two naval moves of fleets only
        s.stack.append(("event_move", GREECE, FLEETS_ONLY, TRIREMES_2))
        return moves.begin_move(s, c, GREECE, ev, FLEETS_ONLY, TRIREMES)
    if k == 14:  # Support from Syracuse: every reserve fleet into a Greek port
        return _choose(s, GREECE, C_SYRACUSE)
    if k == 16:  # Desertion of Greek Soldiers: one Persian army is removed
        return _choose(s, GREECE, C_DESERTION)
    raise AssertionError(f"Greek event {k} is not a turn event")


def _persian_event(s: State, c: Components, k: int, ev: Ev) -> None:
    if k == 1:  # Cavalry of Mardonius: a land move; its battle's Persian dice uncapped
        return moves.begin_move(s, c, PERSIA, ev, LAND_ONLY, CAVALRY)
    if k in (2, 3, 13):  # Tribute of Earth and Water: an army into a neutral city
        return _choose(s, PERSIA, C_TRIBUTE)
    if k == 4:  # Carneia Festival: no Sparta events (and more) until the campaign ends
        s.carneia = True
        return campaign.resume(s, c, ev)
    if k == 6:  # Ostracism: a random card of the Greek hand is discarded
        s.phase = LOT
        return None
    if k == 7:  # The Great King: a land move that scores at the end of its battle
        return moves.begin_move(s, c, PERSIA, ev, LAND_ONLY, GREAT_KING)
    if k == 8:  # The Royal Road
        return _choose(s, PERSIA, C_ROYAL_CITY)
    if k == 9:  # Hippias: Persia sees the Greek hand and picks a card to discard
        return _choose(s, PERSIA, C_HIPPIAS)
    if k == 10:  # Separate Peace: a die each, Greece first
        # (a battle record that reads only its stage and the first die)
        s.bt = Battle(LAND, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0)
        s.phase = ROLL
        return None
    if k == 12:  # Defection of Thebes
        if s.arm[GREECE][c.thebai]:
            return _choose(s, GREECE, C_THEBES)
        return _thebes_persian_army(s, c, ev)
    if k == 15:  # Acropolis on Fire
        s.acropolis = True
        return campaign.resume(s, c, ev)
    if k == 16:  # Pacification of Babylon or Egypt: discard some, draw one more
        s.arg = 0
        return _choose(s, PERSIA, C_PACIFY)
    raise AssertionError(f"Persian event {k} is not a turn event")


def event_move(s: State, c: Components, ev: Ev, side: int, kind: int, flag: int) -> None:
    moves.begin_move(s, c, side, ev, kind, flag)


def _thebes_persian_army(s: State, c: Components, ev: Ev) -> None:
    if s.res_arm[PERSIA]:
        s.res_arm[PERSIA] -= 1
        s.arm[PERSIA][c.thebai] += 1
    campaign.resume(s, c, ev)


def lot(s: State, c: Components, a: Lot, ev: Ev) -> None:
    card = a.card
    s.hands[GREECE].remove(card)
    s.discard.append(card)
    if ev is not None:
        ev.append(Event("discard", {"side": "greece", "card": card, "at_random": True}))
    campaign.resume(s, c, ev)


def separate_peace_roll(s: State, c: Components, face: int, ev: Ev) -> None:
    bt = s.bt
    assert bt is not None
    if ev is not None:
        ev.append(
            Event(
                "roll",
                {
                    "side": SIDES[GREECE if bt.stage == 2 else PERSIA],
                    "dice": 1,
                    "highest": face,
                    "counts": face,
                },
            )
        )
    if bt.stage == 2:
        bt.aroll = face
        bt.stage = 3
        return
    if face > bt.aroll:  # Persia strictly higher: Greece loses its Sparta cards
        lost = [k for k in s.hands[GREECE] if k in SPARTA_CARDS]
        for k in lost:
            s.hands[GREECE].remove(k)
            s.discard.append(k)
        if ev is not None:
            ev.append(Event("separate-peace", {"discarded": lost}))
    s.bt = None
    campaign.resume(s, c, ev)


# -- choices inside events -----------------------------------------------------------------


def _choose(s: State, side: int, kind: int) -> None:
    s.phase = CHOOSE
    s.side = side
    s.choice = kind


def choice_options(s: State, c: Components) -> list[Action]:
    kind = s.choice
    if kind == C_PORTRAIT:
        return [A.remove[x] for x in c.cities if _portrait_from(s, x)]
    if kind == C_IONIAN:
        return [A.remove[x] for x in (c.abydos, c.ephesos) if s.arm[PERSIA][x]]
    if kind == C_TRIBUTE:
        return list(map(A.place.__getitem__, _neutral(s, c)))
    if kind == C_POSEIDON:
        return [A.remove[x] for x in c.cities if s.flt[PERSIA][x]]
    if kind == C_ROYAL_CITY:
        return [A.place[x] for x in _royal_road_cities(s, c)]
    if kind == C_ROYAL_COUNT:
        return [A.count[n] for n in range(1, min(3, s.res_arm[PERSIA]) + 1)]
    if kind == C_HIPPIAS:
        return [A.pick[k] for k in sorted(set(s.hands[GREECE]))]
    if kind == C_THEBES:
        return [A.place[x] for x in _thebes_refuges(s, c)]
    if kind == C_SYRACUSE:
        return [A.place[x] for x in _syracuse_ports(s, c)]
    if kind == C_DESERTION:
        return [A.remove[x] for x in c.cities if s.arm[PERSIA][x]]
    if kind == C_PACIFY:
        return [A.done, *(A.discard[k] for k in sorted(set(s.hands[PERSIA])))]
    return []


def _portrait_from(s: State, city: int) -> bool:
    """A leader's army taken from the map: from the battle city only if 2 are there."""
    n = s.arm[s.side][city]
    if s.bt is not None and s.bt.city == city:
        return n >= 2
    return n >= 1


def choice_step(
    s: State, c: Components, a: Remove | Place | Count | Pick | Discard | Done, ev: Ev
) -> None:
    kind = s.choice
    # (`isinstance`, not a `match` of class patterns: those are slow in CPython 3.11)
    x: int
    if isinstance(a, (Remove, Place)):
        x = a.city
    elif isinstance(a, (Pick, Discard)):
        x = a.card
    elif isinstance(a, Count):
        x = a.count
    else:  # done (Pacification)
        x = -1
    if kind == C_PORTRAIT:
        s.arm[s.side][x] -= 1
        s.portraits[s.side] += 1
        return campaign.resume(s, c, ev)
    if kind in (C_IONIAN, C_DESERTION):
        s.arm[PERSIA][x] -= 1
        s.res_arm[PERSIA] += 1
        return campaign.resume(s, c, ev)
    if kind == C_POSEIDON:
        s.flt[PERSIA][x] -= 1
        s.res_flt[PERSIA] += 1
        return campaign.resume(s, c, ev)
    if kind == C_TRIBUTE:
        s.res_arm[PERSIA] -= 1
        s.arm[PERSIA][x] += 1
        s.arg = x
        if reactions.open_window(s, reactions.MOLON, ev):
            return None
        return campaign.resume(s, c, ev)
    if kind == C_ROYAL_CITY:
        if s.arm[GREECE][x]:
            s.res_arm[GREECE] += s.arm[GREECE][x]
            s.arm[GREECE][x] = 0
            return campaign.resume(s, c, ev)
        s.arg = x
        return _choose(s, PERSIA, C_ROYAL_COUNT)
    if kind == C_ROYAL_COUNT:
        s.res_arm[PERSIA] -= x
        s.arm[PERSIA][s.arg] += x
        return campaign.resume(s, c, ev)
    if kind == C_HIPPIAS:
        s.hands[GREECE].remove(x)
        s.discard.append(x)
        if ev is not None:
            ev.append(Event("discard", {"side": "greece", "card": x}))
        return campaign.resume(s, c, ev)
    if kind == C_THEBES:
        s.arm[GREECE][x] += s.arm[GREECE][c.thebai]
        s.arm[GREECE][c.thebai] = 0
        return _thebes_persian_army(s, c, ev)
    if kind == C_SYRACUSE:
        s.res_flt[GREECE] -= 1
        s.flt[GREECE][x] += 1
        if s.res_flt[GREECE] and _syracuse_ports(s, c):
            return None  # the next fleet
        return campaign.resume(s, c, ev)
    if kind == C_PACIFY:
        if isinstance(a, Discard):
            s.hands[PERSIA].remove(x)
            s.discard.append(x)
            s.arg += 1
            return None
        s.stack.append(("pacified",))
        return campaign.draw(s, c, PERSIA, s.arg + 1, ev)
    raise AssertionError(f"unknown choice {kind}")


def pacified(s: State, c: Components, ev: Ev) -> None:
    if s.used & SUDDEN_DEATH:  # RB 5.3: operations end; supply and scoring happen
        s.used &= ~SUDDEN_DEATH
        return campaign.sudden_death(s, c, ev, during="operations")
    campaign.resume(s, c, ev)


def pay_portrait(s: State, c: Components, side: int, ev: Ev) -> None:
    """An army to a portrait for good: from reserve, else one of the side's choice
    from the map (Sudden Death, Miltiades, Themistocles, Leonidas)."""
    if s.res_arm[side]:
        s.res_arm[side] -= 1
        s.portraits[side] += 1
        return campaign.resume(s, c, ev)
    s.side = side
    s.choice = C_PORTRAIT
    if choice_options(s, c):
        s.phase = CHOOSE
        return None
    return campaign.resume(s, c, ev)
