"""A battle in one row (seed 000, "Battle Phase"): Attack, Casualty, Conquer.

The battle's context lives in `state.bt`, a flat list indexed by the names below, so that
a position is plain JSON and a copy is cheap.
"""

from __future__ import annotations

from collections.abc import Callable
from math import trunc
from typing import Any

from thermopylae.engine.protocol import Event
from thermopylae.games.hot_gates import cards, flow, pullback, victory
from thermopylae.games.hot_gates.actions import DONE, Action, Move, piece_name
from thermopylae.games.hot_gates.board import (
    PERSIAN,
    PERSIAN_OF,
    SEATS,
    SPARTAN_OF,
    SPARTAN_SIDE,
    Tables,
    distinct,
    spartan_seats,
)
from thermopylae.games.hot_gates.components import BEAST, DILIOS, MAX_DICE
from thermopylae.games.hot_gates.flow import Events, Step
from thermopylae.games.hot_gates.state import (
    BATTLE_W,
    CASUALTY,
    CONQUER,
    PIECE,
    SPACES,
    WOUNDED,
    State,
)
from thermopylae.games.hot_gates.state import space_name as name

# Indices into state.bt; the pairs are [Persian, Spartan].
ROW, PSP, SSP = 0, 1, 2  # the row, the Persian and the Spartan Battle Spaces
DICE = 3  # bt[DICE + side]: that side's dice
ATK, XDICE, DMG, SHIELD = 5, 6, 7, 8  # card bonuses: Attack, dice, Damage, shield
LEFT = 9  # Damage still to be taken by each side
BOX = 10  # the Reinforcement Box this battle's dead Persians go to (-1: none yet)
STAGE = 11  # conquer: 0 the advance, 1 the free follow-up
ADVANCED = 12  # conquer: some unit advanced
WINNER = 13  # conquer: the side that wiped out the other's space
SLOTS = (tuple(range(MAX_DICE)), tuple(range(8, 8 + MAX_DICE)))  # dice to roll: side * 8 + i


def start(s: State, t: Tables, ev: Events, row: int) -> None:
    """ "If the Spartans are adjacent to the Persians in a particular Battle Row, then
    both of those spaces are considered Battle Spaces"; Battle Start cards first. (The
    "battle" step of `flow.STEPS`: its argument last.)"""
    spaces = t.battle_spaces(s, row)
    if spaces is None:
        return flow.resume(s, t, ev)
    p, q = spaces
    s.bt = [row, p, q, [], [], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0], -1, 0, 0, -1]
    if ev is not None:
        ev.append(Event("battle", {"row": "AB"[row], "persian": name(p), "spartan": name(q)}))
    s.stack.append(("bt_attack",))
    cards.open_window(s, t, ev, BATTLE_W)


def attack_total(s: State, t: Tables, side: int) -> int:
    """The sum of the Attack Numbers in the side's Battle Space. "Whenever the Persians
    attack from a Coastal Plain space into a Hot Gates space", only 3 Units or 1 War Beast
    count: the choice that adds up to most (no other choice can help)."""
    bt = s.bt
    attack = t.piece_attack
    bonus: int = bt[ATK][side]  # (no `int` or `max` calls: see march.clear_moved)
    if side == PERSIAN and bt[PSP] % SPACES == 2:
        beast = 0
        units = []
        for p in s.board[bt[PSP]]:
            if (p & PIECE) >> 1 == BEAST:
                if attack[p] > beast:
                    beast = attack[p]
            else:
                units.append(attack[p])
        units.sort(reverse=True)
        three = sum(units[:3])
        return (beast if beast > three else three) + bonus
    space = bt[PSP] if side == PERSIAN else bt[SSP]
    return sum(map(attack.__getitem__, s.board[space])) + bonus


def dice_count(s: State, t: Tables, side: int) -> int:
    """The Battle Chart, plus dice from cards; never more than the 6 Battle Dice."""
    total = attack_total(s, t, side)
    chart = t.dice_chart
    base = chart[total] if 0 <= total < len(chart) else t.c.dice_for(total)
    more: int = s.bt[XDICE][side]
    dice = base + more
    return dice if dice < MAX_DICE else MAX_DICE


def attack(s: State, t: Tables, ev: Events) -> None:
    """ "Each player adds up the Attack Numbers ... consults the Battle Chart ... rolls"."""
    bt = s.bt
    counts = (dice_count(s, t, PERSIAN), dice_count(s, t, SPARTAN_SIDE))
    for side in (PERSIAN, SPARTAN_SIDE):
        bt[DICE + side] = [0] * counts[side]
        s.rolls += SLOTS[side][: counts[side]]
    if ev is not None:
        ev.append(
            Event(
                "attack",
                {
                    "row": "AB"[bt[ROW]],
                    "persian": attack_total(s, t, PERSIAN),
                    "spartan": attack_total(s, t, SPARTAN_SIDE),
                    "persian_dice": counts[0],
                    "spartan_dice": counts[1],
                },
            )
        )
    s.stack.append(("bt_rolled",))
    flow.deal(s, t, ev)


