"""The observations of the Board Game for learning interfaces: the layout of one seat's view
as fixed-size numbers (docs/rl.md lists every field), built from `view` only.

`observer(game, players)` is what `HotGates.observer(options)` returns; it is built once
per game and player count (the layout depends on nothing else).

`state_features` gives the same numbers from the state directly (the learning interfaces'
fast path, `engine.observation.StateObserver`): it reads only what `view.view` shows the
seat (the other seats' hands and every deck by their size alone; the battle's numbers as
`view._battle` gives them), and the tests hold it to equality with `features(view)`. A
space's numbers and the piles of units are kept by their contents (a move changes a few
of them), the discard piles' counts while they stay the same (`engine.observation.Pile`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import chain
from typing import TYPE_CHECKING

from thermopylae.engine.observation import (
    Counts,
    Field,
    Fields,
    Pile,
    histogram,
    onehot,
    scaled,
)
from thermopylae.engine.protocol import CHANCE, JSON
from thermopylae.games.hot_gates import battle
from thermopylae.games.hot_gates.board import (
    PERSIAN,
    SEATS,
    SIDE_NAMES,
    persian_seats,
    spartan_seats,
)
from thermopylae.games.hot_gates.components import TYPE_IDS
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

# `np` (NumPy) is bound by the first observer built (its `__init__`), not when this module
# loads: the rules import it, and a command that never observes need not pay for NumPy.
if TYPE_CHECKING:
    import numpy as np

    from thermopylae.engine.observation import Obs
    from thermopylae.games.hot_gates.rules import HotGates


def _battle(b: JSON | None) -> list[float]:
    """The `battle` field of the view's battle (`view._battle`)."""
    if not b:
        return [0.0] * 12
    if b.get("pull_back"):
        return [0.0, 1.0, *onehot(b["row"], "AB"), *[0.0] * 8]
    left = b["damage_left"] or {}
    conquer = b["conquer"] or {}
    return [
        1.0,
        0.0,
        *onehot(b["row"], "AB"),
        float(b["narrow_entrance"]),
        b["attack"]["persian"] / 20,
        b["attack"]["spartan"] / 20,
        sum(b["dice"]["persian"]) / 30,
        sum(b["dice"]["spartan"]) / 30,
        scaled(left.get("persian"), 10),
        scaled(left.get("spartan"), 10),
        *onehot(conquer.get("side"), ["persian"]),
    ]


def _phases() -> list[str]:
    """The `phase` field's names, in order."""
    return [p for p in PHASES if p != "window"] + [f"{w} cards" for w in WINDOWS]


