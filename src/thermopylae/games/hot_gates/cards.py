"""Battle Cards (seed 000, "Playing Battle Cards"): decks, windows and effects.

"Whenever a new Phase begins, the Persian Player has the first opportunity to play a
Battle Card. After the Persian Player has a chance to play a card, the Spartan player can
play a card, and so on back and forth until neither player wishes to play any more cards."

A window is open at the start of the March Phase, at each Battle Start, after the dice
are rolled, before casualties, and at the Ephialtes Phase. Battle windows belong to the
row's two players; the others to every seat. A seat holding no card it could play is
passed over without a question (decision 9). Cards take effect when the window closes,
in the order played, so that a `cancel` can answer any of them (decision 10). A card
whose effect cannot apply now (a march card when nobody could march, a draw from an
empty deck, ...) stays legal but is pointless: `sensible` leaves it out for the searches
(decision 35).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence

from thermopylae.engine.protocol import Event
from thermopylae.games.hot_gates import battle as b
from thermopylae.games.hot_gates import flow, march
from thermopylae.games.hot_gates.actions import PASS, Action, Play
from thermopylae.games.hot_gates.board import (
    PERSIAN_OF,
    PERSIAN_SEATS,
    SEATS,
    SPARTAN_OF,
    SPARTAN_SIDE,
    Tables,
    by_players,
    side_of_seat,
)
from thermopylae.games.hot_gates.components import MAX_DICE, CardInfo
from thermopylae.games.hot_gates.flow import Events
from thermopylae.games.hot_gates.state import (
    BATTLE_W,
    CASUALTY_W,
    MARCH_W,
    PIECE,
    ROLL_W,
    WINDOW,
    WINDOWS,
    WOUNDED,
    State,
)

SEAT, CARD, CANCELLED, TARGET = range(4)  # fields of an entry in `state.played`
BATTLE_WINDOWS = (BATTLE_W, ROLL_W, CASUALTY_W)
IN_BATTLE = tuple(w in BATTLE_WINDOWS for w in range(len(WINDOWS)))
"""By window, whether it is a battle's (an index: no comparisons with each of them)."""


def decks(all_cards: tuple[CardInfo, ...], players: int) -> list[list[int]]:
    """Each seat's deck. 2 players: one deck a side. 3 players: the Spartans split theirs
    into the A and B decks. 4 players: both sides split ("look for the A and B letters")."""

    def deck(side: str, letter: str | None = None) -> list[int]:
        return [
            c.number for c in all_cards if c.side == side and (letter is None or c.letter == letter)
        ]

    if players == 2:
        return [deck("persian"), deck("spartan")]
    if players == 3:
        return [deck("persian"), deck("spartan", "A"), deck("spartan", "B")]
    return [deck("persian", "A"), deck("persian", "B"), deck("spartan", "A"), deck("spartan", "B")]


ALL_SEATS = by_players({2: (0, 1), 3: (0, 1, 2), 4: (0, 2, 1, 3)})
"""Who may play in a window open to every seat, by player count: Persians first,
alternating with the Spartans."""
ROW_SEATS = by_players(
    {n: tuple((PERSIAN_OF[n][row], SPARTAN_OF[n][row]) for row in (0, 1)) for n in (2, 3, 4)}
)
"""Who may play in a battle window, by player count and the battle's row (`State.bt[0]`):
its Persian, then its Spartan."""
SIDE = by_players({n: tuple(side_of_seat(n, seat) for seat in range(n)) for n in (2, 3, 4)})
"""Each seat's side, by player count."""
EVERY_SEAT = by_players({n: tuple(range(n)) for n in (2, 3, 4)})
"""Every seat, by player count (a march card's `could_march`, beside `PERSIAN_SEATS`)."""


def _after(seats: tuple[int, ...], players: int) -> tuple[int, ...]:
    """By seat, the seat after it in `seats` (-1: not among them)."""
    return tuple(
        seats[(seats.index(seat) + 1) % len(seats)] if seat in seats else -1
        for seat in range(players)
    )


ALL_AFTER = by_players({n: _after(ALL_SEATS[n], n) for n in (2, 3, 4)})
"""By player count and seat, who comes next in a window open to every seat."""
ROW_AFTER = by_players(
    {n: tuple(_after(ROW_SEATS[n][row], n) for row in (0, 1)) for n in (2, 3, 4)}
)
"""By player count, row and seat, who comes next in a battle window."""


