"""The 16 cards: when each event may be played and what it does, reactions included.

Card names are as printed. The effects below are written in our own words from the
rulebook and the public implementation (the printed card texts were not available to us;
docs/rules/earth-and-water.md lists where we had to decide). Greek halves first, then
Persian halves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from thermopylae.engine.protocol import Event
from thermopylae.games.earth_and_water import board
from thermopylae.games.earth_and_water.actions import A, Act, P
from thermopylae.games.earth_and_water.state import (
    BRIDGE,
    BT_CHOICE,
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
    MOLON_LABE,
    MV_CARRY,
    MV_COUNT,
    MV_DEST,
    MV_ORIGIN,
    NO_RETREAT,
    PERSIA,
    REACT,
    ROLL,
    SIDES,
    SUDDEN_DEATH,
    THEMISTOCLES_MOVE,
    TRIREMES,
    TRIREMES_2,
    USED_ARTEMISIA,
    USED_LEONIDAS,
    USED_MILTIADES,
    USED_THEMISTOCLES,
    Battle,
    State,
)
from thermopylae.i18n import N_

if TYPE_CHECKING:
    from thermopylae.games.earth_and_water.components import Components

Ev = list[Event] | None

SPARTA_CARDS = frozenset({6, 8, 11, 15})  # Greek halves that are Sparta cards (RB 6.1)
LIGHTNING: tuple[set[int], set[int]] = ({5}, {4, 5, 6, 9, 12, 15})  # per side: Persia, Greece
# Never played as events: Sudden Death (it strikes when drawn), Alliance with Carthage.
NEVER: tuple[set[int], set[int]] = ({11, 14}, set())

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

# Reaction windows: who may react, and when.
PRE_PERSIAN_LAND, GREEK_LAND, PERSIAN_NAVAL, IMMORTALS, ARTEMISIA_W, MOLON = 1, 2, 3, 4, 5, 6
REACTOR = {1: GREECE, 2: GREECE, 3: GREECE, 4: PERSIA, 5: GREECE, 6: GREECE}

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


class Events:
    c: Components
    abydos: int
    ephesos: int
    athenai: int
    sparta: int
    thebai: int
    ports: list[int]
    cities: range

    if TYPE_CHECKING:

        def _resume(self, s: State, ev: Ev) -> None: ...
        def _draw(self, s: State, side: int, n: int, ev: Ev) -> None: ...
        def _play_card(self, s: State, side: int, card: int) -> None: ...
        def _start_preparation(
            self, s: State, side: int, ev: Ev, talents: int | None = None, extra: bool = False
        ) -> None: ...
        def _sudden_death(self, s: State, ev: Ev, during: str) -> None: ...
        def begin_move(
            self, s: State, side: int, ev: Ev, kind: int = 0, flag: int = 0, exclude: int = -1
        ) -> None: ...
        def move_options(self, s: State) -> list[Act]: ...
        def move_step(self, s: State, a: Act, ev: Ev) -> None: ...
        def can_move_land(self, s: State, side: int) -> bool: ...
        def retreats(self, s: State, side: int) -> list[Act]: ...
        def battle_step(self, s: State, a: Act, ev: Ev) -> None: ...
        def bridge_step(self, s: State, a: Act, ev: Ev) -> None: ...
        def sink_carried(self, s: State, side: int, ev: Ev) -> None: ...

    def card_name(self, side: int, card: int) -> str:
        return (self.c.persian_names if side == PERSIA else self.c.greek_names)[card]

    # -- may the event be played? -----------------------------------------------------------

    def can_event(self, s: State, side: int, k: int) -> bool:
        if k in LIGHTNING[side] or k in NEVER[side]:
            return False
        c = self.c
        if side == GREECE:
            if k in SPARTA_CARDS and s.carneia:
                return False  # Carneia Festival: no Sparta events this campaign
            if k in (1, 7):
                return True  # Mines of Laurion, Oracle of Delphi
            if k == 2:
                return bool(s.arm[PERSIA][self.abydos] or s.arm[PERSIA][self.ephesos])
            if k == 3:
                return any(s.flt[PERSIA])
            if k == 8:
                return not s.used & USED_LEONIDAS and self.can_move_land(s, GREECE)
            if k == 10:
                return self.can_move_land(s, GREECE)
            if k == 11:
                return bool(s.res_arm[GREECE]) and board.controls(c, s, GREECE, self.sparta)
            if k == 13:
                return any(s.flt[GREECE])
            if k == 14:
                return bool(s.res_flt[GREECE]) and bool(self._syracuse_ports(s))
            if k == 16:
                return any(s.arm[PERSIA])
            return False
        if k in (1, 7):  # Cavalry of Mardonius, The Great King
            return self.can_move_land(s, PERSIA)
        if k in (2, 3, 13):  # Tribute of Earth and Water
            return bool(s.res_arm[PERSIA]) and self._any_neutral(s)
        if k in (4, 16):  # Carneia Festival, Pacification of Babylon or Egypt
            return True
        if k in (6, 9, 10):  # Ostracism, Hippias, Separate Peace
            return bool(s.hands[GREECE])
        if k == 8:
            return bool(self._royal_road_cities(s))
        if k == 12:
            greeks = s.arm[GREECE][self.thebai]
            return bool(self._thebes_refuges(s)) if greeks else bool(s.res_arm[PERSIA])
        if k == 15:
            return bool(s.arm[PERSIA][self.athenai])
        return False

    def _neutral(self, s: State) -> list[int]:
        who = board.controllers(self.c, s)
        return [x for x in self.cities if who[x] < 0]

    def _any_neutral(self, s: State) -> bool:
        """Is some city controlled by no one? (a city with no army that is no major city)"""
        persia, greece, major = s.arm[PERSIA], s.arm[GREECE], self.c.major
        return any(not persia[x] and not greece[x] and major[x] < 0 for x in self.cities)

    def _royal_road_cities(self, s: State) -> list[int]:
        return [x for x in (self.abydos, self.ephesos) if s.arm[GREECE][x] or s.res_arm[PERSIA]]

    def _thebes_refuges(self, s: State) -> list[int]:
        who = board.controllers(self.c, s)
        return [x for x in self.cities if x != self.thebai and who[x] == GREECE]

    def _syracuse_ports(self, s: State) -> list[int]:
        who = board.controllers(self.c, s)
        return [x for x in self.ports if who[x] == GREECE and not s.flt[PERSIA][x]]

    # -- playing an event -----------------------------------------------------------------------

    def play_event(self, s: State, side: int, k: int, ev: Ev) -> None:
        if side == GREECE:
            return self._greek_event(s, k, ev)
        return self._persian_event(s, k, ev)

    def _greek_event(self, s: State, k: int, ev: Ev) -> None:
        if k == 1:  # Mines of Laurion: an extra Preparation with 3 talents, no fleet limit
            return self._start_preparation(s, GREECE, ev, talents=3, extra=True)
        if k == 2:  # Ionian Revolt: one Persian army leaves Abydos or Ephesos
            return self._choose(s, GREECE, C_IONIAN)
        if k == 3:  # Wrath of Poseidon: one Persian fleet is removed
            return self._choose(s, GREECE, C_POSEIDON)
        if k == 7:  # Oracle of Delphi: discard the hand, draw one card more
            n = len(s.hands[GREECE])
            s.discard.extend(s.hands[GREECE])
            s.hands[GREECE] = []
            return self._draw(s, GREECE, n + 1, ev)
        if k == 8:  # Leonidas: a leader's army to his portrait, then one army moves
            s.used |= USED_LEONIDAS
            s.stack.append(("event_move", GREECE, LAND_ONLY, LEONIDAS))
            return self.pay_portrait(s, GREECE, ev)
        if k == 10:  # Evangelion: a land move that scores at the end of its battle
            return self.begin_move(s, GREECE, ev, LAND_ONLY, EVANGELION)
        if k == 11:  # Melas Zomos: one army from reserve into Sparta
            s.res_arm[GREECE] -= 1
            s.arm[GREECE][self.sparta] += 1
            return self._resume(s, ev)
        if k == 13:  # Triremes: two naval moves of fleets only
            s.stack.append(("event_move", GREECE, FLEETS_ONLY, TRIREMES_2))
            return self.begin_move(s, GREECE, ev, FLEETS_ONLY, TRIREMES)
        if k == 14:  # Support from Syracuse: every reserve fleet into a Greek port
            return self._choose(s, GREECE, C_SYRACUSE)
        if k == 16:  # Desertion of Greek Soldiers: one Persian army is removed
            return self._choose(s, GREECE, C_DESERTION)
        raise AssertionError(f"Greek event {k} is not a turn event")

    def _persian_event(self, s: State, k: int, ev: Ev) -> None:
        if k == 1:  # Cavalry of Mardonius: a land move; its battle's Persian dice uncapped
            return self.begin_move(s, PERSIA, ev, LAND_ONLY, CAVALRY)
        if k in (2, 3, 13):  # Tribute of Earth and Water: an army into a neutral city
            return self._choose(s, PERSIA, C_TRIBUTE)
        if k == 4:  # Carneia Festival: no Sparta events (and more) until the campaign ends
            s.carneia = True
            return self._resume(s, ev)
        if k == 6:  # Ostracism: a random card of the Greek hand is discarded
            s.phase = LOT
            return None
        if k == 7:  # The Great King: a land move that scores at the end of its battle
            return self.begin_move(s, PERSIA, ev, LAND_ONLY, GREAT_KING)
        if k == 8:  # The Royal Road
            return self._choose(s, PERSIA, C_ROYAL_CITY)
        if k == 9:  # Hippias: Persia sees the Greek hand and picks a card to discard
            return self._choose(s, PERSIA, C_HIPPIAS)
        if k == 10:  # Separate Peace: a die each, Greece first
            # (a battle record that reads only its stage and the first die)
            s.bt = Battle(LAND, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0)
            s.phase = ROLL
            return None
        if k == 12:  # Defection of Thebes
            if s.arm[GREECE][self.thebai]:
                return self._choose(s, GREECE, C_THEBES)
            return self._thebes_persian_army(s, ev)
        if k == 15:  # Acropolis on Fire
            s.acropolis = True
            return self._resume(s, ev)
        if k == 16:  # Pacification of Babylon or Egypt: discard some, draw one more
            s.arg = 0
            return self._choose(s, PERSIA, C_PACIFY)
        raise AssertionError(f"Persian event {k} is not a turn event")

    def _k_event_move(self, s: State, ev: Ev, side: int, kind: int, flag: int) -> None:
        self.begin_move(s, side, ev, kind, flag)

    def _thebes_persian_army(self, s: State, ev: Ev) -> None:
        if s.res_arm[PERSIA]:
            s.res_arm[PERSIA] -= 1
            s.arm[PERSIA][self.thebai] += 1
        self._resume(s, ev)

    def _lot(self, s: State, card: int, ev: Ev) -> None:
        s.hands[GREECE].remove(card)
        s.discard.append(card)
        if ev is not None:
            ev.append(Event("discard", {"side": "greece", "card": card, "at_random": True}))
        self._resume(s, ev)

    def separate_peace_roll(self, s: State, face: int, ev: Ev) -> None:
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
        self._resume(s, ev)

    # -- choices inside events ------------------------------------------------------------

    def _choose(self, s: State, side: int, kind: int) -> None:
        s.phase = CHOOSE
        s.side = side
        s.choice = kind

    def choice_options(self, s: State) -> list[Act]:
        kind = s.choice
        if kind == C_PORTRAIT:
            return [A["remove"][x] for x in self.cities if self._portrait_from(s, x)]
        if kind == C_IONIAN:
            return [A["remove"][x] for x in (self.abydos, self.ephesos) if s.arm[PERSIA][x]]
        if kind == C_TRIBUTE:
            return [A["place"][x] for x in self._neutral(s)]
        if kind == C_POSEIDON:
            return [A["remove"][x] for x in self.cities if s.flt[PERSIA][x]]
        if kind == C_ROYAL_CITY:
            return [A["place"][x] for x in self._royal_road_cities(s)]
        if kind == C_ROYAL_COUNT:
            return [A["count"][n] for n in range(1, min(3, s.res_arm[PERSIA]) + 1)]
        if kind == C_HIPPIAS:
            return [A["pick"][k] for k in sorted(set(s.hands[GREECE]))]
        if kind == C_THEBES:
            return [A["place"][x] for x in self._thebes_refuges(s)]
        if kind == C_SYRACUSE:
            return [A["place"][x] for x in self._syracuse_ports(s)]
        if kind == C_DESERTION:
            return [A["remove"][x] for x in self.cities if s.arm[PERSIA][x]]
        if kind == C_PACIFY:
            return [P["done"], *(A["discard"][k] for k in sorted(set(s.hands[PERSIA])))]
        return []

    def _portrait_from(self, s: State, city: int) -> bool:
        """A leader's army taken from the map: from the battle city only if 2 are there."""
        n = s.arm[s.side][city]
        if s.bt is not None and s.bt.city == city:
            return n >= 2
        return n >= 1

    def choice_step(self, s: State, a: Act, ev: Ev) -> None:
        kind, x = s.choice, a.a
        if kind == C_PORTRAIT:
            s.arm[s.side][x] -= 1
            s.portraits[s.side] += 1
            return self._resume(s, ev)
        if kind in (C_IONIAN, C_DESERTION):
            s.arm[PERSIA][x] -= 1
            s.res_arm[PERSIA] += 1
            return self._resume(s, ev)
        if kind == C_POSEIDON:
            s.flt[PERSIA][x] -= 1
            s.res_flt[PERSIA] += 1
            return self._resume(s, ev)
        if kind == C_TRIBUTE:
            s.res_arm[PERSIA] -= 1
            s.arm[PERSIA][x] += 1
            s.arg = x
            if self.open_window(s, MOLON, ev):
                return None
            return self._resume(s, ev)
        if kind == C_ROYAL_CITY:
            if s.arm[GREECE][x]:
                s.res_arm[GREECE] += s.arm[GREECE][x]
                s.arm[GREECE][x] = 0
                return self._resume(s, ev)
            s.arg = x
            return self._choose(s, PERSIA, C_ROYAL_COUNT)
        if kind == C_ROYAL_COUNT:
            s.res_arm[PERSIA] -= x
            s.arm[PERSIA][s.arg] += x
            return self._resume(s, ev)
        if kind == C_HIPPIAS:
            s.hands[GREECE].remove(x)
            s.discard.append(x)
            if ev is not None:
                ev.append(Event("discard", {"side": "greece", "card": x}))
            return self._resume(s, ev)
        if kind == C_THEBES:
            s.arm[GREECE][x] += s.arm[GREECE][self.thebai]
            s.arm[GREECE][self.thebai] = 0
            return self._thebes_persian_army(s, ev)
        if kind == C_SYRACUSE:
            s.res_flt[GREECE] -= 1
            s.flt[GREECE][x] += 1
            if s.res_flt[GREECE] and self._syracuse_ports(s):
                return None  # the next fleet
            return self._resume(s, ev)
        if kind == C_PACIFY:
            if a.verb == "discard":
                s.hands[PERSIA].remove(x)
                s.discard.append(x)
                s.arg += 1
                return None
            s.stack.append(("pacified",))
            return self._draw(s, PERSIA, s.arg + 1, ev)
        raise AssertionError(f"unknown choice {kind}")

    def _k_pacified(self, s: State, ev: Ev) -> None:
        if s.used & SUDDEN_DEATH:  # RB 5.3: operations end; supply and scoring happen
            s.used &= ~SUDDEN_DEATH
            return self._sudden_death(s, ev, during="operations")
        self._resume(s, ev)

    def pay_portrait(self, s: State, side: int, ev: Ev) -> None:
        """An army to a portrait for good: from reserve, else one of the side's choice
        from the map (Sudden Death, Miltiades, Themistocles, Leonidas)."""
        if s.res_arm[side]:
            s.res_arm[side] -= 1
            s.portraits[side] += 1
            return self._resume(s, ev)
        s.side = side
        s.choice = C_PORTRAIT
        if self.choice_options(s):
            s.phase = CHOOSE
            return None
        return self._resume(s, ev)

    # -- reactions (lightning cards) ------------------------------------------------------

    def open_window(self, s: State, window: int, ev: Ev) -> bool:
        """Offer the reactor a reaction whenever it holds any card, whether or not it holds
        one that fits, so that the pause tells the opponent nothing."""
        reactor = REACTOR[window]
        if not s.hands[reactor]:
            return False
        s.phase = REACT
        s.side = reactor
        s.window = window
        return True

    def reaction_options(self, s: State) -> list[Act]:
        hand = s.hands[s.side]
        w, bt = s.window, s.bt
        out = [P["decline"]]
        if (
            w in (PRE_PERSIAN_LAND, GREEK_LAND)
            and 4 in hand
            and not s.used & USED_MILTIADES
            and bt is not None
            and not bt.gcard
        ):
            out.append(A["react"][4])
        if w == PRE_PERSIAN_LAND and not s.carneia and bt is not None:
            if 6 in hand and bt.cav:
                out.append(A["react"][6])
            if 15 in hand and not bt.gcard:
                out.append(A["react"][15])
        if w == PERSIAN_NAVAL and 5 in hand and not s.used & USED_THEMISTOCLES:
            dest = s.stack[-1][1].dest  # the Persian move waiting in "sea_arrive"
            if any(n for x, n in enumerate(s.flt[GREECE]) if x != dest):
                out.append(A["react"][5])
        if (
            w == IMMORTALS
            and 5 in hand
            and s.kings < 2
            and bt is not None
            and not bt.imm
            and s.res_arm[PERSIA]
        ):
            out.append(A["react"][5])
        if w == ARTEMISIA_W and 9 in hand and not s.used & USED_ARTEMISIA:
            out.append(A["react"][9])
        if w == MOLON and 12 in hand:
            out.append(A["react"][12])
        return out

    def react(self, s: State, a: Act, ev: Ev) -> None:
        w, side = s.window, s.side
        if a.verb == "decline":
            return self._resume(s, ev)
        k = a.a
        self._play_card(s, side, k)
        if ev is not None:
            ev.append(
                Event("react", {"side": SIDES[side], "card": k, "name": self.card_name(side, k)})
            )
        bt = s.bt
        if w in (PRE_PERSIAN_LAND, GREEK_LAND):
            assert bt is not None
            s.stack.append(("reopen", w))
            if k == 4:  # Miltiades: 3 dice every round; his army to the portrait
                s.used |= USED_MILTIADES
                bt.gdice, bt.gcard = 3, 4
                return self.pay_portrait(s, GREECE, ev)
            if k == 15:  # 300 Spartans: 3 dice every round
                bt.gdice, bt.gcard = 3, 15
            if k == 6:  # Pausanias: the Cavalry bonus is cancelled
                bt.cav = 0
            return self._resume(s, ev)
        if w == PERSIAN_NAVAL:  # Themistocles: a Greek naval move of fleets first
            s.used |= USED_THEMISTOCLES | NO_RETREAT
            dest = s.stack[-1][1].dest
            s.stack.append(("event_move_excluding", GREECE, FLEETS_ONLY, THEMISTOCLES_MOVE, dest))
            return self.pay_portrait(s, GREECE, ev)
        if w == IMMORTALS:  # the armies Persia started with come back, and fight on
            assert bt is not None
            bt.imm = 1
            n = min(3, bt.pstart, s.res_arm[PERSIA])
            s.res_arm[PERSIA] -= n
            s.arm[PERSIA][bt.city] += n
            return self._resume(s, ev)
        if w == ARTEMISIA_W:  # one more Persian fleet lost, for good
            s.used |= USED_ARTEMISIA
            assert bt is not None
            city = bt.city
            if s.flt[PERSIA][city]:
                s.flt[PERSIA][city] -= 1
                s.portraits[2] += 1
                if bt.att == PERSIA and bt.carry > s.flt[PERSIA][city]:
                    bt.carry -= 1
                    s.res_arm[PERSIA] += 1
            return self._resume(s, ev)
        if w == MOLON:  # Molon Labe: the Tribute army goes, and Greece may move by land
            s.arm[PERSIA][s.arg] -= 1
            s.res_arm[PERSIA] += 1
            return self.begin_move(s, GREECE, ev, LAND_ONLY, MOLON_LABE)
        raise AssertionError(f"unknown window {w}")

    def _k_reopen(self, s: State, ev: Ev, window: int) -> None:
        if self.open_window(s, window, ev):
            return None
        return self._resume(s, ev)

    def _k_event_move_excluding(
        self, s: State, ev: Ev, side: int, kind: int, flag: int, exclude: int
    ) -> None:
        self.begin_move(s, side, ev, kind, flag, exclude)

    # -- the small decisions, by phase ----------------------------------------------------

    def _step_options(self, s: State) -> list[Act]:
        ph = s.phase
        if ph in (MV_ORIGIN, MV_COUNT, MV_CARRY, MV_DEST):
            out = self.move_options(s)
            if ph == MV_ORIGIN and s.mv is not None and s.mv.flag in (MOLON_LABE, TRIREMES_2):
                out.append(P["skip"])  # decision: these extra moves are optional
            return out
        if ph == REACT:
            return self.reaction_options(s)
        if ph == BT_CHOICE:
            return [P["continue"], *self.retreats(s, s.side)]
        if ph == BRIDGE:
            return [P["destroy bridge"], P["spare bridge"]]
        if ph == CHOOSE:
            return self.choice_options(s)
        return []

    def _step(self, s: State, a: Act, ev: Ev) -> None:
        ph = s.phase
        if ph in (MV_ORIGIN, MV_COUNT, MV_CARRY, MV_DEST):
            if a.verb == "skip":
                s.mv = None
                return self._resume(s, ev)
            return self.move_step(s, a, ev)
        if ph == REACT:
            return self.react(s, a, ev)
        if ph == BT_CHOICE:
            return self.battle_step(s, a, ev)
        if ph == BRIDGE:
            return self.bridge_step(s, a, ev)
        if ph == CHOOSE:
            return self.choice_step(s, a, ev)
        raise AssertionError(f"no decision in phase {ph}")
