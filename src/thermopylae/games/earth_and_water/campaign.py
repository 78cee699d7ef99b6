"""The campaign sequence (RB 4-10): Preparation (buying cards, drawing them, building),
Operations (turns of cards played or passed), the Sudden Death of the Great King, Supply
(cards kept, attrition, lines of communication), Scoring and the end of the game; and
`resume`, which carries on with whatever waited for a procedure that ended (the
continuations of `State.stack`, from every rule module).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable
from itertools import compress

from thermopylae.engine.errors import RecordError
from thermopylae.engine.protocol import Event
from thermopylae.games.earth_and_water import battle, board, cards, moves, reactions
from thermopylae.games.earth_and_water.actions import (
    A,
    Action,
    Army,
    BuildBridge,
    Buy,
    Discard,
    Done,
    Draw,
    Fleet,
    Keep,
    KeepNone,
    Pass,
    PlayEvent,
    PlayMove,
    Remove,
)
from thermopylae.games.earth_and_water.components import Components
from thermopylae.games.earth_and_water.state import (
    DRAW,
    GREECE,
    NO_RETREAT,
    OPS,
    OVER,
    PERSIA,
    PREP_BUILD,
    PREP_BUY,
    SIDES,
    SUDDEN_DEATH,
    SUP_KEEP,
    SUP_REMOVE,
    Ev,
    State,
)

CAMPAIGNS = 5  # RB 4.1
SCORE_LIMIT = 6  # the score track runs from 6 for one side to 6 for the other
PERSIA_KEEPS, GREECE_KEEPS = 1, 4  # RB 8.1
MAX_KINGS = 2  # Darius, then Xerxes (RB 5.3)


# -- continuations -------------------------------------------------------------------------


def resume(s: State, c: Components, ev: Ev) -> None:
    """A procedure ended: carry on with whatever waited for it."""
    if not s.stack:  # only a hand-edited position can get here
        raise RecordError(
            "this position's pending steps are inconsistent: nothing "
            "waits for the procedure that just ended"
        )
    item = s.stack.pop()
    step = (_STEPS or _steps())[item[0]]
    if len(item) == 1:
        step(s, c, ev)
    else:
        step(s, c, ev, *item[1:])


_STEPS: dict[str, Callable[..., None]] = {}


def _steps() -> dict[str, Callable[..., None]]:
    """The continuations by name (`State.stack`; serial.CONTINUATIONS lists their
    arguments), filled at the first `resume`: the rule modules import one another."""
    _STEPS.update(
        ops_next=ops_next,
        after_buy=after_buy,
        after_sudden_death=after_sudden_death,
        sea_arrive=moves.sea_arrive,
        round=battle.next_round,
        after_round=battle.after_round,
        reopen=reactions.reopen,
        event_move=cards.event_move,
        event_move_excluding=reactions.event_move_excluding,
        pacified=cards.pacified,
    )
    return _STEPS


def ops_next(s: State, c: Components, ev: Ev) -> None:
    s.used &= ~NO_RETREAT  # Themistocles' "no retreat" lasts for the turn
    _next_turn(s, c, ev)


# -- preparation (RB 5) --------------------------------------------------------------------


def start_preparation(
    s: State, c: Components, side: int, ev: Ev, talents: int | None = None, extra: bool = False
) -> None:
    p = c.prices
    if talents is None:
        if side == PERSIA:
            talents = p.persia_budget_kept_card if s.hands[PERSIA] else p.persia_budget
        else:
            talents = p.greece_budget - (1 if s.acropolis_penalty else 0)
            s.acropolis_penalty = False
    s.talents = talents
    s.fleets_built = -1 if extra else 0  # -1: no fleet limit (Mines of Laurion)
    s.side = side
    s.phase = PREP_BUY
    if ev is not None:
        ev.append(
            Event("preparation", {"side": SIDES[side], "talents": talents, "campaign": s.campaign})
        )


def buy_options(s: State, c: Components) -> list[Action]:
    available = len(s.deck) + len(s.discard)
    most = min(c.prices.max_cards, s.talents // c.prices.card, available)
    return list(A.buy[: most + 1])  # buy 0 to `most`


def buy(s: State, c: Components, a: Buy, ev: Ev) -> None:
    n = a.count
    s.talents -= n * c.prices.card
    if ev is not None:
        ev.append(Event("buy", {"side": SIDES[s.side], "cards": n}))
    s.stack.append(("after_buy", s.side))
    draw(s, c, s.side, n, ev)


def after_buy(s: State, c: Components, ev: Ev, side: int) -> None:
    if s.used & SUDDEN_DEATH:
        s.used &= ~SUDDEN_DEATH
        return sudden_death(s, c, ev, during="preparation")
    s.phase = PREP_BUILD
    s.side = side


def draw(s: State, c: Components, side: int, n: int, ev: Ev) -> None:
    """Draw `n` cards for `side` (chance nodes); an empty pile takes the discards."""
    s.draws = n
    s.draw_to = side
    _next_draw(s, c, ev)


def _next_draw(s: State, c: Components, ev: Ev) -> None:
    if s.draws > 0 and not s.deck and s.discard:
        s.deck, s.discard = sorted(s.discard), []  # RB 5.4: the discards are shuffled in
        if ev is not None:
            ev.append(Event("reshuffle", {}))
    if s.draws > 0 and s.deck:
        s.phase = DRAW
        return
    s.draws = 0
    resume(s, c, ev)


def drawn(s: State, c: Components, a: Draw, ev: Ev) -> None:
    card = a.card
    s.deck.remove(card)
    if not s.deck and s.discard:  # RB 5.4: the discards become the new draw pile
        s.deck, s.discard = sorted(s.discard), []
        if ev is not None:
            ev.append(Event("reshuffle", {}))
    insort(s.hands[s.draw_to], card)  # hands and pile kept sorted: draws are by chance
    s.draws -= 1
    if ev is not None:
        ev.append(Event("draw", {"side": SIDES[s.draw_to]}))
        ev.append(Event("drew", {"side": SIDES[s.draw_to], "card": card}, to=s.draw_to))
    if card == 11 and s.draw_to == PERSIA and s.kings < MAX_KINGS:
        s.used |= SUDDEN_DEATH  # resolved once every card of this draw is in hand
    if s.draws > 0 and s.deck:  # (`_next_draw`'s usual case, inline: another draw due)
        s.phase = DRAW
        return
    _next_draw(s, c, ev)


def build_options(s: State, c: Components) -> list[Action]:
    """Seed 002, "Placement • Dans une cité (ou port) que vous contrôlez" and "Si flotte
    ennemie : Impossible d'y placer une flotte": armies and fleets alike go only where
    the side has control, and a major city is its owner's only "sans armée ennemie"."""
    side = s.side
    p = c.prices
    out: list[Action] = [A.done]
    mine = board.controlled(c, s, side)
    if s.talents >= p.army and s.res_arm[side]:
        army = A.army
        out += map(army.__getitem__, mine)
    price = _fleet_price(s, c)
    if (
        s.talents >= price
        and s.res_flt[side]
        and (s.fleets_built < 0 or s.fleets_built < p.max_fleets)
    ):
        fleet, port, theirs = A.fleet, c.port, s.flt[1 - side]
        for x in mine:
            if port[x] and not theirs[x]:
                out.append(fleet[x])
    if (
        side == PERSIA
        and not s.bridge
        and s.talents >= p.bridge
        and board.controls(c, s, PERSIA, c.abydos)
    ):
        out.append(A.build_bridge)
    return out


