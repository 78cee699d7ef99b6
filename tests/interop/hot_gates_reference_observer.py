"""A plain reference for the Board Game's observations, for tests only: every field of
docs/rl.md's layout computed from the state in the most direct way (no tables, no
caches, no bytes), so that the fast observer (`hot_gates.observe.state_features`) has
something simple to be held equal to."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from thermopylae.engine.protocol import CHANCE
from thermopylae.games.hot_gates import battle
from thermopylae.games.hot_gates.board import SIDE_NAMES, persian_seats, spartan_seats
from thermopylae.games.hot_gates.components import TYPE_IDS
from thermopylae.games.hot_gates.rules import HotGates
from thermopylae.games.hot_gates.state import (
    CASUALTY,
    CONQUER,
    PHASES,
    PIECE,
    SPACES,
    WINDOWS,
    WOUNDED,
    State,
    phase_name,
)
from thermopylae.games.hot_gates.view import bonuses


def _onehot(index: int | None, size: int) -> list[float]:
    return [1.0 if i == index else 0.0 for i in range(size)]


def _count(places: Iterable[int], size: int) -> list[float]:
    out = [0.0] * size
    for i in places:
        out[i] += 1.0
    return out


@cache
def _codes(game: HotGates) -> tuple[int, list[int]]:
    """The number of card codes, and each card number's place among the sorted codes."""
    codes = sorted({k.code for k in game.cards})
    return len(codes), [codes.index(k.code) for k in game.t.c.cards]


def reference_fields(
    game: HotGates, s: State, seat: int, to_act: int | None
) -> dict[str, list[float]]:
    """Each field's numbers for `seat` (by the field's name), `to_act` being
    `game.to_act(s)`: what `seat` may see only (its own hand, every other hand and deck by
    its size)."""
    n = s.players
    c = game.t.c
    t = game.t
    nt = len(TYPE_IDS)
    ncodes, code = _codes(game)  # a card's number -> its code's place
    phases = [p for p in PHASES if p != "window"] + [f"{w} cards" for w in WINDOWS]
    win_glory = c.rules.win_glory_2p if n == 2 else c.rules.win_glory_team
    bonus = bonuses(s, c)

    board: list[float] = []
    for sp, raw in enumerate(s.board):
        pieces = [p & PIECE for p in raw]
        side = SIDE_NAMES[t.side[pieces[0]]] if pieces else None
        board += [
            t.load(pieces) / max(1, t.capacity[sp]),
            float(side == "persian"),
            float(side == "spartan"),
            sum(1 for p in raw if p & ~PIECE) / 6,
            bonus[sp] / 12,
            float(bool(s.gates_entered & (1 << sp))),
        ]
        board += _count((p >> 1 for p in pieces), nt)
        board += _count((p >> 1 for p in pieces if p & WOUNDED), nt)

    hands: list[float] = []
    for p, h in enumerate(s.hands):
        hands += [len(h) / 10, *_count((code[k] for k in h if p == seat), ncodes)]

    fight = [0.0] * 12
    bt = s.bt
    if bt:
        fight[2 + bt[battle.ROW]] = 1.0
        if len(bt) <= battle.WINNER:  # a pull-back: the row only
            fight[1] = 1.0
        else:
            fight[0] = 1.0
            fight[4] = float(bt[battle.PSP] % SPACES == 2)  # the narrow entrance
            fight[5] = battle.attack_total(s, t, 0) / 20
            fight[6] = battle.attack_total(s, t, 1) / 20
            fight[7] = sum(bt[battle.DICE]) / 30
            fight[8] = sum(bt[battle.DICE + 1]) / 30
            if s.phase == CASUALTY:
                fight[9] = bt[battle.LEFT][0] / 10
                fight[10] = bt[battle.LEFT][1] / 10
            if s.phase == CONQUER:
                fight[11] = float(bt[battle.WINNER] == 0)

    return {
        "seat": _onehot(seat, n),
        "phase": _onehot(
            phases.index(phase_name(s)) if phase_name(s) in phases else None, len(phases)
        ),
        "to_act": _onehot(n if to_act == CHANCE else to_act, n + 1),
        "round": [s.round / 10],
        "goat_path": [s.eph / c.goat_path, float(s.eph_move)],
        "glory": [s.glory[p] / win_glory if p in spartan_seats(n) else 0.0 for p in range(n)],
        "kills": [s.kills[p] / 20 if p in persian_seats(n) else 0.0 for p in range(n)],
        "board": board,
        "spartan_camp": _count((p >> 1 for p in s.camp), nt),
        "boxes": _count((p >> 1 for box in s.boxes for p in box), nt),
        "persian_camp": _count(s.leaders, nt),
        "eliminated": _count((p >> 1 for p in s.dead), nt),
        "pulled_back": _count((p >> 1 for p in s.pool), nt),
        "breach": [float(bool(s.breach))],
        "hands": hands,
        "decks": [len(d) / 26 for d in s.decks],
        "discards": [x for d in s.discards for x in _count((code[k] for k in d), ncodes)],
        "window": (
            [1.0, *_count((code[e[1]] for e in s.played if not e[2]), ncodes)]
            if s.window >= 0
            else [0.0] * (1 + ncodes)
        ),
        "extra_marches": [float(x) for x in s.extra],
        "battle": fight,
        "result": [float(p in s.winners) if s.reason else 0.0 for p in range(n)],
    }