def _fields(game: HotGates, n: int) -> list[Field]:
    """The fields of a table of `n` seats (`board.SEATS[n]`), in order."""
    seats = list(SEATS[n])
    phases = _phases()
    types = tuple(TYPE_IDS)
    codes = tuple(sorted({c.code for c in game.cards}))
    nt = len(types)

    def units(us: Sequence[JSON]) -> list[float]:
        return histogram([u["unit"] for u in us], types)

    def board(v: JSON) -> list[float]:
        out: list[float] = []
        for sp in v["board"]:
            us = sp["units"]
            out += [
                sp["load"] / max(1, sp["capacity"]),
                *onehot(sp["side"], ["persian", "spartan"]),
                sp["moved"] / 6,
                sp["bonus"] / 12,
                float(sp["persians_entered"]),
            ]
            out += units(us) + histogram([u["unit"] for u in us if u["wounded"]], types)
        return out

    def hands(v: JSON) -> list[float]:
        out: list[float] = []
        for h in v["hands"]:
            out += [h["count"] / 10, *histogram([c["code"] for c in h["cards"] or []], codes)]
        return out

    def discards(v: JSON) -> list[float]:
        out: list[float] = []
        for s in seats:
            out += histogram([c["code"] for c in v["discards"][s]], codes)
        return out

    def window(v: JSON) -> list[float]:
        w = v["window"]
        if not w:
            return [0.0] * (1 + len(codes))
        return [
            1.0,
            *histogram([e["card"]["code"] for e in w["played"] if not e["cancelled"]], codes),
        ]

    def battle(v: JSON) -> list[float]:
        return _battle(v["battle"])

    return [
        Field(
            "seat",
            n,
            f"one-hot: the observing seat ({', '.join(seats)})",
            lambda v: onehot(v["seat"], seats),
        ),
        Field(
            "phase",
            len(phases),
            f"one-hot: phase ({', '.join(phases)})",
            lambda v: onehot(v["phase"], phases),
        ),
        Field(
            "to_act",
            n + 1,
            "one-hot: the seat to act, then chance (all 0: over)",
            lambda v: onehot(v["to_act"], [*seats, "chance"]),
        ),
        Field("round", 1, "round / 10", lambda v: [v["round"] / 10]),
        Field(
            "goat_path",
            2,
            "Goat Path space / length, moves this round",
            lambda v: [
                v["goat_path"]["space"] / v["goat_path"]["length"],
                float(v["goat_path"]["moves_this_round"]),
            ],
        ),
        Field(
            "glory",
            n,
            "per seat: Glory / win Glory (0 for Persian seats)",
            lambda v: [v["glory"].get(s, 0) / v["win_glory"] for s in seats],
        ),
        Field(
            "kills",
            n,
            "per seat: kills / 20 (0 for Spartan seats)",
            lambda v: [v["kills"].get(s, 0) / 20 for s in seats],
        ),
        Field(
            "board",
            2 * SPACES * (6 + 2 * nt),
            "per space A1..A6, B1..B6: load/capacity, "
            "side (persian, spartan), moved/6, bonus/12, Persians entered, then counts of "
            f"units by type {types}, then counts of wounded units by type",
            board,
        ),
        Field(
            "spartan_camp",
            nt,
            "units in the Spartan camp by type",
            lambda v: units(v["spartan_camp"]),
        ),
        Field(
            "boxes",
            nt,
            "units in the boxes by type",
            lambda v: units([u for box in v["boxes"] for u in box]),
        ),
        Field(
            "persian_camp",
            nt,
            "units in the Persian camp by type",
            lambda v: units(v["persian_camp"]),
        ),
        Field("eliminated", nt, "eliminated units by type", lambda v: units(v["eliminated"])),
        Field("pulled_back", nt, "pulled-back units by type", lambda v: units(v["pulled_back"])),
        Field("breach", 1, "the Persians broke through", lambda v: [float(bool(v["breach"]))]),
        Field(
            "hands",
            n * (1 + len(codes)),
            f"per seat: hand size / 10, then counts of "
            f"visible cards by code ({len(codes)} codes, sorted; 0 for hidden hands)",
            hands,
        ),
        Field(
            "decks", n, "per seat: deck size / 26", lambda v: [v["decks"][s] / 26 for s in seats]
        ),
        Field("discards", n * len(codes), "per seat: discarded cards by code", discards),
        Field(
            "window",
            1 + len(codes),
            "card window open, cards played (not cancelled) by code",
            window,
        ),
        Field(
            "extra_marches",
            n,
            "per seat: extra marches",
            lambda v: [float(v["extra_marches"].get(s, 0)) for s in seats],
        ),
        Field(
            "battle",
            12,
            "battle: under way, pull-back, row (A, B), narrow entrance, "
            "attack persian, spartan /20, dice sums persian, spartan /30, damage left "
            "persian, spartan /10, conquering side is Persian",
            battle,
        ),
        Field(
            "result",
            n,
            "per seat: winner (all 0: not over)",
            lambda v: [float(s in (v["result"] or {}).get("winners", [])) for s in seats],
        ),
    ]


ROW_CACHE = 20_000
"""Spaces' contents (and piles of units) an observer keeps the numbers of (each cache
emptied when full)."""