def drawn(s: State, t: Tables, card: int, ev: Events) -> None:
    """The card drawn from the deck of the first seat still to draw goes into its hand
    (hands are kept sorted)."""
    seat = s.draws.pop(0)
    s.decks[seat].remove(card)
    insort(s.hands[seat], card)
    if ev is not None:
        ev.append(Event("draw", {"seat": SEATS[s.players][seat]}))
        ev.append(
            Event("drew", {"seat": SEATS[s.players][seat], "card": t.cards[card].code}, to=seat)
        )


def open_window(s: State, t: Tables, ev: Events, w: int) -> None:
    """The window `w` opens (the "window" step of `flow.STEPS`: its argument last)."""
    s.window = w
    s.played = []
    s.passes = 0
    # the first seat who may play (ROW_SEATS, ALL_SEATS: Persians first)
    s.actor = (ROW_SEATS[s.players][s.bt[0]] if IN_BATTLE[w] else ALL_SEATS[s.players])[0]
    next_seat(s, t, ev)


def _cancel_target(s: State, seat: int) -> int:
    """The last card still in force that an opponent played in this window, or -1."""
    sides = SIDE[s.players]
    side = sides[seat]
    played = s.played
    for i in range(len(played) - 1, -1, -1):
        entry = played[i]
        if not entry[CANCELLED] and sides[entry[SEAT]] != side:
            return i
    return -1


def playable(s: State, t: Tables, seat: int, card: int) -> bool:
    if t.card_cancel[card]:
        return _cancel_target(s, seat) >= 0
    return t.card_window[card] == s.window


def sensible(s: State, t: Tables, acts: Sequence[Action]) -> Sequence[Action]:
    """The window's legal actions without the card plays whose effect cannot apply
    (decision 35); `pass` always stays."""
    seat = s.actor
    keep = [a for a in acts if not isinstance(a, Play) or can_apply(s, t, seat, a.card)]
    return acts if len(keep) == len(acts) else keep


def can_apply(s: State, t: Tables, seat: int, card: int) -> bool:
    """Whether the card's effect could change anything if the window closed now (decision
    35). Pointless: a march card when no unit could march this phase, a draw from an empty
    deck (decks are never reshuffled), more dice or Attack at Battle Start for a side that
    already rolls all 6 dice, a shield against no Damage once the dice are in, a heal with
    nobody Wounded. Other cards of the window do not count (a cancel may still strike
    them), and a card set that puts an effect in another window is never second-guessed."""
    e, w = t.card_effect[card], s.window
    if e == "draw":
        return len(s.decks[seat]) > 0
    if e == "march":
        if w != MARCH_W:
            return True
        # The Persians march first: only a Persian march can open the way for a Persian;
        # anyone's may open it for a Spartan.
        persian = SIDE[s.players][seat] != SPARTAN_SIDE
        return march.could_march(s, t, (PERSIAN_SEATS if persian else EVERY_SEAT)[s.players])
    if not IN_BATTLE[w] or len(s.bt) <= b.WINNER:
        return True
    side = SIDE[s.players][seat]
    bt = s.bt
    if (e == "attack" or e == "dice") and w == BATTLE_W:
        return b.dice_count(s, t, side) < MAX_DICE
    if e == "shield" and w == CASUALTY_W:
        damage: int = sum(bt[b.DICE + 1 - side]) + bt[b.DMG][1 - side]
        return damage > 0
    if e == "heal":
        space = bt[b.SSP] if side == SPARTAN_SIDE else bt[b.PSP]
        return any(p & WOUNDED for p in s.board[space])
    return True


def legal(s: State, t: Tables, sensible: bool = False) -> list[Action]:
    """`pass` and each playable card of the hand once (`playable`, written out). A hand
    is sorted (`drawn`), so a card's copies come together: each is met once by comparing
    it with the card before, without the small dict `distinct` makes (~2,000
    instructions a call); a card that cannot be played in this window is passed over by
    one look (`Tables.window_plays`). `sensible`: only the cards whose play changes
    something (`can_apply`): `sensible(s, t, legal(s, t))` in the same pass, the fused
    playout's list."""
    seat = s.actor
    plays, cancel = t.window_plays[s.window], t.card_cancel
    out: list[Action] = [PASS]
    target = -2  # the cancel's target, looked for once
    last = -1
    for c in s.hands[seat]:
        p = plays[c]
        if p is None or c == last:
            continue
        last = c
        if cancel[c]:
            if target == -2:
                target = _cancel_target(s, seat)
            if target < 0:
                continue
        if sensible and not can_apply(s, t, seat, c):
            continue
        out.append(p)
    return out