def rolled(s: State, face: int, ev: Events) -> None:
    slot = s.rolls.pop(0)
    side, i = divmod(slot, 8)
    s.bt[DICE + side][i] = face
    if ev is not None:
        ev.append(Event("roll", {"side": ("persian", "spartan")[side], "face": face}))


def casualties(s: State, t: Tables, ev: Events) -> None:
    """ "After both players receive Damage from their opponents, they each remove Units
    ... First the Persian player chooses his own Casualties, and then the Spartan"."""
    bt = s.bt
    for side in (PERSIAN, SPARTAN_SIDE):
        enemy = 1 - side
        left = sum(bt[DICE + enemy]) + bt[DMG][enemy] - bt[SHIELD][side]
        bt[LEFT][side] = left if left > 0 else 0  # (no `max` call: see march.clear_moved)
    if ev is not None:
        ev.append(
            Event("damage", {"to_persian": bt[LEFT][PERSIAN], "to_spartan": bt[LEFT][SPARTAN_SIDE]})
        )
    _next(s, t, PERSIAN, ev)


def _next(s: State, t: Tables, side: int, ev: Events) -> None:
    bt = s.bt
    for sd in (PERSIAN, SPARTAN_SIDE)[side:]:
        space = bt[PSP] if sd == PERSIAN else bt[SSP]
        if bt[LEFT][sd] > 0 and s.board[space]:
            s.phase = CASUALTY
            s.actor = (PERSIAN_OF if sd == PERSIAN else SPARTAN_OF)[s.players][bt[ROW]]
            return
        bt[LEFT][sd] = 0
    resolve(s, t, ev)


def casualty_side(s: State) -> int:
    return PERSIAN if s.bt[LEFT][PERSIAN] > 0 else SPARTAN_SIDE


def casualty_legal(s: State, t: Tables) -> list[Action]:
    space = s.bt[PSP] if casualty_side(s) == PERSIAN else s.bt[SSP]
    return [*map(t.notation.casualty.__getitem__, distinct(s.board[space]))]


def casualty(
    s: State,
    t: Tables,
    code: int,
    ev: Events,
    arand: Callable[[], float] | None = None,
    mark: list[Any] | None = None,
) -> None:
    """One casualty: it absorbs as much of the remaining Damage as it can. "If any Unit
    chosen ... has a Defense Number higher than the remaining amount of Damage, then that
    Unit is not eliminated" but Wounded; a Wounded unit, or one with "Dead" on its back,
    is always eliminated. `arand` (with `mark`, this thread's `board.marks`): the fused
    playout's agent draws: then the casualties are chosen here (not `code`), each among
    the kinds in the space, first seen first, as the protocol's uniform agent chooses from
    `casualty_legal` (`hurt[trunc(arand() * len(hurt))]`), and go on while they are due,
    counted in `s.steps` but the last (the caller counts it)."""
    bt = s.bt
    board = s.board
    while True:
        side = PERSIAN if bt[LEFT][PERSIAN] > 0 else SPARTAN_SIDE  # (casualty_side)
        space = bt[PSP] if side == PERSIAN else bt[SSP]
        pieces = board[space]
        if arand is not None and mark is not None:  # the fused playout's choice
            hurt: list[int] = []  # each kind once, first seen first (`board.SEEN`)
            for p in pieces:
                if mark[p] is not hurt:
                    mark[p] = hurt
                    hurt.append(p)
            code = hurt[trunc(arand() * len(hurt))]
        row = bt[ROW]
        left = bt[LEFT][side]
        defense = t.defense[code]
        pieces.remove(code)
        if t.woundable[code] and defense > left:
            pieces.append(code + WOUNDED)  # (not Wounded yet: `+`, which 3.11 specialises)
            bt[LEFT][side] = 0
            if ev is not None:
                ev.append(Event("wounded", {"unit": piece_name(code), "space": name(space)}))
        else:
            bt[LEFT][side] = left - defense if left > defense else 0
            eliminate(s, t, code, side, row, ev)
        if bt[LEFT][side] == 0 or not pieces:
            bt[LEFT][side] = 0
            _next(s, t, side, ev)
        if arand is None or mark is None or s.phase != CASUALTY:
            return
        s.steps += 1


def eliminate(s: State, t: Tables, code: int, side: int, row: int, ev: Events) -> None:
    """Persians go to the next Reinforcement Box (Leaders leave the game) and give the
    row's Spartans their Glory; Spartans leave the game, Dilios costing Glory."""
    unit = t.unwounded[code]
    if ev is not None:
        ev.append(Event("eliminated", {"unit": piece_name(unit), "side": side}))
    if side == PERSIAN:
        if t.leader[unit]:
            s.dead.append(unit)
        else:
            if s.bt[BOX] < 0:
                s.boxes.append([])
                s.bt[BOX] = len(s.boxes) - 1
            s.boxes[s.bt[BOX]].append(unit)
        seat = SPARTAN_OF[s.players][row]
        if ev is None:  # (add_glory without its report: ~40 Persians fall a game)
            glory = s.glory[seat] + t.glory[unit]
            s.glory[seat] = glory if glory > 0 else 0
        else:
            victory.add_glory(s, seat, t.glory[unit], ev, piece_name(unit))
        return
    s.dead.append(unit)
    s.kills[PERSIAN_OF[s.players][row]] += 1
    if unit >> 1 == DILIOS:  # "the Spartan Player immediately loses 10 Glory" (5 each)
        r = t.c.rules
        loss = r.dilios_2p if s.players == 2 else r.dilios_team
        for seat in spartan_seats(s.players):
            victory.add_glory(s, seat, -loss, ev, "Dilios fell")