def _fleet_price(s: State, c: Components) -> int:
    p = c.prices
    if s.side == GREECE:
        return p.greece_fleet
    return p.persia_fleet_cheap if s.options["cheap_fleets"] else p.persia_fleet


def build(s: State, c: Components, a: Army | Fleet | BuildBridge | Done, ev: Ev) -> None:
    side = s.side
    city = -1
    # (`isinstance`, not a `match` of class patterns: those are slow in CPython 3.11, and
    # ISMCTS's tree applies a build at nearly every iteration at the start)
    if isinstance(a, Army):
        city = a.city
        s.talents -= c.prices.army
        s.res_arm[side] -= 1
        s.arm[side][city] += 1
    elif isinstance(a, Fleet):
        city = a.city
        s.talents -= _fleet_price(s, c)
        s.res_flt[side] -= 1
        s.flt[side][city] += 1
        if s.fleets_built >= 0:
            s.fleets_built += 1
    elif isinstance(a, BuildBridge):
        s.talents -= c.prices.bridge
        s.bridge = True
    if ev is not None:
        ev.append(
            Event(
                "build",
                {
                    "side": SIDES[side],
                    "what": a.verb,
                    "city": c.names[city] if city >= 0 else None,
                },
            )
        )
    if not isinstance(a, Done):
        return
    if s.fleets_built < 0:  # the extra Preparation of Mines of Laurion ends
        return resume(s, c, ev)
    if side == PERSIA:
        return start_preparation(s, c, GREECE, ev)
    _start_operations(s, ev)


# -- operations (RB 6.1) -------------------------------------------------------------------


