"""What each side may see. The one place where hidden information is filtered.

Hidden: the order and contents of the draw pile, and the other side's hand (its size is
public) — except while Hippias lets Persia look at the Greek hand to pick a card.
Everything on the map, the discard pile, tracks, portraits and the move or battle under
way are public.
"""

from __future__ import annotations

import random
from functools import lru_cache

from thermopylae.engine.protocol import CHANCE, JSON
from thermopylae.engine.shuffle import shuffle
from thermopylae.games.earth_and_water.cards import C_HIPPIAS
from thermopylae.games.earth_and_water.components import Components
from thermopylae.games.earth_and_water.state import CHOOSE, GREECE, PERSIA, PHASES, SIDES, State

ONCE = {1: "Miltiades", 2: "Themistocles", 4: "Leonidas", 8: "Artemisia I"}


def hand_visible(s: State, owner: int, seat: int | None) -> bool:
    if seat == owner:
        return True
    return owner == GREECE and seat == PERSIA and s.phase == CHOOSE and s.choice == C_HIPPIAS


@lru_cache(maxsize=8)
def _owners(major: tuple[int, ...]) -> tuple[str | None, ...]:
    """Per city, the side whose major city it is, by name (None: a minor city)."""
    return tuple(SIDES[m] if m >= 0 else None for m in major)


def view(
    s: State,
    c: Components,
    seat: int | None,
    *,
    game_id: str,
    to_act: int | None,
    reveal: bool = False,
) -> JSON:
    """What `seat` sees of `s` (None: a spectator); `to_act` is the game's answer for `s`,
    given by the caller, which owns whose turn it is. `reveal` shows both hands (a
    replay's open view)."""
    pa, ga = s.arm[PERSIA], s.arm[GREECE]
    pf, gf = s.flt[PERSIA], s.flt[GREECE]
    names, major, port, amph = c.names, c.major, c.port, c.amphorae
    # (control as `board.controls` has it: armies, else an own major city)
    return {
        "game": game_id,
        "seat": None if seat is None else SIDES[seat],
        "phase": PHASES[s.phase],
        "to_act": "chance" if to_act == CHANCE else None if to_act is None else SIDES[to_act],
        "active": SIDES[s.active],
        "campaign": s.campaign,
        "score": s.score,
        "cities": [
            {
                "name": name,
                "major": owner,
                "port": is_port,
                "amphorae": amphorae,
                "armies": {"persia": p_arm, "greece": g_arm},
                "fleets": {"persia": p_flt, "greece": g_flt},
                "control": "persia" if p_arm else "greece" if g_arm else owner,
            }
            for name, owner, is_port, amphorae, p_arm, g_arm, p_flt, g_flt in zip(
                names, _owners(major), port, amph, pa, ga, pf, gf, strict=True
            )
        ],
        "bridge": s.bridge,
        "reserve": {
            "persia": {"armies": s.res_arm[PERSIA], "fleets": s.res_flt[PERSIA]},
            "greece": {"armies": s.res_arm[GREECE], "fleets": s.res_flt[GREECE]},
        },
        "portraits": {
            "persia": s.portraits[0],
            "greece": s.portraits[1],
            "artemisia": s.portraits[2],
        },
        "kings_dead": s.kings,
        "once_used": [name for bit, name in ONCE.items() if s.used & bit],
        "hands": {
            "persia": _hand(s, PERSIA, seat, reveal),
            "greece": _hand(s, GREECE, seat, reveal),
        },
        "draw_pile": len(s.deck),
        "discard": list(s.discard),
        "carneia": s.carneia,
        "acropolis": s.acropolis,
        "acropolis_penalty": s.acropolis_penalty,
        "talents": s.talents if s.phase in (0, 2) else None,
        "passes": s.passes,
        "move": move_view(s, c),
        "battle": battle_view(s, c),
        "window": s.window if s.phase == 8 else None,
        "card_names": {"greece": list(c.greek_names), "persia": list(c.persian_names)},
        "result": None
        if s.result < 0
        else {"winner": (*SIDES, None)[s.result], "reason": s.reason},
    }


def _hand(s: State, side: int, seat: int | None, reveal: bool) -> JSON:
    """A side's hand as `seat` sees it: its size, and its cards if they are shown."""
    hand = s.hands[side]
    shown = reveal or hand_visible(s, side, seat)
    return {"count": len(hand), "cards": sorted(hand) if shown else None}


def _name(c: Components, city: int) -> str | None:
    return c.names[city] if city >= 0 else None


def move_view(s: State, c: Components) -> JSON | None:
    """The move under way, in named fields (what has been declared so far is public)."""
    mv = s.mv
    if mv is None:
        return None
    return {
        "side": SIDES[mv.side],
        "allowed": ("any", "land", "fleets")[mv.kind],
        "by": None if mv.mode < 0 else ("land", "sea")[mv.mode],
        "origin": _name(c, mv.origin),
        "count": mv.count,
        "carry": mv.carry,
        "event": mv.flag,  # the card whose event made the move (0: a movement card)
        "not_from": _name(c, mv.exclude),  # Themistocles: not from the Persian target
        "destination": _name(c, mv.dest),
    }


def battle_view(s: State, c: Components) -> JSON | None:
    """The battle under way, in named fields (Separate Peace's dice are no battle)."""
    bt = s.bt
    if bt is None or bt.stage >= 2:
        return None
    return {
        "kind": ("land", "naval")[bt.kind],
        "city": c.names[bt.city],
        "attacker": SIDES[bt.att],
        "greek_dice": bt.gdice,  # 0: one per army; 2 Leonidas; 3 Miltiades, 300 Spartans
        "greek_card": bt.gcard,
        "cavalry": bool(bt.cav),
        "scoring_event": bt.score,  # 7 The Great King, 10 Evangelion, 0 none
        "immortals_used": bool(bt.imm),
        "persian_start": bt.pstart,
        "carried": bt.carry,
        "from": _name(c, bt.origin),
        "by_sea": bool(bt.by_sea),
        "no_retreat": bool(bt.no_retreat),
    }


def determinize(s: State, seat: int, rng: random.Random) -> State:
    """A copy of `s` in which what `seat` cannot see is dealt again at random: the other
    side's hand (unless it is shown, as under Hippias) and the draw pile, from the pool of
    those cards. The result depends only on what `seat` sees and on `rng`."""
    d = s.copy()
    other = 1 - seat
    if hand_visible(s, other, seat):
        return d
    pool = sorted(s.hands[other] + s.deck)
    shuffle(pool, rng)
    n = len(s.hands[other])
    d.hands[other] = sorted(pool[:n])
    d.deck = sorted(pool[n:])
    d._legal = None
    return d