def resolve(s: State, t: Tables, ev: Events) -> None:
    """After both sides' casualties: the Glory check (Dilios's loss already counted), a
    wipe-out, then the Conquer step."""
    bt = s.bt
    if victory.check_glory(s, t, ev):
        return
    if not victory.spartans_left(s, t):
        return victory.persians_win(s, "the Spartans were wiped out", ev)
    p_empty, s_empty = not s.board[bt[PSP]], not s.board[bt[SSP]]
    if p_empty == s_empty:  # both still stand, or both fell
        return end(s, t, ev)
    winner = SPARTAN_SIDE if p_empty else PERSIAN
    bt[WINNER] = winner
    bt[STAGE] = 0
    s.phase = CONQUER
    s.actor = (PERSIAN_OF if winner == PERSIAN else SPARTAN_OF)[s.players][bt[ROW]]
    _ask_conquer(s, t, ev, finish_conquer)


def _ask_conquer(s: State, t: Tables, ev: Events, otherwise: Step) -> None:
    """The conquest's next question, its list kept for the step after this one (as
    `legal` keeps it: `apply` counts this step when it returns); with only `done` to
    choose, no question: `otherwise`."""
    acts = conquer_legal(s, t)
    if len(acts) == 1:  # done alone
        return otherwise(s, t, ev)
    s.cache = (s.steps + 1, acts, None)


def _conquer_spaces(s: State) -> tuple[int, int]:
    """(from, to) for the current stage of the conquest."""
    bt = s.bt
    winner = bt[WINNER]
    mine, theirs = (bt[PSP], bt[SSP]) if winner == PERSIAN else (bt[SSP], bt[PSP])
    if bt[STAGE] == 0:
        return mine, theirs
    step = -1 if winner == PERSIAN else 1  # the space right behind
    behind = mine + step
    if behind // SPACES != mine // SPACES:
        return -1, mine
    return behind, mine


def conquer_legal(s: State, t: Tables) -> list[Action]:
    """ "His opponent has the option to immediately move into that space with his
    successful Units", one by one, then `done`."""
    src, dst = _conquer_spaces(s)
    acts: list[Action] = []
    pieces = s.board[src] if src >= 0 else ()
    if pieces and t.side[pieces[0] & PIECE] == s.bt[WINNER]:
        room = t.room(s, dst)
        move, size = t.notation.move, t.size
        met: list[int] = []  # each kind once, first seen first (`in` a short list is C's
        # loop: no small dict `distinct` makes, no comprehension's call)
        for p in pieces:
            if p not in met:
                met.append(p)
                code = p & PIECE
                if room >= size[code]:
                    acts.append(move[src, dst, code])
    acts.append(DONE)
    return acts


def conquer(s: State, t: Tables, a: Action, ev: Events) -> None:
    bt = s.bt
    if not isinstance(a, Move):
        return _stage_done(s, t, ev)
    src, dst, code = a.src, a.dst, a.piece
    s.board[src].remove(code)
    s.board[dst].append(code)
    bt[ADVANCED] = 1
    if ev is not None:
        ev.append(
            Event(
                "advance" if bt[STAGE] == 0 else "follow",
                {
                    "seat": SEATS[s.players][s.actor],
                    "unit": piece_name(code),
                    "from": name(src),
                    "to": name(dst),
                },
            )
        )
    victory.entered(s, t, code, dst, ev)
    if s.phase != CONQUER:
        return
    _ask_conquer(s, t, ev, _stage_done)


def _stage_done(s: State, t: Tables, ev: Events) -> None:
    """ "If a player's Units advance into a conquered space, then all the Units in the
    space right behind them also get a free movement forward"."""
    bt = s.bt
    if bt[STAGE] == 0 and bt[ADVANCED]:
        bt[STAGE] = 1
        return _ask_conquer(s, t, ev, finish_conquer)
    finish_conquer(s, t, ev)


def finish_conquer(s: State, t: Tables, ev: Events) -> None:
    """Spartans on the last Coastal Plain space pull their row back at once."""
    row = s.bt[ROW]
    first = s.board[row * SPACES]
    if first and t.side[first[0] & PIECE] == SPARTAN_SIDE:
        s.bt = []
        return pullback.pull_back(s, t, row, ev)
    end(s, t, ev)


def end(s: State, t: Tables, ev: Events) -> None:
    s.bt = []
    flow.resume(s, t, ev)