class HotGatesObserver(Fields):
    """The observation layout of the Board Game for one player count."""

    def __init__(self, game: HotGates, players: int) -> None:
        global np  # NumPy, for the methods: see the module's imports
        import numpy as np

        super().__init__(game.id, _fields(game, players))
        self._t = game.t
        self._n = players
        self._phase = {name: i for i, name in enumerate(_phases())}
        self._nt = len(TYPE_IDS)
        codes = tuple(sorted({c.code for c in game.cards}))
        self._ncodes = len(codes)
        place = {code: i for i, code in enumerate(codes)}
        # a card's number -> the place of its code
        self._code = [place[c.code] for c in game.t.c.cards]
        self._cards = Counts(dict(enumerate(self._code)), len(codes))
        nt = len(TYPE_IDS)
        # a piece (type * 2 + wounded) -> its type's place
        self._units = Counts({p: p >> 1 for p in range(2 * nt)}, nt)
        c = game.t.c
        self._spartans = spartan_seats(players)
        self._persians = persian_seats(players)
        self._win_glory = c.rules.win_glory_2p if players == 2 else c.rules.win_glory_team
        self._path = c.goat_path
        sides = ["persian", "spartan"]
        self._side = [sides.index(name) if name in sides else -1 for name in SIDE_NAMES]
        # (space, its pieces) -> that space's part of `board` without bonus and entry:
        # the board changes a few spaces at a time
        # (space, its bonus waits, the Persians entered it, its pieces) -> its numbers
        self._rows: dict[tuple[int, ...], Obs] = {}
        self._width = 6 + 2 * nt
        # each space's Glory bonus while it waits (`view.bonuses`: 0 in the Hot Gates)
        bonus = c.rules.glory_bonus
        self._bonus = [bonus[sp % SPACES] if sp % SPACES < 3 else 0 for sp in range(2 * SPACES)]
        # (camp, boxes, leaders, dead, pulled back) -> those five fields; each seat's
        # discard pile
        self._piles: dict[tuple[tuple[int, ...], ...], Obs] = {}
        self._discard_piles = [
            Pile(dict(enumerate(self._code)), len(codes)) for _ in range(players)
        ]
        # each field's offset after `seat`, in the order `state_features` unpacks them
        self._offsets = tuple(
            self._at[name]
            for name in (
                "phase",
                "to_act",
                "round",
                "goat_path",
                "glory",
                "kills",
                "board",
                "spartan_camp",
                "breach",
                "hands",
                "decks",
                "discards",
                "window",
                "extra_marches",
                "battle",
                "result",
            )
        )

    def _row(self, sp: int, raw: list[int], waiting: bool, entered: bool) -> Obs:
        """A space's part of `board` from its pieces, whether its Glory bonus still
        waits and whether the Persians entered it."""
        t, nt = self._t, self._nt
        # written in a list, then one array: a NumPy item update costs several list ones
        row = [0.0] * (6 + 2 * nt)
        if raw:
            pieces = [p & PIECE for p in raw]
            row[0] = t.load(pieces) / max(1, t.capacity[sp])
            k = self._side[t.side[pieces[0]]]
            if k >= 0:
                row[1 + k] = 1.0
            row[3] = sum(1 for p in raw if p & ~PIECE) / 6
            for p in pieces:
                row[6 + (p >> 1)] += 1.0
                if p & WOUNDED:
                    row[6 + nt + (p >> 1)] += 1.0
        if waiting:
            row[4] = self._bonus[sp] / 12
        if entered:
            row[5] = 1.0
        out = np.array(row, dtype=np.float32)
        out.setflags(write=False)
        return out

    def _piles_block(self, *piles: tuple[int, ...]) -> Obs:
        """The fields `spartan_camp`, `boxes`, `persian_camp`, `eliminated` and
        `pulled_back` (read-only) from the camp, the boxes' units, the leaders' types, the
        dead and the pulled-back units."""
        nt = self._nt
        camp, boxes, leaders, dead, pool = piles
        block = np.zeros(5 * nt, dtype=np.float32)
        units = self._units
        block[0:nt] = units(camp)
        block[nt : 2 * nt] = units(boxes)
        for kind in leaders:
            block[2 * nt + kind] += 1.0
        block[3 * nt : 4 * nt] = units(dead)
        block[4 * nt :] = units(pool)
        block.setflags(write=False)
        return block

    def state_features(self, s: State, seat: int, to_act: int | None) -> Obs:
        """`features(view(s, seat))` as float32, read from the state: what `view.view`
        shows (a fresh array, written where it is not zero)."""
        n, nt = self._n, self._nt
        (
            o_phase,
            o_act,
            o_round,
            o_path,
            o_glory,
            o_kills,
            o_board,
            o_camp,
            o_breach,
            o_hands,
            o_decks,
            o_discards,
            o_window,
            o_extra,
            o_battle,
            o_result,
        ) = self._offsets
        out = np.zeros(self._size, dtype=np.float32)
        if 0 <= seat < n:
            out[seat] = 1.0  # "seat" comes first
        i = self._phase.get(phase_name(s))
        if i is not None:
            out[o_phase + i] = 1.0
        if to_act == CHANCE:
            out[o_act + n] = 1.0
        elif to_act is not None:
            out[o_act + to_act] = 1.0
        out[o_round] = s.round / 10
        out[o_path] = s.eph / self._path
        out[o_path + 1] = float(s.eph_move)
        for p in self._spartans:
            out[o_glory + p] = s.glory[p] / self._win_glory
        for p in self._persians:
            out[o_kills + p] = s.kills[p] / 20
        # each space's numbers, by its contents and whether its bonus waits and the
        # Persians entered it (the contents repeat: a move changes two spaces)
        rows, width = self._rows, self._width
        bonus, taken, entered = self._bonus, s.bonus_taken, s.gates_entered
        i = o_board
        for sp, raw in enumerate(s.board):
            bit = 1 << sp
            waiting = bool(bonus[sp]) and not taken & bit
            if raw or waiting or entered & bit:
                key = (sp, waiting, entered & bit, *raw)
                row = rows.get(key)
                if row is None:
                    row = self._row(sp, raw, waiting, bool(entered & bit))
                    if len(rows) >= ROW_CACHE:
                        rows.clear()
                    rows[key] = row
                out[i : i + width] = row
            i += width
        # the camps, boxes and piles of units (five fields in a row), by their contents
        piles = (
            tuple(s.camp),
            tuple(chain.from_iterable(s.boxes)),
            tuple(s.leaders),
            tuple(s.dead),
            tuple(s.pool),
        )
        block = self._piles.get(piles)
        if block is None:
            block = self._piles_block(*piles)
            if len(self._piles) >= ROW_CACHE:
                self._piles.clear()
            self._piles[piles] = block
        out[o_camp : o_camp + 5 * nt] = block
        if s.breach:
            out[o_breach] = 1.0
        i = o_hands
        ncodes, cards = self._ncodes, self._cards
        for p, h in enumerate(s.hands):
            out[i] = len(h) / 10
            if h and p == seat:
                out[i + 1 : i + 1 + ncodes] = cards(h)
            i += 1 + ncodes
        for p, d in enumerate(s.decks):
            out[o_decks + p] = len(d) / 26
        i = o_discards
        for d, pile in zip(s.discards, self._discard_piles, strict=True):
            if d:
                out[i : i + ncodes] = pile(d)
            i += ncodes
        if s.window >= 0:
            out[o_window] = 1.0
            code = self._code
            for e in s.played:
                if not e[2]:
                    out[o_window + 1 + code[e[1]]] += 1.0
        extra = s.extra
        for p in range(n):
            if extra[p]:
                out[o_extra + p] = float(extra[p])
        bt = s.bt
        if bt:
            # the numbers of `_battle(view._battle(s, t))`, read from the state
            out[o_battle + 2 + bt[battle.ROW]] = 1.0
            if len(bt) <= battle.WINNER:  # a pull-back: the row only
                out[o_battle + 1] = 1.0
            else:
                t = self._t
                out[o_battle] = 1.0
                if bt[battle.PSP] % SPACES == 2:
                    out[o_battle + 4] = 1.0
                out[o_battle + 5] = battle.attack_total(s, t, PERSIAN) / 20
                out[o_battle + 6] = battle.attack_total(s, t, 1) / 20
                out[o_battle + 7] = sum(bt[battle.DICE]) / 30
                out[o_battle + 8] = sum(bt[battle.DICE + 1]) / 30
                if s.phase == CASUALTY:
                    left = bt[battle.LEFT]
                    out[o_battle + 9] = left[0] / 10
                    out[o_battle + 10] = left[1] / 10
                elif s.phase == CONQUER and bt[battle.WINNER] == PERSIAN:
                    out[o_battle + 11] = 1.0
        if s.reason:
            for w in s.winners:
                out[o_result + w] = 1.0
        return out


@lru_cache(maxsize=16)
def observer(game: HotGates, players: int) -> HotGatesObserver:
    """The observer of `game` at `players` seats, built once (a few games are ever asked)."""
    return HotGatesObserver(game, players)