def _start_operations(s: State, ev: Ev) -> None:
    s.active = PERSIA
    s.passes = 0
    s.side = PERSIA
    s.phase = OPS
    if ev is not None:
        ev.append(Event("operations", {"campaign": s.campaign}))


def ops_options(s: State, c: Components) -> list[Action]:
    side = s.active
    out: list[Action] = [A.pass_]
    hand = s.hands[side]
    if not hand:
        return out
    land = moves.can_move_land(s, c, side)  # (asked once: several events ask it too)
    movable = land or any(s.flt[side])  # (`moves.can_move_with`)
    event, move, tests = A.event, A.move, cards.EVENT_TESTS[side]
    for k in sorted(set(hand)):
        test = tests.get(k)  # (`cards.can_event`)
        if test is not None and test(s, c, land):
            out.append(event[k])
        if movable:
            out.append(move[k])
    return out


def ops(s: State, c: Components, a: PlayEvent | PlayMove | Pass, ev: Ev) -> None:
    side = s.active
    s.turns += 1
    if isinstance(a, Pass):
        s.passes += 1
        if ev is not None:
            ev.append(Event("pass", {"side": SIDES[side]}))
        return _next_turn(s, c, ev)
    s.passes = 0
    card = a.card
    play_card(s, side, card)
    s.stack.append(("ops_next",))
    if isinstance(a, PlayMove):
        if ev is not None:
            ev.append(Event("move-card", {"side": SIDES[side], "card": card}))
        return moves.begin_move(s, c, side, ev)
    if ev is not None:
        ev.append(
            Event(
                "event", {"side": SIDES[side], "card": card, "name": cards.card_name(c, side, card)}
            )
        )
    cards.play_event(s, c, side, card, ev)


def play_card(s: State, side: int, card: int) -> None:
    s.hands[side].remove(card)
    s.discard.append(card)


def _next_turn(s: State, c: Components, ev: Ev) -> None:
    """RB 6.1: the phase ends when both players pass one after the other."""
    if s.phase == OVER:
        return
    if s.passes >= 2 or (not s.hands[PERSIA] and not s.hands[GREECE]):
        return _start_supply(s, c, PERSIA, ev)
    s.active = 1 - s.active
    s.side = s.active
    s.phase = OPS


# -- Sudden Death of the Great King (RB 5.3) -----------------------------------------------


def sudden_death(s: State, c: Components, ev: Ev, during: str) -> None:
    s.kings += 1
    if ev is not None:  # the data says why the phase ends and that it may strike again
        ev.append(
            Event(
                "sudden-death",
                {
                    "king": "Darius" if s.kings == 1 else "Xerxes",
                    "during": during,
                    "campaign": s.campaign,
                    "kings_dead": s.kings,
                    "kings": MAX_KINGS,
                    "discarded": len(s.hands[PERSIA]),
                    "from_reserve": s.res_arm[PERSIA] > 0,
                },
            )
        )
    s.discard.extend(s.hands[PERSIA])
    s.hands[PERSIA] = []
    s.stack.append(("after_sudden_death", during))
    cards.pay_portrait(s, c, PERSIA, ev)


def after_sudden_death(s: State, c: Components, ev: Ev, during: str) -> None:
    s.deck = sorted(s.deck + s.discard)  # the pile and the discards shuffled together
    s.discard = []
    if ev is not None:
        ev.append(
            Event(
                "sudden-death-end",
                {
                    "during": during,
                    "campaign": s.campaign,
                    "draw_pile": len(s.deck),
                    "last": s.campaign >= CAMPAIGNS,
                    "kings_dead": s.kings,
                    "kings": MAX_KINGS,
                },
            )
        )
    if during == "operations":
        s.stack = []
        return _start_supply(s, c, PERSIA, ev)
    s.carneia = False  # the campaign ends at once: no operations, supply or scoring
    s.acropolis = False
    s.acropolis_penalty = False
    s.stack = []
    _next_campaign(s, c, ev)


# -- supply (RB 8) -------------------------------------------------------------------------


def _start_supply(s: State, c: Components, side: int, ev: Ev) -> None:
    s.stack = []
    s.mv = None
    s.bt = None
    s.side = side
    keep = PERSIA_KEEPS if side == PERSIA else GREECE_KEEPS
    if (
        s.campaign < CAMPAIGNS
        and len(s.hands[side]) > 0
        and (side == PERSIA or len(s.hands[side]) > keep)
    ):
        s.phase = SUP_KEEP
        return
    if s.campaign >= CAMPAIGNS:
        s.discard.extend(s.hands[side])
        s.hands[side] = []
    _attrition_start(s, c, side, ev)