def next_seat(s: State, t: Tables, ev: Events, moved_on: bool = False) -> None:
    """Ask the next seat that holds a playable card; close after a full round of passes.
    `moved_on`: the seat to act has just played or passed, so the turn starts at the
    seat after it."""
    w = s.window
    # how many seats may play, and by seat the one after it (ROW_AFTER, ALL_AFTER)
    if IN_BATTLE[w]:
        k, nxt = 2, ROW_AFTER[s.players][s.bt[0]]
    else:
        k, nxt = s.players, ALL_AFTER[s.players]
    hands = s.hands
    in_window, cancels = t.window_cards[w], t.cancel_cards
    played = s.played  # (nothing played yet: nothing to cancel)
    passes = s.passes
    seat = nxt[s.actor] if moved_on else s.actor
    while passes < k:
        hand = hands[seat]
        if hand and (
            not in_window.isdisjoint(hand)
            or (played and not cancels.isdisjoint(hand) and _cancel_target(s, seat) >= 0)
        ):
            s.passes = passes
            s.actor = seat
            s.phase = WINDOW
            return
        passes += 1
        seat = nxt[seat]
    s.passes = passes
    s.actor = seat
    close(s, t, ev)


def decide(s: State, t: Tables, a: Action, ev: Events) -> None:
    """A legal play or pass; the turn goes to the next seat of the window."""
    seat = s.actor
    if isinstance(a, Play):
        card = a.card
        s.hands[seat].remove(card)
        s.discards[seat].append(card)
        target = _cancel_target(s, seat) if t.card_cancel[card] else -1
        s.played.append([seat, card, 0, target])
        if target >= 0:
            _set_cancelled(s, t, target, True)
        s.passes = 0
        if ev is not None:
            c = t.cards[card]
            data = {
                "seat": SEATS[s.players][seat],
                "card": c.code,
                "title": c.title,
                "text": c.text,
            }
            if target >= 0:
                data["cancels"] = t.cards[s.played[target][CARD]].code
            ev.append(Event("play", data))
    else:  # pass
        s.passes += 1
    next_seat(s, t, ev, True)  # moved_on (positional: a keyword makes the call generic)


def _set_cancelled(s: State, t: Tables, i: int, cancelled: bool) -> None:
    """Cancelling a cancel restores the card it had cancelled."""
    entry = s.played[i]
    entry[CANCELLED] = int(cancelled)
    if t.cards[entry[CARD]].effect == "cancel" and entry[TARGET] >= 0:
        _set_cancelled(s, t, entry[TARGET], not cancelled)


def close(s: State, t: Tables, ev: Events) -> None:
    """The window closes: the cards still in force take effect, in the order played."""
    played = s.played
    s.window = -1
    s.actor = -1
    if played:
        s.played = []
        for e in played:
            if not e[CANCELLED]:
                _effect(s, t, e[SEAT], t.cards[e[CARD]], ev)
    flow.deal(s, t, ev)  # cards or dice a card's effect owes, then what waits


def _effect(s: State, t: Tables, seat: int, c: CardInfo, ev: Events) -> None:
    side = SIDE[s.players][seat]
    n = c.amount
    e = c.effect
    if e == "attack":
        s.bt[b.ATK][side] += n
    elif e == "dice":
        s.bt[b.XDICE][side] += n
    elif e == "damage":
        s.bt[b.DMG][side] += n
    elif e == "shield":
        s.bt[b.SHIELD][side] += n
    elif e == "reroll":
        dice = s.bt[b.DICE + side]
        lowest = sorted(range(len(dice)), key=lambda i: (dice[i], i))[:n]
        for i in lowest:
            if side * 8 + i not in s.rolls:
                s.rolls.append(side * 8 + i)
    elif e == "heal":
        space = s.bt[b.SSP] if side == SPARTAN_SIDE else s.bt[b.PSP]
        pieces = s.board[space]
        wounded = sorted(
            (p for p in pieces if p & WOUNDED), key=lambda p: -t.defense[(p & PIECE) & ~WOUNDED]
        )[:n]
        for p in wounded:
            pieces.remove(p)
            pieces.append(p & ~WOUNDED)
    elif e == "draw":
        s.draws += [seat] * n
    elif e == "march":
        s.extra[seat] += n
    elif e == "delay":  # "does not move": a hasten played before or after changes nothing
        s.eph_move = 0
    elif e == "hasten" and s.eph_move > 0:
        s.eph_move += n
    if ev is not None and e != "cancel":
        ev.append(Event("effect", {"seat": SEATS[s.players][seat], "card": c.code, "text": c.text}))
