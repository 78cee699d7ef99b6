"""The lightning cards (reactions, RB 6.2): the windows in which a side may answer the
other's move or battle, what it may play there, and what the cards do.
"""

from __future__ import annotations

from thermopylae.engine.protocol import Event
from thermopylae.games.earth_and_water import campaign, cards, moves
from thermopylae.games.earth_and_water.actions import (
    A,
    Action,
    Decline,
    React,
)
from thermopylae.games.earth_and_water.components import Components
from thermopylae.games.earth_and_water.state import (
    FLEETS_ONLY,
    GREECE,
    LAND_ONLY,
    MOLON_LABE,
    NO_RETREAT,
    PERSIA,
    REACT,
    SIDES,
    THEMISTOCLES_MOVE,
    USED_ARTEMISIA,
    USED_MILTIADES,
    USED_THEMISTOCLES,
    Ev,
    State,
)

# Reaction windows: who may react, and when.
PRE_PERSIAN_LAND, GREEK_LAND, PERSIAN_NAVAL, IMMORTALS, ARTEMISIA_W, MOLON = 1, 2, 3, 4, 5, 6
REACTOR = {1: GREECE, 2: GREECE, 3: GREECE, 4: PERSIA, 5: GREECE, 6: GREECE}


def open_window(s: State, window: int, ev: Ev) -> bool:
    """Offer the reactor a reaction whenever it holds any card, whether or not it holds
    one that fits, so that the pause tells the opponent nothing."""
    reactor = REACTOR[window]
    if not s.hands[reactor]:
        return False
    s.phase = REACT
    s.side = reactor
    s.window = window
    return True


def reaction_options(s: State, c: Components) -> list[Action]:
    hand = s.hands[s.side]
    w, bt = s.window, s.bt
    out: list[Action] = [A.decline]
    if (
        w in (PRE_PERSIAN_LAND, GREEK_LAND)
        and 4 in hand
        and not s.used & USED_MILTIADES
        and bt is not None
        and not bt.gcard
    ):
        out.append(A.react[4])
    if w == PRE_PERSIAN_LAND and not s.carneia and bt is not None:
        if 6 in hand and bt.cav:
            out.append(A.react[6])
        if 15 in hand and not bt.gcard:
            out.append(A.react[15])
    if w == PERSIAN_NAVAL and 5 in hand and not s.used & USED_THEMISTOCLES:
        dest = s.stack[-1][1].dest  # the Persian move waiting in "sea_arrive"
        if any(n for x, n in enumerate(s.flt[GREECE]) if x != dest):
            out.append(A.react[5])
    if (
        w == IMMORTALS
        and 5 in hand
        and s.kings < 2
        and bt is not None
        and not bt.imm
        and s.res_arm[PERSIA]
    ):
        out.append(A.react[5])
    if w == ARTEMISIA_W and 9 in hand and not s.used & USED_ARTEMISIA:
        out.append(A.react[9])
    if w == MOLON and 12 in hand:
        out.append(A.react[12])
    return out


def react(s: State, c: Components, a: React | Decline, ev: Ev) -> None:
    w, side = s.window, s.side
    if not isinstance(a, React):  # decline
        return campaign.resume(s, c, ev)
    k = a.card
    campaign.play_card(s, side, k)
    if ev is not None:
        ev.append(
            Event("react", {"side": SIDES[side], "card": k, "name": cards.card_name(c, side, k)})
        )
    bt = s.bt
    if w in (PRE_PERSIAN_LAND, GREEK_LAND):
        assert bt is not None
        s.stack.append(("reopen", w))
        if k == 4:  # Miltiades: 3 dice every round; his army to the portrait
            s.used |= USED_MILTIADES
            bt.gdice, bt.gcard = 3, 4
            return cards.pay_portrait(s, c, GREECE, ev)
        if k == 15:  # 300 Spartans: 3 dice every round
            bt.gdice, bt.gcard = 3, 15
        if k == 6:  # Pausanias: the Cavalry bonus is cancelled
            bt.cav = 0
        return campaign.resume(s, c, ev)
    if w == PERSIAN_NAVAL:  # Themistocles: a Greek naval move of fleets first
        s.used |= USED_THEMISTOCLES | NO_RETREAT
        dest = s.stack[-1][1].dest
        s.stack.append(("event_move_excluding", GREECE, FLEETS_ONLY, THEMISTOCLES_MOVE, dest))
        return cards.pay_portrait(s, c, GREECE, ev)
    if w == IMMORTALS:  # the armies Persia started with come back, and fight on
        assert bt is not None
        bt.imm = 1
        n = min(3, bt.pstart, s.res_arm[PERSIA])
        s.res_arm[PERSIA] -= n
        s.arm[PERSIA][bt.city] += n
        return campaign.resume(s, c, ev)
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
        return campaign.resume(s, c, ev)
    if w == MOLON:  # Molon Labe: the Tribute army goes, and Greece may move by land
        s.arm[PERSIA][s.arg] -= 1
        s.res_arm[PERSIA] += 1
        return moves.begin_move(s, c, GREECE, ev, LAND_ONLY, MOLON_LABE)
    raise AssertionError(f"unknown window {w}")


def reopen(s: State, c: Components, ev: Ev, window: int) -> None:
    if open_window(s, window, ev):
        return None
    return campaign.resume(s, c, ev)


def event_move_excluding(
    s: State, c: Components, ev: Ev, side: int, kind: int, flag: int, exclude: int
) -> None:
    moves.begin_move(s, c, side, ev, kind, flag, exclude)