def keep_options(s: State, c: Components) -> list[Action]:
    hand = sorted(set(s.hands[s.side]))
    if s.side == PERSIA:
        return [A.keep_none, *(A.keep[k] for k in hand)]
    return [A.discard[k] for k in hand]


def keep(s: State, c: Components, a: Keep | KeepNone | Discard, ev: Ev) -> None:
    side = s.side
    if side == PERSIA:
        kept = [a.card] if isinstance(a, Keep) else []
        rest = list(s.hands[PERSIA])
        for k in kept:
            rest.remove(k)
        s.discard.extend(rest)
        s.hands[PERSIA] = kept
        if ev is not None:
            ev.append(Event("keep", {"side": "persia", "cards": len(kept)}))
        return _attrition_start(s, c, side, ev)
    assert isinstance(a, Discard)  # (Greece discards down to its hand's limit)
    s.hands[GREECE].remove(a.card)
    s.discard.append(a.card)
    if ev is not None:
        ev.append(Event("discard", {"side": "greece", "card": a.card}))
    if len(s.hands[GREECE]) <= GREECE_KEEPS:
        _attrition_start(s, c, side, ev)


def _attrition_start(s: State, c: Components, side: int, ev: Ev) -> None:
    excess = board.excess(c, s, side)
    if excess > 0:
        s.side = side
        s.draws = excess  # armies still to remove
        s.phase = SUP_REMOVE
        return
    _lines_of_communication(s, c, side, ev)


def attrition_options(s: State, c: Components) -> list[Action]:
    armies = s.arm[s.side]
    return [A.remove[x] for x in c.attrition_cities[s.side] if armies[x]]


def attrition(s: State, c: Components, a: Remove, ev: Ev) -> None:
    side, city = s.side, a.city
    s.arm[side][city] -= 1
    s.res_arm[side] += 1
    s.draws -= 1
    if ev is not None:
        ev.append(Event("attrition", {"side": SIDES[side], "city": c.names[city]}))
    if s.draws <= 0:
        _lines_of_communication(s, c, side, ev)


def _lines_of_communication(s: State, c: Components, side: int, ev: Ev) -> None:
    reached, armies = board.supplied(c, s, side), s.arm[side]
    for city in compress(c.cities, armies):
        if not reached[city]:
            n = armies[city]
            armies[city] = 0
            s.res_arm[side] += n
            if ev is not None:
                ev.append(
                    Event(
                        "out-of-supply",
                        {"side": SIDES[side], "city": c.names[city], "armies": n},
                    )
                )
    if side == PERSIA:
        return _start_supply(s, c, GREECE, ev)
    _scoring(s, c, ev)


# -- scoring (RB 9, 10) --------------------------------------------------------------------


def _scoring(s: State, c: Components, ev: Ev) -> None:
    if board.controls(c, s, PERSIA, c.athenai) and board.controls(c, s, PERSIA, c.sparta):
        return _finish(s, PERSIA, "Persia holds both Athenai and Sparta", ev)
    if board.controls(c, s, GREECE, c.abydos) and board.controls(c, s, GREECE, c.ephesos):
        return _finish(s, GREECE, "Greece holds both Abydos and Ephesos", ev)
    persia, greece = board.points(c, s)
    add_score(s, persia - greece)
    if ev is not None:
        ev.append(
            Event(
                "scoring",
                {"persia": persia, "greece": greece, "score": s.score, "campaign": s.campaign},
            )
        )
    if s.acropolis:
        s.acropolis = False
        s.acropolis_penalty = True
    s.carneia = False
    _next_campaign(s, c, ev)


def add_score(s: State, points: int) -> None:
    """Move the marker; it never goes past 6 either way."""
    s.score = max(-SCORE_LIMIT, min(SCORE_LIMIT, s.score + points))


def _next_campaign(s: State, c: Components, ev: Ev) -> None:
    if s.campaign >= CAMPAIGNS:
        if s.score > 0:
            return _finish(s, PERSIA, "Persia leads after the 5th campaign", ev)
        if s.score < 0:
            return _finish(s, GREECE, "Greece leads after the 5th campaign", ev)
        return _finish(s, 2, "the score is 0 after the 5th campaign", ev)
    s.campaign += 1
    start_preparation(s, c, PERSIA, ev)


def _finish(s: State, result: int, reason: str, ev: Ev) -> None:
    s.phase = OVER
    s.result = result
    s.reason = reason
    s.stack = []
    if ev is not None:
        ev.append(
            Event(
                "end",
                {
                    "winner": ("persia", "greece", None)[result],
                    "reason": reason,
                    "score": s.score,
                },
            )
        )
