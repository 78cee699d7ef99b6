"""What each seat may see. The one place where hidden information is filtered.

Hidden: the order and identity of face-down cards (both decks) and, unless the table
plays with open hands, the other players' hands (their sizes are public). Everything
else is face up on the table: slots, piles, graveyard, support cards, the fight.
"""

from __future__ import annotations

import random
from typing import cast

from thermopylae.engine.protocol import CHANCE, JSON
from thermopylae.engine.shuffle import shuffle, skip
from thermopylae.games.thermopyles.actions import MAX_PLAYERS, seat_name
from thermopylae.games.thermopyles.components import Components
from thermopylae.games.thermopyles.state import PHASES, State
from thermopylae.games.thermopyles.tables import Tables


def card(c: Components, kind: int) -> JSON | None:
    """A face-up Persian card of `kind` (None for an empty slot, kind -1)."""
    if kind < 0:
        return None
    k = c.persian_kinds[kind]
    return {"combat": k.combat, "annihilation": k.annihilation, "bonus": k.bonus, "text": k.text}


_SEATS = tuple(seat_name(p) for p in range(MAX_PLAYERS))
_FACES: dict[int, tuple[Tables, tuple[JSON, ...]]] = {}


def _faces(t: Tables) -> tuple[JSON, ...]:
    """Each Persian kind's face (`card`), made once per component set: a server builds a
    view for every seat after every action, and the faces never change. Views hand out
    copies, so a caller that changes its view changes no other."""
    got = _FACES.get(id(t))
    if got is None or got[0] is not t:  # the Tables is kept: its id is not reused
        kinds = range(len(t.components.persian_kinds))  # (none is -1: each a face)
        got = (t, tuple(cast("JSON", card(t.components, k)) for k in kinds))
        _FACES[id(t)] = got
    return got[1]


def view(
    s: State,
    t: Tables,
    seat: int | None,
    *,
    game_id: str,
    provisional: bool,
    to_act: int | None,
    reveal: bool = False,
) -> JSON:
    """What `seat` sees of `s` (None: a spectator); `to_act` is the game's answer for `s`,
    given by the caller, which owns whose turn it is. `reveal` shows every hand (a
    replay's open view)."""
    texts = t.kind_texts.__getitem__
    faces = _faces(t)
    shown = reveal or s.open_hands
    return {
        "game": game_id,
        "provisional": provisional,
        "players": s.players,
        "seat": None if seat is None else seat_name(seat),
        "phase": PHASES[s.phase],
        "to_act": ("chance" if to_act == CHANCE else None if to_act is None else seat_name(to_act)),
        "active": seat_name(s.active),
        "recipient": seat_name(s.recipient) if s.recipient >= 0 else None,
        "turn": s.turn,
        "marker": s.marker,
        "locations": list(map(dict, t.locations)),
        "slots": [None if k < 0 else dict(faces[k]) for k in s.slots],
        "support": s.support,
        "support_total": t.components.support,
        "hands": [
            {
                "seat": _SEATS[p],
                "count": len(h),
                "cards": list(h) if (shown or p == seat) else None,
            }
            for p, h in enumerate(s.hands)
        ],
        "spartan_deck": len(s.sdeck),
        "spartan_discard": list(s.sdiscard),
        "persian_deck": len(s.pdeck),
        "persian_discard": list(map(texts, s.pdiscard)),
        "graveyard": list(map(texts, s.graveyard)),
        "fight": None
        if not s.card
        else {
            "card": s.card,
            "support": s.committed,
            "dice": list(s.dice),
            "location_die": bool(t.die[s.marker]),
            "total": s.card + sum(s.dice),
        },
        "draws": s.draws,
        "result": None
        if not s.result
        else {"result": "win" if s.result > 0 else "loss", "reason": s.reason},
    }


def determinize(s: State, seat: int, rng: random.Random) -> State:
    """A copy of `s` in which what `seat` cannot see is dealt again at random: the other
    players' hands (unless hands are open) and the Spartan deck, from the pool of those
    cards. Two states with the same view for `seat` give the same result for the same
    `rng`, so a search that uses it cannot depend on hidden cards."""
    if s.open_hands:
        return s.copy()
    if s.players == 1:
        # Solo: no other hand to deal, and the deck comes out sorted whatever the shuffle
        # did; only the draws the shuffle takes are left to take, the same ones.
        d = s.copy()
        skip(len(s.sdeck), rng)
        d.sdeck.sort()
        return d
    hands = s.hands
    others = _OTHERS[s.players][seat]
    pool = s.sdeck[:]
    for p in others:
        pool += hands[p]
    pool.sort()
    shuffle(pool, rng)
    dealt = hands[:]  # every hand replaced below: the seat's by a copy
    dealt[seat] = hands[seat][:]
    i = 0
    for p in others:  # each hand from the front of the shuffled pool, in seat order
        n = len(hands[p])
        dealt[p] = sorted(pool[i : i + n])
        i += n
    deck = pool[i:]
    deck.sort()
    return s.dealt(dealt, deck)


_OTHERS = [
    [tuple(p for p in range(n) if p != seat) for seat in range(n)] for n in range(MAX_PLAYERS + 1)
]
"""By the number of players and the seat: the other seats, in order."""
